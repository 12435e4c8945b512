"""The classifier's class names and how they map to tiles.

A class is the tile's MPSZ name (`5m`, `7z`, `3f`), `0m`/`0p`/`0s` for the red fives,
`back` for a tile lying face down (a concealed kan shows two), or `none` for something the
finder took for a tile that is none (a die: the pipeline drops it).
"""
from __future__ import annotations

LABELS: tuple[str, ...] = (
    *(f"{n}{s}" for s in "mps" for n in range(1, 10)),
    *(f"{n}z" for n in range(1, 8)),
    "0m", "0p", "0s",
    *(f"{n}f" for n in range(1, 9)),
    "back",
    "none",
)
BACK = "back"
NONE = "none"
INDEX = {label: i for i, label in enumerate(LABELS)}


def label_of(tile: str, red: bool = False) -> str:
    """The class of a tile name (`5p`, red) -> `0p`."""
    return f"0{tile[1]}" if red else tile


def tile_of(label: str) -> tuple[str, bool]:
    """The tile name and red flag of a class: `0p` -> (`5p`, True); `back` -> (`back`, False)
    (and `none` as itself)."""
    if label[0] == "0":
        return f"5{label[1]}", True
    return label, False
