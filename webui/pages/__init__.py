"""Pages: one blueprint per area of the app, each answering HTML and JSON.

A page reads the request, calls the game glue (`webui.play`) and renders; no page imports
another page: what two pages share lives in `webui.play`.
"""
