"""Medians and a percentile exactly as numpy gives them, without numpy's general machinery:
the finder takes them of many short arrays, where that machinery costs several times the
selection, and of uint8 pixels, which a histogram counts faster than a sort orders.
`tests/test_finder_speed_equivalence.py` checks each against numpy.
"""
from __future__ import annotations

import numpy as np


def median(values) -> float:
    """np.median of a 1-D float64 or integer array or list, to the last bit (the middle value,
    or the two middle ones added and halved, as numpy's mean does; NaN if any is NaN) without
    numpy's general machinery, which costs several times the selection on the short arrays
    the finder takes medians of."""
    a = np.asarray(values)
    n = a.size
    if n == 0 or a.ndim != 1 or a.dtype.kind not in "iuf" or (a.dtype.kind == "f" and a.dtype != np.float64):
        return float(np.median(a))
    low, high = (n - 1) // 2, n // 2
    part = np.partition(a, [low, high, n - 1] if a.dtype.kind == "f" else [low, high])
    if a.dtype.kind == "f" and np.isnan(part[-1]):
        return float("nan")
    return float(part[low]) if low == high else (float(part[low]) + float(part[high])) / 2


def median_u8(values: np.ndarray) -> float:
    """np.median of a non-empty uint8 array, from its histogram: the middle value, or the
    mean of the two middle ones."""
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    n = int(counts[-1])
    low = int(np.searchsorted(counts, (n - 1) // 2, side="right"))
    high = int(np.searchsorted(counts, n // 2, side="right"))
    return float(low) if low == high else (low + high) / 2


def median_colour(pixels: np.ndarray) -> np.ndarray:
    """np.median(pixels, axis=0) of colours (one a line), as floats. Many uint8 pixels are
    counted per channel (`median_u8`); a few, or other types, are left to numpy, on their own
    values (the mean of two middle values comes out the same as from floats, without
    converting them)."""
    if pixels.dtype != np.uint8 or len(pixels) < 2000:
        return np.median(pixels, axis=0)
    return np.array([median_u8(pixels[:, channel]) for channel in range(pixels.shape[1])])


def at_least_percentile(values: np.ndarray, q: float) -> np.ndarray:
    """values >= np.percentile(values, q) for a uint8 array, without sorting it: the
    percentile lies between two neighbouring values of the sorted array (numpy's linear
    rule), and no value lies strictly between those two, so the test is against the lower
    one where the percentile falls on it, else against the upper one."""
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    n = int(counts[-1])
    place = (n - 1) * (q / 100)     # as numpy computes it: the same float
    below = int(np.floor(place))
    lower = int(np.searchsorted(counts, below, side="right"))
    upper = int(np.searchsorted(counts, min(below + 1, n - 1), side="right"))
    return values >= (lower if place == below else upper)
