"""The learning rate over a run, by how far the run has gone."""
from __future__ import annotations

import math


def one_cycle(progress: float, peak: float) -> float:
    """The learning rate a tenth of the way up from peak/25 to `peak`, then down a cosine to
    peak/25e4 (as PyTorch's OneCycleLR), by how far the run has gone (0..1): a run of a set
    number of steps, or of a set time on a machine whose speed is not known in advance."""
    low, rise = peak / 25, 0.1
    if progress < rise:
        return low + (peak - low) * progress / rise
    return peak / 25e4 + (peak - peak / 25e4) * (1 + math.cos(math.pi * (progress - rise) / (1 - rise))) / 2
