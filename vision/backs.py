"""Finding tiles lying face down (a concealed kan shows two of them at its ends).

A back is not light like a face, so the face finder misses it; but it lies in line with the
faces, at their size, in one colour that is not the table's. So look beside every face, one
tile further along the row, and keep the spots that are tile-sized, evenly coloured and
unlike the table.
"""
from __future__ import annotations

import cv2
import numpy as np

from .find import FACE_DOWN, UPRIGHT, Found

MIN_TABLE_DISTANCE = 28.0   # in Lab units: a back must differ this much from the table
MAX_SPREAD = 28.0           # a back is one colour: per-channel spread stays below this
SIDE = 512


def table_colour(lab: np.ndarray, occupied: np.ndarray) -> np.ndarray | None:
    """The median colour of the photo's edge where no tile lies; None if tiles fill it."""
    edge = np.zeros(occupied.shape, bool)
    band = max(2, min(occupied.shape) // 30)
    edge[:band, :] = edge[-band:, :] = edge[:, :band] = edge[:, -band:] = True
    free = edge & ~occupied
    if free.sum() < 0.2 * edge.sum():
        return None
    return np.median(lab[free].reshape(-1, 3).astype(float), axis=0)


def _looks_like_back(lab: np.ndarray, box, table: np.ndarray, occupied: np.ndarray) -> bool:
    x1, y1, x2, y2 = box
    h, w = occupied.shape
    if x1 < 0 or y1 < 0 or x2 > w or y2 > h or x2 - x1 < 4 or y2 - y1 < 4:
        return False
    # Judge the middle of the spot, away from edges, shadows and neighbours.
    mx, my = (x2 - x1) // 5, (y2 - y1) // 5
    inner = (slice(y1 + my, y2 - my), slice(x1 + mx, x2 - mx))
    if occupied[inner].mean() > 0.2:
        return False
    pixels = lab[inner].reshape(-1, 3).astype(float)
    colour = np.median(pixels, axis=0)
    spread = np.percentile(pixels, 90, axis=0) - np.percentile(pixels, 10, axis=0)
    return bool(np.linalg.norm(colour - table) > MIN_TABLE_DISTANCE and spread.max() < MAX_SPREAD)


def find_backs(image: np.ndarray, faces: list[Found]) -> list[Found]:
    """Face-down tiles beside the face-up ones, at most two in a run (a kan's ends)."""
    upright = [f for f in faces if f.pose == UPRIGHT]
    if not upright:
        return []
    # Colours need few pixels: judge them on a copy at most SIDE pixels long.
    shrink = min(1.0, SIDE / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA) if shrink < 1 else image
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    faces = [Found(tuple(int(round(v * shrink)) for v in f.box), f.pose) for f in faces]
    upright = [f for f in faces if f.pose == UPRIGHT]
    occupied = np.zeros(lab.shape[:2], bool)
    for f in faces:
        x1, y1, x2, y2 = f.box
        occupied[y1:y2, x1:x2] = True
    table = table_colour(lab, occupied)
    if table is None:
        return []
    width = float(np.median([f.width for f in upright]))
    gap = max(1, int(0.08 * width))
    backs: list[Found] = []
    frontier = list(upright)
    for _ in range(2):
        found_now = []
        for tile in frontier:
            x1, y1, x2, y2 = tile.box
            for side in (-1, 1):
                left = x1 - gap - int(width) if side < 0 else x2 + gap
                box = (left, y1, left + int(width), y2)
                if _looks_like_back(lab, box, table, occupied):
                    back = Found(tuple(int(v) for v in box), FACE_DOWN)
                    found_now.append(back)
                    bx1, by1, bx2, by2 = back.box
                    occupied[by1:by2, bx1:bx2] = True
        backs += found_now
        frontier = found_now
    return [Found(tuple(int(round(v / shrink)) for v in b.box), FACE_DOWN) for b in backs]

