"""Photos sent by a phone: checked before anything decodes them, then read by the camera
pipeline (`vision`). The check refuses non-photos, cut files and decompression bombs."""
from __future__ import annotations

import logging

from flask import current_app

from .errors import PlayerError

log = logging.getLogger("tenbou.web")
_STATUS = {"too_large": 413}
_KEYS = {"empty": "no_image", "too_large": "image_too_big"}


def check_photo(data: bytes) -> None:
    from vision.image_io import PhotoError, check_size, read_header

    try:
        check_size(read_header(data))
    except PhotoError as err:
        raise PlayerError(_STATUS.get(err.code, 400), _KEYS.get(err.code, "not_an_image"),
                          err.message, code=err.code) from None


def _scanner():
    """The photo reader, `(photo bytes, rules) -> scan dict`: the configured one (tests), else
    the camera pipeline with one tile model loaded per app — loading it costs more than
    reading a photo."""
    configured = current_app.config.get("SCAN")
    if configured is not None:
        return configured
    reader = current_app.extensions.get("tenbou.scan")
    if reader is None:
        from vision.scan import pipeline_classifier, scan_bytes

        classifier = pipeline_classifier()
        reader = current_app.extensions.setdefault(
            "tenbou.scan", lambda data, rules: scan_bytes(data, classifier, {"rules": rules}))
    return reader


def scan_photo(data: bytes, rules: str) -> dict:
    """`{"tiles": [...], "hand": request-or-null, ...}` as `tenbou scan --json` prints it, for
    a hand of these rules (riichi and Fundamentals play no flowers, so none is read there).
    Too few tiles for a hand still answer with the tiles named and `hand` null, `doubts` saying
    why: the dora indicators' photo is such a one, and a hand the finder missed a tile of is
    completed by a tap, not entered again."""
    check_photo(data)
    try:
        scanner = _scanner()
        found = scanner(data, rules)
    except ValueError as err:   # vision's PhotoError and HandError are ValueErrors with a message
        named = getattr(err, "named", None)
        if named is not None:
            return named.to_json()
        raise PlayerError(422, "scan_failed", getattr(err, "message", str(err)),
                          code=getattr(err, "code", "scan_failed")) from None
    except (OSError, RuntimeError, ImportError) as err:   # no model file, or onnxruntime cannot load it
        log.exception("photo reading is not working")
        raise PlayerError(503, "scan_unavailable", str(err)) from None
    if not isinstance(found, dict):
        found = found.to_json()
    return found
