"""A hand lying askew in the photo, levelled before it is read.

A phone held at a slant, or a hand laid at a slant to the photo's edges, puts the rows of tiles
at an angle. The finder and the classifier learnt tiles upright, or turned a quarter, set only a
little askew: held-out real photos (`bench.vision`'s hk-roboflow groups, held askew) turned 20
degrees had 84.9% of their tiles named right and 3 of 78 read exactly, against 98.6% and 62 as
taken; turned 10 degrees, 97.9%. So where the tiles' rows slant by LEVEL_FROM or more, the photo is turned
level and its tiles found again; their boxes are then turned back into the photo's pixels.

How far the rows slant is read from the tiles the first look found, however it named them: a
tile's nearest neighbour lies beside it in its row (or above or below it in a column, a quarter
turn away), so the direction to it, folded to a quarter turn, is the row's. Measured on those
photos turned 0-40 degrees: a median error of under one degree, 90% within four.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[int, int, int, int]   # as `detect.Box`: the finder imports this module, not the other way

# Rows slanting less than this are read as they lie (the finder and classifier learnt tiles
# turned a little); the tiles' directions must agree at least LEVEL_AGREEMENT (the length of
# their mean on a quarter-turn circle, 1 where all agree) for a slant to be read at all: a photo
# of scattered tiles has none.
LEVEL_FROM = 7.0
LEVEL_AGREEMENT = 0.6
# How far beyond the tiles found askew the levelled photo reaches, in tile lengths (their median
# long side), for tiles the first look missed; as `detect.CLOSER_MARGIN`.
LEVEL_MARGIN = 1.5
MIN_TILES = 3


def hand_tilt(boxes: Sequence[Box]) -> float:
    """How far the rows of the tiles whose faces' `boxes` are given slant in the photo, in
    degrees between -45 and 45 (positive where they fall to the right, as the image's y runs
    down), or 0.0 where too few tiles or too little agreement say."""
    if len(boxes) < MIN_TILES:
        return 0.0
    centres = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes], np.float64)
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(apart, np.inf)
    towards = centres[apart.argmin(axis=1)] - centres
    # a direction and the same turned a quarter are one row's: on the circle of 4 x the angle they coincide
    mean = np.exp(4j * np.arctan2(towards[:, 1], towards[:, 0])).mean()
    if abs(mean) < LEVEL_AGREEMENT:
        return 0.0
    return math.degrees(np.angle(mean) / 4)


@dataclass(frozen=True)
class Levelled:
    """An image turned level: the turned image, and the turn as an affine map of its pixels."""
    image: np.ndarray
    turn: np.ndarray     # 2x3: the original's pixels into the levelled image's

    def box_to(self, box: Box) -> tuple[float, float, float, float]:
        """A box of the original as a box of the levelled image: the box around its corners turned."""
        corners = _turned_corners(self.turn, [box])
        return (*corners.min(axis=0), *corners.max(axis=0))

    def box_back(self, box: Box, shape: tuple[int, ...]) -> Box:
        """A box of the levelled image as a box of the original (of `shape`): the box around
        its corners turned back, within the original."""
        corners = _turned_corners(cv2.invertAffineTransform(self.turn), [box])
        height, width = shape[:2]
        left, top = corners.min(axis=0)
        right, bottom = corners.max(axis=0)
        return (int(round(min(max(left, 0), width))), int(round(min(max(top, 0), height))),
                int(round(min(max(right, 0), width))), int(round(min(max(bottom, 0), height))))


def level(image: np.ndarray, tilt: float, around: list[Box]) -> Levelled:
    """`image` turned by `tilt` degrees so rows slanting so lie level, cut to the part that
    holds the boxes `around` (the tiles found askew) and LEVEL_MARGIN tile lengths beyond them
    for any the first look missed: the finder then sees the tiles at least as large as before,
    in no more pixels than it needs. Corners the turn uncovers take the colour of the photo's
    edges, so they read as more of the table and not as an edge of their own."""
    height, width = image.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), tilt, 1.0)
    whole = _turned_corners(turn, [(0, 0, width, height)])
    tiles = _turned_corners(turn, around)
    margin = LEVEL_MARGIN * float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in around]))
    left, top = np.maximum(tiles.min(axis=0) - margin, whole.min(axis=0))
    right, bottom = np.minimum(tiles.max(axis=0) + margin, whole.max(axis=0))
    turn[:, 2] -= (math.floor(left), math.floor(top))
    size = (int(math.ceil(right)) - math.floor(left), int(math.ceil(bottom)) - math.floor(top))
    edges = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    fill = tuple(int(v) for v in np.median(edges, axis=0))
    turned = cv2.warpAffine(image, turn, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                            borderValue=fill)
    return Levelled(turned, turn)


def _turned_corners(turn: np.ndarray, boxes: list[Box]) -> np.ndarray:
    """The corners of `boxes`, (n * 4, 2), where the affine map `turn` takes them."""
    corners = [(x, y, 1.0) for x1, y1, x2, y2 in boxes for x, y in ((x1, y1), (x2, y1), (x1, y2), (x2, y2))]
    return np.array(corners, np.float64) @ turn.T
