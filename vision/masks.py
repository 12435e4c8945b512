"""Which pixels are tile face: light, nearly colourless, and unlike the table.

Three cases, told apart by the photo's edge: tiles filling the picture (a set laid out in a
grid: the edge is tile face, busy with seams and strokes), tiles on a coloured table (faces
are the light pixels unlike the table's colour), and tiles on a table as light as they are
(colour cannot part them; the tiles are where the picture has detail).
"""
from __future__ import annotations

import cv2
import numpy as np

from .seams import valleys

def whiteness(lab: np.ndarray) -> np.ndarray:
    light = lab[..., 0].astype(np.int16)
    chroma = np.abs(lab[..., 1].astype(np.int16) - 128) + np.abs(lab[..., 2].astype(np.int16) - 128)
    return np.clip(light - 2 * chroma, 0, 255).astype(np.uint8)


def table_colour(lab: np.ndarray) -> np.ndarray:
    """The median colour of the photo's edge: the table's, unless tiles fill the picture."""
    band = max(2, min(lab.shape[:2]) // 25)
    edge = np.concatenate([lab[:band].reshape(-1, 3), lab[-band:].reshape(-1, 3),
                           lab[:, :band].reshape(-1, 3), lab[:, -band:].reshape(-1, 3)])
    return np.median(edge, axis=0)


def smooth_edge_share(gray: np.ndarray, contrast: int) -> float:
    """The share of the photo's edge, in pieces a quarter of its short side long, crossed by
    almost no line `contrast` grey levels darker than its sides: bare table, not tiles."""
    lines = valleys(gray, 0, threshold=contrast) | valleys(gray, 1, threshold=contrast)
    height, width = gray.shape
    band, length = max(2, min(height, width) // 25), max(8, min(height, width) // 4)
    pieces = []
    for strip in (lines[:band], lines[-band:], lines[:, :band].T, lines[:, -band:].T):
        pieces += [strip[:, x:x + length].mean() for x in range(0, strip.shape[1] - length + 1, length)]
    return float(np.mean(np.array(pieces) < 0.01)) if pieces else 0.0


def tiles_fill_picture(gray: np.ndarray) -> bool:
    """Tiles reach every edge (a set laid out in a grid) rather than lying on a light table.
    Seams and strokes cross the edge everywhere; a table's edge is plain, or crossed only by
    its grain, which is fainter than any stroke (measured on the labelled photos: at most 67%
    of a grid photo's edge is free of strong lines; a light rendered table, 70% and more)."""
    return smooth_edge_share(gray, 6) < 0.45 and smooth_edge_share(gray, 20) < 0.7


def far_from(lab: np.ndarray, colour: np.ndarray, distance: float) -> np.ndarray:
    """Pixels further than `distance` (Lab units) from `colour`; OpenCV's per-channel
    arithmetic is many times faster here than numpy's norm over the colour axis."""
    diff = cv2.subtract(lab.astype(np.float32), tuple(float(v) for v in colour) + (0.0,))
    return cv2.transform(cv2.multiply(diff, diff), np.ones((1, 3), np.float32)) > distance * distance


def face_mask(image: np.ndarray, gray: np.ndarray | None = None, lab: np.ndarray | None = None) -> np.ndarray:
    """Pixels that look like a tile face: bright and nearly colourless relative to the photo,
    and (where a table shows) clearly not the table's colour. `gray` and `lab` may be given
    when the caller has them already."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB) if lab is None else lab
    white = whiteness(lab)
    level, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Ivory faces under warm light score well below paper white; never demand more than that.
    level = max(min(level, 170.0), 90)
    mask = white > level
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if gray is None else gray
    table = table_colour(lab)
    # An edge as light as a face is either tiles filling the picture or a light table.
    if whiteness(table.reshape(1, 1, 3).astype(np.uint8))[0, 0] > level:
        if tiles_fill_picture(gray):
            return mask.astype(np.uint8)
        return busy_mask(gray)              # a light table: tiles are where the detail is
    return (mask & far_from(lab, table, 22)).astype(np.uint8)


def busy_mask(gray: np.ndarray) -> np.ndarray:
    """On a table as light as the tiles, colour cannot part them: the tiles are where the
    picture has detail (outlines, strokes), the table is smooth. Edges are joined up into
    solid patches a tile's size at least."""
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 30, 90)
    size = max(3, min(gray.shape) // 60)
    joined = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * size + 1, 2 * size + 1)))
    joined = fill_holes((joined > 0).astype(np.uint8))
    return cv2.morphologyEx(joined, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))


def fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


