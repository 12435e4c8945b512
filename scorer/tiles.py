"""Tiles and MPSZ notation (`123m406p11z`, `0` a red five, `f` flowers and seasons).

A tile kind is an int: 0-8 characters 1-9, 9-17 dots, 18-26 bamboo, 27-33 honours
(East South West North White Green Red), 34-41 bonus tiles (flowers 1-4, seasons 5-8).
Most rule code works on those kinds and a 34-long count vector; the red flag rides on
`Tile` for the few rules (aka dora, the camera) that care.
"""
from __future__ import annotations

from typing import Final, Iterable, NamedTuple, NoReturn

from .errors import HandError

# Final: constants to the type checker, and to mypyc, which builds them into the compiled scorer.
SUITS: Final = "mpsz"
KINDS: Final = 34
EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
WHITE: Final = 31
GREEN: Final = 32
RED: Final = 33
WINDS: Final = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final = (WHITE, GREEN, RED)
WIND_LETTERS: Final = "ESWN"
FIRST_BONUS: Final = 34

HONOR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
WIND_NAMES = dict(zip(WIND_LETTERS, HONOR_NAMES))   # "E" -> "East": how seats are named to players
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}
BONUS_NAMES = ("plum", "orchid", "chrysanthemum", "bamboo", "spring", "summer", "autumn", "winter")


class Tile(NamedTuple):
    """One tile. A named tuple, compared and ordered by (kind, red): the compiled scorer
    (setup.py) reads its fields as tuple items, where a dataclass's are attribute look-ups."""
    kind: int
    red: bool = False

    @property
    def suit(self) -> str:
        return "f" if self.kind >= FIRST_BONUS else SUITS[self.kind // 9]

    @property
    def number(self) -> int:
        if self.kind >= FIRST_BONUS:
            return self.kind - FIRST_BONUS + 1
        return self.kind % 9 + 1 if self.kind < 27 else self.kind - 26

    def __str__(self) -> str:
        return f"{0 if self.red else self.number}{self.suit}"

    @property
    def name(self) -> str:
        """The tile as a player says it: "red 5 dots", "West", "plum"."""
        if self.kind >= FIRST_BONUS:
            return BONUS_NAMES[self.kind - FIRST_BONUS]
        if self.kind >= 27:
            return HONOR_NAMES[self.kind - 27]
        return f"{'red ' if self.red else ''}{self.number} {SUIT_NAMES[self.suit]}"


def kind_of(number: int, suit: str) -> int:
    if suit == "f":
        return FIRST_BONUS + number - 1
    return SUITS.index(suit) * 9 + number - 1


def is_honor(kind: int) -> bool:
    return 27 <= kind < 34


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_terminal_or_honor(kind: int) -> bool:
    return is_honor(kind) or is_terminal(kind)


def is_simple(kind: int) -> bool:
    return kind < 27 and kind % 9 not in (0, 8)


def kind_str(kind: int) -> str:
    return str(Tile(kind))


def _check_digit(digit: str, suit: str, position: int, field: str) -> NoReturn:
    n = int(digit)
    if suit == "z" and not 1 <= n <= 7:
        raise HandError("bad_tile", f"in {field}, '{digit}z' at position {position} is not a tile: honours are 1z-7z")
    if suit == "f" and not 1 <= n <= 8:
        raise HandError("bad_tile", f"in {field}, '{digit}f' at position {position} is not a tile: flowers and seasons are 1f-8f")
    if n == 0 and suit not in "mps":
        raise HandError("bad_tile", f"in {field}, '0{suit}' at position {position} is not a tile: only 0m, 0p, 0s (red fives) exist")
    raise AssertionError(f"{digit}{suit} is a tile: it is in _TILE_OF")


# One shared Tile per (digit, suit): parsing hands it out instead of building new objects.
_TILE_OF = {(str(n), suit): Tile(kind_of(n or 5, suit), n == 0)
            for suit in "mps" for n in range(10)}
_TILE_OF.update({(str(n), "z"): Tile(kind_of(n, "z")) for n in range(1, 8)})
_TILE_OF.update({(str(n), "f"): Tile(kind_of(n, "f")) for n in range(1, 9)})


def parse_tiles(text: object, *, field: str = "tiles") -> list[Tile]:
    """Read MPSZ notation; errors name the bad character, its position (from 1) and the field."""
    if not isinstance(text, str):
        raise HandError("bad_tile", f"{field} must be a string of tiles like \"123m45p\"")
    tiles: list[Tile] = []
    pending: list[tuple[str, int]] = []
    for position, char in enumerate(text, start=1):
        if char.isdigit():
            pending.append((char, position))
        elif char in "mpszf":
            if not pending:
                raise HandError("bad_tile", f"in {field}, the suit letter '{char}' at position {position} has no digits before it")
            for digit, pos in pending:
                tile = _TILE_OF.get((digit, char))
                if tile is None:
                    _check_digit(digit, char, pos, field)
                tiles.append(tile)
            pending = []
        elif char.isspace():
            continue
        else:
            raise HandError("bad_tile", f"in {field}, '{char}' at position {position} is not a digit or a suit letter (m, p, s, z, f)")
    if pending:
        digits = "".join(d for d, _ in pending)
        raise HandError("bad_tile", f"in {field}, the digits '{digits}' at position {pending[0][1]} have no suit letter after them")
    return tiles


def format_tiles(tiles: Iterable[Tile]) -> str:
    """MPSZ with digits grouped by suit, in suit order: `406p` style, red five kept in place."""
    by_suit: dict[str, list[Tile]] = {s: [] for s in "mpszf"}
    for tile in sorted(tiles, key=lambda t: (t.kind, not t.red)):
        by_suit[tile.suit].append(tile)
    return "".join("".join(str(t)[0] for t in group) + suit for suit, group in by_suit.items() if group)


def counts(tiles: Iterable[Tile | int]) -> list[int]:
    """A 34-long count vector (bonus tiles ignored)."""
    vector = [0] * KINDS
    for tile in tiles:
        kind = tile.kind if isinstance(tile, Tile) else tile
        if kind < KINDS:
            vector[kind] += 1
    return vector


def dora_from_indicator(kind: int, three_player: bool = False) -> int:
    """The tile an indicator points at: 9 wraps to 1, North to East, Red to White.

    In three-player the characters 2-8 are not in play, so 1m points at 9m.
    """
    if kind < 27:
        if three_player and kind == 0:
            return 8
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3
