"""Put placed tiles on a table and photograph them: the common path of scenes and crops."""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from . import photo
from .body import Placed, corners, draw_shadow, draw_tile, footprint
from .dice import SIDE_TO_FACE, draw_die, free_spots
from .tilesets import TileSet


@dataclass
class Shot:
    image: np.ndarray          # BGR uint8
    quads: list[np.ndarray]    # each tile's face (or back) in image pixels (4x2), in input order
    outlines: list[np.ndarray]  # each whole tile as the camera sees it, face and body (8x2)
    dice: list[np.ndarray] = field(default_factory=list)   # each die's top in image pixels (4x2)


def photograph(tiles: list[Placed], ts: TileSet, rng: np.random.Generator, *, face_w: float, aspect: float,
               out_face_w: float, tilt: float, yaw: float, margin: float = 1.5,
               max_side: int | None = None, degrade: bool = True, standing: bool = False, dice: int = 0) -> Shot:
    """Draw `tiles` (plane units: a face is `face_w` wide) and view them from a camera `tilt`
    degrees off vertical, turned `yaw`, so that a face is about `out_face_w` pixels wide.
    `aspect` is the face's height over its width, as the layout used. `standing`: the tiles
    stand facing the camera, as a player sees their own hand, so the body shows above each
    face (its top edge) instead of below it."""
    fw, fh = face_w, face_w * aspect
    depth = ts.body_depth * fh * (0.25 + np.sin(np.deg2rad(tilt)))
    if standing:
        depth = -ts.body_depth * fh * float(rng.uniform(0.5, 1.6))
    quads_plane = [corners(t, fw, fh) for t in tiles]
    allpts = np.vstack(quads_plane)
    pad = margin * fh
    x0, y0 = allpts.min(0) - pad
    x1, y1 = allpts.max(0) + pad + (0, max(0.0, depth))
    off = np.array([-x0, -y0], np.float32)
    pw, ph = int(np.ceil(x1 - x0)), int(np.ceil(y1 - y0))
    canvas = photo.table(rng, ph, pw)
    cloth = canvas.copy()   # the bare table, to show where the camera sees past the canvas
    shadow = np.zeros((ph, pw), np.float32)
    light_dir = (rng.uniform(-0.12, 0.12) * fh, rng.uniform(0.0, 0.15) * fh)
    moved = [Placed(t.label, t.pose, t.cx + off[0], t.cy + off[1], t.angle, t.group, t.meld, t.quarter) for t in tiles]
    for t in moved:
        draw_shadow(shadow, t, fw, fh, depth, light_dir)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, fh * rng.uniform(0.04, 0.12)))
    canvas = (canvas.astype(np.float32) * (1 - rng.uniform(0.3, 0.6) * shadow[..., None])).astype(np.uint8)
    order = sorted(range(len(moved)), key=lambda i: moved[i].cy + footprint(fw, fh, moved[i].pose)[1] / 2)
    tops: list[np.ndarray] = [None] * len(moved)  # type: ignore[list-item]
    for i in order:
        tops[i] = draw_tile(canvas, moved[i], ts, fw, fh, depth, rng)
    dice_tops = _dice(canvas, tops, dice, fw, depth, rng) if dice else []
    h_cam = photo.camera_homography(rng, pw, ph, tilt, yaw)
    quads = _projected(tops, h_cam)
    in_frame = _projected(dice_tops, h_cam)   # the dice too
    # scale so a face is about out_face_w wide, then frame everything with a margin
    widths = [np.linalg.norm(q[1] - q[0]) if t.pose != "sideways" else np.linalg.norm(q[3] - q[0])
              for q, t in zip(quads, moved)]
    scale = out_face_w / max(1e-3, float(np.median(widths)))
    if max_side:
        span = np.ptp(np.vstack(quads + in_frame), axis=0) * scale + 2 * pad * scale / 2
        scale *= min(1.0, max_side / max(span))
    corners_img = cv2.perspectiveTransform(
        np.array([[[0, 0], [pw, 0], [pw, ph], [0, ph]]], np.float32), h_cam)[0] * scale
    content = np.vstack(quads + in_frame) * scale
    lo = content.min(0) - rng.uniform(0.3, 1.2, 2) * out_face_w
    hi = content.max(0) + rng.uniform(0.3, 1.2, 2) * out_face_w
    lo = np.maximum(lo, corners_img.min(0))
    hi = np.minimum(hi, corners_img.max(0))
    shift = np.array([[scale, 0, -lo[0]], [0, scale, -lo[1]], [0, 0, 1]], np.float64)
    full = shift @ h_cam
    ow, oh = int(np.ceil(hi[0] - lo[0])), int(np.ceil(hi[1] - lo[1]))
    image = _warp_onto_cloth(canvas, cloth, full, (max(8, ow), max(8, oh)))
    image = photo.light(image, rng)
    if degrade:
        image = photo.degrade(image, rng)
    quads = _projected(tops, full)
    down = np.array([0, depth], np.float32)
    outlines = _projected([np.vstack([q, q + down]) for q in tops], full)
    return Shot(image, quads, outlines, _projected(dice_tops, full))


def _projected(quads: list[np.ndarray], homography: np.ndarray) -> list[np.ndarray]:
    """Each of `quads` (points on the table plane) where `homography` takes it."""
    return [cv2.perspectiveTransform(q[None].astype(np.float32), homography)[0] for q in quads]


def _dice(canvas: np.ndarray, tops: list[np.ndarray], count: int, fw: float, depth: float,
          rng: np.random.Generator) -> list[np.ndarray]:
    """`count` dice (fewer where the tiles leave no room) drawn on the canvas clear of the
    tiles (`tops`, their bodies `depth` below), each die's body below its top (a die lies on
    the table even where the tiles stand) as deep for its size as a tile's."""
    side = fw * float(rng.uniform(*SIDE_TO_FACE))
    taken = np.array([[*q.min(0), *(q.max(0) + (0, max(0.0, depth)))] for q in tops], np.float32)
    spots = free_spots(taken, (canvas.shape[1], canvas.shape[0]), side, count, rng)
    return [draw_die(canvas, spot, side, float(rng.uniform(0, 90)), abs(depth) * side / fw, rng) for spot in spots]


def _warp_onto_cloth(canvas: np.ndarray, cloth: np.ndarray, homography: np.ndarray,
                     size: tuple[int, int]) -> np.ndarray:
    """The canvas as the camera sees it. A tilted or turned camera sees past the canvas's edges;
    there the bare cloth continues, mirrored. Mirroring the canvas itself there (as this did
    until 2026-11-27) put mirrored copies of the tiles at the frame's edges, tiles no label
    named: a detector trained on them learnt to leave real tiles unfound, and measured on them
    was charged for finding tiles that were there."""
    seen = cv2.warpPerspective(canvas, homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    inside = cv2.warpPerspective(np.ones(canvas.shape[:2], np.float32), homography, size, flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT)
    if inside.min() >= 1.0:
        return seen
    beyond = cv2.warpPerspective(cloth, homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    # the linear warp has already weighed the canvas's edge pixels by `inside` against black
    return np.clip(seen + (1.0 - inside)[..., None] * beyond, 0, 255).astype(np.uint8)


def random_aspect(rng: np.random.Generator) -> float:
    """Face height over width: real sets run from about 1.25 to 1.4."""
    return float(rng.uniform(1.25, 1.4))


def box_of(quad: np.ndarray, shape: tuple[int, ...]) -> list[float]:
    h, w = shape[:2]
    x1, y1 = quad.min(0)
    x2, y2 = quad.max(0)
    return [float(max(0, x1)), float(max(0, y1)), float(min(w, x2)), float(min(h, y2))]
