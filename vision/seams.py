"""Seam profiles: where touching tiles part, and how often they repeat.

Between two touching tiles runs a seam, a line darker than both sides. Summed along a row
of tiles (or down a column), seams make a profile with peaks one tile apart; the symbols'
strokes add smaller, irregular peaks. These functions find the repeat length of such a
profile and cut it into tiles at the strongest seams.
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

VALLEY_REACH = 4   # pixels either side a valley is judged against


def valleys(gray: np.ndarray, axis: int, threshold: int = 6) -> np.ndarray:
    """Pixels darker than both neighbours 1-4 pixels away along `axis` (wrapping round at the
    ends): seams and strokes. `gray` is uint8 and `threshold` at least 0."""
    return valley_depth(gray, axis) > threshold


def valley_depth(gray: np.ndarray, axis: int) -> np.ndarray:
    """How much darker (uint8) each pixel is than both its neighbours at some distance 1-4
    along `axis` (wrapping round at the ends); 0 where it is not: `valleys` at any threshold."""
    reach = VALLEY_REACH
    size = gray.shape[axis]
    if gray.ndim == 2 and size > reach:   # OpenCV's wrapped border: numpy's pad, a tenth of the time
        padded = cv2.copyMakeBorder(gray, *((reach, reach, 0, 0) if axis == 0 else (0, 0, reach, reach)),
                                    cv2.BORDER_WRAP)
    else:
        pad = [(reach, reach) if a == axis else (0, 0) for a in range(gray.ndim)]
        padded = np.pad(gray, pad, mode="wrap")

    def shifted(offset: int) -> np.ndarray:
        index = [slice(None)] * gray.ndim
        index[axis] = slice(reach + offset, reach + offset + size)
        return padded[tuple(index)]

    # The depth: the darker side's value, at the distance d where it is lightest, less the
    # pixel. Kept in uint8 (OpenCV's subtraction stops at 0) rather than int16 per distance:
    # a third of the time.
    ridge = np.minimum(shifted(-1), shifted(1))
    for d in range(2, reach + 1):
        np.maximum(ridge, np.minimum(shifted(-d), shifted(d)), out=ridge)
    return cv2.subtract(ridge, np.ascontiguousarray(gray))


def autocorrelation(profile: np.ndarray) -> np.ndarray | None:
    """The profile's autocorrelation by shift, 1 at no shift; None for a flat profile."""
    p = profile - profile.mean()
    ac = np.correlate(p, p, "full")[len(p) - 1:]
    return ac / ac[0] if ac[0] > 0 else None


def period_candidates(profile: np.ndarray, low: float, high: float) -> list[tuple[float, float]]:
    """Repeat lengths of a seam profile within [low, high], each with its autocorrelation."""
    ac = autocorrelation(profile)
    if ac is None:
        return []
    lo, hi = max(2, int(low)), min(len(ac) - 2, int(high))
    if hi < lo:
        return []
    here = ac[lo:hi + 1]
    peak = (here >= ac[lo - 1:hi]) & (here >= ac[lo + 1:hi + 2]) & (here > 0.02)
    return [(float(lo + i), float(here[i])) for i in np.flatnonzero(peak)]


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
    # A running maximum (a dilation, edges repeated): exact, and a tenth of numpy's windows.
    local_max = cv2.dilate(profile.reshape(1, -1), np.ones((1, 2 * window + 1), np.uint8),
                           borderType=cv2.BORDER_REPLICATE).reshape(-1)
    keep = (profile >= local_max) & (profile > 0.1 * profile.max())
    keep[0] = keep[-1] = False
    peaks = np.flatnonzero(keep)
    if peaks.size == 0:
        return []
    # A flat top gives several equal maxima: keep the first of each run.
    return [int(p) for k, p in enumerate(peaks) if k == 0 or p - peaks[k - 1] > window]


@lru_cache(maxsize=64)   # every row of a patch is cut at the same step
def piece_costs(step: float, lo: float, hi: float) -> tuple[tuple, tuple, tuple]:
    """For every whole length up to 3*hi, what a stretch that long costs `cut_profile` when
    cut evenly into `count` tiles each between lo and hi (None where none fits): the misfit
    of each piece against `step` or 4/3 of it (a sideways tile), doubled; 0.6 per extra cut;
    and the count. Worked out for all lengths at once in the very operations the loop did
    per pair of cuts, so its sums, and so its cuts, are unchanged to the last bit."""
    lengths = np.arange(int(np.floor(3 * hi)) + 1)
    count = np.maximum(1.0, np.round(lengths / step))
    each = lengths / count
    fits = (lengths >= lo) & (each >= lo) & (each <= hi)
    misfit = 2.0 * (np.minimum(np.abs(each - step), np.abs(each - 4 / 3 * step)) / step)
    misfits = tuple(m if ok else None for m, ok in zip(misfit.tolist(), fits.tolist()))
    return misfits, tuple((0.6 * (count - 1)).tolist()), tuple(count.astype(int).tolist())


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
    unreached = -np.inf
    score = [unreached] * len(points)
    back = [0] * len(points)
    pieces = [1] * len(points)
    score[0] = 0.0
    misfits, extras, counts = piece_costs(step, low * step, high * step)
    reach = len(misfits) - 1
    last = len(points) - 1
    # Plain floats, costs looked up by length and early exits: this loop is the finder's hot spot.
    for i in range(1, len(points)):
        here = points[i]
        bonus = gain[here] if i < last else 0.0
        best = score[i]
        for j in range(i - 1, -1, -1):
            length = here - points[j]
            if length > reach:
                break
            misfit = misfits[length]
            if misfit is None or score[j] == unreached:
                continue
            total = score[j] - misfit - extras[length] + bonus
            if total > best:
                best, back[i], pieces[i] = total, j, counts[length]
        score[i] = best
    if score[-1] == unreached:
        return [0, n]
    return traced_cuts(points, back, pieces)


def traced_cuts(points: list[int], back: list[int], pieces: list[int]) -> list[int]:
    """The cuts of the best path `cut_profile` found, followed back from the end: the chosen
    seams, and even cuts between two where a stretch holds several tiles."""
    cuts, i = [points[-1]], len(points) - 1
    while i > 0:
        j = back[i]
        start, end = points[j], points[i]
        cuts += [int(round(end - k * (end - start) / pieces[i])) for k in range(1, pieces[i])]
        cuts.append(start)
        i = j
    return sorted(set(cuts))
