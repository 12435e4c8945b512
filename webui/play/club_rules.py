"""A club's rules: the new-session form's settings a club plays by (rule set, preset, length,
starting and return points, uma, rate, chips), kept per club and edited by whoever manages it.

They are kept as the form's own fields, checked by the same reading of the form a new session
gets (`ledger.config_from_form`), so a club can keep nothing a new session would refuse. A new
club session (by hand, or a club night's table) starts from them; the form can change any of
them for that one game. A three-player table plays the preset's three-player points and uma
(the club's are for four), as the new-session form does when seat 4 is left empty.
"""
from __future__ import annotations

from werkzeug.datastructures import MultiDict

from webui.guard.errors import PlayerError
from webui.play import ledger
from webui.storage import nights as stored

# The form fields a club keeps, each rule set its own (the rest are left out for it).
FIELDS = {
    "riichi": ("preset", "length", "starting_points", "return_points", "uma", "rate", "chip_value"),
    "fundamentals": ("rate",),
    "chinese-classical": ("length", "limit", "settlement", "rate"),
}
PRESETS = ledger.PRESETS
# Names only to check the settings with: a club's rules name no players.
_CHECK_PLAYERS = ("East", "South", "West", "North")


def defaults(preset: str = "tenhou") -> dict:
    """What a club without kept rules starts from: the new-session form's defaults (the
    preset's points and uma for four)."""
    start = ledger.form_defaults()["riichi"].get(preset, ledger.form_defaults()["riichi"]["tenhou"])["4"]
    return {"rules": "riichi", "preset": preset, "length": "south", "starting_points": str(start["starting_points"]),
            "return_points": str(start["return_points"]), "uma": start["uma"], "rate": "0", "chip_value": "0",
            "limit": "1000", "settlement": "difference"}


def read(club_id: str) -> dict:
    """The club's rules as form values (the defaults of its preset where it keeps none)."""
    own = stored.club_rules(club_id) or {}
    return {**defaults(own.get("preset") or "tenhou"), **own}


def kept(club_id: str) -> bool:
    return stored.club_rules(club_id) is not None


def from_form(form) -> dict:
    """The rules a manager sent, checked as a new session's settings would be; refused in words."""
    rules = form.get("rules") or "riichi"
    if rules not in FIELDS:
        raise PlayerError(400, "bad_field", f"rules: one of {', '.join(FIELDS)}")
    chosen = {"rules": rules}
    for name in FIELDS[rules]:
        value = form.get(name)
        if value is not None and str(value).strip() != "":
            chosen[name] = " ".join(str(value).split())[:40]
    config_for(chosen, list(_CHECK_PLAYERS))        # raises PlayerError in the player's words
    return chosen


def save(club_id: str, form) -> dict:
    chosen = from_form(form)
    stored.set_club_rules(club_id, chosen)
    return chosen


def config_for(rules: dict, players: list[str]) -> dict:
    """A session's config for these players (East first) under the club's rules. A table of
    three takes the preset's three-player points and uma."""
    fields = {k: v for k, v in rules.items() if k == "rules" or k in FIELDS.get(rules.get("rules", ""), ())}
    if len(players) == 3:
        for name in ("starting_points", "return_points", "uma"):
            fields.pop(name, None)
    fields.update({f"player{i}": name for i, name in enumerate(players)})
    return ledger.config_from_form(MultiDict(fields))


def summary(rules: dict) -> dict:
    """The rules as the club page lists them: the fields of the chosen rule set only."""
    return {name: rules[name] for name in ("rules", *FIELDS.get(rules["rules"], ())) if name in rules}
