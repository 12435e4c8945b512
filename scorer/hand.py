"""A finished hand as the scorer sees it, after the request has been read and checked.

The contract layer (`scorer/contract.py`) turns a hand JSON request into a `WinningHand`;
every rule set scores a `WinningHand`. Seats are named by seat wind: "E" is the dealer.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter, eq
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from .tiles import Tile

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


class WinningHand(NamedTuple):
    """A named tuple, not a dataclass: the request reader makes one for every hand in one step,
    and the compiled scorer (setup.py) reads its fields as tuple items, where a dataclass's are
    attribute look-ups by name."""
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
    # Rule-set-specific request fields, read only: a default shared by every hand made without.
    extra: Mapping[str, Any] = MappingProxyType({})

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


_KIND = attrgetter("kind")
