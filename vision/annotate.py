"""Drawing what the camera saw on the photo: a box and a name per tile.

Green: named with confidence; orange: doubtful; red: renamed by the repair step so the hand
is valid; blue: face down. Shared by `tenbou scan --annotate` and `tenbou camera`.
"""
from __future__ import annotations

import cv2
import numpy as np

SURE, DOUBTFUL, CHANGED, BACK = (60, 180, 60), (0, 150, 255), (40, 40, 230), (200, 120, 40)


def draw_scan(image: np.ndarray, scan) -> np.ndarray:
    """A copy of `image` (the photo at its working size) with the scan drawn on it: every box
    first, then every name, so no box is drawn over a name."""
    out = image.copy()
    thickness = max(2, round(max(out.shape[:2]) / 500))
    font = max(0.35, max(out.shape[:2]) / 2200)
    changed = scan.repaired.changed if scan.repaired else {}
    doubtful = scan.doubtful()
    names = []
    for i, detection in enumerate(scan.detections):
        box = detection.outline or detection.box
        label = scan.labels[i]
        colour = BACK if label == "back" else CHANGED if i in changed else DOUBTFUL if i in doubtful else SURE
        cv2.rectangle(out, box[:2], box[2:], colour, thickness)
        names.append(("dn" if label == "back" else label, box, colour))
    for text, box, colour in names:
        _name_tag(out, text, box, colour, font, thickness)
    return out


def _name_tag(out: np.ndarray, text: str, box, colour, font: float, thickness: int) -> None:
    """A tile's name on a filled tag above its box, or, where the box touches the photo's top
    edge, inside the box at its top; kept within the photo on every side."""
    x1, y1, x2, y2 = box
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, thickness)
    height, width = out.shape[:2]
    tag_h = h + 2 * thickness
    top = y1 - tag_h if y1 - tag_h >= 0 else max(0, y1)      # above the tile, else inside it
    top = min(top, max(0, height - tag_h))
    left = min(max(0, x1), max(0, width - w - 2))
    cv2.rectangle(out, (left, top), (left + w + 2, top + tag_h), colour, cv2.FILLED)
    cv2.putText(out, text, (left + 1, top + thickness + h), cv2.FONT_HERSHEY_SIMPLEX, font, (255, 255, 255),
                thickness, cv2.LINE_AA)


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
