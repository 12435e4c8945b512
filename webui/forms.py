"""Reading request input into plain values, each failure a PlayerError naming the field."""
from __future__ import annotations

import json

from flask import request

from .errors import PlayerError


def json_body() -> dict:
    if not request.is_json:
        raise PlayerError(415, "unsupported_media")
    try:
        body = json.loads(request.get_data(cache=True, as_text=True) or "null")
    except (ValueError, UnicodeDecodeError) as err:
        raise PlayerError(400, "bad_json", str(err)) from None
    if not isinstance(body, dict):
        raise PlayerError(400, "bad_json", "the body must be a JSON object")
    return body


def integer(value, name: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool):
        raise PlayerError(400, "bad_field", f"{name}: a whole number is needed")
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise PlayerError(400, "bad_field", f"{name}: a whole number is needed, not {str(value)[:40]!r}") from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise PlayerError(400, "bad_field", f"{name}: {number} is outside {low}..{high}")
    return number


def number(value, name: str) -> float:
    try:
        result = float(str(value).strip())
    except (TypeError, ValueError):
        raise PlayerError(400, "bad_field", f"{name}: a number is needed, not {str(value)[:40]!r}") from None
    if result != result or result in (float("inf"), float("-inf")):
        raise PlayerError(400, "bad_field", f"{name}: a number is needed")
    return result


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
    return value
