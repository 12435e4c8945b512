"""What a row's edges say, beyond its seams.

Its bottom: seen at an angle, a tile shows its front below its face, as light and colourless
as the face (so in the face mask) but turned from the light, so a band clearly darker than
the face runs along the row's bottom. Left in the tiles' boxes it shifts every crop off the
face (the classifier learnt faces cut at their edges) and makes upright tiles look wider for
their height, nearer a turned one. A photo from straight above shows no body.

Its top: a sideways tile is shorter than the upright tiles beside it (their bottoms line
up), so where the top edge steps one tile ends and the next begins, seen or not: a plain
face butting on another shows hardly a seam between them.
"""
from __future__ import annotations

import numpy as np

from .medians import median

Box = tuple[int, int, int, int]
# Rendered bodies are shaded to 0.8 of the face: a line of the face mask under BODY_SHADE of
# the faces' brightness is body. The brightness of a line is the FACE_SHARE quantile of its
# face pixels (strokes are darker, and cover less). A body band is MIN_BODY-MAX_BODY of the
# row's height (measured on 160 rendered hands: found boxes reached 13% of a face below it,
# median, before the band was cut off; 3% after).
BODY_SHADE, FACE_SHARE, MIN_BODY, MAX_BODY = 0.9, 0.9, 0.03, 0.3
# A step in a row's top edge of TOP_STEP of its height (a sideways tile is about a quarter
# lower than an upright one) is a seam, as if crossing STEP_SEAM of the row's height.
TOP_STEP, STEP_SEAM = 0.15, 0.8
# Two rows touching: each part at least STACKED_PART of the patch high (an added kan's
# stacked tile is a third), the narrower at most STACKED_RATIO of the wider's width (a row
# seen at 45 degrees narrows by far less from its bottom to its top), and so in the
# STACKED_BAND of the patch's height either side of the cut. The wider row is STACKED_WIDE
# times as wide as the two rows are high (a hand's row holds four tiles or more, each about
# 3/4 of a row high); one tile, or scraps of tiles cut by the photo's edge, are not.
STACKED_PART, STACKED_RATIO, STACKED_BAND, STACKED_WIDE = 0.4, 0.7, 0.1, 1.5
# Each row's width is steady: its lower quartile at least STEADY of its upper one.
STEADY = 0.8


def face_levels(region: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per row of `region` (uint8), the brightness most of its face pixels reach; 0 for rows
    that are less than a fifth face. Numpy's percentile cannot skip masked pixels: the pixels
    that are not face are set to 255, at or above every face pixel, so the first `count` of a
    sorted row are its face pixels in order. Numpy sorts uint8 rows by counting (its stable
    sort): two thirds the time of a histogram per row, a third of its quicksort's."""
    rows, cols = region.shape
    if cols == 0:
        return np.zeros(rows)
    counts = np.count_nonzero(mask, axis=1)
    # 0 = the darkest face pixel of the row; within the row (a row of no face truncates to 0).
    rank = (FACE_SHARE * (counts - 1)).astype(int)
    ordered = np.sort(np.where(mask, region, np.uint8(255)), axis=1, kind="stable")
    level = ordered[np.arange(rows), rank].astype(float)
    level[counts < 0.2 * cols] = 0.0
    return level


def face_bottom(gray: np.ndarray, faces: np.ndarray, strip: Box) -> int:
    """Where the faces of a row (`strip`, in the pixels of `gray`) end, above the front of
    the tiles' bodies; the strip's own bottom when no body shows."""
    x1, y1, x2, y2 = strip
    height = y2 - y1
    if height < 8:
        return y2
    # Only lines from a quarter of the way down are looked at: the rest are not counted.
    skip = height // 4
    level = np.concatenate([np.zeros(skip), face_levels(gray[y1 + skip:y2, x1:x2], faces[y1 + skip:y2, x1:x2] > 0)])
    face = median(level[height // 4: 2 * height // 3])
    dark = level < BODY_SHADE * face
    # Walk down from the middle to where the faces stop: two dark rows in a row, with mostly
    # dark below (a stroke across one tile darkens a row or two, then face resumes).
    row = next((r for r in range(height // 2, height - 1)
                if dark[r] and dark[r + 1] and median(level[r:]) < BODY_SHADE * face), height)
    band = height - row
    if band < max(2, MIN_BODY * height) or band > MAX_BODY * height:
        return y2
    return y1 + row + 1   # the face's own rim is a pixel darker than its middle


def top_steps(faces: np.ndarray) -> np.ndarray:
    """Columns of a row (its face mask) where the top edge steps by a good part of a tile."""
    height, width = faces.shape
    reach = 2
    steps = np.zeros(width, bool)
    if width > 2 * reach:
        top = np.where(faces.any(axis=0), np.argmax(faces, axis=0), height)
        steps[reach:-reach] = np.abs(top[2 * reach:] - top[:-2 * reach]) > TOP_STEP * height
    return steps


def stacked_cut(faces: np.ndarray) -> int | None:
    """The line between two rows laid one against the other (melds pushed up to the hand,
    a dora indicator touching it), found by the patch's width stepping there; None for one
    row. The narrower part must be at least STACKED_PART of the patch high: a sideways tile
    or an added kan's second tile lowers or raises a row's edge by less than that."""
    widths = np.add.reduce(faces > 0, axis=1, dtype=np.int32)
    lines = np.flatnonzero(widths > 0)
    if lines.size < 8:
        return None
    top, bottom = int(lines[0]), int(lines[-1]) + 1
    height = bottom - top
    least = max(2, int(STACKED_PART * height))
    # Mean width above and below every possible cut, from running sums.
    running = np.concatenate([[0], np.cumsum(widths[top:bottom], dtype=np.int64)])
    cuts = np.arange(least, height - least + 1)
    if cuts.size == 0:
        return None
    above = running[cuts] / cuts
    below = (running[-1] - running[cuts]) / (height - cuts)
    ratio = np.minimum(above, below) / np.maximum(np.maximum(above, below), 1.0)
    band = max(2, int(STACKED_BAND * height))
    for best in np.argsort(ratio):
        if ratio[best] >= STACKED_RATIO:
            return None
        cut = top + int(cuts[best])
        if max(above[best], below[best]) >= STACKED_WIDE * height and _sharp_step(widths, top, cut, bottom, band):
            return cut
    return None


def _sharp_step(widths: np.ndarray, top: int, cut: int, bottom: int, band: int) -> bool:
    """The width changes at the cut, not little by little (a patch cut slantwise by the
    photo's edge, a row seen in steep perspective): a band each side differs as much, and
    each part is steady."""
    near_above, near_below = float(widths[cut - band:cut].mean()), float(widths[cut:cut + band].mean())
    return (min(near_above, near_below) < STACKED_RATIO * max(near_above, near_below)
            and _steady(widths[top:cut]) and _steady(widths[cut:bottom]))


def _steady(widths: np.ndarray) -> bool:
    """A row's width hardly changes from line to line, its ragged ends aside; a face mask
    full of holes (pips on a table of their colour) does."""
    inner = widths[len(widths) // 8: len(widths) - len(widths) // 8]
    if inner.size < 3:
        return False
    low, high = np.percentile(inner, (25, 75))
    return low >= STEADY * high
