"""Measuring the shipped model: rendered crops it never saw, red fives, the held-out real sets,
and the time per crop."""
from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

from ..classify import TileClassifier
from ..render.crops import render_crops
from .real import RealCrop


@dataclass
class Score:
    right: int = 0
    total: int = 0
    confusions: Counter = field(default_factory=Counter)

    @property
    def accuracy(self) -> float:
        return self.right / self.total if self.total else float("nan")

    def text(self) -> str:
        return f"{self.accuracy:.1%} ({self.right}/{self.total})"


def score(classifier: TileClassifier, crops: list[np.ndarray], labels: list[str]) -> Score:
    s = Score()
    for i in range(0, len(crops), 256):
        for ranked, truth in zip(classifier.classify(crops[i:i + 256]), labels[i:i + 256]):
            s.total += 1
            if ranked[0][0] == truth:
                s.right += 1
            else:
                s.confusions[(truth, ranked[0][0])] += 1
    return s


def rendered(count: int, seed: int, stream: int = 999) -> tuple[list[np.ndarray], list[str]]:
    """`count` rendered crops; other `stream`s give crops the measuring stream never shows."""
    rng = np.random.default_rng([seed, stream])
    crops, labels = [], []
    while len(crops) < count:
        for crop, label in render_crops(rng):
            crops.append(crop)
            labels.append(label)
    return crops[:count], labels[:count]


def red_fives(count: int, seed: int) -> tuple[list[np.ndarray], list[str]]:
    """Rows of fives only, red and plain mixed: the aka dora test."""
    rng = np.random.default_rng([seed, 555])
    crops, labels = [], []
    fives = ["5m", "5p", "5s", "0m", "0p", "0s"]
    while len(crops) < count:
        row = [fives[int(i)] for i in rng.integers(0, 6, 5)]
        for crop, label in render_crops(rng, row):
            crops.append(crop)
            labels.append(label)
    return crops[:count], labels[:count]


def real_by_set(classifier: TileClassifier, crops: list[RealCrop]) -> dict[str, Score]:
    groups: dict[str, tuple[list, list]] = defaultdict(lambda: ([], []))
    for c in crops:
        kind = "crops" if c.source.startswith("crops/") else "photo boxes"
        keys = [f"set {c.set_name}, {kind}", f"all held-out {kind}"]
        bonus = c.label.endswith("f")   # flowers and seasons: the classes real makers vary most
        keys.append(f"all held-out {kind}, {'flowers and seasons only' if bonus else 'without flowers and seasons'}")
        for key in keys:
            groups[key][0].append(c.image)
            groups[key][1].append(c.label)
    return {key: score(classifier, *data) for key, data in sorted(groups.items())}


def latency_ms(classifier: TileClassifier, crops: list[np.ndarray], batch: int = 14, rounds: int = 20) -> float:
    """Milliseconds per crop, classifying a hand's worth (`batch`) at a time, preparation included."""
    sample = crops[:batch]
    classifier.classify(sample)
    start = time.perf_counter()
    for _ in range(rounds):
        classifier.classify(sample)
    return (time.perf_counter() - start) * 1000 / (rounds * len(sample))


def worst(confusions: Counter, n: int = 8) -> str:
    return ", ".join(f"{t}->{p} x{c}" for (t, p), c in confusions.most_common(n)) or "none"


__all__ = ["Score", "score", "rendered", "red_fives", "real_by_set", "latency_ms", "worst"]
