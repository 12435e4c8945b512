"""The synthetic training set: rendered crops, shrunk to the network's input size, built in
parallel with a seed per chunk (so the same seed gives the same set on any number of workers)
and cached outside the repository."""
from __future__ import annotations

import hashlib
import os
import tempfile
from functools import lru_cache
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from ..classify import INPUT_H, INPUT_W
from ..labels import INDEX
from ..render.crops import render_crops

CHUNK = 500


def cache_dir() -> Path:
    root = os.environ.get("TENBOU_CACHE") or os.path.join(tempfile.gettempdir(), "tenbou-train-cache")
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def crop_sources() -> list[Path]:
    """The code that makes the cached crops: the renderer, and this module, which shrinks them
    to the network's input size."""
    return sorted((Path(__file__).resolve().parents[1] / "render").glob("*.py")) + [Path(__file__).resolve()]


@lru_cache(maxsize=1)
def _renderer_digest() -> str:
    """Changes whenever `crop_sources` or the network's input size do, so a stale cache is never
    reused. Read once per process: the code in memory is the one this process started with,
    even if its files are edited during a long run."""
    digest = hashlib.sha256(f"{INPUT_W}x{INPUT_H}".encode())   # the size lives in vision/classify.py
    for path in crop_sources():
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _chunk(args: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, index, size = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, index])
    images = np.empty((size, INPUT_H, INPUT_W, 3), np.uint8)
    labels = np.empty(size, np.int64)
    n = 0
    while n < size:
        for crop, label in render_crops(rng):
            if n == size:
                break
            images[n] = cv2.resize(crop, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
            labels[n] = INDEX[label]
            n += 1
    return images, labels


def synthetic(count: int, seed: int, workers: int = 2, log=print) -> tuple[np.ndarray, np.ndarray]:
    """`count` rendered crops (N, H, W, 3) uint8 BGR and their class indices."""
    path = cache_dir() / f"crops-{_renderer_digest()}-{seed}-{count}.npz"
    if path.is_file():
        with np.load(path) as cached:
            log(f"using cached crops {path}")
            return cached["images"], cached["labels"]
    chunks = [(seed, i, min(CHUNK, count - i * CHUNK)) for i in range((count + CHUNK - 1) // CHUNK)]
    images, labels = [], []
    with Pool(workers) as pool:
        for i, (im, lab) in enumerate(pool.imap(_chunk, chunks)):
            images.append(im)
            labels.append(lab)
            if i % 10 == 0:
                log(f"rendered {min(count, (i + 1) * CHUNK)}/{count} crops")
    out = np.concatenate(images), np.concatenate(labels)
    np.savez(path, images=out[0], labels=out[1])
    return out
