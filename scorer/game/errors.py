"""The ledger's error: an event that cannot happen now, or a config that cannot be played."""
from ..errors import HandError


class LedgerError(HandError):
    """Same shape as `HandError` (`code`, player-readable `message`, `.to_json()`), raised by
    `GameConfig.from_json` and `apply` so the web app and CLI show it and keep the log."""
