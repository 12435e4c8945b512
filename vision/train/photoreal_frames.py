"""The Blender frames (`python -m vision.render.photoreal`) as the detector reads them: each
frame's picture, its tiles' whole and face boxes, and the table cloth it was rendered on.

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

from .data import cache_dir

HELD_OUT_CLOTH = (0.08, 0.12, 0.4)   # blue felt: `render.photoreal.CLOTHS`


@dataclass(frozen=True)
class PhotorealFrame:
    path: Path
    tiles: list[dict]                 # {"label", "whole": [x0, y0, x1, y1], "face": [...] or None}
    cloth: tuple[float, float, float]
    rich: bool = False                # of the second scene plan: discards, a wall, props, the sun; metered

    @property
    def held_out(self) -> bool:
        return all(abs(a - b) < 1e-6 for a, b in zip(self.cloth, HELD_OUT_CLOTH))


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
