"""Plan and render photoreal frames: faces and a scene plan from the seed, then Blender."""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from scorer.tiles import KINDS, Tile

from ...labels import BACK
from ..clutter import room
from ..dice import SIDE_TO_FACE, die_top
from ..faces import draw_face
from ..hands import random_hand
from ..tilesets import random_set
from .meter import HEADROOM, develop

SCRIPT = Path(__file__).resolve().parent / "blender_scene.py"
CLOTHS = ((0.05, 0.35, 0.35), (0.05, 0.3, 0.08), (0.08, 0.12, 0.4), (0.25, 0.05, 0.05), (0.35, 0.22, 0.1),
          (0.6, 0.6, 0.58), (0.04, 0.04, 0.04))   # teal, green, blue felt, red, wood, desk, black
BACKS = ((0.95, 0.75, 0.1), (0.1, 0.5, 0.2), (0.1, 0.3, 0.7), (0.95, 0.45, 0.1), (0.9, 0.5, 0.6))


def _face(folder: Path, name: str, label: str, ts, rng: np.random.Generator) -> str:
    cv2.imwrite(str(folder / name), draw_face(label, ts, rng, (240, 320)))
    return name


def _hand(rng: np.random.Generator, ts, folder: Path, n: int) -> list[dict]:
    """The hand's tiles in order: concealed, then each called meld with its called tile laid
    sideways (a concealed kan: its two ends face down)."""
    hand = random_hand(rng, melds=int(rng.integers(0, 3)), dora=0)
    out = [{"label": str(t), "meld": False, "pose": "upright"} for t in sorted(hand.concealed)]
    for m in hand.melds:
        for j, t in enumerate(m.tiles):
            down = m.kind == "ankan" and j in (0, len(m.tiles) - 1)
            out.append({"label": BACK if down else str(t), "meld": True,
                        "pose": "face_down" if down else "sideways" if j == m.called and m.kind != "ankan" else "upright"})
    for i, tile in enumerate(out):
        tile["face"] = None if tile["pose"] == "face_down" else _face(folder, f"face-{n}-{i}.png", tile["label"], ts, rng)
    return out


def _table(rng: np.random.Generator, ts, folder: Path, n: int) -> list[dict]:
    """What lies on the table beyond the hand: discards face up in rows of six, now and then a
    row of the wall face down (tiles to find all the same)."""
    out = []
    for i in range(int(rng.choice([0, 0, 3, 6, 9, 12]))):
        label = str(Tile(int(rng.integers(KINDS))))
        out.append({"label": label, "face": _face(folder, f"discard-{n}-{i}.png", label, ts, rng), "row": i // 6,
                    "col": i % 6, "pose": "upright"})
    if rng.random() < 0.3:
        rows = 1 + (len(out) + 5) // 6
        out += [{"label": BACK, "face": None, "row": rows, "col": c, "pose": "face_down"} for c in range(int(rng.integers(6, 15)))]
    return out


def _surroundings(rng: np.random.Generator, folder: Path, n: int) -> dict:
    """Clutter around the table and light: a room behind it (shelves of CJK-titled books and
    cards, `clutter.room`) on a wall, cups and boxes beside the tiles, and now and then the sun
    through a window (hard shadows)."""
    out: dict = {"props": [], "sun": None, "wall": None}
    if rng.random() < 0.5:
        out["wall"] = f"room-{n}.png"
        cv2.imwrite(str(folder / out["wall"]), room(rng, 600, 1200))
    for _ in range(int(rng.integers(0, 4))):
        out["props"].append({"kind": "cup" if rng.random() < 0.5 else "box",
                             "side": float(rng.choice([-1, 1])), "reach": float(rng.uniform(0.03, 0.25)),
                             "depth": float(rng.uniform(-0.1, 0.2)), "colour": [float(c) for c in rng.uniform(0.05, 0.9, 3)],
                             "size": [float(v) for v in rng.uniform(0.03, 0.12, 3)]})
    if rng.random() < 0.4:
        out["sun"] = [float(rng.uniform(0, 360)), float(rng.uniform(25, 60)), float(rng.uniform(0.8, 2.5))]
    return out


def _dice(seed: int, n: int, folder: Path, tile_width: float) -> list[dict]:
    """Now and then one or two dice beside the hand's end (`render.dice`: no tiles to find), from
    a random stream of their own, so a seed's frames are otherwise those it drew before dice."""
    rng = np.random.default_rng([seed, n, 6])
    out = []
    for k in range(int(rng.choice([0, 0, 1, 2]))):
        side = tile_width * float(rng.uniform(*SIDE_TO_FACE))
        name = f"die-{n}-{k}.png"
        cv2.imwrite(str(folder / name), die_top(240, rng))
        out.append({"top": name, "side": side, "end": float(rng.choice([-1, 1])),
                    "reach": float(rng.uniform(0.01, 0.06)) + k * side * 1.6,
                    "depth": float(rng.uniform(-0.04, 0.04)), "turn": float(rng.uniform(0, 90))})
    return out


def plan(seed: int, count: int, folder: Path) -> dict:
    """Each frame's tiles (face image, pose, place), what lies and stands around them, table,
    light and camera, from the seed."""
    rng = np.random.default_rng(seed)
    frames = []
    for n in range(count):
        ts = random_set(rng)
        standing = bool(rng.random() < 0.4)
        cloth = CLOTHS[int(rng.integers(len(CLOTHS)))]
        frames.append({
            "tiles": _hand(rng, ts, folder, n), "table": _table(rng, ts, folder, n), "standing": standing,
            "face": [c / 255 for c in ts.face[::-1]], "back": list(BACKS[int(rng.integers(len(BACKS)))]),
            "size": [0.026, 0.035, 0.02] if rng.random() < 0.5 else [0.03, 0.04, 0.024],   # riichi or Chinese (m)
            "cloth": list(cloth),
            "tilt": float(rng.uniform(10, 35) if standing else rng.uniform(0, 50)),
            "yaw": float(rng.normal(0, 6)), "lens": float(rng.uniform(24, 40)),
            "light": [float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.6, 0.2)), float(rng.uniform(0.6, 1.2))],
            # the camera meters each frame (`meter.py`), misjudging it by up to 0.6 stops either way
            "power": float(rng.uniform(40, 120)), "metering_bias": float(rng.uniform(-0.6, 0.6)),
            "wide": bool(rng.random() < 0.4),    # a 16:9 webcam frame, else a 4:3 phone photo
            "gap": float(rng.uniform(0.0005, 0.002)),
            **_surroundings(rng, folder, n),
        })
        frames[-1]["dice"] = _dice(seed, n, folder, frames[-1]["size"][0])
    return {"seed": seed, "frames": frames}


def held_out_only(scene_plan: dict) -> None:
    """Mark every frame of the plan but those on the cloth no model trains on to be skipped: the
    check `bench.vision` reads, without rendering the training frames (the plan is drawn whole,
    so the frames kept are those a whole render makes)."""
    from ...train.photoreal_frames import HELD_OUT_CLOTH
    for frame in scene_plan["frames"]:
        frame["skip"] = tuple(frame["cloth"]) != HELD_OUT_CLOTH


def main(argv: list[str] | None = None) -> int:
    from ...train.data import cache_dir

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=24, help="Cycles samples a pixel")
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--threads", type=int, default=1, help="Blender's render threads (1 on shared cores)")
    parser.add_argument("--held-out-only", action="store_true",
                        help="render only the frames on the cloth no model trains on (the check `bench.vision` "
                             "reads), about a sixth of the frames; the plan, and so each frame, is the same")
    args = parser.parse_args(argv)
    blender = shutil.which("blender")
    if blender is None:
        print("photoreal renders need Blender (apt: blender)", file=sys.stderr)
        return 2
    folder = cache_dir() / "photoreal" / f"seed-{args.seed}"
    folder.mkdir(parents=True, exist_ok=True)
    scene_plan = plan(args.seed, args.count, folder)
    if args.held_out_only:
        held_out_only(scene_plan)
    scene_plan.update(samples=args.samples, width=args.width, threads=args.threads, folder=str(folder),
                      headroom=HEADROOM)
    (folder / "plan.json").write_text(json.dumps(scene_plan))
    began = time.time()
    done = subprocess.run([blender, "-b", "--factory-startup", "-noaudio", "-P", str(SCRIPT), "--",
                           str(folder / "plan.json")], capture_output=True, text=True)
    if done.returncode != 0 or not (folder / "boxes.json").is_file():
        print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
        return 1
    labels = json.loads((folder / "boxes.json").read_text())
    for n, frame in enumerate(scene_plan["frames"]):
        name = f"frame-{n}.jpg"
        if name not in labels:   # skipped (`--held-out-only`)
            continue
        faces = [t["face"] for t in labels[name] if t["face"]]
        develop(folder / name.replace(".jpg", ".png"), folder / name, faces, frame["metering_bias"])
    # written last: a folder with labels is a finished one (`train.photoreal_frames`)
    (folder / "labels.json").write_text(json.dumps(labels))
    print(f"{len(labels)} frames in {time.time() - began:.0f} s: {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
