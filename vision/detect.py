"""Finding tiles: a learned detector (ONNX, run with onnxruntime on the CPU), one look at a photo,
and a closer one where its tiles are small.

The photo is shrunk so its long side is DETECT_SIDE pixels (padded to a multiple of 32) and the
network (`vision/train/detect_model.py`) answers at every fourth pixel with:
    0  face-up tile centred here (logit)        1  face-down tile centred here (logit)
    2  the tile lies sideways (logit)           3, 4  log of the face's width, height (cells)
    5, 6  the centre within the cell (logits)   7-10  how far the body shows beyond the face,
                                                      left, top, right, bottom (share of face)
Where the model's settings say so (`mirrored`), the network also answers for the photo
mirrored left to right, and the two answers are averaged into one (`unmirrored`, `averaged`).
A tile is a local peak of either heatmap above a threshold; overlapping peaks of one tile are
merged by box overlap. Each tile keeps two boxes: its face (cut out and named by the
classifier) and the whole tile as seen, face and body (what a person would draw around it).

Where the tiles found are small at that size (a hand in a strip of a webcam frame, a table seen
from a chair), the part of the photo that holds them is searched again, enlarged (`closer_view`),
and its tiles are the photo's; unless they lie askew (`vision.level`): the pipeline then finds
them again in the photo turned level, and looks closer there.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models import model_path

from .level import LEVEL_FROM, hand_tilt
from .onnx_model import open_session

UPRIGHT, SIDEWAYS, FACE_DOWN = "upright", "sideways", "face_down"
MODEL_NAME = "tile_detector.onnx"
DETECT_SIDE = 512   # the long side the network sees; a whole table's tiles still have 12 pixels
STRIDE = 4
MAX_TILES = 300     # peaks taken at most; a photo of a whole set laid out holds 144
# The network is the one step of a photo big enough to share: on 2 cores, 30 held-out photos
# took a median 22.6 ms on one thread and 13.0 ms on two.
DETECT_THREADS = 2
Box = tuple[int, int, int, int]

# The closer look. The detector misses small tiles: on Blender frames (2026-11-28), of tiles whose
# whole box's short side measured under 18 pixels at DETECT_SIDE it found 60%, at 18-23 93%, from
# 24 up 99-100%. So where the photo's tiles measure under CLOSER_BELOW (their median), the part
# of the photo holding them, CLOSER_MARGIN tile lengths around for the tiles the first look
# missed, is searched enlarged until they measure CLOSER_TO, at most CLOSER_AT_MOST times and
# no more pixels than CLOSER_COST of the first look's; less than CLOSER_AT_LEAST times is not worth a look.
# The photo's own pixels are enlarged at most PIXELS_AT_MOST times: further, a tile is a blur the
# detector never learnt (rendered webcam frames 310 pixels wide, read closer at 2.8: 110 of 116
# tiles found against 114 at one look).
CLOSER_BELOW = 28
CLOSER_TO = 34
CLOSER_MARGIN = 1.5
CLOSER_AT_MOST = 3.0
CLOSER_AT_LEAST = 1.25
PIXELS_AT_MOST = 2.0
CLOSER_COST = 1.0   # the closer look's pixels (its time) against the first look's
# A tile of the closer look is kept only where the first look glimpsed one: its heatmaps peaked
# within a cell of the tile's centre at GLIMPSED_SHARE of the threshold or more. Enlarged, the
# CJK-titled book spines above a rendered webcam frame's hand were taken for tiles where the first
# look saw nothing.
GLIMPSED_SHARE = 0.5


@dataclass(frozen=True)
class Found:
    """One tile: its face's box (x1, y1, x2, y2) in the pixels of the image searched, pose,
    how sure the detector is, and the whole tile's box (face and visible body)."""
    box: Box
    pose: str
    score: float = 1.0
    whole: Box | None = None

    @property
    def width(self) -> int:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]

    @property
    def outline(self) -> Box:
        return self.whole or self.box

    def moved(self, dx: int, dy: int) -> "Found":
        """This tile in the pixels of an image its own lies in at (dx, dy)."""
        def move(b: Box) -> Box:
            return b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy
        return Found(move(self.box), self.pose, self.score, move(self.whole) if self.whole else None)


def letterbox(image: np.ndarray, side: int = DETECT_SIDE) -> tuple[np.ndarray, float]:
    """The image shrunk (or grown) so its long side is `side`, padded right and below to
    multiples of 32 with grey; and the factor from image pixels to these."""
    factor = side / max(image.shape[:2])
    return scaled(image, factor), factor


def scaled(image: np.ndarray, factor: float) -> np.ndarray:
    """The image scaled by `factor`, padded right and below to multiples of 32 with grey."""
    height, width = image.shape[:2]
    new_w, new_h = max(1, round(width * factor)), max(1, round(height * factor))
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (new_w, new_h), interpolation=interpolation)
    out = np.full((-(-new_h // 32) * 32, -(-new_w // 32) * 32, 3), 114, np.uint8)
    out[:new_h, :new_w] = resized
    return out


def closer_view(tiles: list[Found], shape: tuple[int, int], side: int = DETECT_SIDE) -> tuple[Box, float] | None:
    """The part of an image of `shape` (h, w) to search again for tiles too small at `side`,
    and the factor to scale it by; None where the tiles found are big enough, or the part would
    not come out enough larger than it was seen."""
    if not tiles:
        return None
    height, width = shape
    seen = side / max(height, width)
    boxes = np.array([t.outline for t in tiles], np.float32)
    sizes = boxes[:, 2:] - boxes[:, :2]
    small = float(np.median(sizes.min(axis=1))) * seen
    if small >= CLOSER_BELOW:
        return None
    around = CLOSER_MARGIN * float(np.median(sizes.max(axis=1)))
    x1, y1 = int(max(0, boxes[:, 0].min() - around)), int(max(0, boxes[:, 1].min() - around))
    x2, y2 = int(min(width, boxes[:, 2].max() + around + 1)), int(min(height, boxes[:, 3].max() + around + 1))
    factor = seen * min(CLOSER_TO / max(small, 1.0), CLOSER_AT_MOST)
    budget = CLOSER_COST * height * width * seen * seen   # the network's time goes with its pixels
    factor = min(factor, PIXELS_AT_MOST, (budget / ((x2 - x1) * (y2 - y1))) ** 0.5)
    if factor < CLOSER_AT_LEAST * seen:
        return None
    return (x1, y1, x2, y2), factor


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def decode(raw: np.ndarray, threshold: float, factor: float, shape: tuple[int, int],
           overlap: float = 0.6) -> list[Found]:
    """Tiles from the network's output (11, H/4, W/4) for an image of `shape` (h, w) that was
    scaled by `factor` before it was searched."""
    heats = _sigmoid(raw[:2].astype(np.float32))
    peaks = heats == np.stack([cv2.dilate(h, np.ones((3, 3), np.uint8)) for h in heats])
    channel, ys, xs = np.nonzero(peaks & (heats >= threshold))
    scores = heats[channel, ys, xs]
    order = np.argsort(-scores)[:MAX_TILES]
    channel, ys, xs, scores = channel[order], ys[order], xs[order], scores[order]
    w = np.exp(np.clip(raw[3, ys, xs], -3, 6)) * STRIDE
    h = np.exp(np.clip(raw[4, ys, xs], -3, 6)) * STRIDE
    cx = (xs + _sigmoid(raw[5, ys, xs])) * STRIDE
    cy = (ys + _sigmoid(raw[6, ys, xs])) * STRIDE
    sideways = raw[2, ys, xs] > 0
    ext = np.log1p(np.exp(raw[7:11, ys, xs]))  # softplus: a body never shows a negative width
    faces = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1) / factor
    wholes = faces + np.stack([-ext[0] * w, -ext[1] * h, ext[2] * w, ext[3] * h], 1) / factor
    limit = np.array([shape[1], shape[0], shape[1], shape[0]], np.float32)
    faces, wholes = np.clip(faces, 0, limit), np.clip(wholes, 0, limit)
    kept: list[Found] = []
    for i in _suppress(faces, overlap):
        face = tuple(int(round(v)) for v in faces[i])
        if face[2] - face[0] < 2 or face[3] - face[1] < 2:
            continue
        pose = FACE_DOWN if channel[i] == 1 else SIDEWAYS if sideways[i] else UPRIGHT
        kept.append(Found(face, pose, float(scores[i]), tuple(int(round(v)) for v in wholes[i])))
    return kept


def unmirrored(raw: np.ndarray) -> np.ndarray:
    """The network's answer for a mirrored image put back as for the image itself: the maps
    flipped across, the centre's place within its cell mirrored (its logit negated), the body's
    left and right extents swapped. The image is mirrored whole, padding included, so its cells
    fall on the image's own."""
    out = raw[:, :, ::-1].copy()
    out[5] = -out[5]
    out[[7, 9]] = out[[9, 7]]
    return out


def averaged(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Two answers for one image as one: the heats averaged as probabilities (kept as logits,
    as `decode` reads them), sizes, offsets and bodies averaged as given."""
    out = (a.astype(np.float32) + b.astype(np.float32)) / 2
    heat = np.clip((_sigmoid(a[:2].astype(np.float32)) + _sigmoid(b[:2].astype(np.float32))) / 2, 1e-6, 1 - 1e-6)
    out[:2] = np.log(heat) - np.log1p(-heat)
    return out


def _suppress(boxes: np.ndarray, overlap: float) -> list[int]:
    """Indices of boxes (best first) that overlap no better-scored kept box by more than
    `overlap` of the smaller: one tile's face can peak in two neighbouring cells, and its
    face-up and face-down peaks can both pass on a blank white dragon."""
    kept: list[int] = []
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    for i in range(len(boxes)):
        if kept:
            k = np.array(kept)
            ix = np.clip(np.minimum(boxes[k, 2], boxes[i, 2]) - np.maximum(boxes[k, 0], boxes[i, 0]), 0, None)
            iy = np.clip(np.minimum(boxes[k, 3], boxes[i, 3]) - np.maximum(boxes[k, 1], boxes[i, 1]), 0, None)
            smaller = np.minimum(areas[k], areas[i])
            if np.any(ix * iy > overlap * np.maximum(smaller, 1e-6)):
                continue
        kept.append(i)
    return kept


class TileFinder:
    """The shipped detector. Thread-compatible; one instance per process is enough."""

    def __init__(self, path: Path | None = None, threads: int = DETECT_THREADS, closer: bool = True,
                 mirrored: bool | None = None) -> None:
        """`closer`: take the closer look where tiles are small (`bench.vision --one-look` reads
        without it beside, to show what it is worth); `mirrored`: average in the answer for the
        image mirrored (None: as the model's settings say, since its threshold was chosen so)."""
        self.closer = closer
        path = Path(path) if path is not None else model_path(MODEL_NAME)
        self._session = open_session(path, threads, "the tile detector", "python -m vision.train.detector")
        self._input = self._session.get_inputs()[0].name
        meta = self._session.get_modelmeta().custom_metadata_map
        # The threshold is chosen on tuning photos when the model is trained and stored with it.
        settings = json.loads(meta.get("settings", "{}"))
        self.settings = settings   # also what it was trained on, where the model says (`trained_on`)
        self.threshold = float(settings.get("threshold", 0.35))
        self.side = int(settings.get("side", DETECT_SIDE))
        self.mirrored = bool(settings.get("mirrored", False)) if mirrored is None else mirrored

    def raw(self, image: np.ndarray, factor: float | None = None) -> tuple[np.ndarray, float]:
        """The network's output for a BGR image, and the factor the image was scaled by: to the
        detector's side, unless `factor` is given."""
        if factor is None:
            boxed, factor = letterbox(image, self.side)
        else:
            boxed = scaled(image, factor)
        batch = np.ascontiguousarray(boxed.transpose(2, 0, 1)[None], np.float32)
        raw = self._session.run(None, {self._input: batch})[0][0]
        if self.mirrored:
            # A second opinion the network was trained to give (it learnt from mirrored photos
            # too): where the two disagree on a patch, the average is less sure of it.
            mirror = np.ascontiguousarray(batch[..., ::-1])
            raw = averaged(raw, unmirrored(self._session.run(None, {self._input: mirror})[0][0]))
        return raw, factor

    def look(self, image: np.ndarray, threshold: float | None = None, factor: float | None = None) -> list[Found]:
        """The tiles one pass of the network finds (see `raw`)."""
        raw, factor = self.raw(image, factor)
        return decode(raw, self.threshold if threshold is None else threshold, factor, image.shape[:2])

    def find(self, image: np.ndarray, threshold: float | None = None) -> list[Found]:
        """Every tile: one look at the whole image and, where its tiles are small, the tiles of a
        closer look at the part that holds them (which finds the first look's tiles again, with
        truer boxes), where the first look glimpsed them."""
        threshold = self.threshold if threshold is None else threshold
        raw, seen = self.raw(image)
        tiles = decode(raw, threshold, seen, image.shape[:2])
        # tiles lying askew are found again levelled (`vision.scan.read_found`), closer there if
        # they are small: a closer look at them here would be time lost
        askew = abs(hand_tilt([t.box for t in tiles])) >= LEVEL_FROM
        closer = closer_view(tiles, image.shape[:2], self.side) if self.closer and not askew else None
        if closer is None:
            return tiles
        (x1, y1, x2, y2), factor = closer
        nearer = [t.moved(x1, y1) for t in self.look(image[y1:y2, x1:x2], threshold, factor)]
        return [t for t in nearer if glimpse(raw, seen, t.box) >= threshold * GLIMPSED_SHARE]


def glimpse(raw: np.ndarray, factor: float, box: Box) -> float:
    """How sure a look (`raw`, of an image scaled by `factor`) was of a tile, face up or down,
    within a cell of the centre of `box` (in the image's pixels)."""
    col = int((box[0] + box[2]) / 2 * factor / STRIDE)
    row = int((box[1] + box[3]) / 2 * factor / STRIDE)
    cells = raw[:2, max(0, row - 1):row + 2, max(0, col - 1):col + 2]
    return float(_sigmoid(cells.astype(np.float32)).max()) if cells.size else 0.0


_FINDER: TileFinder | None = None


def find_tiles(image: np.ndarray, finder: TileFinder | None = None) -> list[Found]:
    """Every tile in a BGR image, surest first, found by the shipped detector (loaded once)."""
    global _FINDER
    if finder is None:
        if _FINDER is None:
            _FINDER = TileFinder()
        finder = _FINDER
    return finder.find(image)
