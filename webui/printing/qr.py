"""The join link as a QR code (segno: a small pure-Python encoder)."""
from __future__ import annotations

import io

from markupsafe import Markup


def qr_svg(text: str) -> Markup:
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False,
                                     svgns=True, dark="#111", light="#fff", svgclass="qr")
    return Markup(out.getvalue().decode("utf-8"))
