"""A game's set-up: rule set, players in seat order, points, length, table rules,
settlement terms. Built from a JSON-able dict (`GameConfig.from_json`), checked there."""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field

from ..chinese.options import ChineseOptions, chinese_options
from ..errors import HandError
from ..limits import MOST_CHIP_SETTING, MOST_CHIP_VALUE
from ..names import fold
from .errors import LedgerError, shown
from .table_rules import TABLE_OPTIONS, TABLE_PRESETS, TableRules, describe, preset_scoring, table_rules

RULE_SETS = ("riichi", "fundamentals", "chinese-classical")
# How many times the deal goes round the table: East only, East-South, ... all four winds.
LENGTHS = {"east": 1, "south": 2, "west": 3, "full": 4}
DEFAULT_LENGTH = {"riichi": "south", "fundamentals": "east", "chinese-classical": "full"}
DEFAULT_START = {"fundamentals": 20, "chinese-classical": 0}
UMA_NAMES = {"5-15": (15, 5, -5, -15), "10-20": (20, 10, -10, -20), "10-30": (30, 10, -10, -30),
             "20-30": (30, 20, -20, -30), "none": (0, 0, 0, 0)}


@dataclass(frozen=True)
class Chips:
    """Chips settled apart from the points: each ippatsu, ura dora, red five and yakuman of
    a riichi win earns chips from the discarder (ron) or from each other player (tsumo)."""
    value: float = 0.0            # money per chip
    ippatsu: int = 1
    ura: int = 1
    aka: int = 1
    yakuman: int = 5


@dataclass(frozen=True)
class GameConfig:
    rules: str
    players: tuple[str, ...]
    preset: str = "tenhou"
    options: dict = field(default_factory=dict)     # scoring options of the rule set
    table: TableRules = TableRules()
    length: str = "south"
    starting_points: int = 25000
    return_points: int = 30000
    uma: tuple[int, ...] = (20000, 10000, -10000, -20000)   # in points, by placement
    rate: float = 0.0                               # money per `rate_per` points of the result
    rate_per: int = 1000
    currency: str = ""
    chips: Chips | None = None

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def rounds(self) -> int:
        return LENGTHS[self.length]

    @property
    def oka(self) -> int:
        """What first place takes on top: the difference of return and starting points of all."""
        return (self.return_points - self.starting_points) * self.n

    def riichi_rules(self):
        from ..riichi.rules import rules_for
        return rules_for(self.preset, self.options, self.n)

    def chinese_options(self) -> ChineseOptions:
        return chinese_options(self.options)

    @classmethod
    def from_json(cls, d: dict) -> "GameConfig":
        return _from_json(d)

    def to_json(self) -> dict:
        d = {"rules": self.rules, "players": list(self.players), "length": self.length,
             "starting_points": self.starting_points, "return_points": self.return_points,
             "uma": [u / self._uma_unit for u in self.uma], "rate": self.rate,
             "rate_per": self.rate_per, "currency": self.currency, "options": dict(self.options)}
        if self.rules == "riichi":
            d["preset"] = self.preset
            d["options"].update(describe(self.table))
        if self.chips:
            d["chips"] = vars(self.chips).copy()
        return d

    @property
    def _uma_unit(self) -> int:
        return 1000 if self.rules == "riichi" else 1


def _from_json(d: dict) -> GameConfig:
    if not isinstance(d, dict):
        raise LedgerError("bad_config", "the game set-up must be an object with rules and players")
    rules = d.get("rules", "riichi")
    if not isinstance(rules, str) or rules not in RULE_SETS:
        raise LedgerError("unknown_rules", f"rules is one of {', '.join(RULE_SETS)}, not {shown(rules)}")
    players = _players(d.get("players"), rules)
    n = len(players)
    options = d.get("options") or {}
    if not isinstance(options, dict):
        raise LedgerError("bad_option", "options must be an object, like {\"bust\": false}")
    preset = d.get("preset") or "tenhou"
    table = TableRules()
    if rules == "riichi":
        if not isinstance(preset, str) or preset not in TABLE_PRESETS:
            raise LedgerError("unknown_preset", f"there is no riichi preset called {shown(preset)}; "
                                                f"use one of {', '.join(TABLE_PRESETS)}")
        table = table_rules(preset, {k: v for k, v in options.items() if k in TABLE_OPTIONS})
        options = {k: v for k, v in options.items() if k not in TABLE_OPTIONS}
        start, back, uma = preset_scoring(preset, n)
    else:
        start = back = DEFAULT_START[rules]
        uma = (0,) * n
    unit = 1000 if rules == "riichi" else 1
    start = _whole(d.get("starting_points", start), "starting_points")
    config = GameConfig(
        rules=rules, players=players, preset=preset, options=options, table=table,
        length=_length(d.get("length", DEFAULT_LENGTH[rules]), rules),
        starting_points=start,
        return_points=_whole(d.get("return_points", back if rules == "riichi" else start), "return_points"),
        uma=_uma(d.get("uma"), n, unit) if d.get("uma") is not None else uma,
        rate=_number(d.get("rate", 0), "rate"),
        rate_per=_whole(d.get("rate_per", unit), "rate_per", positive=True),
        currency=str(d.get("currency", "")),
        chips=_chips(d.get("chips")),
    )
    _check_scoring_options(config)
    return config


def _players(names, rules: str) -> tuple[str, ...]:
    if not isinstance(names, list) or not all(isinstance(p, str) and p.strip() for p in names):
        raise LedgerError("bad_config", "players is a list of names in seat order from the first dealer")
    allowed = (4,) if rules == "chinese-classical" else (3, 4)
    if len(names) not in allowed:
        raise LedgerError("bad_config", f"{rules} is played by {' or '.join(map(str, allowed))} players, "
                                        f"not {len(names)}")
    # one normal form (an accent typed as one character or two is one name), and names alike
    # but for case are one person to read: Bea, bea and BEA cannot sit at one table
    names = tuple(unicodedata.normalize("NFC", p.strip()) for p in names)
    if len({fold(p) for p in names}) != len(names):
        raise LedgerError("bad_config", "two players have the same name; give each a different one")
    return names


def _length(value, rules: str) -> str:
    if not isinstance(value, str) or value not in LENGTHS:
        raise LedgerError("bad_config", f"length is one of {', '.join(LENGTHS)}, not {shown(value)}")
    if rules == "fundamentals" and value != "east":
        raise LedgerError("bad_config", "a Fundamentals game ends when the deal returns to the first dealer "
                                        "(length \"east\")")
    return value


def _whole(value, name: str, positive: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < (1 if positive else 0):
        raise LedgerError("bad_config", f"{name} is a whole number of points, not {shown(value)}")
    return value


def _number(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
        raise LedgerError("bad_config", f"{name} is a number of money units (0 or more), not {shown(value)}")
    return value


def _uma(value, n: int, unit: int) -> tuple[int, ...]:
    if isinstance(value, str):
        if value not in UMA_NAMES or n != 4:
            raise LedgerError("bad_config", f"uma by name is one of {', '.join(UMA_NAMES)} (four players); "
                                            f"otherwise give a list like [15, 0, -15]")
        value = list(UMA_NAMES[value])
    if (not isinstance(value, list) or len(value) != n
            or not all(isinstance(u, (int, float)) and not isinstance(u, bool) and math.isfinite(u) for u in value)):
        raise LedgerError("bad_config", f"uma is a list of {n} numbers by placement, like [20, 10, -10, -20]")
    points = tuple(round(u * unit) for u in value)
    if sum(points) != 0:
        raise LedgerError("bad_config", f"uma must add up to zero; {value} adds up to {sum(value)}")
    return points


def _chips(value) -> Chips | None:
    if value in (None, False):
        return None
    if not isinstance(value, dict):
        raise LedgerError("bad_config", "chips is an object like {\"value\": 0.5, \"ura\": 1}")
    known = vars(Chips())
    for name, v in value.items():
        if name not in known:
            raise LedgerError("bad_config", f"chips has no setting {shown(name)}; the settings are {', '.join(known)}")
        most = MOST_CHIP_VALUE if name == "value" else MOST_CHIP_SETTING
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= most:
            raise LedgerError("bad_config", f"chips {name} is a number from 0 to {most:,}, not {shown(v)}")
    return Chips(**value)


def _check_scoring_options(config: GameConfig) -> None:
    """The scoring options are checked now, so a bad one fails at set-up, not mid-game."""
    try:
        if config.rules == "riichi":
            config.riichi_rules()
        elif config.rules == "chinese-classical":
            config.chinese_options()
        elif config.options:
            raise LedgerError("unknown_option", "the Fundamentals rules have no options")
    except LedgerError:
        raise
    except HandError as error:
        raise LedgerError(error.code, error.message) from None
