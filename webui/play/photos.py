"""Photos sent by a phone: checked before anything decodes them, then read by the camera
pipeline (`vision`). The check refuses non-photos, cut files, decompression bombs and pictures
too narrow to show a hand; only `PHOTO_DECODES` photos are read at once (each may hold tens of
megabytes while decoded), the others wait a moment for a turn and are then told to try again."""
from __future__ import annotations

import ctypes
import logging
from collections.abc import Callable

from flask import Flask, current_app

from webui.guard.errors import PlayerError
from webui.guard.overload import Slots, busy

log = logging.getLogger("tenbou.web")
_STATUS = {"too_large": 413}
_KEYS = {"empty": "no_image", "too_large": "image_too_big", "bad_shape": "bad_shape"}
# How long a photo waits for a turn before the phone is told to try again: a photo takes about
# a second to read, so a short queue clears within this.
DECODE_WAIT = 5.0
RETRY_AFTER = 3
# glibc gives each thread that allocates at once an arena of its own (up to 8 a core) and keeps
# what is freed in it: photos read by changing waitress threads left 400-470 MB held for good.
# Two arenas and a trim after each photo keep it near 60 MB (bench/photo_memory.py, docs/web.md).
ARENAS = 2
_M_ARENA_MAX = -8               # mallopt's parameter number in glibc's malloc.h


def _glibc():
    """The C library when it is glibc (malloc_trim is its own), else None."""
    try:
        libc = ctypes.CDLL(None)        # this process's own symbols, the C library's among them
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


_LIBC = _glibc()


def bound_allocator(arenas: int = ARENAS) -> None:
    """Cap glibc's malloc arenas for this process; call before the server's threads start."""
    if _LIBC is not None:
        _LIBC.mallopt(_M_ARENA_MAX, arenas)


def give_memory_back() -> None:
    """Hand the memory a decoded photo freed back to the system (glibc keeps it otherwise)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def init_app(app: Flask) -> None:
    app.extensions["tenbou.decodes"] = Slots(int(app.config["PHOTO_DECODES"]))


def decode_slots() -> Slots:
    return current_app.extensions["tenbou.decodes"]


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


def scan_photo(photo: bytes | Callable[[], bytes], rules: str) -> dict:
    """`{"tiles": [...], "hand": request-or-null, ...}` as `tenbou scan --json` prints it, for
    a hand of these rules (riichi and Fundamentals play no flowers, so none is read there).
    Too few tiles for a hand still answer with the tiles named and `hand` null, `doubts` saying
    why: the dora indicators' photo is such a one, and a hand the finder missed a tile of is
    completed by a tap, not entered again.

    `photo` may be a reader (an upload's `read`): it is read once a decode slot is free, so
    uploads waiting their turn stay in the request's spooled file (on disk past 500 kB), not
    in memory."""
    slots = decode_slots()
    if not slots.take(wait=float(current_app.config.get("PHOTO_DECODE_WAIT", DECODE_WAIT))):
        raise busy(RETRY_AFTER, "photo_busy")
    try:
        data = photo() if callable(photo) else photo
        check_photo(data)
        scanner = _scanner()
        found = scanner(data, rules)
    except ValueError as err:   # vision's PhotoError and HandError are ValueErrors with a message
        named = getattr(err, "named", None)
        if named is not None and getattr(err, "code", "") == "too_few_tiles":
            return named.to_json()   # too many tiles stay a refusal: no hand row holds them
        raise PlayerError(422, "scan_failed", getattr(err, "message", str(err)),
                          code=getattr(err, "code", "scan_failed")) from None
    except (OSError, RuntimeError, ImportError) as err:   # no model file, or onnxruntime cannot load it
        log.exception("photo reading is not working")
        raise PlayerError(503, "scan_unavailable", str(err)) from None
    finally:
        slots.give_back()
        give_memory_back()
    if not isinstance(found, dict):
        found = found.to_json()
    return found
