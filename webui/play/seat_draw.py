"""The seat draw at one table: the players as typed, shuffled, or seated by wind tiles drawn as a
physical table does (`scorer.seating.draw_winds`), kept with the session so every phone's
scoreboard shows who drew which wind."""
from __future__ import annotations

import random
import secrets

from werkzeug.datastructures import MultiDict

from scorer import seating

from webui.guard.errors import PlayerError
from webui.storage import nights as stored

# "typed": the seats as the form lists them; the others are seating.WIND_DRAWS.
DRAWS = ("typed", *seating.WIND_DRAWS)


def drawn_form(form) -> tuple[MultiDict, dict | None]:
    """The new-session form with its players in their drawn seats (East first), and the draw
    (None when the seats are as typed)."""
    how = form.get("seat_draw") or "typed"
    if how not in DRAWS:
        raise PlayerError(400, "bad_field", f"seat draw: one of {', '.join(DRAWS)}")
    if how == "typed":
        return form, None
    names = [(form.get(f"player{i}") or "").strip() for i in range(4)]
    names = [n for n in names if n]
    if len(names) not in (3, 4) or len({n.casefold() for n in names}) != len(names):
        return form, None           # the form's own check refuses these in its words
    draw = seating.draw_winds(names, random.Random(secrets.randbits(64)), how)
    changed = MultiDict(form)
    for i in range(4):
        changed.setlist(f"player{i}", [draw.seats[i]] if i < len(draw.seats) else [])
    return changed, draw.to_json()


def keep(session_id: str, draw: dict | None) -> None:
    if draw is not None:
        stored.keep_seat_draw(session_id, draw)


def of_session(session_id: str) -> dict | None:
    """The session's draw, for its scoreboard: None when the seats were typed."""
    return stored.seat_draw(session_id)
