"""The security headers of every response.

The pages run no inline script and no inline style: their data travels in JSON blocks
(`<script type="application/json">`, which the browser does not run) and data- attributes read
by the static scripts. So the Content-Security-Policy allows scripts, styles, pictures and
fetches from this server only; were a player's name ever written into a page as markup, the
browser would still refuse to run it. No page may be framed (clickjacking a confirm button),
and no link carries the join link's code to another site in its Referer.
"""
from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",        # the QR code and tiles are inline SVG; data: for the browser's own icons
    "connect-src 'self'",          # previews, photos and the live stream
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
))

# A page that shows a join code (the share page, its QR code, a manager's club page, a new
# session's JSON) is kept by no cache, the browser's back-forward one or a proxy's.
NOT_KEPT = {"Cache-Control": "no-store"}

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def init_app(app: Flask) -> None:
    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response
