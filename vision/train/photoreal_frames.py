"""The Blender frames (`python -m vision.render.photoreal`) as the training reads them: each
frame's picture, its tiles' whole and face boxes, and the table cloth it was rendered on; for
the classifier, its tiles cut out (`face_crops`).

Frames on one cloth (`HELD_OUT_CLOTH`, the blue felt) are never trained on: they are the
"table style the model never saw" that the epoch and threshold are chosen by, beside the real
sources. The frames live in the cache (`$TENBOU_CACHE/photoreal/seed-N`, never in git), or
where `TENBOU_PHOTOREAL` points (a copy carried to a training machine).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..labels import BACK
from .data import cache_dir
from .real import RealCrop

HELD_OUT_CLOTH = (0.08, 0.12, 0.4)   # blue felt: `render.photoreal.CLOTHS`
# A tile with less than half its box in the frame is neither a tile to find nor a false one when
# found (as `bench.vision` treats the hands cut by the edge): a wall cut by the top of a frame
# showed slivers of 0-7 pixels, and no player could find or name those.
SHOWN_ENOUGH = 0.5


def shown(box: list[float], width: int, height: int) -> float:
    """The share of `box` (x1, y1, x2, y2) inside a frame of `width` x `height`."""
    x1, y1, x2, y2 = box
    inside = max(0.0, min(x2, width) - max(x1, 0.0)) * max(0.0, min(y2, height) - max(y1, 0.0))
    return inside / max(1e-6, (x2 - x1) * (y2 - y1))


@dataclass(frozen=True)
class PhotorealFrame:
    path: Path
    tiles: list[dict]                 # {"label", "whole": [x0, y0, x1, y1], "face": [...] or None}
    cloth: tuple[float, float, float]
    rich: bool = False                # of the second scene plan: discards, a wall, props, the sun; metered

    @property
    def held_out(self) -> bool:
        return all(abs(a - b) < 1e-6 for a, b in zip(self.cloth, HELD_OUT_CLOTH))

    def in_view(self, width: int, height: int) -> tuple[list[tuple[list[float], str]], list[list[float]]]:
        """The tiles to find in the frame (at least half shown): whole box cut to the frame, and
        label; and the boxes of tiles shown less, which are neither counted nor false."""
        def cut(box: list[float]) -> list[float]:
            return [max(0.0, box[0]), max(0.0, box[1]), min(float(width), box[2]), min(float(height), box[3])]
        tiles = [(cut(t["whole"]), t["label"]) for t in self.tiles if shown(t["whole"], width, height) >= SHOWN_ENOUGH]
        ignore = [cut(t["whole"]) for t in self.tiles if 0 < shown(t["whole"], width, height) < SHOWN_ENOUGH]
        return tiles, ignore


def frames_root() -> Path:
    env = os.environ.get("TENBOU_PHOTOREAL")
    return Path(env) if env else cache_dir() / "photoreal"


def photoreal_frames(root: Path | None = None) -> list[PhotorealFrame]:
    """Every rendered frame under `root`, seed folder by seed folder (a folder whose render has
    not finished has no labels yet and is passed over)."""
    root = root or frames_root()
    out = []
    for folder in sorted(root.glob("seed-*")):
        labels_file, plan_file = folder / "labels.json", folder / "plan.json"
        if not (labels_file.is_file() and plan_file.is_file()):
            continue
        labels = json.loads(labels_file.read_text(encoding="utf-8"))
        plan = json.loads(plan_file.read_text(encoding="utf-8"))["frames"]
        for n, frame in enumerate(plan):
            name = f"frame-{n}.jpg"
            if name in labels and (folder / name).is_file():
                out.append(PhotorealFrame(folder / name, labels[name], tuple(frame["cloth"]), "props" in frame))
    return out


def described(frames: list[PhotorealFrame]) -> str:
    """"548 frames of seeds 1, 2, 11-18": which renders a run read, for its card."""
    seeds = sorted({int(f.path.parent.name.split("-")[1]) for f in frames})
    runs: list[list[int]] = []
    for seed in seeds:
        if runs and seed == runs[-1][-1] + 1:
            runs[-1].append(seed)
        else:
            runs.append([seed])
    spans = [f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs]
    return f"{len(frames)} frames of seeds {', '.join(spans)}" if frames else "no frames"


# A face whose ink stands less than this above the paper (grey levels, 48x64) is washed out by
# the light to a blank: no reader could name it, and taught as a suit tile it would teach that
# a blank face is one, which a white dragon is. White dragons are kept whatever their ink.
LEGIBLE_INK = 25


def ink(crop: np.ndarray) -> float:
    """How far the face's darkest marks stand below its paper: grey levels, inside the border."""
    grey = cv2.cvtColor(cv2.resize(crop, (48, 64), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    inside = grey[6:-6, 5:-5].astype(np.float32)
    return float(np.percentile(inside, 60) - np.percentile(inside, 3))


def face_crops(frames: list[PhotorealFrame]) -> list[RealCrop]:
    """The tiles of `frames` as the classifier is shown them (set "Blender blue felt" for the
    held-out cloth): a face cut at its projected face box and turned upright; a face-down tile
    as "back", cut at its whole box as the detector learns to find it (`photoreal_sample`).
    Left out: tiles less than half in the frame, faces washed out to a blank (`LEGIBLE_INK`), and a wide face whose pose the frame
    does not record (the first renders kept none): a sideways tile, or a lying one seen low."""
    out = []
    for frame in frames:
        image = cv2.imread(str(frame.path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        set_name = "Blender blue felt" if frame.held_out else "Blender, other cloths"
        for i, tile in enumerate(frame.tiles):
            down = tile["face"] is None
            box = tile["whole" if down else "face"]
            if shown(box, image.shape[1], image.shape[0]) < SHOWN_ENOUGH:
                continue
            x1, y1, x2, y2 = (max(0, int(round(v))) for v in box)
            crop = image[y1:y2, x1:x2]
            if crop.shape[0] < 4 or crop.shape[1] < 4:
                continue
            if tile.get("pose") == "sideways":
                crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
            elif "pose" not in tile and crop.shape[1] > 1.2 * crop.shape[0]:
                continue
            if tile["label"] not in ("5z", BACK) and ink(crop) < LEGIBLE_INK:
                continue
            out.append(RealCrop(crop.copy(), tile["label"], f"{frame.path.parent.name}/{frame.path.name}#{i}", set_name))
    return out
