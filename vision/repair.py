"""Repairing doubtful reads with what a hand must be.

A photo read tile by tile can name a tile wrongly; the hand as a whole cannot be anything:
at most four of a tile, one red five per suit, melds that are runs or sets, and a winning
shape. When the first reading breaks a rule, the least certain tiles try their runner-up
names, most likely combination first (a bounded best-first search), until a reading breaks
none. What stays uncertain is marked, never hidden.
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

from .hand import Arrangement, Detection
from .hand_request import BACK, Reading, build_request
from .find import FACE_DOWN

DOUBT_BELOW = 0.9       # a tile named with less confidence than this is doubtful
MAX_DOUBTFUL = 8        # how many of the least certain tiles may change name
RUNNER_UPS = 3          # names tried per doubtful tile, the first included
MAX_TRIES = 3000        # readings checked before giving up


@dataclass
class Repaired:
    labels: list[str]
    reading: Reading
    changed: dict[int, tuple[str, str]] = field(default_factory=dict)   # index -> (first read, chosen)
    doubtful: list[int] = field(default_factory=list)
    doubts: list[str] = field(default_factory=list)


def first_labels(detections: list[Detection]) -> list[str]:
    return [BACK if d.pose == FACE_DOWN or not d.candidates else d.label for d in detections]


def _choices(detections: list[Detection], labels: list[str]) -> list[tuple[int, list[tuple[str, float]]]]:
    """The least certain tiles and the names each may take (best first)."""
    open_tiles = [i for i, d in enumerate(detections) if d.pose != FACE_DOWN and len(d.candidates) > 1]
    open_tiles.sort(key=lambda i: detections[i].confidence)
    chosen = []
    for i in open_tiles[:MAX_DOUBTFUL]:
        names = [(n, p) for n, p in detections[i].candidates[:RUNNER_UPS] if n != BACK]
        if len(names) > 1:
            chosen.append((i, names))
    return chosen


def search(arrangement: Arrangement, detections: list[Detection], labels: list[str],
           situation: dict | None = None, max_tries: int = MAX_TRIES) -> tuple[list[str], Reading] | None:
    """The most likely names for the doubtful tiles that give a reading with no problem."""
    choices = _choices(detections, labels)
    if not choices:
        return None
    cost = [[-math.log(max(p, 1e-9)) for _, p in names] for _, names in choices]
    start = (0,) * len(choices)
    heap = [(0.0, start)]
    seen = {start}
    tries = 0
    while heap and tries < max_tries:
        total, picks = heapq.heappop(heap)
        tries += 1
        trial = list(labels)
        for (i, names), k in zip(choices, picks):
            trial[i] = names[k][0]
        reading = build_request(arrangement, detections, trial, situation)
        if not reading.problems:
            return trial, reading
        for slot, k in enumerate(picks):
            if k + 1 < len(choices[slot][1]):
                nxt = picks[:slot] + (k + 1,) + picks[slot + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    step = total - cost[slot][k] + cost[slot][k + 1]
                    heapq.heappush(heap, (step, nxt))
    return None


def repair(arrangement: Arrangement, detections: list[Detection], situation: dict | None = None,
           max_tries: int = MAX_TRIES) -> Repaired:
    """The best reading of the hand, repaired where a rule was broken, and its doubts."""
    labels = first_labels(detections)
    reading = build_request(arrangement, detections, labels, situation)
    result = Repaired(labels, reading)
    if reading.problems and not reading.structural:
        found = search(arrangement, detections, labels, situation, max_tries)
        if found is not None:
            new_labels, new_reading = found
            result = Repaired(new_labels, new_reading)
            result.changed = {i: (labels[i], new_labels[i]) for i in range(len(labels)) if labels[i] != new_labels[i]}
    for i, (was, now) in sorted(result.changed.items()):
        result.doubts.append(f"tile {i + 1} looked most like {was} but is read as {now}, which makes a valid hand")
    for problem in result.reading.problems:
        result.doubts.append(problem)
    if result.reading.problems and not result.reading.structural:
        result.doubts.append("no choice among the likely names of the doubtful tiles makes a valid winning hand")
    result.doubtful = [i for i, d in enumerate(detections)
                       if d.pose != FACE_DOWN and i not in result.changed and d.confidence < DOUBT_BELOW]
    for i in result.doubtful:
        result.doubts.append(f"tile {i + 1} ({result.labels[i]}) is doubtful: {detections[i].confidence:.0%} sure")
    if arrangement.doubts:
        result.doubts = arrangement.doubts + result.doubts
    return result
