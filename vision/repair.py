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
from dataclasses import dataclass, field, replace

from scorer.reading import is_complete
from scorer.unplayed_fields import RULE_NAMES

from .detect import FACE_DOWN
from .hand import CONCEALED, DORA, MELD, WIN, Arrangement, Detection
from .hand_request import (BACK, MAX_DORA_INDICATORS, Reading, build_request, is_bonus, plays_dora, rules_of,
                           shown_order, takes_flowers, tile)
from .labels import LABELS

DOUBT_BELOW = 0.9       # a tile named with less confidence than this is doubtful ...
# ... unless the names make a whole hand: a valid winning hand vouches for its tiles, and a
# tile of it is doubtful only when its next likely name is at least a third as likely as the
# name read (measured on 450 rendered riichi hands, seeds 1000-1199 and 5000-5249: 295 of
# 5982 rightly named tiles were outlined under 0.9 alone, 60 so; wrong names outlined 18 of
# 18 and 17 of 18).
CLOSE_RUNNER_UP = 1 / 3
MAX_DOUBTFUL = 8        # how many of the least certain tiles may change name
# Names tried per doubtful tile, the first included: with 5, 149 of the 180 development hands
# (seeds 1000, 2000, 3000) read exactly, 148 with 3 or 4, and none read exactly with 3 is lost
# (a 9s named fifth; 150 against 148 with the model before its 8-bit calibration on `fit_crop`'s
# crops, a 9p named fourth too); 140 fresh hands (seeds 7000 and 6): 119 either way.
RUNNER_UPS = 5
MAX_TRIES = 1000        # readings checked before giving up (about 25 ms at worst)


@dataclass
class Repaired:
    labels: list[str]
    reading: Reading
    changed: dict[int, tuple[str, str]] = field(default_factory=dict)   # index -> (first read, chosen)
    doubtful: list[int] = field(default_factory=list)
    doubts: list[str] = field(default_factory=list)


def first_labels(detections: list[Detection]) -> list[str]:
    return [BACK if d.pose == FACE_DOWN or not d.candidates else d.label for d in detections]


def _choices(detections: list[Detection], labels: list[str],
             situation: dict | None = None) -> list[tuple[int, list[tuple[str, float]]]]:
    """The least certain tiles and the names each may take (best first). A face-up tile cannot
    be a back, nor a flower where the rules play none: such a name is never tried, and a tile
    that bears one comes first, however sure its name was."""
    with_flowers = takes_flowers(situation)

    def possible(name: str) -> bool:
        return name != BACK and (with_flowers or not is_bonus(name))

    open_tiles = [i for i, d in enumerate(detections) if d.pose != FACE_DOWN and len(d.candidates) > 1]
    open_tiles.sort(key=lambda i: (possible(labels[i]), detections[i].confidence))
    chosen = []
    for i in open_tiles[:MAX_DOUBTFUL]:
        names = [(n, p) for n, p in detections[i].candidates if possible(n)][:RUNNER_UPS]
        if len(names) > 1 or (names and names[0][0] != labels[i]):   # one possible name other than its own is a choice
            chosen.append((i, names))
    return chosen


class QuickCheck:
    """A fast yes/no on a trial reading, so the search builds a request only for readings that
    can be right: copies, red fives, meld shapes and the winning shape on count vectors."""

    def __init__(self, arrangement: Arrangement, detections: list[Detection]):
        self.hand = [i for g in arrangement.of(CONCEALED) + arrangement.of(WIN) for i in g.members]
        self.melds = [(g.members, g.added, [i for i in g.members if detections[i].pose != FACE_DOWN], g.called is None)
                      for g in arrangement.of(MELD)]
        self.dora = [i for g in arrangement.of(DORA) for i in g.members]
        self.kinds: dict[str, tuple[int, bool]] = {}

    def _kind(self, label: str) -> tuple[int, bool]:
        if label not in self.kinds:
            t = tile(label) if label != BACK else None
            self.kinds[label] = (t.kind, t.red) if t else (-1, False)
        return self.kinds[label]

    def passes(self, labels: list[str]) -> bool:
        counts = [0] * 42
        reds = {0: 0, 1: 0, 2: 0}
        hand = [0] * 34
        for i in self.hand:
            kind, red = self._kind(labels[i])
            if 0 <= kind < 34:
                hand[kind] += 1
        for members, added, faces, concealed_kan in self.melds:
            kinds = sorted(self._kind(labels[i])[0] for i in faces + ([added] if added is not None else []))
            if any(k < 0 or k >= 34 for k in kinds):
                return False
            if concealed_kan:
                if len(kinds) != 2 or kinds[0] != kinds[1]:
                    return False
                counts[kinds[0]] += 2  # the two backs are the same tile
            elif len(set(kinds)) != 1 and not (len(kinds) == 3 and kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9
                                                and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]):
                return False
        for i in self.hand + [i for m in self.melds for i in m[2] + ([m[1]] if m[1] is not None else [])] + self.dora:
            kind, red = self._kind(labels[i])
            if kind >= 0:
                counts[kind] += 1
                if red:
                    reds[kind // 9] += 1
        if any(c > 4 for c in counts[:34]) or any(c > 1 for c in counts[34:]) or any(r > 1 for r in reds.values()):
            return False
        return is_complete(hand)


def search(arrangement: Arrangement, detections: list[Detection], labels: list[str],
           situation: dict | None = None, max_tries: int = MAX_TRIES) -> tuple[list[str], Reading] | None:
    """The most likely names for the doubtful tiles that give a reading with no problem."""
    choices = _choices(detections, labels, situation)
    if not choices:
        return None
    cost = [[-math.log(max(p, 1e-9)) for _, p in names] for _, names in choices]
    check = QuickCheck(arrangement, detections)
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
        if check.passes(trial):
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


def _left_out(count: int, situation: dict | None) -> str:
    """Why `count` tiles apart from the hand have no place in it (`hand_request._apart`)."""
    if plays_dora(situation):
        return f"{count} tiles apart from the hand are left out: a hand has at most {MAX_DORA_INDICATORS} dora indicators"
    rules = RULE_NAMES.get(rules_of(situation), rules_of(situation))
    return (f"a tile apart from the hand is left out: {rules} has no dora indicators" if count == 1
            else f"{count} tiles apart from the hand are left out: {rules} has no dora indicators")


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
    order = shown_order(arrangement, detections, result.labels, situation)
    shown = {i: n for n, i in enumerate(order, start=1)}
    for i, (was, now) in sorted(result.changed.items(), key=lambda item: shown[item[0]]):
        result.doubts.append(f"tile {shown[i]} looked most like {was} but is read as {now}, which makes a valid hand")
    for problem in result.reading.problems:
        result.doubts.append(problem)
    if result.reading.left_out:
        result.doubts.append(_left_out(len(result.reading.left_out), situation))
    if result.reading.problems and not result.reading.structural:
        result.doubts.append("no choice among the likely names of the doubtful tiles makes a valid winning hand")
    whole = not result.reading.problems
    result.doubtful = [i for i in order if i not in result.changed
                       and in_doubt(detections[i], result.labels[i], whole, situation)]
    for i in result.doubtful:
        sure = _probability(detections[i], result.labels[i])
        result.doubts.append(f"tile {shown[i]} ({result.labels[i]}) is doubtful: {sure:.0%} sure")
    unread = [] if whole else [f"a group of {len(group)} tiles with sideways or face-down tiles does not read as melds"
                               for group in arrangement.unread_melds]
    if arrangement.doubts or unread:
        result.doubts = arrangement.doubts + unread + result.doubts
    return result


def _probability(detection: Detection, label: str) -> float:
    return next((p for n, p in detection.candidates if n == label), 0.0)


def in_doubt(detection: Detection, label: str, whole: bool, situation: dict | None = None) -> bool:
    """Whether a face-up tile named `label` should be checked by the player: named less than
    DOUBT_BELOW surely, or, in a hand that came out whole, with a next likely name (one the
    rules play) at least CLOSE_RUNNER_UP as likely."""
    if detection.pose == FACE_DOWN or label == BACK:
        return False
    sure = _probability(detection, label)
    if not whole:
        return sure < DOUBT_BELOW
    with_flowers = takes_flowers(situation)
    runner_up = max((p for n, p in detection.candidates
                     if n != label and n != BACK and (with_flowers or not is_bonus(n))), default=0.0)
    return runner_up >= CLOSE_RUNNER_UP * sure


BONUS_LABELS = tuple(label for label in LABELS if is_bonus(label))   # 1f-8f: a bit each
KEPT_ANYWAY = 50.0   # nats: a flower name kept though another tile takes it, only where no other is free


def one_of_each_bonus(detections: list[Detection]) -> tuple[list[Detection], list[str]]:
    """The tiles named flowers and seasons, their names dealt out again where two are named the
    same (a set has one of each), and what was changed, in the player's words. Each such tile
    takes one of its flower and season names, each name at most once, so that the names together
    are likeliest; a tile renamed has its new name first, at its own probability (so it is shown
    doubtful). Where more than eight tiles are named flowers or seasons the photo shows more than
    one set, and the names stay as they are. (Why: the classifier's weakest classes are the
    flowers and seasons of sets it never saw, and the name of a tile drawn alike but numbered in
    another colour goes to the surest of them.)"""
    bonus = [i for i, d in enumerate(detections) if d.pose != FACE_DOWN and d.candidates and is_bonus(d.label)]
    named = [detections[i].label for i in bonus]
    if len(set(named)) == len(named) or len(bonus) > len(BONUS_LABELS):
        return detections, []
    # best[taken] = (cost, names so far) over the tiles dealt so far; `taken` a bit for each name used
    best: dict[int, tuple[float, tuple[str, ...]]] = {0: (0.0, ())}
    for i in bonus:
        step: dict[int, tuple[float, tuple[str, ...]]] = {}
        # a tile may keep its name, taking none, where none of its others is free (at a cost no reading pays else)
        options = [(n, p, 1 << BONUS_LABELS.index(n)) for n, p in detections[i].candidates if is_bonus(n)]
        options.append((detections[i].label, detections[i].confidence * math.exp(-KEPT_ANYWAY), 0))
        for taken, (cost, chosen) in best.items():
            for name, p, bit in options:
                if taken & bit:
                    continue
                total = cost - math.log(max(p, 1e-9))
                if taken | bit not in step or total < step[taken | bit][0]:
                    step[taken | bit] = (total, chosen + (name,))
        best = step
    _, chosen = min(best.values())
    out, doubts = list(detections), []
    for i, name in zip(bonus, chosen):
        d = detections[i]
        if name != d.label:
            out[i] = replace(d, candidates=tuple(sorted(d.candidates, key=lambda c: c[0] != name)))
            doubts.append(f"two tiles looked most like {d.label} ({tile(d.label).name}), and a set has one of "
                          f"each flower and season: the less sure one is read as {name} ({tile(name).name})")
    return out, doubts
