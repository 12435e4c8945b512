"""The scoring table of the classical Chinese text (rule text 003): points for each set,
the pair, flowers and the winner's bonuses, then the doubles.

Every entry is a `Item(reason, points_or_doubles, tile)`; a reader finds any rule of the
table in one hop by its reason id. Doubles are counted as doublings: x4 is 2, x8 is 3.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..tiles import DRAGONS, EAST, is_honor, is_simple, is_terminal_or_honor, kind_str


@dataclass(frozen=True)
class Group:
    """A set of the winning hand: "chow" (lowest tile), "pung" or "kong"; concealed when
    it was made entirely from the wall. `won_on_discard`: the set the winning discard
    completed (so not concealed, yet held concealed up to that last tile)."""
    shape: str
    kind: int
    concealed: bool
    won_on_discard: bool = False

    @property
    def kinds(self) -> tuple[int, ...]:
        return (self.kind, self.kind + 1, self.kind + 2) if self.shape == "chow" else (self.kind,)


@dataclass(frozen=True)
class Item:
    reason: str
    value: int            # points for a scoring item, doublings for a double
    tile: str = ""

    def to_json(self, key: str) -> dict:
        entry = {"reason": self.reason, key: self.value}
        if self.tile:
            entry["tile"] = self.tile
        return entry


@dataclass(frozen=True)
class Situation:
    """What the table knows beyond the tiles."""
    seat_wind: int          # tile kind of the player's own wind
    round_wind: int         # tile kind of the prevailing wind
    tsumo: bool
    only_tile: bool         # the hand could be completed by one tile kind only
    loose_tile: bool        # out on a replacement tile (after a kong or a flower)
    last_tile: bool         # out on the last tile before the dead wall
    robbing_kong: bool


# Base points of a pung; each multiplier applies to that set only (text, note 1).
PUNG_POINTS = 2
MAJOR_TIMES = 2
CONCEALED_TIMES = 2
KONG_TIMES = 4
PAIR_POINTS = 2
FLOWER_POINTS = 4
WINNING = 20
SELF_DRAWN = 2
ONLY_TILE = 2
NO_SCORING_COMBINATIONS = 10


def set_points(group: Group) -> int:
    if group.shape == "chow":
        return 0
    points = PUNG_POINTS
    if is_terminal_or_honor(group.kind):
        points *= MAJOR_TIMES
    if group.concealed:
        points *= CONCEALED_TIMES
    if group.shape == "kong":
        points *= KONG_TIMES
    return points


def set_items(groups: list[Group]) -> list[Item]:
    return [Item(f"{'concealed' if g.concealed else 'exposed'}_{g.shape}", set_points(g), kind_str(g.kind))
            for g in groups if g.shape != "chow"]


def pair_items(pair: int, situation: Situation) -> list[Item]:
    """A pair of dragons, of one's own wind or of the prevailing wind scores 2; the same
    pair counts as both winds when they are the same this round (text, note 2)."""
    tile = kind_str(pair)
    items = []
    if pair in DRAGONS:
        items.append(Item("pair_dragon", PAIR_POINTS, tile))
    if pair == situation.seat_wind:
        items.append(Item("pair_own_wind", PAIR_POINTS, tile))
    if pair == situation.round_wind:
        items.append(Item("pair_prevailing_wind", PAIR_POINTS, tile))
    return items


def flower_items(flowers: list[int]) -> list[Item]:
    return [Item("flower" if f < 38 else "season", FLOWER_POINTS, kind_str(f)) for f in sorted(flowers)]


def winner_items(situation: Situation, combination_points: int) -> list[Item]:
    items = [Item("winning", WINNING)]
    if situation.tsumo:
        items.append(Item("self_drawn", SELF_DRAWN))
    if situation.only_tile:
        items.append(Item("only_tile", ONLY_TILE))
    # "No scoring combinations": the sets and the pair score nothing (flowers are not
    # combinations, so they do not spoil it).
    if combination_points == 0:
        items.append(Item("no_scoring_combinations", NO_SCORING_COMBINATIONS))
    return items


def set_doubles(groups: list[Group], situation: Situation) -> list[Item]:
    doubles = []
    for g in groups:
        if g.shape == "chow":
            continue
        if g.kind in DRAGONS:
            doubles.append(Item("pung_dragon", 1, kind_str(g.kind)))
        if g.kind == situation.seat_wind:
            doubles.append(Item("pung_own_wind", 1, kind_str(g.kind)))
        if g.kind == situation.round_wind:
            doubles.append(Item("pung_prevailing_wind", 1, kind_str(g.kind)))
    return doubles


def hand_doubles(groups: list[Group], pair: int, situation: Situation) -> list[Item]:
    """The doubles of the whole hand: concealment, no chows, suits, major/minor tiles."""
    doubles = []
    # The text: "All but last tile concealed x 2", "Fully concealed x 4". Only the last tile
    # counts, not what it completes: the discard may finish the pair, a chow or a pung.
    if all(g.concealed or g.won_on_discard for g in groups):
        doubles.append(Item("fully_concealed", 2) if situation.tsumo else Item("all_but_last_concealed", 1))
    if all(g.shape != "chow" for g in groups):
        doubles.append(Item("no_chows", 1))
    kinds = [k for g in groups for k in g.kinds] + [pair]
    doubles += tile_doubles(kinds)
    return doubles


def tile_doubles(kinds: list[int]) -> list[Item]:
    suits = {k // 9 for k in kinds if not is_honor(k)}
    honors = any(is_honor(k) for k in kinds)
    if len(suits) == 1 and not honors:
        return [Item("one_suit", 3)]
    if not suits:
        return [Item("only_honors", 3)]
    if all(is_terminal_or_honor(k) for k in kinds) and not honors:
        return [Item("only_terminals", 3)]
    doubles = []
    if len(suits) == 1:
        doubles.append(Item("one_suit_and_honors", 1))
    if all(is_terminal_or_honor(k) for k in kinds):
        doubles.append(Item("only_major", 1))
    if all(is_simple(k) for k in kinds):
        doubles.append(Item("only_minor", 1))
    return doubles


def bonus_doubles(flowers: list[int], situation: Situation) -> list[Item]:
    """Own and prevailing flower or season, or all four of a kind instead of those two."""
    doubles = []
    seat = situation.seat_wind - EAST + 1          # East holds flower 1 and season 1
    prevailing = situation.round_wind - EAST + 1
    for group, first in (("flower", 34), ("season", 38)):
        mine = {f - first + 1 for f in flowers if first <= f < first + 4}
        if len(mine) == 4:
            doubles.append(Item(f"all_four_{group}s", 4))
            continue
        if seat in mine:
            doubles.append(Item(f"own_{group}", 1, kind_str(first + seat - 1)))
        if prevailing in mine:
            doubles.append(Item(f"prevailing_{group}", 1, kind_str(first + prevailing - 1)))
    return doubles


def situation_doubles(situation: Situation) -> list[Item]:
    doubles = []
    if situation.loose_tile:
        doubles.append(Item("loose_tile", 1))
    if situation.last_tile:
        doubles.append(Item("last_tile", 1))
    if situation.robbing_kong:
        doubles.append(Item("robbing_kong", 1))
    return doubles
