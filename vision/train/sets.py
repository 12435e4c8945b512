"""Where the shared labelled photos live and how they are split, for both models' training and
for measuring: the hk-roboflow photos by shooting group, the camerash photos and crops by set.

Both `photos.py` (whole photos for the detector) and `real.py` (cut-out crops for the
classifier) read these; keeping them here, below both, means neither imports the other's
internals to learn the split.
"""
from __future__ import annotations

import os
import re
import zlib
from pathlib import Path

TRAIN, TUNE, HELD_OUT = "train", "tune", "held-out"
HELD_OUT_SHARE, TUNE_SHARE = 15, 10  # percent of hk-roboflow groups

# camerash crop numbers -> the photo (or photos of one set) they were cut from; found by
# matching the crops against the labelled photos
CROP_SETS: dict[str, range] = {
    "1-x": range(1, 183), "3": range(183, 261), "5": range(261, 375),
    "10": range(375, 462), "8": range(462, 542), "12": range(542, 1000),
}
IMAGE_SETS = {
    **{f"images/1-{i}.jpg": "1-x" for i in range(1, 7)},
    "images/3.png": "3", "images/5.jpg": "5", "images/10.jpg": "10", "images/8.jpg": "8", "images/12.jpg": "12",
}
TUNING_SETS = frozenset({"3", "5"})
HELD_OUT_SETS = frozenset(CROP_SETS) - TUNING_SETS


def _shared() -> list[Path]:
    return [Path(__file__).resolve().parents[3] / "shared" / "data" / "photos"]


def shared_photos() -> Path | None:
    """The folder holding `hk-roboflow/` (and `camerash/`), or None when it is not there."""
    env = os.environ.get("TENBOU_PHOTOS_ROOT")
    candidates = ([Path(env)] if env else []) + _shared()
    return next((c for c in candidates if (c / "hk-roboflow" / "labels.json").is_file()), None)


def photos_dir() -> Path | None:
    """The camerash folder, or None when it is not there."""
    env = os.environ.get("TENBOU_PHOTOS")
    candidates = ([Path(env)] if env else []) + [c / "camerash" for c in _shared()]
    return next((c for c in candidates if (c / "crops.json").is_file()), None)


def group_of(name: str) -> str:
    """The shooting group of an hk-roboflow photo's file name."""
    stem = Path(name).name
    if m := re.match(r"IMG_(\d{8})", stem):
        return f"IMG_{m.group(1)}"
    if m := re.match(r"hand_(\d+)", stem):
        return f"hand_{int(m.group(1)) // 10}"
    return re.split(r"[_.-]", stem, maxsplit=1)[0]


def part_of(name: str) -> str:
    """train, tune or held-out: fixed by a hash of the photo's group, so adding photos never
    moves an old one to the other side."""
    share = zlib.crc32(group_of(name).encode()) % 100
    return HELD_OUT if share < HELD_OUT_SHARE else TUNE if share < HELD_OUT_SHARE + TUNE_SHARE else TRAIN


def venue_of(name: str) -> str:
    """The kind of shoot an hk-roboflow photo comes from, told by its file name: one phone's
    dated evenings (`IMG_2023...`), another camera's numbered shots (`IMG_1234`), numbered runs
    of hands (`hand_001`), social-media uploads (long numeric or random ids), and a few named
    sets. Each is a different table, light and camera, so each is reported apart."""
    stem = Path(name).name
    if re.match(r"IMG_\d{8}", stem):
        return "phone evenings (IMG_date)"
    if stem.startswith("IMG"):
        return "numbered camera shots (IMG_n)"
    if stem.startswith("hand_"):
        return "hand runs (hand_n)"
    if re.match(r"\d{6,}_", stem):
        return "uploads (numeric ids)"
    if re.match(r"[A-Za-z0-9]{20,}_", stem):
        return "uploads (random ids)"
    return "named sets"


def crop_set(name: str) -> str:
    """The camerash set a crop (`crops/17.jpg`) was cut from."""
    number = int(Path(name).stem)
    return next(s for s, numbers in CROP_SETS.items() if number in numbers)
