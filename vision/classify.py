"""Naming tiles: a small CNN (ONNX, run with onnxruntime on the CPU) over upright tile crops.

A crop is the axis-aligned region of one tile's face in a photo (a small margin is fine),
turned upright by the caller; any size. Each crop gets every class with its probability,
best first, so callers keep the runner-ups for repairing a doubtful read.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from models import model_path

from .labels import LABELS, label_of, tile_of  # noqa: F401  (re-exported: the classifier's names)
from .onnx_model import ModelMissing, open_session  # noqa: F401  (ModelMissing re-exported)

MODEL_NAME = "tile_classifier.onnx"
INPUT_W, INPUT_H = 48, 64
MEAN, SCALE = 0.5, 0.25
# Batches smaller than this run in one part: splitting a handful of crops saves too little.
SPLIT_AT = 8


def fit_crop(crop: np.ndarray) -> np.ndarray:
    """A crop at the network's input size (INPUT_H, INPUT_W). Shrunk first by whole factors,
    averaging blocks of pixels, then bilinearly by what is left (less than half, where bilinear
    sampling skips no pixel): OpenCV averages areas fast only by whole factors, and its general
    area resize took 0.13 ms a crop against 0.02 (a hand's 36 crops 4.8 ms against 0.9).
    Against the area resize the model was trained with (the 8-bit model calibrated on each):
    the model card's 3000 rendered crops 2967 named right against 2969, red fives 589 of 600
    both, development hands read exactly 149 of 180 against 150, fresh hands 119 of 140 both."""
    height, width = crop.shape[:2]
    by_y, by_x = max(1, height // INPUT_H), max(1, width // INPUT_W)
    if by_y > 1 or by_x > 1:
        crop = cv2.resize(crop[:height - height % by_y, :width - width % by_x],
                          (width // by_x, height // by_y), interpolation=cv2.INTER_AREA)
    return cv2.resize(crop, (INPUT_W, INPUT_H), interpolation=cv2.INTER_LINEAR)


def prepare(crops: list[np.ndarray]) -> np.ndarray:
    """BGR crops of any size -> the network's input batch (N, 3, INPUT_H, INPUT_W) float32."""
    batch = np.empty((len(crops), 3, INPUT_H, INPUT_W), np.float32)
    for i, crop in enumerate(crops):
        if crop is None or crop.ndim < 2 or crop.shape[0] < 2 or crop.shape[1] < 2:
            raise ValueError(f"crop {i} is empty: a tile crop needs at least 2x2 pixels")
        if crop.ndim == 2:
            crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
        batch[i] = fit_crop(crop[..., :3]).transpose(2, 0, 1)
    # In place: `(batch / 255 - MEAN) / SCALE` makes three fresh arrays of the batch's size,
    # 2.3 ms for a hand's 36 crops against 0.2 ms (the same values to float rounding).
    batch *= np.float32(1 / (255 * SCALE))
    batch -= np.float32(MEAN / SCALE)
    return batch


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def model_classes(stored: str | None) -> tuple[str, ...] | None:
    """A model's classes in its output's order, from its metadata (`stored`: comma-separated;
    LABELS where it says none), or None where it names a class this code does not know. A model
    from before `none` was a class names the others: it still loads, so the models of two runs
    can be measured side by side."""
    classes = LABELS if stored is None else tuple(stored.split(","))
    return classes if set(classes) <= set(LABELS) else None


class TileClassifier:
    """Names upright tile crops. Thread-compatible; one instance per process is enough."""

    def __init__(self, model_path_: Path | None = None, threads: int = 2, parts: int = 1) -> None:
        """`threads`: onnxruntime's threads inside one run; `parts`: a batch of at least
        SPLIT_AT crops is cut into this many parts, run side by side on their own threads."""
        path = Path(model_path_) if model_path_ is not None else model_path(MODEL_NAME)
        self._session = open_session(path, threads, "the tile model", "python -m vision.train")
        self._input = self._session.get_inputs()[0].name
        self.labels = model_classes(self._session.get_modelmeta().custom_metadata_map.get("labels"))
        if self.labels is None:
            raise ModelMissing(f"the tile model {path} names other classes than this code expects")
        self._parts = max(1, parts)
        self._pool = ThreadPoolExecutor(self._parts - 1) if self._parts > 1 else None

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """(N, len(self.labels)) class probabilities for the crops."""
        if not crops:
            return np.zeros((0, len(self.labels)), np.float32)
        logits = self._logits(crops)
        return softmax(logits.astype(np.float64)).astype(np.float32)

    def _run(self, crops: list[np.ndarray]) -> np.ndarray:
        return self._session.run(None, {self._input: prepare(crops)})[0]

    def _logits(self, crops: list[np.ndarray]) -> np.ndarray:
        # The crops in parts, one per thread, each part resized and named on its own thread:
        # OpenCV and onnxruntime both let go of the GIL, so a hand's twenty tiles take about
        # half the time when a second core is free; when it is not, the parts run one after
        # the other (a waiting Python thread sleeps, where onnxruntime's own intra-op threads
        # spin).
        if self._pool is None or len(crops) < SPLIT_AT:
            return self._run(crops)
        bounds = np.linspace(0, len(crops), self._parts + 1).round().astype(int)
        parts = [crops[a:b] for a, b in zip(bounds, bounds[1:])]
        others = [self._pool.submit(self._run, part) for part in parts[1:]]
        first = self._run(parts[0])
        return np.concatenate([first] + [other.result() for other in others])

    def classify(self, crops: list[np.ndarray]) -> list[list[tuple[str, float]]]:
        """For each crop, every label with its probability, most likely first."""
        probs = self.probabilities(crops)
        out = []
        for row in probs:
            order = np.argsort(-row)
            out.append([(self.labels[i], float(row[i])) for i in order])
        return out
