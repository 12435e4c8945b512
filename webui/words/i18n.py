"""English and Japanese. The language is the `lang` cookie (the toggle) or else the browser's
Accept-Language. Every message a player can see is a key here, errors included."""
from __future__ import annotations

from flask import Flask, g, request

from webui.words.messages import MESSAGES

LANGUAGES = ("en", "ja")


def current_language() -> str:
    if "lang" not in g:
        chosen = request.cookies.get("lang")
        if chosen not in LANGUAGES:
            chosen = request.accept_languages.best_match(LANGUAGES, default="en")
        g.lang = chosen
    return g.lang


def t(key: str, **values) -> str:
    """The message `key` in the current language; a missing key shows itself, never fails."""
    entry = MESSAGES.get(key)
    if entry is None:
        return key
    text = entry[1] if current_language() == "ja" and len(entry) > 1 and entry[1] else entry[0]
    return text.format(**values) if values else text


def wind_name(wind: str) -> str:
    return t(f"wind.{wind}")


def round_name(round_wind: str, number: int) -> str:
    return t("round_name", wind=wind_name(round_wind), n=number)


def hand_name(round_wind: str, number: int, honba: int = 0) -> str:
    """A hand as players name it: "East 1", after a repeat or a draw "East 1, 1 honba"
    (東1局1本場), so the log's and the chart's hands of one round tell apart."""
    name = round_name(round_wind, number)
    return t("hand_name", round=name, honba=honba) if honba else name


def house(name: str) -> str:
    """The settlement's balancing party (riichi sticks lost at the end) in the player's words."""
    from scorer.settlement import HOUSE
    return t("settle.house") if name == HOUSE else name


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(t=t, lang=current_language, wind_name=wind_name, round_name=round_name,
                                  hand_name=hand_name)
