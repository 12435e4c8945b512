"""Fields of the hand JSON contract that a rule set other than riichi does not play.

The contract is riichi's, and a hand of classical Chinese or Fundamentals may still carry a
riichi field (a form filled for the wrong rules, a tool that sends every field). Such a field is
refused in the player's words, never dropped: a hand scored without what the player asked for is
a wrong score. A field counts as given when it differs from its default (`takes_pot` is true by
default; every other flag false, every count 0, every list empty). Each rule set's scorer calls
`refuse_unplayed(hand, RULE_SET)` first.
"""
from __future__ import annotations

from typing import Final

from .errors import HandError
from .hand import WinningHand

# Each field of riichi scoring alone, in a player's words.
RIICHI_FIELDS: Final = {
    "riichi": "declaring riichi",
    "double_riichi": "double riichi",
    "ippatsu": "ippatsu",
    "chiihou": "chiihou (a win on one's first draw)",
    "renhou": "renhou (a win before one's first draw)",
    "nagashi_mangan": "nagashi mangan",
    "dora_indicators": "dora indicators",
    "ura_indicators": "ura dora indicators",
    "honba": "honba (repeat counters)",
    "riichi_sticks": "riichi sticks",
    "takes_pot": "takes_pot (who takes the honba and riichi sticks of a double ron)",
    "pao": "pao (liability for a big hand)",
    "nukidora": "north tiles set aside (nukidora)",
}

# Fields a text gives no meaning, by rule set, each with what the text has instead.
UNPLAYED: Final[dict[str, dict[str, str]]] = {
    # Text 003 knows a hand from heaven (tenhou), the loose tile (rinshan), the last tile
    # before the dead wall (haitei, houtei) and robbing a kong (chankan); nothing else of riichi.
    "chinese-classical": RIICHI_FIELDS,
    # Text 004 pays every win alike ("Tsumo", "Ron") and has no kans: a situation that has a
    # value in riichi changes nothing here, and a loose tile or a robbed kan cannot happen.
    "fundamentals": {
        **RIICHI_FIELDS,
        "tenhou": "tenhou (the dealer's win on the deal)",
        "haitei": "haitei (a win on the last tile)",
        "houtei": "houtei (a win on the last discard)",
        "rinshan": "rinshan (a win on the tile after a kan)",
        "chankan": "chankan (robbing a kan)",
    },
}
RULE_NAMES: Final = {"chinese-classical": "classical Chinese scoring", "fundamentals": "the Fundamentals rules"}
_DEFAULTS: Final = WinningHand._field_defaults


def refuse_unplayed(hand: WinningHand, rules: str) -> None:
    """Raise `bad_flag_combination` for the first field of `hand` that `rules` does not play."""
    for field, words in UNPLAYED[rules].items():
        if getattr(hand, field) != _DEFAULTS[field]:
            raise HandError("bad_flag_combination", f"{words[0].upper()}{words[1:]} is part of riichi, "
                                                    f"not of {RULE_NAMES[rules]}: leave {field} out.")
