"""Reading request input into plain values, each failure a PlayerError naming the field."""
from __future__ import annotations

import json
import unicodedata

from flask import request

from scorer.names import clean_name
from webui.guard import limits
from webui.guard.errors import PlayerError
from webui.guard.limits import MOST_HONBA, MOST_JSON_DEPTH, MOST_NUKIDORA, MOST_RIICHI_STICKS, MOST_SCORE

# Bidirectional overrides would let a name redraw the text around it (a score, another name).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def json_body() -> dict:
    if not request.is_json:
        raise PlayerError(415, "unsupported_media")
    body = parse_json(request.get_data(cache=True, as_text=True) or "null", "body")
    if not isinstance(body, dict):
        raise PlayerError(400, "bad_json", "the body must be a JSON object")
    return body


def parse_json(text: str, name: str):
    """JSON a player sent (a request body, or a form field holding JSON), at most
    `MOST_JSON_DEPTH` levels deep: deeper nesting is no hand, and would exhaust the stack of
    whatever walks it next."""
    too_deep = PlayerError(400, "bad_json", f"{name}: nested more than {MOST_JSON_DEPTH} levels deep")
    try:
        value = json.loads(text)
    except (ValueError, UnicodeDecodeError) as err:
        raise PlayerError(400, "bad_json", f"{name}: {err}") from None
    except RecursionError:
        raise too_deep from None
    if _depth(value) > MOST_JSON_DEPTH:
        raise too_deep
    return value


def _depth(value) -> int:
    """How deep lists and objects nest in `value`, counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level > MOST_JSON_DEPTH:
                return level
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def integer(value, name: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool):
        raise PlayerError(400, "bad_field", f"{name}: a whole number is needed")
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise PlayerError(400, "bad_field", f"{name}: a whole number is needed, not {str(value)[:40]!r}") from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise PlayerError(400, "bad_field", f"{name}: {str(number)[:24]} is not {_range(low, high)}")
    return number


def _range(low: float | None, high: float | None) -> str:
    if low is None:
        return f"at most {high:,}"
    if high is None:
        return f"at least {low:,}"
    return f"from {low:,} to {high:,}"


def number(value, name: str, low: float | None = None, high: float | None = None) -> float:
    if isinstance(value, bool):
        raise PlayerError(400, "bad_field", f"{name}: a number is needed")
    try:
        result = float(str(value).strip())
    except (TypeError, ValueError, OverflowError):
        raise PlayerError(400, "bad_field", f"{name}: a number is needed, not {str(value)[:40]!r}") from None
    if result != result or result in (float("inf"), float("-inf")):
        raise PlayerError(400, "bad_field", f"{name}: a number is needed")
    if (low is not None and result < low) or (high is not None and result > high):
        raise PlayerError(400, "bad_field", f"{name}: {result:g} is not {_range(low, high)}")
    return result


def choice(value, name: str, options, default: str) -> str:
    """One of a few words (rules, preset, length); absent is the default."""
    if value is None or value == "":
        return default
    if not isinstance(value, str) or value not in options:
        raise PlayerError(400, "bad_field", f"{name}: one of {', '.join(o for o in options if o)}")
    return value


def seat(value, name: str, seats: int, optional: bool = False) -> int | None:
    if optional and (value is None or value == ""):
        return None
    return integer(value, name, 0, seats - 1)


def integer_list(text: str, name: str, count: int | None = None) -> list[int]:
    parts = [p for p in str(text).replace(" ", ",").split(",") if p.strip()]
    values = [integer(p, name) for p in parts]
    if count is not None and len(values) != count:
        raise PlayerError(400, "bad_field", f"{name}: {count} numbers are needed, got {len(values)}")
    return values


def text(value, name: str, limit: int = 60) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise PlayerError(400, "bad_field", f"{name}: text is needed")
    value = " ".join(value.split())
    if len(value) > limit:
        raise PlayerError(400, "bad_field", f"{name}: at most {limit} characters")
    # control characters and lone surrogates cannot be shown (nor written as UTF-8 to a page)
    if any(unicodedata.category(c) in ("Cc", "Cs") or c in _BIDI_CONTROLS for c in value):
        raise PlayerError(400, "bad_field", f"{name}: letters, digits and punctuation only, no control characters")
    return value


def person_name(value, name: str) -> str:
    """A player's or member's name people can read (`scorer.names`): text as `text` reads it,
    normalised (NFC), with nothing invisible and no look-alike letters of two alphabets in a word."""
    typed = text(value, name, limits.NAME_LENGTH)
    cleaned, why = clean_name(typed, limits.NAME_LENGTH)
    if why:
        raise PlayerError(400, "bad_field", f"{name}: {why}")
    return cleaned


def correction_scores(scores, seats: int) -> list[int]:
    """Each seat's points as a correction sets them: whole numbers a real table can show."""
    if not isinstance(scores, list) or len(scores) != seats:
        raise PlayerError(400, "bad_field", f"scores: a list of {seats} scores, one per seat")
    return [integer(v, "scores", -MOST_SCORE, MOST_SCORE) for v in scores]


_HAND_COUNTS = {"honba": MOST_HONBA, "riichi_sticks": MOST_RIICHI_STICKS, "nukidora": MOST_NUKIDORA}


def hand_counts(hand: dict) -> dict:
    """A hand request whose counts a real table can show; the scorer checks their kind (whole
    numbers from 0 up) and everything else."""
    for name, most in _HAND_COUNTS.items():
        value = hand.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > most:
            raise PlayerError(400, "bad_field", f"{name}: {str(value)[:24]} is not {_range(0, most)}")
    return hand
