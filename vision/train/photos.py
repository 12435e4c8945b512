"""The fully labelled real photos (`shared/data/photos/hk-roboflow`, never copied into the repo)
and the split that keeps training, tuning and measuring apart.

The split is by photo group, not by box or by photo: the source's file names show which photos
were taken together (`IMG_20231106_...` on one evening, `hand_001`..`hand_173` in runs of one
session, the same numeric prefix for photos of one upload), and neighbouring shots of one table
would make a held-out figure look better than a new table would. A group's share is fixed by a
hash of its name, so adding photos never moves an old one to the other side.
"""
from __future__ import annotations

import json
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

TRAIN, TUNE, HELD_OUT = "train", "tune", "held-out"
HELD_OUT_SHARE, TUNE_SHARE = 15, 10  # percent of groups


@dataclass
class LabelledPhoto:
    path: Path
    key: str                                   # "hk-roboflow/images/IMG_..._jpg.jpg"
    boxes: list[tuple[float, float, float, float]]
    tiles: list[str]                           # classifier labels ("5p", "0p", "1f")
    rotated: bool                              # from the source's augmented export: turned or sheared


def shared_photos() -> Path | None:
    env = os.environ.get("TENBOU_PHOTOS_ROOT")
    candidates = ([Path(env)] if env else []) + [Path(__file__).resolve().parents[3] / "shared" / "data" / "photos"]
    return next((c for c in candidates if (c / "hk-roboflow" / "labels.json").is_file()), None)


def group_of(name: str) -> str:
    """The shooting group of a photo's file name."""
    stem = Path(name).name
    if m := re.match(r"IMG_(\d{8})", stem):
        return f"IMG_{m.group(1)}"
    if m := re.match(r"hand_(\d+)", stem):
        return f"hand_{int(m.group(1)) // 10}"
    return re.split(r"[_.-]", stem, maxsplit=1)[0]


def part_of(name: str) -> str:
    share = zlib.crc32(group_of(name).encode()) % 100
    return HELD_OUT if share < HELD_OUT_SHARE else TUNE if share < HELD_OUT_SHARE + TUNE_SHARE else TRAIN


def camerash(root: Path, sets: frozenset[str]) -> list[LabelledPhoto]:
    """The camerash photos of `sets` (split by set in `real.py`); only some of their tiles are
    labelled, so detections overlapping no label say nothing."""
    from ..labels import label_of
    from .real import IMAGE_SETS

    folder = root / "camerash"
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    return [LabelledPhoto(folder / key, f"camerash/{key}", [tuple(b["box"]) for b in boxes],
                          [label_of(b["tile"], b.get("red", False)) for b in boxes], False)
            for key, boxes in labels.items() if IMAGE_SETS.get(key) in sets]


def load(root: Path, part: str) -> list[LabelledPhoto]:
    """The hk-roboflow photos of one part of the split."""
    from ..labels import label_of

    folder = root / "hk-roboflow"
    out = []
    for labels_file, rotated in (("labels.json", False), ("augmented.json", True)):
        for key, boxes in json.loads((folder / labels_file).read_text(encoding="utf-8")).items():
            if part_of(key) != part:
                continue
            out.append(LabelledPhoto(folder / key, f"hk-roboflow/{key}", [tuple(b["box"]) for b in boxes],
                                     [label_of(b["tile"], b.get("red", False)) for b in boxes], rotated))
    return out
