"""Option values several commands take, checked before anything uses them: a refused value is
one line and exit 2 (`webui.cli.OneLineParser`), never a crash further down."""
from __future__ import annotations

import argparse

# OpenCV takes a camera index as a C int; -1 (its "any camera") crashed some builds with a
# segmentation fault, and a number past the int overflowed into a traceback. No computer has
# a hundred cameras.
MOST_CAMERAS = 100


def camera_number(text: str) -> int:
    """`--device N` / `--webcam N`: a camera index 0-99."""
    return _within(text, 0, MOST_CAMERAS - 1, "a camera number")


def port_number(text: str) -> int:
    """`--port N`: a TCP port 0-65535 (0: any free port, which the start message names)."""
    return _within(text, 0, 65535, "a port number")


def _within(text: str, least: int, most: int, what: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        value = None
    if value is None or not least <= value <= most:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}: {what} is {least} to {most}")
    return value
