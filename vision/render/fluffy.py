"""The CC0 riichi artwork by FluffyStuff (`shared/data/tile-art/fluffystuff`), read from its
PNG exports of the SVGs. Found through $TENBOU_TILE_ART or next to the repository."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

NAMES = {
    **{f"{n}m": f"Man{n}" for n in range(1, 10)}, **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
    "0m": "Man5-Dora", "0p": "Pin5-Dora", "0s": "Sou5-Dora",
    "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun",
}
ART_W, ART_H = 240, 320
_CANDIDATES = (
    Path(__file__).resolve().parents[3] / "shared" / "data" / "tile-art" / "fluffystuff",
)


def art_dir() -> Path | None:
    env = os.environ.get("TENBOU_TILE_ART")
    for candidate in ([Path(env)] if env else []) + list(_CANDIDATES):
        if (candidate / "Export" / "Regular" / "Man1.png").is_file():
            return candidate
    return None


def available() -> bool:
    return art_dir() is not None


def has(label: str) -> bool:
    return label in NAMES


@lru_cache(maxsize=128)
def artwork(label: str, variant: str = "Regular") -> np.ndarray:
    """The picture of `label` as float BGRA (0..1), 240x320, transparent around the drawing."""
    root = art_dir()
    if root is None:
        raise FileNotFoundError("the fluffystuff tile art was not found (set TENBOU_TILE_ART)")
    image = cv2.imread(str(root / "Export" / variant / f"{NAMES[label]}.png"), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise FileNotFoundError(f"cannot read the tile art for {label}")
    # kept at a quarter of the export's size: faces are never drawn larger, and 80 full
    # float images would hold half a gigabyte
    image = cv2.resize(image, (ART_W, ART_H), interpolation=cv2.INTER_AREA)
    return image.astype(np.float32) / 255.0
