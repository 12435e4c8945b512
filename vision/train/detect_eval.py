"""How well a detector finds tiles: each labelled tile matched to at most one detection
(IoU >= 0.5, best overlaps first), what is left over counts as false."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

IOU_MATCH = 0.5


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.asarray(a, np.float32).reshape(-1, 4), np.asarray(b, np.float32).reshape(-1, 4)
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])  # noqa: E731
    return inter / np.maximum(area(a)[:, None] + area(b)[None, :] - inter, 1e-6)


def match(labels: np.ndarray, detections: np.ndarray) -> list[int | None]:
    """For each labelled box, the index of the detection it is matched to (or None)."""
    out: list[int | None] = [None] * len(labels)
    if len(labels) == 0 or len(detections) == 0:
        return out
    ious = iou_matrix(labels, detections)
    used: set[int] = set()
    for flat in np.argsort(-ious, axis=None):
        i, j = divmod(int(flat), ious.shape[1])
        if ious[i, j] < IOU_MATCH:
            break
        if out[i] is None and j not in used:
            out[i] = j
            used.add(j)
    return out


@dataclass
class Finding:
    tiles: int = 0
    found: int = 0
    detections: int = 0
    photos: int = 0

    def add(self, labels: np.ndarray, detections: np.ndarray) -> None:
        matched = match(labels, detections)
        self.tiles += len(labels)
        self.found += sum(m is not None for m in matched)
        self.detections += len(detections)
        self.photos += 1

    @property
    def recall(self) -> float:
        return self.found / self.tiles if self.tiles else 0.0

    @property
    def false_per_photo(self) -> float:
        return (self.detections - self.found) / self.photos if self.photos else 0.0

    @property
    def f1(self) -> float:
        precision = self.found / self.detections if self.detections else 0.0
        return 2 * precision * self.recall / (precision + self.recall) if precision + self.recall else 0.0

    def __str__(self) -> str:
        return (f"found {self.recall:.1%} ({self.found}/{self.tiles}), "
                f"{self.false_per_photo:.2f} false a photo, F1 {self.f1:.3f}")


def worst(findings: dict[str, Finding]) -> tuple[str, float]:
    """The source a model does worst on and its F1 there: what the epoch, the threshold and the
    recipe are chosen by, since a player's table is always a source the model never saw and
    an average over sources hides the one it fails."""
    name = min(findings, key=lambda k: findings[k].f1)
    return name, findings[name].f1


def choose_threshold(sweep: dict[float, dict[str, Finding]]) -> float:
    """The threshold whose worst source scores best: false tiles count through each source's
    F1, the wide webcam frames with shelves behind among the sources (where they gather).

    Thresholds whose worst source comes within the noise of that best (one standard error of
    its share of tiles found: a few tiles either way) are a tie, broken by the mean F1 over
    every source. Otherwise a difference of two tiles on one source would outvote a third of the
    false tiles on all the others."""
    best = max(sweep, key=lambda t: worst(sweep[t])[1])
    name, top = worst(sweep[best])
    f = sweep[best][name]
    noise = math.sqrt(f.recall * (1 - f.recall) / f.tiles) if f.tiles else 0.0
    tied = [t for t in sweep if worst(sweep[t])[1] >= top - noise]
    return max(tied, key=lambda t: sum(x.f1 for x in sweep[t].values()) / len(sweep[t]))
