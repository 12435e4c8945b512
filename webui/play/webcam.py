"""A webcam on the host: one frame, as a JPEG, for the same photo path a phone uses."""
from __future__ import annotations

import threading

from webui.guard.errors import PlayerError

WARM_UP_FRAMES = 5       # the first frames of many webcams are dark while exposure settles
_lock = threading.Lock()  # one capture at a time: a webcam cannot be opened twice


def grab_jpeg(device: int) -> bytes:
    import cv2

    with _lock:
        capture = cv2.VideoCapture(device)
        try:
            if not capture.isOpened():
                raise PlayerError(503, "webcam_unavailable", f"camera {device} cannot be opened")
            frame = None
            for _ in range(WARM_UP_FRAMES):
                ok, got = capture.read()
                if ok:
                    frame = got
            if frame is None:
                raise PlayerError(503, "webcam_unavailable", f"camera {device} gave no picture")
        finally:
            capture.release()
    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise PlayerError(503, "webcam_unavailable", "the picture could not be encoded")
    return encoded.tobytes()
