"""Dice: on every riichi table and most Chinese ones, beside the tiles a photo is taken of.

A die's top is a small light square with pips, on a body that shows below it as a tile's does,
and from a little way off a finder takes it for a tile: dice pasted beside rendered hands and
held-out photos were found as tiles 51 times in 123 and named 1s, 4p, 4z or 3p, most of them
more than half surely. Drawn here so that the models learn them as no tile.

Dice as sold for mahjong: white or ivory, 12-16 mm against a face 20-26 mm wide; the one pip
large and red; on Chinese sets the four pips red too.
"""
from __future__ import annotations

import cv2
import numpy as np

from .body import SHIFT, paste, rounded_mask

# where each face's pips sit, as shares of the side (x, y)
PIPS = {1: ((0.5, 0.5),),
        2: ((0.27, 0.27), (0.73, 0.73)),
        3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
        4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
        5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
        6: ((0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78))}
RED = (40, 40, 200)
# a die's side against a tile face's width
SIDE_TO_FACE = (0.5, 0.75)
DIE_CORNER = 0.18   # a die's corners are rounder than a tile's


def die_top(side: float, rng: np.random.Generator, pips: int | None = None) -> np.ndarray:
    """The top of a die (BGR, `side` pixels square; `draw_die` rounds its corners)."""
    n = int(rng.integers(1, 7)) if pips is None else pips
    s = max(8, int(round(side)))
    ivory = int(rng.integers(0, 25))
    shade = np.array([235 - ivory, 242 - ivory // 2, 245]) + rng.integers(-8, 9, 3)
    body = tuple(int(v) for v in np.clip(shade, 0, 255))
    image = np.empty((s, s, 3), np.uint8)
    image[:] = body
    chinese = rng.random() < 0.4   # the four red as well, as Chinese dice have it
    ink = tuple(int(v) for v in rng.integers(10, 50, 3))
    for px, py in PIPS[n]:
        red = n == 1 or (n == 4 and chinese)
        radius = s * (0.17 if n == 1 else 0.085) * float(rng.uniform(0.85, 1.15))
        centre = (int(px * s * (1 << SHIFT)), int(py * s * (1 << SHIFT)))
        cv2.circle(image, centre, int(radius * (1 << SHIFT)), RED if red else ink, -1, cv2.LINE_AA, SHIFT)
    return image


def draw_die(canvas: np.ndarray, centre: tuple[float, float], side: float, angle: float, depth: float,
             rng: np.random.Generator, pips: int | None = None) -> np.ndarray:
    """A die lying on the table plane (`canvas`, drawn before the camera's perspective as the
    tiles are): its body `depth` below its top as a tile's, then its top; returns the top's
    corners (4x2)."""
    top = die_top(side, rng, pips)
    s = top.shape[0]
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * (side / 2)
    quad = half @ rot.T + np.array(centre, np.float32)
    body = tuple(int(v * 0.72) for v in top[s // 2, 1])   # the side, in the top's shade
    if abs(depth) > 0.5:
        hull = cv2.convexHull((np.vstack([quad, quad + (0, depth)]) * (1 << SHIFT)).astype(np.int32))
        cv2.fillConvexPoly(canvas, hull, body, cv2.LINE_AA, SHIFT)
    paste(canvas, top, rounded_mask(s, s, DIE_CORNER), quad)
    return quad


def free_spots(taken: np.ndarray, size: tuple[int, int], side: float, count: int,
               rng: np.random.Generator) -> list[tuple[float, float]]:
    """Up to `count` centres on a plane of `size` (width, height) where a die of `side` (its
    body below it) clears every box in `taken` (N x 4: x1, y1, x2, y2) and every other die
    by a quarter of a side."""
    width, height = size
    spots: list[tuple[float, float]] = []
    for _ in range(40 * count):
        if len(spots) == count:
            break
        x = float(rng.uniform(side * 0.75, width - side * 0.75))
        y = float(rng.uniform(side * 0.75, height - side * 1.5))
        room = np.array([x - side * 0.75, y - side * 0.75, x + side * 0.75, y + side * 1.5])
        boxes = np.vstack([taken.reshape(-1, 4)] + [np.array([[sx - side, sy - side, sx + side, sy + side]])
                                                     for sx, sy in spots])
        clash = (boxes[:, 0] < room[2]) & (boxes[:, 2] > room[0]) & (boxes[:, 1] < room[3]) & (boxes[:, 3] > room[1])
        if not clash.any():
            spots.append((x, y))
    return spots
