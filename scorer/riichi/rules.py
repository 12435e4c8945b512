"""Riichi rule options and the named presets (tenhou, mahjongsoul, wrc, ema, mleague, book).

A `Rules` value is plain data: every scoring function takes one and never changes it.
`rules_for` builds it from a request's `preset`, `options` and `players`; the option names
are the contract's (`shared/spec/hand-json.md`), documented with each preset's values
and the rule text behind them in `docs/riichi-rules.md`.
"""
from __future__ import annotations

from typing import NamedTuple

from ..errors import HandError


class Rules(NamedTuple):
    """One rule set. Defaults are Tenhou's standard four-player rules.

    A named tuple: it keys the engine's caches, hashed as a tuple in C, and the compiled scorer
    (setup.py) reads its options as tuple items, where a dataclass's are attribute look-ups."""
    preset: str = "tenhou"
    aka: bool = True                  # red fives count as dora (aka dora)
    open_tanyao: bool = True          # all-simples counts on an open hand (kuitan)
    double_yakuman: bool = False      # kokushi 13-wait, suuankou tanki, junsei chuuren, daisuushii pay two
    stacked_yakuman: bool = True      # two different yakuman in one hand add up
    kazoe: str = "yakuman"            # what 13+ counted han is worth: "yakuman" or "sanbaiman"
    kiriage: bool = False             # 4 han 30 fu and 3 han 60 fu round up to mangan
    double_wind_pair_fu: int = 4      # a pair of a wind that is both seat and round wind
    renhou: str = "off"               # win before one's first draw: "off", "mangan", "yakuman"
    pinfu_tsumo_fu: bool = False      # pinfu tsumo earns the 2 tsumo fu (30 fu, not 20)
    open_pinfu_fu: bool = True        # an open hand with no fu is raised to 30 (2 fu on top of 20)
    three_player: bool = False        # sanma: 1m points at 9m, north tiles set aside
    tsumo_loss: bool = True           # three-player tsumo: the missing seat's share is not paid
    nukidora: bool = True             # three-player: north tiles set aside count as dora
    ura: bool = True                  # ura dora under the indicators for a riichi winner
    ippatsu: bool = True              # ippatsu is a yaku
    nagashi_mangan: bool = True       # all-terminal/honour discards pay mangan at the draw
    red_fives_per_suit: int = 1       # red fives of one suit the set may hold (the book's set of four: 2)

    @property
    def players(self) -> int:
        return 3 if self.three_player else 4


# The option names a request may set, with the values each accepts (None: any bool).
_CHOICES: dict[str, tuple | None] = {
    "aka": None,
    "open_tanyao": None,
    "double_yakuman": None,
    "stacked_yakuman": None,
    "kazoe": ("yakuman", "sanbaiman"),
    "kiriage": None,
    "double_wind_pair_fu": (2, 4),
    "renhou": ("off", "mangan", "yakuman"),
    "pinfu_tsumo_fu": None,
    "open_pinfu_fu": None,
    "three_player": None,
    "tsumo_loss": None,
    "nukidora": None,
    "ura": None,
    "ippatsu": None,
    "nagashi_mangan": None,
}
OPTION_NAMES = tuple(_CHOICES)

# Each preset's departures from Tenhou; docs/riichi-rules.md gives the rule text behind them.
_PRESET_CHANGES: dict[str, dict] = {
    "tenhou": {},
    "mahjongsoul": {"double_yakuman": True},
    "wrc": {"aka": False, "stacked_yakuman": False, "kazoe": "sanbaiman", "double_wind_pair_fu": 2,
            "renhou": "mangan", "nagashi_mangan": False},
    "ema": {"aka": False, "stacked_yakuman": False, "kazoe": "sanbaiman", "double_wind_pair_fu": 2,
            "renhou": "mangan", "nagashi_mangan": False},
    "mleague": {"double_wind_pair_fu": 2},
    # The book: "If you want to use the red 5s, replace 3 or 4 normal 5's with them": four red
    # fives in three suits, so one suit (the book does not say which) has two.
    "book": {"aka": False, "red_fives_per_suit": 2},
}
PRESETS: dict[str, Rules] = {
    name: Rules()._replace(preset=name, **changes) for name, changes in _PRESET_CHANGES.items()
}
DEFAULT_PRESET = "tenhou"


_BUILT: dict[tuple, Rules] = {}


def red_fives_per_suit(preset: str | None) -> int:
    """How many red fives of one suit a preset's set holds, for the hand checks that run before
    the request's rules are built (an unknown preset is refused later, with its own message)."""
    return PRESETS.get(preset or DEFAULT_PRESET, PRESETS[DEFAULT_PRESET]).red_fives_per_suit


def rules_for(preset: str | None = None, options: dict | None = None, players: int = 4) -> Rules:
    """The rules of a request: the named preset (default tenhou), then single options.

    Raises HandError `unknown_preset`, `unknown_option` or `bad_option` with a message that
    names the preset or option and lists what is accepted.
    """
    key = None
    try:
        # Each value with its type: 1 == True, but only true is an option's value.
        typed = tuple(sorted((name, type(value), value) for name, value in options.items())) \
            if isinstance(options, dict) else options
        key = (preset, typed, players)
        return _BUILT[key]
    except (KeyError, TypeError):
        pass
    rules = _build(preset, options, players)
    if key is not None and len(_BUILT) < 4096:
        try:
            _BUILT[key] = rules
        except TypeError:     # an option value that cannot be a key: not cached
            pass
    return rules


def _build(preset, options, players) -> Rules:
    name = preset or DEFAULT_PRESET
    if not isinstance(name, str) or name not in PRESETS:
        raise HandError("unknown_preset",
                        f"there is no riichi preset called {name!r}; use one of {', '.join(PRESETS)}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise HandError("bad_option", "options must be an object of option names and values, "
                                      "like {\"kiriage\": true}")
    changes = {key: _checked(key, value) for key, value in options.items()}
    if players == 3:
        if changes.get("three_player") is False:
            raise HandError("bad_option", "the option three_player is false but the hand is "
                                          "from a three-player game (players: 3)")
        changes["three_player"] = True
    elif players != 4:
        raise HandError("bad_option", f"riichi is played by 3 or 4 players, not {players!r}")
    return PRESETS[name]._replace(**changes)


def _checked(key: str, value):
    if key not in _CHOICES:
        raise HandError("unknown_option",
                        f"there is no riichi option called {key!r}; the options are {', '.join(OPTION_NAMES)}")
    allowed = _CHOICES[key]
    if allowed is None:
        if not isinstance(value, bool):
            raise HandError("bad_option", f"the option {key} is true or false, not {value!r}")
        return value
    # 1 == True and 2 == 2.0 in Python: a choice is one of the listed values, of their type.
    if type(value) not in {type(a) for a in allowed} or value not in allowed:
        shown = " or ".join(repr(a) if isinstance(a, str) else str(a) for a in allowed)
        raise HandError("bad_option", f"the option {key} is {shown}, not {value!r}")
    return value


def describe(rules: Rules) -> dict:
    """The option values of a rule set, by name (for documentation and debugging)."""
    return rules._asdict()
