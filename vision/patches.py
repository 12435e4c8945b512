"""Light patches of a photo, each cut out and turned level for the finder (`find.py`).

A patch is one connected piece of the face mask: a tile, a row of touching tiles, or a grid of
them. Players line a row up along the edge nearest them, so a patch is levelled by its bottom
edge; a patch too short to give its own slope takes the first row's. Boxes found in a levelled
patch are mapped back to the photo's pixels with the patch's affine map.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .medians import median
from .row_edges import stacked_cut

Box = tuple[int, int, int, int]
MIN_TILT = 1.5       # degrees: a patch more askew than this is turned level before cutting
SHORT_PATCH = 2.0    # a patch less wide than this many times its height is levelled as the first row
PAD = 3              # pixels of margin kept around a patch when it is cut out
LEVEL_MIN_WIDTH = 30  # pixels (three of the narrowest tile): a shorter bottom edge gives no slope


@dataclass
class Patch:
    """One light patch, turned level: its images, and the map back to the photo."""
    gray: np.ndarray
    faces: np.ndarray
    neutral: np.ndarray   # colourless pixels: seams are grey shadow, strokes are coloured
    back: np.ndarray      # 2x3 affine: patch pixels -> photo pixels


def _tilt(mask: np.ndarray) -> float:
    """How far a patch's bottom edge runs off level, in degrees. Players line a row up
    along the edge nearest them, so the bottom edge is straight even where a sideways tile
    leaves the top edge ragged."""
    present = np.flatnonzero(mask.any(axis=0))
    if present.size < LEVEL_MIN_WIDTH:
        return 0.0
    bottoms = mask.shape[0] - 1 - np.argmax(mask[::-1, present], axis=0)
    xs, ys = present.astype(float), bottoms.astype(float)
    # First guess: the median slope over a quarter of the width, which a step in the bottom
    # edge (melds pushed against the hand, lower than its row) does not sway as a line fitted
    # through both levels would.
    step = max(1, xs.size // 4)
    slope = median((ys[step:] - ys[:-step]) / (xs[step:] - xs[:-step]))
    offset = median(ys - slope * xs)
    for _ in range(2):  # refit without the points that stray (corners, shadows, a lower row)
        residual = np.abs(ys - (slope * xs + offset))
        keep = residual <= max(1.5, 2 * median(residual))
        if keep.sum() < 10:
            break
        xs, ys = xs[keep], ys[keep]
        slope, offset = _line(xs, ys)
    return float(np.degrees(np.arctan(slope)))


def _line(xs: np.ndarray, ys: np.ndarray) -> tuple[float, float]:
    """Least-squares slope and offset (np.polyfit's answer, without its overhead)."""
    dx = xs - xs.mean()
    slope = float(dx @ (ys - ys.mean()) / (dx @ dx))
    return slope, float(ys.mean() - slope * xs.mean())


def level_patch(gray: np.ndarray, component: np.ndarray, neutral: np.ndarray, box: Box,
                tilt: float | None = None) -> Patch:
    """Cut out one patch (padded) and turn it so its long side runs level; by `tilt`
    degrees when given (see `faces_in`), else by its own bottom edge."""
    x1, y1, x2, y2 = box
    x1, y1 = max(0, x1 - PAD), max(0, y1 - PAD)
    x2, y2 = min(gray.shape[1], x2 + PAD), min(gray.shape[0], y2 + PAD)
    sub_gray, sub_mask, sub_neutral = gray[y1:y2, x1:x2], component[y1:y2, x1:x2], neutral[y1:y2, x1:x2]
    shift = np.array([[1, 0, x1], [0, 1, y1]], np.float64)
    angle = _tilt(sub_mask) if tilt is None else tilt
    if abs(angle) < MIN_TILT or abs(angle) > 30:
        return Patch(sub_gray, sub_mask, sub_neutral, shift)
    height, width = sub_mask.shape
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    new_w, new_h = int(width * cos + height * sin) + 2, int(width * sin + height * cos) + 2
    turn[0, 2] += new_w / 2 - width / 2
    turn[1, 2] += new_h / 2 - height / 2
    level_gray = cv2.warpAffine(sub_gray, turn, (new_w, new_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    level_mask = cv2.warpAffine(sub_mask, turn, (new_w, new_h), flags=cv2.INTER_NEAREST)
    level_neutral = cv2.warpAffine(sub_neutral, turn, (new_w, new_h), flags=cv2.INTER_NEAREST)
    undo = cv2.invertAffineTransform(turn)
    back = shift @ np.vstack([undo, [0, 0, 1]])
    return Patch(level_gray, level_mask, level_neutral, back)


def rows_apart(patch: Patch) -> list[Patch]:
    """A patch of two rows touching one under the other, as two patches (see `stacked_cut`);
    cut into rows of one tile size they would be cut at the taller row's height."""
    cut = stacked_cut(patch.faces)
    if cut is None:
        return [patch]
    upper, lower = patch.faces.copy(), patch.faces.copy()
    upper[cut:] = 0
    lower[:cut] = 0
    return [replace(patch, faces=upper), replace(patch, faces=lower)]


def to_photo(boxes: list[Box], back: np.ndarray) -> list[Box]:
    """The boxes in the photo's pixels around boxes in a levelled patch's: all their corners,
    one per line, times the patch's map back in one product (a tenth of the calls of a
    product per box, the same sums)."""
    if not boxes:
        return []
    x1, y1, x2, y2 = np.array(boxes, np.float64).T
    ones = np.ones_like(x1)
    corners = np.stack([x1, y1, ones, x2, y1, ones, x2, y2, ones, x1, y2, ones], axis=1).reshape(-1, 3)
    mapped = (corners @ back.T).reshape(-1, 4, 2)
    low, high = mapped.min(axis=1).astype(int), np.ceil(mapped.max(axis=1)).astype(int)
    return [(int(a), int(b), int(c), int(d)) for (a, b), (c, d) in zip(low.tolist(), high.tolist())]


def tilted(patches: list[tuple[np.ndarray, Box]]) -> list[tuple[np.ndarray, Box, float | None]]:
    """Each patch with the tilt to level it by: a row's own, the first row's for a patch too
    short to tell (one or two tiles: a tile's own bottom edge is too short, and
    rounded at its corners, to give its slope; the tiles of one photo lie near parallel)."""
    row_tilt: float | None = None
    out = []
    for component, box in patches:
        x1, y1, x2, y2 = box
        if x2 - x1 < SHORT_PATCH * (y2 - y1):
            out.append((component, box, row_tilt))
            continue
        tilt = _tilt(component[y1:y2, x1:x2])
        row_tilt = tilt if row_tilt is None else row_tilt
        out.append((component, box, tilt))
    return out


def patches_of(faces: np.ndarray, min_area: int) -> list[tuple[np.ndarray, Box]]:
    """Each patch big enough to hold a tile, largest first: its mask (zero outside its box
    and the padding `level_patch` cuts around it, so no full-size copy is made) and box."""
    # OpenCV's statistics (boxes, centroids) of every speck cost several times the labelling:
    # areas come from a count of the labels, boxes only for the patches kept.
    count, labels = cv2.connectedComponents(faces, connectivity=8)
    areas = np.bincount(labels.ravel(), minlength=count).tolist()
    patches = []
    for i in sorted(range(1, count), key=lambda i: -areas[i]):
        if areas[i] < min_area:
            break   # the rest are smaller still
        mine = labels == i
        cols, rows = np.flatnonzero(mine.any(axis=0)), np.flatnonzero(mine.any(axis=1))
        x1, y1, x2, y2 = int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1
        px1, py1, px2, py2 = max(0, x1 - PAD), max(0, y1 - PAD), x2 + PAD, y2 + PAD
        component = np.zeros(faces.shape, np.uint8)
        component[py1:py2, px1:px2] = mine[py1:py2, px1:px2]
        patches.append((component, (x1, y1, x2, y2)))
    return patches
