"""The limit hands of the classical Chinese text: any 14 tiles made entirely of
non-overlapping groups of its table — at least one group of the first list, any number of
the second, at most one of the third. Groups marked * may take one extra tile repeating
one of theirs.

A group is a 34-long count vector; a hand is a limit hand when an exact cover of its
counts exists under those three constraints. Kongs count as their pung here, since the
formula is about 14 tiles.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..tiles import DRAGONS, KINDS, WINDS, is_simple, is_terminal_or_honor

FIRST, ANY, AT_MOST_ONE = "first", "any", "at_most_one"


@dataclass(frozen=True)
class Template:
    name: str
    part: str                      # FIRST, ANY or AT_MOST_ONE
    counts: tuple[int, ...]
    half_limit: bool = False       # seven pairs is worth half the limit


def _vector(kinds) -> tuple[int, ...]:
    v = [0] * KINDS
    for k in kinds:
        v[k] += 1
    return tuple(v)


def _with_repeat(name: str, part: str, kinds: list[int]) -> list[Template]:
    """The group itself and each version with one extra tile repeating one of its own."""
    base = Template(name, part, _vector(kinds))
    extras = [Template(name, part, _vector(kinds + [k])) for k in sorted(set(kinds))]
    return [base] + extras


def _suit(s: int, numbers) -> list[int]:
    return [9 * s + n - 1 for n in numbers]


def _templates() -> list[Template]:
    t: list[Template] = []
    for s in range(3):
        for start in range(7):
            t.append(Template("four_identical_chows", FIRST, _vector(_suit(s, range(start + 1, start + 4)) * 4)))
        t.append(Template("one_one_to_nine_nine", FIRST, _vector(_suit(s, [1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9]))))
        t += _with_repeat("one_to_nine", FIRST, _suit(s, range(1, 10)))
        t += _with_repeat("two_to_eight", FIRST, _suit(s, range(2, 9)))
    for start in range(7):
        t += _with_repeat("three_chows_same_sequence", FIRST,
                          [k for s in range(3) for k in _suit(s, range(start + 1, start + 4))])
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        kinds = [k for s, start in zip(order, (1, 4, 7)) for k in _suit(s, range(start, start + 3))]
        t += _with_repeat("three_chows_one_to_nine", FIRST, kinds)
    t += _with_repeat("pair_of_each_wind", FIRST, [w for w in WINDS for _ in range(2)])
    t += _with_repeat("each_wind_and_dragon", FIRST, list(WINDS) + list(DRAGONS))
    t += _with_repeat("each_terminal", ANY, [k for s in range(3) for k in _suit(s, (1, 9))])
    t += _with_repeat("each_wind", ANY, list(WINDS))
    t += _with_repeat("each_dragon", ANY, list(DRAGONS))
    for k in range(KINDS):
        if is_terminal_or_honor(k):
            t.append(Template("pung_of_major_tiles", ANY, _vector([k] * 3)))
            t.append(Template("pair_of_major_tiles", AT_MOST_ONE, _vector([k] * 2)))
    for n in (1, 9):
        t.append(Template(f"each_suit_{n}", ANY, _vector(_suit(s, [n])[0] for s in range(3))))
    return t


TEMPLATES = _templates()


def _seven_pairs(counts: tuple[int, ...]) -> str | None:
    if sum(counts) != 14 or any(c not in (0, 2) for c in counts):
        return None
    kinds = [k for k in range(KINDS) if counts[k]]
    if all(is_terminal_or_honor(k) for k in kinds):
        return "seven_major_pairs"
    if all(is_simple(k) for k in kinds):
        return "seven_minor_pairs"
    return "seven_pairs"


def limit_hand(counts: tuple[int, ...]) -> tuple[tuple[str, ...], bool] | None:
    """The groups that make these 14 tiles a limit hand and whether it is only worth half
    the limit (plain seven pairs), or None. A full-limit reading beats a half-limit one."""
    if sum(counts) != 14:
        return None
    cover = _cover(counts, False, 0)
    if cover is not None:
        return tuple(sorted(cover)), False
    pairs = _seven_pairs(counts)
    if pairs == "seven_pairs":
        return ("seven_pairs",), True
    return ((pairs,), False) if pairs else None


@lru_cache(maxsize=4096)
def _cover(counts: tuple[int, ...], has_first: bool, pairs_used: int) -> tuple[str, ...] | None:
    first = next((k for k in range(KINDS) if counts[k]), None)
    if first is None:
        return () if has_first else None
    for template in TEMPLATES:
        if not template.counts[first] or (template.part == AT_MOST_ONE and pairs_used):
            continue
        if any(c > have for c, have in zip(template.counts, counts)):
            continue
        rest = tuple(have - c for c, have in zip(template.counts, counts))
        found = _cover(rest, has_first or template.part == FIRST,
                       pairs_used + (template.part == AT_MOST_ONE))
        if found is not None:
            return (template.name,) + found
    return None
