"""Training samples for the tile detector: real labelled photos, rendered hands and tile-free
pictures, each cut, scaled and coloured at random, with the targets the network learns.

A sample is a square picture and its tiles: face box, whole-tile box (where known), pose (where
known). What a source cannot tell is masked out of the loss rather than guessed: the real photos
box faces only (no pose, no body, and face-down tiles such as a wall are not boxed), so they
teach the face-up heatmap and the face's size; rendered hands teach everything.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ..render import render_scene
from ..render.clutter import backdrop, dice, page, room
from ..render.scene import webcam_frame
from ..render.fingers import draw_fingers
from ..detect import STRIDE

FACE_UP, FACE_DOWN_HEAT = 0, 1
MIN_FACE = 6          # input pixels: a smaller face is neither taught as a tile nor as no tile
MIN_VISIBLE = 0.5     # a tile cut by the picture's edge is taught as a tile when this much shows
HIDDEN = 0.45         # a face this much under a finger is taught as no tile
# Dice lie beside the tiles on most tables; drawn beside this share of rendered hands and on
# this share of the tile-free backdrops (added 2026-11-29: no detector shipped then had seen a
# die, and dice pasted beside hands and held-out photos were found as tiles 51 times in 123).
DICE_HANDS = 0.25


@dataclass
class Sample:
    image: np.ndarray                 # BGR uint8, any size
    faces: np.ndarray                 # (N, 4) face boxes
    wholes: np.ndarray | None         # (N, 4) whole-tile boxes, None where unknown
    down: np.ndarray                  # (N,) bool: face down
    sideways: np.ndarray | None       # (N,) bool, None where unknown
    knows_backs: bool                 # are face-down tiles boxed at all in this picture
    extra: dict = field(default_factory=dict)


def real_sample(image: np.ndarray, boxes: list, unnamed: list = ()) -> Sample:
    """A labelled real photo; `unnamed` are real tiles whose face has no code (jokers, bonus
    tiles): still tiles to find, never background."""
    faces = np.array(list(boxes) + list(unnamed), np.float32).reshape(-1, 4)
    return Sample(image, faces, None, np.zeros(len(faces), bool), None, False)


def rendered_sample(rng: np.random.Generator) -> Sample:
    """A rendered hand: lying and photographed from above or at an angle, or standing and seen
    from the player's seat; now and then with dice beside it (DICE_HANDS), no tiles to find."""
    standing = rng.random() < 0.35
    scene = render_scene(rng, standing=standing, tilt=float(rng.uniform(0, 35 if standing else 50)),
                         face_px=float(rng.uniform(28, 80)), max_side=1000, melds_below=None,
                         dice=int(rng.integers(1, 3)) if rng.random() < DICE_HANDS else 0)
    tiles = scene.tiles
    return Sample(scene.image, np.array([t.box for t in tiles], np.float32),
                  np.array([t.whole for t in tiles], np.float32), np.array([t.pose == "face_down" for t in tiles]),
                  np.array([t.pose == "sideways" for t in tiles]), True)


def webcam_sample(rng: np.random.Generator) -> Sample:
    """A wide webcam frame across a table (`render.scene.webcam_frame`): the hand in a strip, the
    room behind it with shelves of CJK-titled books, as the webcam frames the shipped model
    misread were."""
    scene = webcam_frame(rng)
    tiles = scene.tiles
    return Sample(scene.image, np.array([t.box for t in tiles], np.float32),
                  np.array([t.whole for t in tiles], np.float32), np.array([t.pose == "face_down" for t in tiles]),
                  np.array([t.pose == "sideways" for t in tiles]), True)


def photoreal_sample(image: np.ndarray, tiles: list[dict]) -> Sample:
    """A Blender frame (`render.photoreal`): each tile's whole box and face box projected from
    its corners. A face-down tile has no face: its whole box stands for it. Frames rendered
    before the labels said each tile's pose (none of them laid a tile sideways, but they do not
    say so) leave the pose unknown."""
    down = np.array([t["face"] is None for t in tiles], bool)
    wholes = np.array([t["whole"] for t in tiles], np.float32).reshape(-1, 4)
    faces = np.array([t["whole"] if t["face"] is None else t["face"] for t in tiles], np.float32).reshape(-1, 4)
    posed = bool(tiles) and all("pose" in t for t in tiles)
    sideways = np.array([t["pose"] == "sideways" for t in tiles], bool) if posed else None
    return Sample(image, faces, wholes, down, sideways, True)


def empty_sample(rng: np.random.Generator, side: int, rooms: float = 0.0, pages: float = 0.0) -> Sample:
    """A picture with no tile at all: cloths, desks, keyboards, dominoes, cards, screens, and in a
    DICE_HANDS share dice; in a `rooms` share, shelves of CJK-titled books and printed cards
    (`clutter.room`); in a `pages` share, a page of text in large and small letters (`clutter.page`)."""
    if pages and rng.random() < pages:
        image = page(rng, side, side)
    elif rooms and rng.random() < rooms:
        image = room(rng, side, side)
    else:
        image = backdrop(rng, side, side, things=int(rng.integers(2, 9)))
        if rng.random() < DICE_HANDS:
            dice(image, rng)
    return Sample(image, np.zeros((0, 4), np.float32), np.zeros((0, 4), np.float32), np.zeros(0, bool),
                  np.zeros(0, bool), True)


def _turn(sample: Sample, quarter: int) -> Sample:
    """The sample turned by `quarter` quarter-turns clockwise (a sideways tile becomes upright)."""
    if quarter % 4 == 0:
        return sample
    h, w = sample.image.shape[:2]
    image = np.ascontiguousarray(np.rot90(sample.image, -quarter))
    faces = _turn_boxes(sample.faces, h, w, quarter)
    wholes = None if sample.wholes is None else _turn_boxes(sample.wholes, h, w, quarter)
    sideways = None if sample.sideways is None else (sample.sideways ^ bool(quarter % 2))
    return Sample(image, faces, wholes, sample.down, sideways, sample.knows_backs)


def _turn_boxes(boxes: np.ndarray, h: int, w: int, quarter: int) -> np.ndarray:
    b = boxes.copy()
    for _ in range(quarter % 4):  # a quarter-turn clockwise: (x, y) -> (h - y, x)
        b = np.stack([h - b[:, 3], b[:, 0], h - b[:, 1], b[:, 2]], 1)
        h, w = w, h
    return b


def _mirror(boxes: np.ndarray, side: int) -> np.ndarray:
    """Boxes of a `side`-wide picture flipped left to right."""
    return np.stack([side - boxes[:, 2], boxes[:, 1], side - boxes[:, 0], boxes[:, 3]], 1)


def augment(sample: Sample, rng: np.random.Generator, side: int, turn: bool, fingers: float = 0.0,
            stretch: float = 1.0, overexposed: float = 0.0) -> Sample:
    """The sample scaled so a face is 10-120 pixels wide (log-uniform), set on a random backdrop
    where it does not fill the square, cut to `side` x `side`, flipped, turned, with fingers
    over it in a `fingers` share of samples (a face they mostly hide is no longer taught as a
    tile), stretched wider or taller by up to `stretch` (the real photos were stretched to squares
    by their source, and cameras frame 4:3, 3:4 or 16:9: no one shape is learnt as a tile's),
    and recoloured (over-exposed in an `overexposed` share, `recolour`)."""
    if turn and rng.random() < 0.2:
        sample = _turn(sample, int(rng.integers(1, 4)))
    image = sample.image
    if len(sample.faces):
        face_w = float(np.median(np.minimum(sample.faces[:, 2] - sample.faces[:, 0],
                                            sample.faces[:, 3] - sample.faces[:, 1])))
        scale = float(np.exp(rng.uniform(np.log(10), np.log(120)))) / max(face_w, 1.0)
    else:
        scale = float(rng.uniform(0.5, 1.5))
    scale = min(scale, 1600 / max(image.shape[:2]))
    sx = sy = scale
    if stretch > 1.0:
        a = float(np.exp(rng.uniform(-np.log(stretch), np.log(stretch))))
        sx, sy = scale * np.sqrt(a), scale / np.sqrt(a)
    image = cv2.resize(image, None, fx=sx, fy=sy,
                       interpolation=cv2.INTER_AREA if min(sx, sy) < 1 else cv2.INTER_LINEAR)
    h, w = image.shape[:2]
    canvas_h, canvas_w = max(h, side), max(w, side)
    if (canvas_h, canvas_w) != (h, w):
        canvas = backdrop(rng, canvas_h, canvas_w)
        oy, ox = int(rng.integers(0, canvas_h - h + 1)), int(rng.integers(0, canvas_w - w + 1))
        canvas[oy:oy + h, ox:ox + w] = image
    else:
        canvas, oy, ox = image, 0, 0
    y0, x0 = int(rng.integers(0, canvas_h - side + 1)), int(rng.integers(0, canvas_w - side + 1))
    out = canvas[y0:y0 + side, x0:x0 + side].copy()
    shift = np.array([ox - x0, oy - y0, ox - x0, oy - y0], np.float32)
    factor = np.array([sx, sy, sx, sy], np.float32)
    faces = sample.faces * factor + shift
    wholes = None if sample.wholes is None else sample.wholes * factor + shift
    if rng.random() < 0.5:
        out = np.ascontiguousarray(out[:, ::-1])
        faces = _mirror(faces.reshape(-1, 4), side)
        wholes = None if wholes is None else _mirror(wholes.reshape(-1, 4), side)
    faces, wholes = faces.reshape(-1, 4), None if wholes is None else wholes.reshape(-1, 4)
    down, sideways = sample.down, sample.sideways
    if fingers and rng.random() < fingers:
        out, keep = fingers_over(out, faces, rng)
        faces, down = faces[keep], down[keep]
        wholes = None if wholes is None else wholes[keep]
        sideways = None if sideways is None else sideways[keep]
    out = recolour(out, rng, overexposed)
    return Sample(out, faces, wholes, down, sideways, sample.knows_backs)


def fingers_over(image: np.ndarray, faces: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Fingers about a face wide over the picture, and which faces still show enough to be tiles."""
    widths = np.minimum(faces[:, 2] - faces[:, 0], faces[:, 3] - faces[:, 1]) if len(faces) else np.zeros(0)
    width = float(np.median(widths)) if len(widths) else float(rng.uniform(12, 60))
    image, cover = draw_fingers(image, rng, max(width, 8.0))
    h, w = cover.shape
    keep = np.ones(len(faces), bool)
    for i, (x0, y0, x1, y1) in enumerate(faces):
        xa, ya, xb, yb = max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1)))
        if xb > xa and yb > ya:
            keep[i] = cover[ya:yb, xa:xb].mean() < HIDDEN
    return image, keep


# An over-exposed sample is this much brighter, its whites clipped: a camera metering a frame of
# dark cloth lights the tiles so (the held-out photos over-exposed x1.5 lost 16 of 1865 tiles
# found and took twice the false tiles with a detector that never saw it).
OVEREXPOSED_BY = (1.3, 1.9)


def overexpose(image: np.ndarray, by: float) -> np.ndarray:
    """The picture (float, 0-255) as a camera that let in `by` times the light records it: what
    would be brighter than white is white."""
    return np.minimum(image * by, 255.0)


def recolour(image: np.ndarray, rng: np.random.Generator, overexposed: float = 0.0) -> np.ndarray:
    """Light, colour cast, blur and noise of other cameras and rooms; over-exposed, whites
    clipped, in an `overexposed` share."""
    out = image.astype(np.float32)
    if overexposed and rng.random() < overexposed:
        out = overexpose(out, float(rng.uniform(*OVEREXPOSED_BY)))
    out = out * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    out *= rng.uniform(0.85, 1.15, 3).astype(np.float32)
    if rng.random() < 0.1:
        out[:] = out.mean(axis=2, keepdims=True)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 1.8)))
    if rng.random() < 0.3:
        out += rng.normal(0, rng.uniform(2, 10), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def targets(sample: Sample, side: int) -> dict[str, np.ndarray]:
    """The network's targets at every STRIDE-th pixel: heatmaps (2, S, S) with Gaussian peaks
    at face centres (sized by the face, so touching tiles keep apart), their loss weights, and
    at each centre cell its size, offset, pose and body, with masks for what is known."""
    cells = side // STRIDE
    heat = np.zeros((2, cells, cells), np.float32)
    weight = np.ones((2, cells, cells), np.float32)
    if not sample.knows_backs:
        weight[FACE_DOWN_HEAT] = 0.0
    reg = np.zeros((8, cells, cells), np.float32)      # log w, log h, dx, dy, ext x4
    reg_mask = np.zeros((3, cells, cells), np.float32)  # size and offset / sideways / body
    sideways = np.zeros((cells, cells), np.float32)
    for i, box in enumerate(sample.faces):
        x1, y1, x2, y2 = box
        full = max(1e-3, (x2 - x1) * (y2 - y1))
        cx1, cy1, cx2, cy2 = np.clip(box, 0, side)
        visible = max(0.0, cx2 - cx1) * max(0.0, cy2 - cy1) / full
        if visible <= 0:
            continue
        g = slice(int(cy1 // STRIDE), int(np.ceil(cy2 / STRIDE))), slice(int(cx1 // STRIDE), int(np.ceil(cx2 / STRIDE)))
        channel = FACE_DOWN_HEAT if sample.down[i] else FACE_UP
        if visible < MIN_VISIBLE or min(x2 - x1, y2 - y1) < MIN_FACE:
            weight[:, g[0], g[1]] = 0.0   # neither a tile nor no tile: too little of it shows
            continue
        cx, cy = (cx1 + cx2) / 2 / STRIDE, (cy1 + cy2) / 2 / STRIDE
        fw, fh = (cx2 - cx1) / STRIDE, (cy2 - cy1) / STRIDE
        _gaussian(heat[channel], cx, cy, fw, fh)
        ix, iy = min(cells - 1, int(cx)), min(cells - 1, int(cy))
        reg[:4, iy, ix] = (np.log(fw), np.log(fh), cx - ix, cy - iy)
        reg_mask[0, iy, ix] = 1.0
        if sample.sideways is not None:
            sideways[iy, ix] = float(sample.sideways[i])
            reg_mask[1, iy, ix] = 1.0
        if sample.wholes is not None and visible > 0.98:
            wx1, wy1, wx2, wy2 = sample.wholes[i]
            reg[4:, iy, ix] = np.maximum(0.0, [(x1 - wx1) / (x2 - x1), (y1 - wy1) / (y2 - y1),
                                              (wx2 - x2) / (x2 - x1), (wy2 - y2) / (y2 - y1)])
            reg_mask[2, iy, ix] = 1.0
    return {"heat": heat, "weight": weight, "reg": reg, "reg_mask": reg_mask, "sideways": sideways}


def _gaussian(plane: np.ndarray, cx: float, cy: float, w: float, h: float) -> None:
    """Raise `plane` to a Gaussian peak of 1 at (cx, cy), spread by the face's size (TTFNet's
    elliptic Gaussian: a sixth of the box times 0.54 on each axis)."""
    sx, sy = max(0.4, 0.54 * w / 6), max(0.4, 0.54 * h / 6)
    x0, x1 = max(0, int(cx - 3 * sx)), min(plane.shape[1], int(cx + 3 * sx) + 2)
    y0, y1 = max(0, int(cy - 3 * sy)), min(plane.shape[0], int(cy + 3 * sy) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    xs = np.arange(x0, x1, dtype=np.float32) + 0.5
    ys = np.arange(y0, y1, dtype=np.float32) + 0.5
    g = np.exp(-((xs[None] - cx) ** 2) / (2 * sx * sx) - ((ys[:, None] - cy) ** 2) / (2 * sy * sy))
    ix, iy = min(plane.shape[1] - 1, int(cx)), min(plane.shape[0] - 1, int(cy))
    np.maximum(plane[y0:y1, x0:x1], g, out=plane[y0:y1, x0:x1])
    plane[iy, ix] = 1.0
