"""Finding tiles: a learned detector (ONNX, run with onnxruntime on the CPU), one pass a photo.

The photo is shrunk so its long side is DETECT_SIDE pixels (padded to a multiple of 32) and the
network (`vision/train/detect_model.py`) answers at every fourth pixel with:
    0  face-up tile centred here (logit)        1  face-down tile centred here (logit)
    2  the tile lies sideways (logit)           3, 4  log of the face's width, height (cells)
    5, 6  the centre within the cell (logits)   7-10  how far the body shows beyond the face,
                                                      left, top, right, bottom (share of face)
A tile is a local peak of either heatmap above a threshold; overlapping peaks of one tile are
merged by box overlap. Each tile keeps two boxes: its face (cut out and named by the
classifier) and the whole tile as seen, face and body (what a person would draw around it).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models import model_path

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


def letterbox(image: np.ndarray, side: int = DETECT_SIDE) -> tuple[np.ndarray, float]:
    """The image shrunk (or grown) so its long side is `side`, padded right and below to
    multiples of 32 with grey; and the factor from image pixels to these."""
    height, width = image.shape[:2]
    factor = side / max(height, width)
    new_w, new_h = max(1, round(width * factor)), max(1, round(height * factor))
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (new_w, new_h), interpolation=interpolation)
    out = np.full((-(-new_h // 32) * 32, -(-new_w // 32) * 32, 3), 114, np.uint8)
    out[:new_h, :new_w] = resized
    return out, factor


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

    def __init__(self, path: Path | None = None, threads: int = DETECT_THREADS) -> None:
        path = Path(path) if path is not None else model_path(MODEL_NAME)
        self._session = open_session(path, threads, "the tile detector", "python -m vision.train.detector")
        self._input = self._session.get_inputs()[0].name
        meta = self._session.get_modelmeta().custom_metadata_map
        # The threshold is chosen on tuning photos when the model is trained and stored with it.
        settings = json.loads(meta.get("settings", "{}"))
        self.settings = settings   # also what it was trained on, where the model says (`trained_on`)
        self.threshold = float(settings.get("threshold", 0.35))
        self.side = int(settings.get("side", DETECT_SIDE))

    def raw(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The network's output for a BGR image, and the factor the image was scaled by."""
        boxed, factor = letterbox(image, self.side)
        batch = np.ascontiguousarray(boxed.transpose(2, 0, 1)[None], np.float32)
        return self._session.run(None, {self._input: batch})[0][0], factor

    def find(self, image: np.ndarray, threshold: float | None = None) -> list[Found]:
        raw, factor = self.raw(image)
        return decode(raw, self.threshold if threshold is None else threshold, factor, image.shape[:2])


_FINDER: TileFinder | None = None


def find_tiles(image: np.ndarray, finder: TileFinder | None = None) -> list[Found]:
    """Every tile in a BGR image, surest first, found by the shipped detector (loaded once)."""
    global _FINDER
    if finder is None:
        if _FINDER is None:
            _FINDER = TileFinder()
        finder = _FINDER
    return finder.find(image)
