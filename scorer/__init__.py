"""Pure mahjong rules: tiles and notation, hand reading, scoring, ledger, settlement.

No I/O and no imports from the other Tenbou packages (`_native` only chooses, at import, between
the compiled scorer and its sources).
"""

from ._native import BUILD
from .contract import score

__all__ = ["BUILD", "score"]
