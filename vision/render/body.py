"""Tiles on the table plane: a face on a body with thickness, seen from the player's side.

Everything here is drawn in the flat table plane, before the camera's perspective; the near
edge of each tile shows its white layer and its coloured back layer, as real tiles do.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .faces import draw_face
from .tilesets import TileSet

SHIFT = 4  # fixed-point bits for sub-pixel polygons
UPRIGHT, SIDEWAYS, FACE_DOWN = "upright", "sideways", "face_down"


@dataclass
class Placed:
    """One tile on the plane: its class, pose, centre, turn (degrees) and reading role."""
    label: str            # classifier class of the face ("0p" for a red five); the tile under a back too
    pose: str
    cx: float
    cy: float
    angle: float = 0.0    # small in-plane turn; sideways adds 90 on its own
    group: str = "concealed"
    meld: int | None = None
    quarter: int = 1      # sideways: 1 = top of the tile to the left, 3 = to the right


def footprint(fw: float, fh: float, pose: str) -> tuple[float, float]:
    return (fh, fw) if pose == SIDEWAYS else (fw, fh)


def corners(tile: Placed, fw: float, fh: float) -> np.ndarray:
    """The top surface's corners (4x2, clockwise from top-left as the face reads)."""
    w, h = footprint(fw, fh, tile.pose)
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    a = np.deg2rad(tile.angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return pts @ rot.T + np.array([tile.cx, tile.cy], np.float32)


def _poly(img: np.ndarray, pts: np.ndarray, colour) -> None:
    hull = cv2.convexHull((pts * (1 << SHIFT)).astype(np.int32))
    cv2.fillConvexPoly(img, hull, colour, cv2.LINE_AA, SHIFT)


def _shade(colour, k: float) -> tuple[int, int, int]:
    return tuple(int(max(0, min(255, c * k))) for c in colour)


def draw_shadow(shadow: np.ndarray, tile: Placed, fw: float, fh: float, depth: float, offset: tuple[float, float]) -> None:
    top = corners(tile, fw, fh) + np.array(offset, np.float32)
    _poly(shadow, np.vstack([top, top + np.array([0, depth], np.float32)]), 1.0)


def draw_tile(canvas: np.ndarray, tile: Placed, ts: TileSet, fw: float, fh: float, depth: float,
              rng: np.random.Generator) -> np.ndarray:
    """Draw one tile onto `canvas` and return its top surface's corners."""
    top = corners(tile, fw, fh)
    down = np.array([0, depth], np.float32)
    upper, lower = (ts.back, ts.face) if tile.pose == FACE_DOWN else (ts.face, ts.back)
    split = depth * (1 - ts.back_share) if tile.pose != FACE_DOWN else depth * ts.back_share
    mid = np.array([0, split], np.float32)
    if abs(depth) > 0.5:
        _poly(canvas, np.vstack([top + mid, top + down]), _shade(lower, 0.72))
        _poly(canvas, np.vstack([top, top + mid]), _shade(upper, 0.8))
    _paste_top(canvas, tile, ts, top, fw, fh, rng)
    return top


def _surface(tile: Placed, ts: TileSet, fw: float, fh: float, rng: np.random.Generator) -> np.ndarray:
    w, h = max(8, int(round(fw))), max(8, int(round(fh)))
    if tile.pose == FACE_DOWN:
        img = np.empty((h, w, 3), np.uint8)
        img[:] = ts.back
        if rng.random() < 0.3:  # a maker's pattern pressed into the back
            cv2.circle(img, (w // 2, h // 2), w // 4, _shade(ts.back, 0.85), max(1, w // 20), cv2.LINE_AA)
        return img
    img = draw_face(tile.label, ts, rng, (w, h))
    if tile.pose == SIDEWAYS:
        img = np.rot90(img, tile.quarter).copy()
    return img


def _paste_top(canvas: np.ndarray, tile: Placed, ts: TileSet, top: np.ndarray, fw: float, fh: float,
               rng: np.random.Generator) -> None:
    img = _surface(tile, ts, fw, fh, rng)
    h, w = img.shape[:2]
    paste(canvas, _bevel(img), rounded_mask(h, w), top)


def paste(canvas: np.ndarray, image: np.ndarray, alpha: np.ndarray, quad: np.ndarray) -> None:
    """`image` laid on the canvas with its corners on `quad` (4x2, clockwise from top-left),
    weighed by `alpha` (float 0-1, the image's size) against what lies there."""
    h, w = image.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getAffineTransform(src[:3], quad[:3].astype(np.float32))
    x1, y1 = np.floor(quad.min(0)).astype(int) - 2
    x2, y2 = np.ceil(quad.max(0)).astype(int) + 2
    x1, y1 = max(0, x1), max(0, y1)
    x2, y2 = min(canvas.shape[1], x2), min(canvas.shape[0], y2)
    if x2 <= x1 or y2 <= y1:
        return
    m[:, 2] -= (x1, y1)
    size = (int(x2 - x1), int(y2 - y1))
    warped = cv2.warpAffine(image, m, size, flags=cv2.INTER_LINEAR)
    weight = cv2.warpAffine(alpha, m, size, flags=cv2.INTER_LINEAR)[..., None]
    region = canvas[y1:y2, x1:x2].astype(np.float32)
    canvas[y1:y2, x1:x2] = (region * (1 - weight) + warped.astype(np.float32) * weight).astype(np.uint8)


def rounded_mask(h: int, w: int, corner: float = 0.08) -> np.ndarray:
    """A rectangle's shape with its corners rounded, `corner` of the shorter side (float 0-1)."""
    mask = np.zeros((h, w), np.float32)
    r = max(1, int(min(h, w) * corner))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 1.0, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    return mask


def _bevel(img: np.ndarray) -> np.ndarray:
    """Darken the rim a little, as the rounded edge of a real face catches less light."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy)) / max(2.0, min(h, w) * 0.06)
    k = 0.82 + 0.18 * np.clip(edge, 0, 1)
    return (img.astype(np.float32) * k[..., None]).astype(np.uint8)
