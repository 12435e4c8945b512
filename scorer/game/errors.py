"""The ledger's error: an event that cannot happen now, or a config that cannot be played."""
from ..errors import HandError


class LedgerError(HandError):
    """Same shape as `HandError` (`code`, player-readable `message`, `.to_json()`), raised by
    `GameConfig.from_json` and `apply` so the web app and CLI show it and keep the log."""


def shown(value: object, longest: int = 40) -> str:
    """A value a log or a player sent, as an error message quotes it: short, whatever it is
    (a 10**400 count or a page of text stays one short line; `repr` of an int past 4,300
    digits would itself fail)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return "a number too large"
    text = repr(value)
    return text if len(text) <= longest else text[:longest - 1] + "…"
