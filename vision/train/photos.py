"""The fully labelled real photos (`shared/data/photos/hk-roboflow`, never copied into the repo)
and the split that keeps training, tuning and measuring apart.

The split is by photo group, not by box or by photo: the source's file names show which photos
were taken together (`IMG_20231106_...` on one evening, `hand_001`..`hand_173` in runs of one
session, the same numeric prefix for photos of one upload), and neighbouring shots of one table
would make a held-out figure look better than a new table would. A group's share is fixed by a
hash of its name (`sets.py`), so adding photos never moves an old one to the other side.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

# the split and where the photos live are shared with the classifier's crops (`real.py`)
from .sets import (HELD_OUT, HELD_OUT_SETS, HELD_OUT_SHARE, IMAGE_SETS, TRAIN, TUNE, TUNE_SHARE,  # noqa: F401
                   group_of, part_of, shared_photos, venue_of)


@dataclass
class LabelledPhoto:
    path: Path
    key: str                                   # "hk-roboflow/images/IMG_..._jpg.jpg"
    boxes: list[tuple[float, float, float, float]]
    tiles: list[str]                           # classifier labels ("5p", "0p", "1f")
    rotated: bool                              # from the source's augmented export: turned or sheared
    # real tiles whose face has no code (jokers, bonus tiles, unreadable; `unnamed.json`): tiles
    # to find, never background, and not named
    unnamed: list[tuple[float, float, float, float]] = field(default_factory=list)

    @property
    def source(self) -> str:
        """The source a photo is reported under: its hk-roboflow venue, or its camerash set."""
        if self.key.startswith("camerash/"):
            return "camerash"
        return f"hk-roboflow {venue_of(self.key)}"


def camerash(root: Path, sets: frozenset[str]) -> list[LabelledPhoto]:
    """The camerash photos of `sets` (split by set in `sets.py`); only some of their tiles are
    labelled, so detections overlapping no label say nothing."""
    from ..labels import label_of

    folder = root / "camerash"
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    return [LabelledPhoto(folder / key, f"camerash/{key}", [tuple(b["box"]) for b in boxes],
                          [label_of(b["tile"], b.get("red", False)) for b in boxes], False)
            for key, boxes in labels.items() if IMAGE_SETS.get(key) in sets and (folder / key).is_file()]


def load(root: Path, part: str) -> list[LabelledPhoto]:
    """The hk-roboflow photos of one part of the split, with their corrected labels: the photos
    the source left partly boxed (`partial.json`) are not in the two label files, and the boxes
    of tiles without a code (`unnamed.json`) come along as `unnamed`."""
    from ..labels import label_of

    folder = root / "hk-roboflow"
    unnamed_file = folder / "unnamed.json"
    unnamed = json.loads(unnamed_file.read_text(encoding="utf-8")) if unnamed_file.is_file() else {}
    out = []
    for labels_file, rotated in (("labels.json", False), ("augmented.json", True)):
        for key, boxes in json.loads((folder / labels_file).read_text(encoding="utf-8")).items():
            if part_of(key) != part or not (folder / key).is_file():   # a partial copy (`bundle.py`)
                continue
            out.append(LabelledPhoto(folder / key, f"hk-roboflow/{key}", [tuple(b["box"]) for b in boxes],
                                     [label_of(b["tile"], b.get("red", False)) for b in boxes], rotated,
                                     [tuple(b["box"]) for b in unnamed.get(key, [])]))
    return out
