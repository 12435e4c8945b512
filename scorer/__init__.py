"""Pure mahjong rules: tiles and notation, hand reading, scoring, ledger, settlement.

No I/O and no imports from the other Tenbou packages.
"""

from .contract import score

__all__ = ["score"]
