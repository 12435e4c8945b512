"""Seam profiles: where touching tiles part, and how often they repeat.

Between two touching tiles runs a seam, a line darker than both sides. Summed along a row
of tiles (or down a column), seams make a profile with peaks one tile apart; the symbols'
strokes add smaller, irregular peaks. These functions find the repeat length of such a
profile and cut it into tiles at the strongest seams.
"""
from __future__ import annotations

import cv2
import numpy as np


def valleys(gray: np.ndarray, axis: int, threshold: int = 6) -> np.ndarray:
    """Pixels darker than both neighbours 1-4 pixels away along `axis` (wrapping round at the
    ends): seams and strokes. `gray` is uint8 and `threshold` at least 0."""
    reach = 4
    size = gray.shape[axis]
    pad = [(reach, reach) if a == axis else (0, 0) for a in range(gray.ndim)]
    padded = np.pad(gray, pad, mode="wrap")

    def shifted(offset: int) -> np.ndarray:
        index = [slice(None)] * gray.ndim
        index[axis] = slice(reach + offset, reach + offset + size)
        return padded[tuple(index)]

    # Darker than both sides by more than `threshold` at some distance d: the darker side's
    # value, at the d where it is lightest, minus the pixel, is above the threshold. Kept in
    # uint8 (OpenCV's subtraction stops at 0) rather than int16 per distance: a third of the time.
    ridge = np.minimum(shifted(-1), shifted(1))
    for d in range(2, reach + 1):
        np.maximum(ridge, np.minimum(shifted(-d), shifted(d)), out=ridge)
    return cv2.subtract(ridge, np.ascontiguousarray(gray)) > threshold


def period_candidates(profile: np.ndarray, low: float, high: float) -> list[tuple[float, float]]:
    """Repeat lengths of a seam profile within [low, high], each with its autocorrelation."""
    p = profile - profile.mean()
    ac = np.correlate(p, p, "full")[len(p) - 1:]
    if ac[0] <= 0:
        return []
    ac = ac / ac[0]
    lo, hi = max(2, int(low)), min(len(ac) - 2, int(high))
    return [(float(i), float(ac[i])) for i in range(lo, hi + 1)
            if ac[i] >= ac[i - 1] and ac[i] >= ac[i + 1] and ac[i] > 0.02]


def period(profile: np.ndarray, low: float, high: float) -> tuple[float, float]:
    """The repeat length of a seam profile within [low, high] and how clear it is (0-1).

    The shortest lag nearly as strong as the best wins, so a period is not mistaken for
    twice itself."""
    peaks = period_candidates(profile, low, high)
    if not peaks:
        return 0.0, 0.0
    best = max(value for _, value in peaks)
    return next((lag, value) for lag, value in peaks if value >= 0.75 * best)


def _peaks(profile: np.ndarray, window: int) -> list[int]:
    """Places worth cutting at: the strongest point within `window` either side, and at
    least a tenth of the strongest seam."""
    if len(profile) < 3:
        return []
    size = 2 * window + 1
    local_max = np.lib.stride_tricks.sliding_window_view(np.pad(profile, window, mode="edge"), size).max(axis=1)
    keep = (profile >= local_max) & (profile > 0.1 * profile.max())
    keep[0] = keep[-1] = False
    peaks = np.flatnonzero(keep)
    if peaks.size == 0:
        return []
    # A flat top gives several equal maxima: keep the first of each run.
    return [int(p) for k, p in enumerate(peaks) if k == 0 or p - peaks[k - 1] > window]


def cut_profile(profile: np.ndarray, step: float, low: float, high: float) -> list[int]:
    """Cut [0, len) into pieces of length in [low*step, high*step], placing cuts on the
    strongest seams; pieces near `step` (or 4/3 of it, a sideways tile) cost least. A stretch
    with no seam seen is cut evenly into whole tiles."""
    n = len(profile)
    if n <= high * step:
        return [0, n]
    smooth = np.convolve(profile, [0.25, 0.5, 0.25], "same")
    gain = (smooth / (smooth.max() + 1e-9)).tolist()
    points = [0] + _peaks(smooth, max(1, int(step / 6))) + [n]
    score = [-np.inf] * len(points)
    back = [0] * len(points)
    pieces = [1] * len(points)
    score[0] = 0.0
    lo, hi, sideways = low * step, high * step, 4 / 3 * step
    last = len(points) - 1
    # Plain floats and early exits: this loop is the finder's hot spot.
    for i in range(1, len(points)):
        here = points[i]
        bonus = gain[here] if i < last else 0.0
        for j in range(i - 1, -1, -1):
            length = here - points[j]
            if length > 3 * hi:
                break
            if length < lo or score[j] == -np.inf:
                continue
            count = max(1, round(length / step))
            each = length / count
            if each < lo or each > hi:
                continue
            misfit = min(abs(each - step), abs(each - sideways)) / step
            total = score[j] - 2.0 * misfit - 0.6 * (count - 1) + bonus
            if total > score[i]:
                score[i], back[i], pieces[i] = total, j, count
    if score[-1] == -np.inf:
        return [0, n]
    cuts, i = [n], len(points) - 1
    while i > 0:
        j = back[i]
        start, end = points[j], points[i]
        cuts += [int(round(end - k * (end - start) / pieces[i])) for k in range(1, pieces[i])]
        cuts.append(start)
        i = j
    return sorted(set(cuts))
