"""A finished hand as the scorer sees it, after the request has been read and checked.

The contract layer (`scorer/contract.py`) turns a hand JSON request into a `WinningHand`;
every rule set scores a `WinningHand`. Seats are named by seat wind: "E" is the dealer.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from itertools import repeat
from operator import attrgetter, eq
from typing import NamedTuple

from .tiles import FIRST_BONUS, Tile

MELD_KINDS = ("chi", "pon", "minkan", "ankan", "kakan")
SOURCES = ("left", "across", "right")


@dataclass(frozen=True)
class Meld:
    kind: str                    # chi pon minkan ankan kakan
    tiles: tuple[Tile, ...]
    source: str | None = None    # left across right; None for ankan

    @property
    def opened(self) -> bool:
        return self.kind != "ankan"

    @property
    def is_kan(self) -> bool:
        return self.kind in ("minkan", "ankan", "kakan")

    @property
    def kind_index(self) -> int:
        """The tile kind of a pon/kan, or the lowest tile of a chi."""
        return min(t.kind for t in self.tiles)


@dataclass(frozen=True)
class WinningHand:
    concealed: tuple[Tile, ...]          # the closed part, winning tile included
    win_tile: Tile
    melds: tuple[Meld, ...] = ()
    tsumo: bool = False
    discarder: str = ""                  # seat wind of who dealt in; "" on tsumo
    seat_wind: str = "E"
    round_wind: str = "E"
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    flowers: tuple[Tile, ...] = ()
    players: int = 4
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    nagashi_mangan: bool = False
    honba: int = 0
    riichi_sticks: int = 0
    takes_pot: bool = True
    pao: str = ""
    nukidora: int = 0
    extra: dict = field(default_factory=dict)   # rule-set-specific request fields

    @classmethod
    def from_fields(cls, values: dict) -> WinningHand:
        """The request reader's constructor: every field, by name, at once.

        A frozen dataclass's `__init__` sets each of these 28 fields through
        `object.__setattr__`, some 5 us a hand (the JSON path scores a hand in about 100 us);
        the instance made here is the same, filled in one step."""
        if values.keys() != _FIELD_NAMES:
            missing, unknown = _FIELD_NAMES - values.keys(), values.keys() - _FIELD_NAMES
            raise TypeError(f"WinningHand.from_fields: missing {sorted(missing)}, unknown {sorted(unknown)}")
        return cls._filled(dict(values))       # the hand's own: the caller may change theirs

    @classmethod
    def _filled(cls, values: dict) -> WinningHand:
        """`from_fields` for a caller whose `values` hold every field by construction (the
        request reader starts from every default) and who hands the dict over: it becomes the
        hand's attributes as it is, neither compared with the 28 names nor copied."""
        hand = object.__new__(cls)
        object.__setattr__(hand, "__dict__", values)
        return hand

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == "E"

    @property
    def is_closed(self) -> bool:
        # Every meld a concealed kan, read in C: a generator over `Meld.opened` runs two
        # Python frames a meld, and the engine asks this of every hand with melds.
        return all(map(eq, map(_KIND, self.melds), repeat("ankan")))

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)


class Tally(NamedTuple):
    """A hand's tiles by kind, bonus kinds included (42 counts), counted once by `tally_tiles`
    for the checks and the scoring both: a Python loop over the tiles is a few percent of
    scoring a hand. Shared by its readers: read, never changed."""
    concealed: list[int]        # the closed part's tiles, winning tile included
    every: list[int]            # ... and the melds' (the same list when there are none)
    reds: list[int]             # the kinds of the red fives among them, the concealed ones first
    concealed_reds: int         # how many of `reds` are concealed


def tally_tiles(hand: WinningHand) -> Tally:
    concealed = [0] * (FIRST_BONUS + 8)
    reds = []
    for tile in hand.concealed:
        concealed[tile.kind] += 1
        if tile.red:
            reds.append(tile.kind)
    concealed_reds = len(reds)
    every = concealed
    if hand.melds:
        every = list(concealed)
        for meld in hand.melds:
            for tile in meld.tiles:
                every[tile.kind] += 1
                if tile.red:
                    reds.append(tile.kind)
    return tuple.__new__(Tally, (concealed, every, reds, concealed_reds))     # made in C, as for a Reading


_FIELD_NAMES = frozenset(f.name for f in fields(WinningHand))
_KIND = attrgetter("kind")
