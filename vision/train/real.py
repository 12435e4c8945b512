"""The labelled real photos (`shared/data/photos/camerash`, never copied into the repo) and the
split that keeps tuning apart from measuring.

The split is BY SET: crops are numbered by the photo they were cut from, and the six `1-*`
photos show one set, so a set is either all tuning or all held out. Tuning data (the 3.png and
5.jpg sets) may shape training; the held-out sets only ever measure.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..classify import INPUT_H, INPUT_W
from ..labels import INDEX, label_of
from . import photos
# the split and where the photos live are shared with the detector's photos (`photos.py`)
from .sets import (CROP_SETS, HELD_OUT_SETS, IMAGE_SETS, TUNING_SETS, crop_set, photos_dir,  # noqa: F401
                   shared_photos)

# The few camerash tuning crops are repeated so they weigh beside the thousands of hk-roboflow
# training crops as they did alone.
CAMERASH_WEIGHT = 6


@dataclass
class RealCrop:
    image: np.ndarray   # BGR
    label: str          # classifier class
    source: str         # "crops/17.jpg" or "images/3.png#5"
    set_name: str


def load(root: Path, sets: frozenset[str], with_boxes: bool = True) -> list[RealCrop]:
    """The crops of `sets`: the crops folder and, when `with_boxes`, the labelled boxes of the photos."""
    out: list[RealCrop] = []
    for name, tile in json.loads((root / "crops.json").read_text()).items():
        set_name = crop_set(name)
        if set_name in sets:
            image = cv2.imread(str(root / name), cv2.IMREAD_COLOR)
            if image is not None:
                out.append(RealCrop(image, label_of(tile), name, set_name))
    if with_boxes:
        for name, tiles in json.loads((root / "labels.json").read_text()).items():
            set_name = IMAGE_SETS.get(name)
            if set_name not in sets:
                continue
            photo = cv2.imread(str(root / name), cv2.IMREAD_COLOR)
            for i, t in enumerate(tiles):
                x1, y1, x2, y2 = (int(round(v)) for v in t["box"])
                if x2 - x1 > 2 and y2 - y1 > 2:
                    out.append(RealCrop(photo[y1:y2, x1:x2].copy(), label_of(t["tile"], t.get("red", False)),
                                        f"{name}#{i}", set_name))
    return out


def hk_crops(part: str) -> list[RealCrop]:
    """The boxed tiles of the hk-roboflow photos in one part of their split (`photos.py`),
    cut out. Photos from the source's rotated export are left out: their faces may be
    mirrored and their boxes loose, good for finding tiles, not for naming them."""
    root = shared_photos()
    out: list[RealCrop] = []
    for photo in photos.load(root, part) if root else []:
        if photo.rotated:
            continue
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        for i, (box, label) in enumerate(zip(photo.boxes, photo.tiles)):
            x1, y1, x2, y2 = (int(round(v)) for v in box)
            if image is not None and x2 - x1 > 2 and y2 - y1 > 2:
                out.append(RealCrop(image[y1:y2, x1:x2].copy(), label, f"{photo.key}#{i}", f"hk-roboflow {part}"))
    return out


def as_arrays(crops: list[RealCrop]) -> tuple[np.ndarray, np.ndarray]:
    """The crops at the network's input size (N, H, W, 3) and their class indices."""
    images = [cv2.resize(c.image, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA) for c in crops]
    return np.stack(images), np.array([INDEX[c.label] for c in crops], np.int64)
