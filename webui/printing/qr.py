"""The join link as a QR code (segno: a small pure-Python encoder)."""
from __future__ import annotations

import io

from markupsafe import Markup


def qr_svg(text: str) -> Markup:
    import segno

    out = io.BytesIO()
    # a viewBox and no fixed size (omitsize): the page sizes it, and it scales as a whole; with
    # a fixed width the code stayed drawn at its own size in the corner of a larger box
    segno.make(text, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False, omitsize=True,
                                     svgns=True, dark="#111", light="#fff", svgclass="qr")
    return Markup(out.getvalue().decode("utf-8"))
