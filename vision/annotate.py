"""Drawing what the camera saw on the photo: a box and a name per tile.

Green: named with confidence; orange: doubtful; red: renamed by the repair step so the hand
is valid; blue: face down. Shared by `tenbou scan --annotate` and `tenbou camera`.
"""
from __future__ import annotations

import cv2
import numpy as np

SURE, DOUBTFUL, CHANGED, BACK = (60, 180, 60), (0, 150, 255), (40, 40, 230), (200, 120, 40)


def draw_scan(image: np.ndarray, scan) -> np.ndarray:
    """A copy of `image` (the photo at its working size) with the scan drawn on it."""
    out = image.copy()
    thickness = max(2, round(max(out.shape[:2]) / 500))
    font = max(0.35, max(out.shape[:2]) / 2200)
    changed = scan.repaired.changed if scan.repaired else {}
    doubtful = scan.doubtful()
    for i, detection in enumerate(scan.detections):
        x1, y1, x2, y2 = detection.outline or detection.box
        label = scan.labels[i]
        colour = BACK if label == "back" else CHANGED if i in changed else DOUBTFUL if i in doubtful else SURE
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thickness)
        text = "dn" if label == "back" else label
        (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, thickness)
        top = max(h + 2, y1)
        cv2.rectangle(out, (x1, top - h - 2), (x1 + w + 2, top), colour, cv2.FILLED)
        cv2.putText(out, text, (x1 + 1, top - 1), cv2.FONT_HERSHEY_SIMPLEX, font, (255, 255, 255), thickness, cv2.LINE_AA)
    return out


def draw_found(image: np.ndarray, found) -> np.ndarray:
    """A copy of `image` with unnamed tile boxes (when there is no hand to name): blue face
    down, orange sideways, green upright."""
    out = image.copy()
    thickness = max(2, round(max(out.shape[:2]) / 500))
    colours = {"upright": SURE, "sideways": DOUBTFUL, "face_down": BACK}
    for tile in found:
        x1, y1, x2, y2 = tile.outline
        cv2.rectangle(out, (x1, y1), (x2, y2), colours.get(tile.pose, SURE), thickness)
    return out
