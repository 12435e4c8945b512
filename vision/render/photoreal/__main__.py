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

from ...labels import BACK
from ..faces import draw_face
from ..hands import random_hand
from ..tilesets import random_set

SCRIPT = Path(__file__).resolve().parent / "blender_scene.py"
CLOTHS = ((0.05, 0.35, 0.35), (0.05, 0.3, 0.08), (0.08, 0.12, 0.4), (0.25, 0.05, 0.05), (0.35, 0.22, 0.1),
          (0.6, 0.6, 0.58), (0.04, 0.04, 0.04))   # teal, green, blue felt, red, wood, desk, black
BACKS = ((0.95, 0.75, 0.1), (0.1, 0.5, 0.2), (0.1, 0.3, 0.7), (0.95, 0.45, 0.1), (0.9, 0.5, 0.6))


def plan(seed: int, count: int, folder: Path) -> dict:
    """Each frame's tiles (face image, pose, place), table, light and camera, from the seed."""
    rng = np.random.default_rng(seed)
    frames = []
    for n in range(count):
        ts = random_set(rng)
        hand = random_hand(rng, melds=int(rng.integers(0, 2)), dora=0)
        tiles = []
        standing = bool(rng.random() < 0.4)
        labels = [str(t) for t in sorted(hand.concealed)]
        concealed = len(labels)
        for m in hand.melds:
            labels += [str(t) for t in m.tiles]
        down = set()
        if hand.melds and hand.melds[-1].kind == "ankan":
            down = {len(labels) - 4, len(labels) - 1}
        for i, label in enumerate(labels):
            name = f"face-{n}-{i}.png"
            if i not in down:
                cv2.imwrite(str(folder / name), draw_face(label, ts, rng, (240, 320)))
            tiles.append({"label": BACK if i in down else label, "face": None if i in down else name,
                          "meld": i >= concealed})
        frames.append({
            "tiles": tiles, "standing": standing,
            "face": [c / 255 for c in ts.face[::-1]], "back": list(BACKS[int(rng.integers(len(BACKS)))]),
            "size": [0.026, 0.035, 0.02] if rng.random() < 0.5 else [0.03, 0.04, 0.024],   # riichi or Chinese (m)
            "cloth": list(CLOTHS[int(rng.integers(len(CLOTHS)))]),
            "tilt": float(rng.uniform(10, 35) if standing else rng.uniform(0, 50)),
            "yaw": float(rng.normal(0, 6)), "lens": float(rng.uniform(24, 40)),
            "light": [float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.6, 0.2)), float(rng.uniform(0.6, 1.2))],
            "power": float(rng.uniform(40, 120)), "exposure": float(rng.uniform(-1.2, 0.0)),
            "wide": bool(rng.random() < 0.4),    # a 16:9 webcam frame, else a 4:3 phone photo
            "gap": float(rng.uniform(0.0005, 0.002)),
        })
    return {"seed": seed, "frames": frames}


def main(argv: list[str] | None = None) -> int:
    from ...train.data import cache_dir

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=24, help="Cycles samples a pixel")
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--threads", type=int, default=1, help="Blender's render threads (1 on shared cores)")
    args = parser.parse_args(argv)
    blender = shutil.which("blender")
    if blender is None:
        print("photoreal renders need Blender (apt: blender)", file=sys.stderr)
        return 2
    folder = cache_dir() / "photoreal" / f"seed-{args.seed}"
    folder.mkdir(parents=True, exist_ok=True)
    scene_plan = plan(args.seed, args.count, folder)
    scene_plan.update(samples=args.samples, width=args.width, threads=args.threads, folder=str(folder))
    (folder / "plan.json").write_text(json.dumps(scene_plan))
    began = time.time()
    done = subprocess.run([blender, "-b", "--factory-startup", "-noaudio", "-P", str(SCRIPT), "--",
                           str(folder / "plan.json")], capture_output=True, text=True)
    if done.returncode != 0 or not (folder / "labels.json").is_file():
        print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
        return 1
    print(f"{args.count} frames in {time.time() - began:.0f} s: {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
