"""Small composed table scenes with known answers, for the tile finder's tests.

Tiles are drawn with OpenCV: an ivory face with a darker rim and a few coloured strokes (or a
real tile crop pasted in), laid in rows as players lay a hand, on a table of some colour.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

TILE_W, TILE_H = 60, 80


@dataclass
class Scene:
    image: np.ndarray
    tiles: list[tuple[tuple[int, int, int, int], str]] = field(default_factory=list)  # (box, pose)


IVORY = (222, 236, 240)
INKS = ((40, 40, 190), (40, 140, 40), (170, 60, 30), (30, 30, 30))
LIGHT_INKS = ((230, 230, 230), (60, 170, 220), (60, 200, 90), (90, 90, 230))   # on black faces


def draw_face(rng: np.random.Generator, crop: np.ndarray | None = None, colour=IVORY) -> np.ndarray:
    face = np.full((TILE_H, TILE_W, 3), colour, np.uint8)
    inks = LIGHT_INKS if sum(colour) < 300 else INKS
    if crop is not None:
        face = cv2.resize(crop, (TILE_W, TILE_H), interpolation=cv2.INTER_AREA)
    else:
        for _ in range(int(rng.integers(2, 6))):
            ink = inks[int(rng.integers(0, 4))]
            x, y = int(rng.integers(12, TILE_W - 12)), int(rng.integers(12, TILE_H - 12))
            if rng.random() < 0.5:
                cv2.circle(face, (x, y), int(rng.integers(5, 10)), ink, 2)
            else:
                cv2.line(face, (x, y), (x + int(rng.integers(-10, 10)), y + int(rng.integers(-14, 14))), ink, 3)
    # A face's rounded rim catches less light: grey on ivory, darker still on black.
    rim = (150, 160, 165) if sum(colour) >= 300 else tuple(int(0.7 * c) for c in colour)
    cv2.rectangle(face, (0, 0), (TILE_W - 1, TILE_H - 1), rim, 2)
    return face


def draw_back(colour=(40, 140, 230)) -> np.ndarray:
    back = np.full((TILE_H, TILE_W, 3), colour, np.uint8)
    cv2.rectangle(back, (0, 0), (TILE_W - 1, TILE_H - 1), tuple(int(c * 0.7) for c in colour), 2)
    return back


def compose(rows: list[list[str]], table=(60, 110, 40), seed: int = 0, gap: int = 1,
            crops: list[np.ndarray] | None = None, group_gap: int = 40, face=IVORY, back=(40, 140, 230),
            body: int = 0, row_gap: int = 60) -> Scene:
    """Rows of poses, "u" upright, "s" sideways, "d" face down, "|" a gap between groups.
    `face` and `back` are the set's colours; `body` the height in pixels of each tile's front
    seen below its face (a photo taken at an angle), shaded darker than the face; `row_gap`
    the table showing between rows (1: melds pushed against the hand). Boxes are the faces' own."""
    rng = np.random.default_rng(seed)
    height = 120 + len(rows) * TILE_H + (len(rows) - 1) * row_gap
    width = 80 + max(sum(TILE_H + gap if p == "s" else TILE_W + gap if p in "ud" else group_gap for p in row) for row in rows)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = table
    noise = rng.normal(0, 4, image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    scene = Scene(image)
    crop_index = 0
    for r, row in enumerate(rows):
        x, bottom = 40, 40 + r * (TILE_H + row_gap) + TILE_H
        for pose in row:
            if pose == "|":
                x += group_gap
                continue
            if pose == "d":
                tile = draw_back(back)
            else:
                crop = None
                if crops:
                    crop = crops[crop_index % len(crops)]
                    crop_index += 1
                tile = draw_face(rng, crop, face)
                if pose == "s":
                    tile = cv2.rotate(tile, cv2.ROTATE_90_COUNTERCLOCKWISE)
            h, w = tile.shape[:2]
            image[bottom - h:bottom, x:x + w] = tile
            if body:
                front = back if pose == "d" else face
                image[bottom:bottom + body, x:x + w] = tuple(int(0.8 * c) for c in front)
            scene.tiles.append(((x, bottom - h, x + w, bottom), {"u": "upright", "s": "sideways", "d": "face_down"}[pose]))
            x += w + gap
    scene.image = image
    return scene


def iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def find_toy_tiles(image: np.ndarray) -> list:
    """The tiles of a `compose` picture, found by colour: each a blob unlike the plain table
    (whose colour fills the corner), face down when its edge is not a face's ivory, sideways
    when wider than high. A stand-in for the learned detector (tested on its own, on rendered
    and real photos) in tests of the steps after finding."""
    from vision.detect import FACE_DOWN, SIDEWAYS, UPRIGHT, Found

    table = np.median(image[:10, :10].reshape(-1, 3), axis=0)
    # Well above the table: a one-pixel gap blurred by shrinking the photo still parts two tiles.
    differs = (np.abs(image.astype(np.int32) - table).sum(axis=2) > 200).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(differs, connectivity=4)
    found = []
    for x, y, w, h, area in stats[1:]:
        if area < TILE_W * TILE_H / 4:
            continue
        edge = image[y + h // 2, x + 4].astype(np.int32)
        pose = FACE_DOWN if np.abs(edge - IVORY).sum() > 60 else SIDEWAYS if w > h else UPRIGHT
        found.append(Found((int(x), int(y), int(x + w), int(y + h)), pose))
    return sorted(found, key=lambda f: (f.box[1] // TILE_H, f.box[0]))
