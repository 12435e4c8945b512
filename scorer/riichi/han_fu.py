"""Whether a win given as han and fu (no tiles) can exist under a rule set.

A player who counted the hand at the table types its han and fu; the ledger pays any pair the
limit table knows. Some pairs no hand can reach, and paying them would put a wrong number on
the scoreboard, so the places where han and fu are typed ask here first. The facts behind each
refusal are the fu rules the engine applies (`fu.py`, docs/riichi-rules.md) and the contract's
options (`shared/spec/hand-json.md`):

- a closed ron earns 10 fu on the base 20 and an open hand with no fu is raised to 30
  (`open_pinfu_fu`), so a ron is at least 30 fu; off that option an open ron may be 20;
- "seven pairs is 25" fu, and seven pairs is itself 2 han; won by tsumo it is closed, so it
  has menzen tsumo too: at least 3 han;
- 20 fu by tsumo is pinfu tsumo (pinfu and menzen tsumo: at least 2 han), unless
  `pinfu_tsumo_fu` gives it the tsumo's 2 fu (30), when no tsumo is 20 fu;
- fu are rounded up to 10. Below 5 han the ledger takes them up to 110: a hand of 1 or 2 han
  has no more, and from 3 han one of 70 fu or more (4 han: 40) is already a mangan, which more
  fu do not change (an open sanankou sankantsu of guest-wind kans is 4 han 120 fu);
- counted han stop mattering at 13 (a counted yakuman, or sanbaiman where `kazoe` says so),
  and no hand without a yakuman counts more than 60 (riichi.wiki, "Kazoe yakuman": double
  riichi, houtei, three dragons' worth of honours, sankantsu, toitoi, sanankou, shousangen,
  honroutou, honitsu, 20 dora and 20 ura dora).
"""
from __future__ import annotations

from typing import Final

from .rules import Rules

FU_VALUES: Final = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
FU_UP_TO: Final = 110
COUNTED_YAKUMAN_HAN: Final = 13
MOST_COUNTED_HAN: Final = 60


def impossible(han: int, fu: int, tsumo: bool, rules: Rules) -> str | None:
    """Why no hand is `han` han and `fu` fu won this way (tsumo or ron) under `rules`, in a
    player's words; None when such a hand exists. `fu` 0 means not given, which only a hand of
    5 han or more may leave out (the limit table pays it without fu)."""
    if han < 1:
        return "a win has at least 1 han (a yakuman is entered as yakuman)"
    if han > MOST_COUNTED_HAN:
        return (f"no hand without a yakuman counts more than {MOST_COUNTED_HAN} han, so {han} han cannot be; "
                f"{COUNTED_YAKUMAN_HAN} han or more is paid as {_counted(rules)} under these rules")
    if fu == 0:
        return None if han >= 5 else f"{han} han needs its fu (20, 25, 30, ... 110)"
    if fu not in (20, 25) and (fu < 30 or fu % 10):
        return f"fu are rounded up to 10 (seven pairs is 25): 20, 25, 30, ... 110, not {fu}"
    if fu > FU_UP_TO and han < 5:
        return (f"fu go up to {FU_UP_TO}, not {fu}: no hand of 1 or 2 han has more, and from 3 han a hand "
                f"of 70 fu or more is already a mangan; enter {FU_UP_TO}")
    if fu == 25:
        return _seven_pairs(han, tsumo)
    if fu == 20:
        return _twenty_fu(han, tsumo, rules)
    return None


def _counted(rules: Rules) -> str:
    return "a counted yakuman (kazoe yakuman)" if rules.kazoe == "yakuman" else "sanbaiman"


def _seven_pairs(han: int, tsumo: bool) -> str | None:
    if han < 2:
        return "25 fu is seven pairs (chiitoitsu), which is itself 2 han: 1 han 25 fu cannot be"
    if tsumo and han < 3:
        return "25 fu is seven pairs; won by tsumo it also has menzen tsumo, so it is at least 3 han"
    return None


def _twenty_fu(han: int, tsumo: bool, rules: Rules) -> str | None:
    if tsumo:
        if rules.pinfu_tsumo_fu:
            return "under these rules pinfu tsumo earns the tsumo's 2 fu (30 fu): no tsumo is 20 fu"
        if han < 2:
            return "20 fu by tsumo is pinfu tsumo, which has pinfu and menzen tsumo: at least 2 han"
        return None
    if rules.open_pinfu_fu:
        return ("a ron is at least 30 fu (a closed hand earns 10 fu for the ron, an open hand with no "
                "fu is raised to 30); only seven pairs is less, at 25")
    return None
