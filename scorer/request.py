"""Reading a hand JSON request (`shared/spec/hand-json.md`) into a checked `WinningHand`.

Each field is read on its own here, with an error that names the field; `scorer/hand_checks.py`
then checks the hand as a whole (tile counts, melds against the hand, flags that cannot go
together). Unknown top-level fields are kept in `WinningHand.extra` for the rule sets that read
them (the Fundamentals draw pool, the Chinese losers' own counts).
"""
from __future__ import annotations

import re
from typing import Final, NamedTuple

from .errors import HandError
from .hand import MELD_KINDS, SOURCES, Meld, WinningHand
from .riichi.memo import Table
from .tiles import WIND_NAMES, Tile, format_tiles, parse_tiles

MELD_NAMES: Final = {"chi": "chi", "pon": "pon", "minkan": "open kan", "ankan": "concealed kan",
                     "kakan": "added kan"}
RULE_SETS: Final = ("riichi", "fundamentals", "chinese-classical")
FLAGS: Final = ("riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
                "tenhou", "chiihou", "renhou", "nagashi_mangan")


class Request(NamedTuple):
    """What a request asks: which rule set, with which preset and options, for which hand.

    A named tuple: made for every request, and a frozen dataclass sets each field through
    `object.__setattr__`."""
    rules: str
    preset: str | None
    options: dict
    hand: WinningHand


def read_request(request: object) -> Request:
    if not isinstance(request, dict):
        raise HandError("bad_request", "a request is a JSON object with the hand's fields, "
                                       "like {\"concealed\": \"...\", \"win_tile\": \"...\"}")
    rules = request.get("rules", "riichi")
    if rules not in RULE_SETS:
        raise HandError("unknown_rules", f"there are no rules called {rules!r}; "
                                         f"use one of {', '.join(RULE_SETS)}")
    preset = request.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise HandError("unknown_preset", f"preset is a name like \"tenhou\", not {preset!r}")
    options = request.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise HandError("bad_option", "options must be an object of option names and values, "
                                      "like {\"kiriage\": true}")
    # Made in C: the named tuple's own constructor is Python code, a few percent of a read.
    return tuple.__new__(Request, (rules, preset, options, read_hand(request, options)))


def read_hand(request: dict, options: dict) -> WinningHand:
    """The hand a request describes: each field it names read by that field's reader (which
    says what is wrong with a bad value), every other field at its default. Only the fields
    present are visited: a request names about a dozen of the hand's 28."""
    row = list(_DEFAULT_ROW)        # WinningHand's fields in order, each at its default
    row[_PLAYERS] = 3 if options.get("three_player") is True else 4
    extra: dict = {}
    row[_EXTRA] = extra
    for name, value in request.items():
        kind, at = _FIELDS.get(name, _NOT_A_FIELD)
        # Most values are already what their reader would return (a flag true or false, a count
        # from 0, a seat wind): those are kept as they are, without the call. The readers are
        # called by name, not through a table: the compiled scorer calls them directly then.
        if kind == _FLAG:
            row[at] = value if value is True or value is False else _bool(value, name)
        elif kind == _COUNT:
            row[at] = value if type(value) is int and value >= 0 else _count(value, name)
        elif kind == _SEAT:
            row[at] = value if type(value) is str and value in _SEATS else _wind(value, name)
        elif kind == _TILES:
            row[at] = _tile_list(value, name)
        elif kind == _OWN:
            if name == "concealed":
                row[at] = read_tiles(value, name)
            elif name == "win_tile":
                row[at] = _win_tile(value, name)
            elif name == "melds":
                row[at] = _meld_list(value, name)
            else:
                row[at] = _players(value, name)
        elif kind == _UNKNOWN:
            extra[name] = value         # a field Tenbou does not read: kept for the rule sets
        # else rules, preset, options: read by read_request
    if "concealed" not in request:
        raise HandError("bad_request", "the request has no concealed: list the tiles of the "
                                       "closed part of the hand, winning tile included")
    if "win_tile" not in request:
        raise HandError("bad_request", "the request has no win_tile: which tile completed the hand?")
    return tuple.__new__(WinningHand, row)      # made in C: the named tuple's constructor is Python


def _melds(melds: list) -> tuple[Meld, ...]:
    if not melds:
        return ()
    return tuple([read_meld(number, meld) for number, meld in enumerate(melds, start=1)])


def read_meld(number: int, meld: object) -> Meld:
    """One called or declared set; its shape is checked here, its tiles against the hand later.

    A table calls the same few hundred melds again and again, so a meld read once is
    remembered by its fields (only good ones: an error names the meld's number)."""
    key = None
    if isinstance(meld, dict):
        key = (meld.get("kind"), meld.get("tiles"), meld.get("from"))
        try:
            known = _MELDS.get(key)
        except TypeError:       # a list or object where a string belongs: read below says so
            known = key = None
        if known is not None:
            return known
    read = _read_meld(number, meld)
    if key is not None and len(_MELDS) < 4096:
        _MELDS[key] = read
    return read


_MELDS: Final[dict] = Table()


def _read_meld(number: int, meld: object) -> Meld:
    if not isinstance(meld, dict):
        raise HandError("bad_meld", f"meld {number} must be an object like "
                                    "{\"kind\": \"pon\", \"tiles\": \"777z\", \"from\": \"across\"}")
    kind = meld.get("kind")
    if kind not in MELD_KINDS:
        raise HandError("bad_meld", f"meld {number} has kind {kind!r}; a meld is one of "
                                    f"{', '.join(MELD_KINDS)}")
    text = meld.get("tiles")
    name = MELD_NAMES[kind]
    tiles = read_tiles(text, f"the {name} (meld {number})")
    if any(t.suit == "f" for t in tiles):
        raise HandError("bad_meld", f"The {name} {_shown(tiles)} holds a flower or season, which is never part of a set.")
    _check_meld_shape(kind, name, tiles)
    source = meld.get("from")
    if kind == "ankan":
        if source not in (None, ""):
            raise HandError("bad_meld", f"The concealed kan {_shown(tiles)} was not called from anyone: "
                                        "leave out its \"from\".")
        return Meld(kind, tiles, None)
    if source not in SOURCES:
        raise HandError("bad_meld", f"The {name} {_shown(tiles)} needs \"from\": left, across or right "
                                    f"(whose discard was called), not {source!r}.")
    if kind == "chi" and source != "left":
        raise HandError("bad_meld", f"The chi {_shown(tiles)} is called from {source}, but a chi can only "
                                    "take the discard of the player on your left.")
    return Meld(kind, tiles, source)


def _shown(tiles: tuple[Tile, ...]) -> str:
    return format_tiles(tiles) or '""'


def read_tiles(text: object, field: str) -> tuple[Tile, ...]:
    """`parse_tiles`, remembered group by group ("234m", "406p"): hands share their groups.

    Any error is read again from the whole text, so its message names the right position.
    """
    if isinstance(text, str):
        known = _GROUP_TILES.get(text)
        if known is not None:       # one group, as a winning tile or an indicator mostly is
            return known
        tiles: list[Tile] = []
        for group in _GROUPS.findall(text):
            known = _GROUP_TILES.get(group)
            if known is None:
                try:
                    known = _group_tiles(group)
                except HandError:
                    break
            tiles += known
        else:
            return tuple(tiles)
    return tuple(parse_tiles(text, field=field))


# A group is any run of characters up to a suit letter, or a tail without one (an error).
_GROUPS: Final = re.compile(r"[^mpszf]*[mpszf]|[^mpszf]+$")


def _group_tiles(group: str) -> tuple[Tile, ...]:
    """A group's tiles: its suit letter applies to each digit before it. Each digit-and-letter
    tile was read once by `parse_tiles`; anything else (a space, a bad digit) is read by it."""
    of_suit = _ONE_TILE.get(group[-1])     # no suit letter last: parse_tiles says what is wrong
    try:
        if of_suit is None or len(group) < 2:
            raise KeyError(group)       # a letter without digits: parse_tiles says so
        tiles = tuple(map(of_suit.__getitem__, group[:-1]))
    except KeyError:
        tiles = tuple(_CANONICAL.setdefault(tile, tile) for tile in parse_tiles(group))
    if len(_GROUP_TILES) < 16384:
        _GROUP_TILES[group] = tiles
    return tiles


# Good groups read before ("234m", "406p"): hands share their groups.
_GROUP_TILES: Final[dict] = Table()


# One object per tile (kind, red): the checks compare tiles by identity first.
_CANONICAL: Final[dict] = Table()


def _one_tiles() -> dict[str, dict[str, Tile]]:
    """Every tile MPSZ can write as one digit and its letter ("5m", "0p", "7z", "3f"), by
    letter, then digit."""
    found: dict[str, dict[str, Tile]] = {}
    for suit in "mpszf":
        found[suit] = {}
        for digit in "0123456789":
            try:
                (tile,) = parse_tiles(digit + suit)
            except HandError:
                continue
            found[suit][digit] = tile
    return found


_ONE_TILE: Final = _one_tiles()


def _check_meld_shape(kind: str, name: str, tiles: tuple[Tile, ...]) -> None:
    size = 3 if kind in ("chi", "pon") else 4
    if len(tiles) != size:
        raise HandError("bad_meld", f"The {name} {_shown(tiles)} has {len(tiles)} tiles; a {name} has {size}.")
    kinds = sorted(t.kind for t in tiles)
    if kind == "chi":
        first = kinds[0]
        if first >= 27 or kinds != [first, first + 1, first + 2] or first % 9 > 6:
            raise HandError("bad_meld", f"The chi {_shown(tiles)} is not a run of three in one suit "
                                        "(like 345m); honours never make a run.")
    elif len(set(kinds)) != 1:
        what = "three" if size == 3 else "four"
        raise HandError("bad_meld", f"The {name} {_shown(tiles)} is not {what} of the same tile.")


# --- one reader per hand field: (value, field name) -> the value; null means the default ------

def _players(value: object, name: str) -> int:
    if isinstance(value, bool) or value not in (3, 4):
        raise HandError("bad_request", f"players is 3 or 4, not {value!r}")
    return 3 if value == 3 else 4       # an int, where JSON may have written 3.0


def _win_tile(value: object, name: str) -> Tile:
    tiles = read_tiles(value, name)
    if len(tiles) != 1:
        raise HandError("bad_tile", f"win_tile is one tile, like \"4p\", not {len(tiles)} tiles")
    return tiles[0]


def _meld_list(value: object, name: str) -> tuple[Meld, ...]:
    if not value:
        return ()
    if not isinstance(value, list):
        raise HandError("bad_meld", f"{name} is a list of melds, like "
                                    "[{\"kind\": \"pon\", \"tiles\": \"777z\", \"from\": \"across\"}]")
    return _melds(value)


def _tile_list(value: object, name: str) -> tuple[Tile, ...]:
    return read_tiles(value, name) if value else ()


def _bool(value: object, name: str) -> bool:
    if value is True or value is False:
        return value
    if value is None:
        return _DEFAULTS[name]
    raise HandError("bad_request", f"{name} is true or false, not {value!r}")


def _count(value: object, name: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise HandError("bad_request", f"{name} is a whole number from 0 up, not {value!r}")
    return value


def _wind(value: object, name: str) -> str:
    if value is None or value == "":
        return _DEFAULTS[name]
    if not isinstance(value, str) or value not in WIND_NAMES:
        raise HandError("bad_request", f"{name} is a seat wind: E, S, W or N, not {value!r}")
    return value


# How `read_hand` reads each field it knows: by its kind's reader (a flag by `_bool` ...), by a
# reader of its own (players, concealed, win_tile, melds), or not at all (rules, preset and
# options, which `read_request` reads). Other fields are unknown, kept in `extra`.
_FLAG: Final = 0
_COUNT: Final = 1
_SEAT: Final = 2
_TILES: Final = 3
_OWN: Final = 4
_REQUEST: Final = 5
_UNKNOWN: Final = 6
_KINDS: Final = {
    **dict.fromkeys(("tsumo", "takes_pot", *FLAGS), _FLAG),
    **dict.fromkeys(("honba", "riichi_sticks", "nukidora"), _COUNT),
    **dict.fromkeys(("discarder", "seat_wind", "round_wind", "pao"), _SEAT),
    **dict.fromkeys(("dora_indicators", "ura_indicators", "flowers"), _TILES),
    **dict.fromkeys(("players", "concealed", "win_tile", "melds"), _OWN),
}
assert _KINDS.keys() <= set(WinningHand._fields), "a reader for a field WinningHand lacks"
# Each field's (kind, place in WinningHand).
_FIELDS: Final[dict[str, tuple[int, int]]] = {
    **{name: (kind, WinningHand._fields.index(name)) for name, kind in _KINDS.items()},
    **dict.fromkeys(("rules", "preset", "options"), (_REQUEST, -1)),
}
_NOT_A_FIELD: Final = (_UNKNOWN, -1)
_PLAYERS: Final = WinningHand._fields.index("players")
_EXTRA: Final = WinningHand._fields.index("extra")
# WinningHand's fields at their defaults (concealed and win_tile have none: the reader checks
# that a request names them).
_DEFAULT_ROW: Final = tuple(WinningHand._field_defaults.get(name) for name in WinningHand._fields)
_DEFAULTS: Final = WinningHand._field_defaults
_SEATS: Final = frozenset(WIND_NAMES)
