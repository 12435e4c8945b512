"""Tidying the boxes the seams gave: what is not one whole tile of the hand is mended or left out.

Cutting rows at their seams goes wrong in a few known ways: a scrap of a tile's lit side, two
sideways tiles stacked (an added kan) taken as one, a sideways tile cut in two at a stroke
running down its middle, and a tile cut off by the photo's edge (a neighbour's tiles, not
this hand's). Boxes are (x1, y1, x2, y2).
"""
from __future__ import annotations

import numpy as np

from .medians import median

Box = tuple[int, int, int, int]
# A sideways face is 4/3 of an upright one's width; a sideways tile cut in two measured two
# pieces of 0.63-0.84 of the typical width, 0.78-0.82 of its height, 1.39-1.46 widths together.
HALF_WIDTH, HALF_HEIGHT, JOINED_WIDTH = 0.9, 0.9, (1.15, 1.65)
# A tile at the photo's edge this much narrower or lower than the typical tile is cut off
# (rendered hands: neighbours' tiles and table scraps cut by the edge measured 0.66-0.77 of a
# whole tile; at 0.85 some hands lost whole tiles). A sideways tile touching the top or bottom
# edge is as low as a cut one: the hand must be in view. Where tiles line the edge all round
# (a whole set filling the picture) a cut tile is one of them, and stays.
CUT_SHARE = 0.8
FILLED_EDGE = 0.3   # share of the photo's edge lined with tiles when a set fills the picture


def split_stacks(boxes: list[Box]) -> list[Box]:
    """An added kan (kakan) stacks a sideways tile on a sideways tile: a box as wide as a
    sideways tile and about twice its height is two tiles, one above the other."""
    if len(boxes) < 3:
        return boxes
    width = median([b[2] - b[0] for b in boxes])
    height = median([b[3] - b[1] for b in boxes])
    out = []
    for x1, y1, x2, y2 in boxes:
        if x2 - x1 > 1.15 * width and y2 - y1 > 1.3 * height:
            middle = (y1 + y2) // 2
            out += [(x1, y1, x2, middle), (x1, middle, x2, y2)]
        else:
            out.append((x1, y1, x2, y2))
    return out


def drop_scraps(boxes: list[Box]) -> list[Box]:
    """Leave out slivers far smaller than the typical tile (a tile's lit side, a reflection)."""
    if len(boxes) < 3:
        return boxes
    areas = np.array([(b[2] - b[0]) * (b[3] - b[1]) for b in boxes], float)
    heights = np.array([b[3] - b[1] for b in boxes], float)
    typical_area, typical_height = median(areas), median(heights)
    return [b for b, a, h in zip(boxes, areas, heights) if a >= 0.35 * typical_area and h >= 0.5 * typical_height]


def join_halves(boxes: list[Box]) -> list[Box]:
    """Two narrow, low pieces side by side that together are as wide as a sideways tile are
    one sideways tile (its face cut at a stroke): a whole upright tile is never both narrow
    and low."""
    if len(boxes) < 3:
        return boxes
    width = median([b[2] - b[0] for b in boxes])
    height = median([b[3] - b[1] for b in boxes])

    def piece(b: Box) -> bool:
        return b[2] - b[0] < HALF_WIDTH * width and b[3] - b[1] < HALF_HEIGHT * height

    ordered = sorted(boxes, key=lambda b: b[0])
    out: list[Box] = []
    used: set[int] = set()
    for i, a in enumerate(ordered):
        if i in used:
            continue
        if piece(a):
            for j in range(i + 1, len(ordered)):
                b = ordered[j]
                if j in used or b[0] - a[2] > 0.15 * width:
                    continue
                overlap = min(a[3], b[3]) - max(a[1], b[1])
                joined = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                if (piece(b) and b[0] - a[2] >= -0.2 * width and overlap >= 0.7 * min(a[3] - a[1], b[3] - b[1])
                        and JOINED_WIDTH[0] * width <= joined[2] - joined[0] <= JOINED_WIDTH[1] * width):
                    used.add(j)
                    a = joined
                    break
        out.append(a)
    return out


def drop_cut_at_edge(boxes: list[Box], shape: tuple[int, int]) -> list[Box]:
    """Leave out tiles cut off by the photo's edge: a hand is photographed whole, so a part
    tile at the edge belongs to someone else's tiles (or would be named from half a face)."""
    if len(boxes) < 3:
        return boxes
    rows, cols = shape
    if _edge_lined(boxes, shape) > FILLED_EDGE:
        return boxes
    width = median([b[2] - b[0] for b in boxes])
    height = median([b[3] - b[1] for b in boxes])
    kept = []
    for x1, y1, x2, y2 in boxes:
        cut_side = (x1 <= 1 or x2 >= cols - 1) and x2 - x1 < CUT_SHARE * width
        cut_end = (y1 <= 1 or y2 >= rows - 1) and y2 - y1 < CUT_SHARE * height
        if not (cut_side or cut_end):
            kept.append((x1, y1, x2, y2))
    return kept


def _edge_lined(boxes: list[Box], shape: tuple[int, int]) -> float:
    """The share of the photo's edge that tiles touch."""
    rows, cols = shape
    lined = 0
    for x1, y1, x2, y2 in boxes:
        lined += (x2 - x1) * ((y1 <= 1) + (y2 >= rows - 1)) + (y2 - y1) * ((x1 <= 1) + (x2 >= cols - 1))
    return lined / (2 * (rows + cols))
