"""Benchmark: Tenbou's camera reading against the PyPI `mahjong-detector`, same photos, same run.

    python -m bench.vision [--photos DIR] [--rendered N] [--no-peer] [--rounds 5]

Over every labelled photo folder under DIR (default ../shared/data/photos; format in its
README: `<set>/labels.json` with partly labelled boxes) it prints, for each reader:
- per-tile accuracy: labelled tiles whose best-overlapping detection (IoU >= 0.5) has the
  right name (red fives must be red); a labelled tile with no detection counts as wrong;
- red-five accuracy: the same over labelled red fives (n/a when none is labelled);
- whole-hand exact reads: photos whose every tile is labelled and that hold one hand — all
  tiles found and named right (n/a when the folder has no such photo); for rendered hands
  also "hand request exact": the request Tenbou builds (tiles, winning tile, melds with kind
  and direction, dora indicators) equals the true one (the peer reads no hand structure);
- latency per image (decode to names, or to the hand request for rendered hands; each photo
  read `--rounds` times and timed by the median of its reads, then the median and worst over
  the photos, and the median CPU time of both threads: on a shared machine the CPU time is
  the steadier figure), with the classifier as the product runs it (vision.scan.pipeline_classifier).
`--rendered N` adds N seeded rendered hands (vision.render) with known answers, where whole
hands can be compared exactly.

Photos the tile model was tuned on (the split in vision/train/real.py, and any listed in
models/MODEL_CARD.md on a line starting "Tuning photos:") are left out of every figure here,
so the accuracy is held out.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "2")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PHOTOS = ROOT.parent / "shared" / "data" / "photos"
MODEL_CARD = ROOT / "models" / "MODEL_CARD.md"
IOU_MATCH = 0.5
PEER_NAMES = {"chun": "7z", "haku": "5z", "hatsu": "6z", "nan": "2z", "pe": "4z", "sha": "3z", "tou": "1z"}


@dataclass
class Labelled:
    path: Path
    key: str                                # the name used in labels.json and the model card
    tiles: list[tuple[list[float], str]]    # (box in file pixels, label like "5p" or "0p")
    complete: bool = False                  # every tile of the photo is labelled
    hand: dict | None = None                # for rendered scenes: the true hand request
    data: bytes | None = None               # for rendered scenes: the picture as a JPEG file


@dataclass
class Tally:
    name: str
    right: int = 0
    total: int = 0
    red_right: int = 0
    red_total: int = 0
    hands_right: int = 0
    hands_total: int = 0
    requests_right: int = 0
    requests_total: int = 0
    found: int = 0
    matched: int = 0
    times: list[float] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)       # the photo of each time
    cpu: list[float] = field(default_factory=list)

    def row(self) -> list[str]:
        def share(a: int, b: int) -> str:
            return f"{a / b:6.1%} ({a}/{b})" if b else "n/a"
        times = sorted(self.times)
        latency = (f"{statistics.median(times) * 1000:6.1f} ms (worst {times[-1] * 1000:.0f}, "
                   f"cpu {statistics.median(self.cpu) * 1000:.0f})") if times else "n/a"
        return [self.name, share(self.right, self.total), share(self.red_right, self.red_total),
                share(self.hands_right, self.hands_total), share(self.requests_right, self.requests_total),
                share(self.matched, self.total), latency]


def tuning_photos(card: Path = MODEL_CARD) -> set[str]:
    """File names of photos the tile model was tuned on (never scored here): the training
    code's own split (vision.train.real), and any named in the model card."""
    names = set()
    try:
        from vision.train.real import IMAGE_SETS, TUNING_SETS
        names |= {Path(image).name for image, set_name in IMAGE_SETS.items() if set_name in TUNING_SETS}
    except ImportError:
        pass
    if not card.is_file():
        return names
    for line in card.read_text(encoding="utf-8").splitlines():
        if line.strip().lower().lstrip("-* ").startswith("tuning photos:"):
            names |= {Path(n).name for n in re.findall(r"[\w./-]+\.(?:jpe?g|png|webp)", line, re.IGNORECASE)}
    return names


def read_folder(folder: Path) -> list[Labelled]:
    photos = []
    for labels_file in sorted(folder.glob("*/labels.json")):
        labels = json.loads(labels_file.read_text(encoding="utf-8"))
        for key, boxes in labels.items():
            tiles = [(b["box"], f"0{b['tile'][1]}" if b.get("red") else b["tile"]) for b in boxes]
            photos.append(Labelled(labels_file.parent / key, f"{labels_file.parent.name}/{key}", tiles))
    return photos


def iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def score_photo(tally: Tally, photo: Labelled, detections: list[tuple[list[float], str]], seconds: float,
                hand: dict | None = None) -> None:
    """Add one photo's reads: each labelled tile against the detection overlapping it most."""
    tally.times.append(seconds)
    tally.keys.append(photo.key)
    tally.found += len(detections)
    all_right = True
    for box, label in photo.tiles:
        best = max(detections, key=lambda d: iou(box, d[0]), default=None)
        matched = best is not None and iou(box, best[0]) >= IOU_MATCH
        right = matched and best[1] == label
        tally.matched += matched
        tally.total += 1
        tally.right += right
        if label.startswith("0"):
            tally.red_total += 1
            tally.red_right += right
        all_right &= right
    if photo.complete:
        tally.hands_total += 1
        tally.hands_right += all_right and len(detections) == len(photo.tiles)
    if photo.hand is not None and hand is not None:
        tally.requests_total += 1
        from vision.hand_request import same_hand
        tally.requests_right += same_hand(hand, photo.hand)


class TenbouReader:
    """Tenbou's pipeline: decode, find, name; for a whole hand also arrange and repair, so
    its time is the photo -> hand request time (scoring is the scorer's)."""
    name = "tenbou"

    def __init__(self):
        from vision.scan import pipeline_classifier
        self.classifier = pipeline_classifier()
        self.stages: dict[str, list[float]] = {"decode": [], "find": [], "name": [], "hand": []}

    def read(self, photo: Labelled) -> tuple[list[tuple[list[float], str]], dict | None]:
        from vision.find import find_tiles
        from vision.hand import arrange
        from vision.image_io import decode_photo, load_photo
        from vision.repair import repair
        from vision.scan import name_tiles

        clock = [time.perf_counter()]
        decoded = decode_photo(photo.data) if photo.data is not None else load_photo(photo.path)
        clock.append(time.perf_counter())
        found = find_tiles(decoded.image)
        clock.append(time.perf_counter())
        detections = name_tiles(decoded.image, found, self.classifier)
        clock.append(time.perf_counter())
        hand = None
        labels = [d.label for d in detections]
        if photo.hand is not None and detections:
            repaired = repair(arrange(detections), detections)
            hand, labels = repaired.reading.request, repaired.labels
        clock.append(time.perf_counter())
        for stage, start, end in zip(self.stages, clock, clock[1:]):
            self.stages[stage].append(end - start)
        return [([v / decoded.scale for v in d.box], label) for d, label in zip(detections, labels)], hand


class PeerReader:
    """The PyPI `mahjong-detector` (a YOLOv8 ONNX model): boxes and names through its own
    preprocessing and post-processing functions."""
    name = "mahjong-detector 0.0.6"

    def __init__(self):
        from mahjong_detector.predict import CLASS_NAMES, predict
        from mahjong_detector.preprocess import preprocess_image
        self._names, self._predict, self._prepare = CLASS_NAMES, predict, preprocess_image

    def read(self, photo: Labelled) -> tuple[list[tuple[list[float], str]], None]:
        from PIL import Image

        image = Image.open(io.BytesIO(photo.data) if photo.data is not None else photo.path)
        image.load()
        prepared, padding = self._prepare(image)
        out = []
        for d in self._predict(prepared, padding):
            name = self._names[d.class_id]
            out.append(([d.x1, d.y1, d.x2, d.y2], PEER_NAMES.get(name, name)))
        return out, None


def rendered_scenes(count: int, seed: int) -> list[Labelled]:
    """Seeded rendered hands with every tile known (needs vision.render.render_scene)."""
    try:
        from vision.render import render_scene
    except ImportError:
        print("(no rendered scenes: vision.render.render_scene is not available)", file=sys.stderr)
        return []
    rng = np.random.default_rng(seed)
    scenes = []
    for n in range(count):
        scene = render_scene(rng)
        ok, data = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        tiles = [(list(t.box), t.label) for t in scene.tiles]
        scenes.append(Labelled(Path(f"rendered-{n}.jpg"), f"rendered/{n}", tiles, True, scene.hand, data.tobytes()))
    return scenes


def run(photos: list[Labelled], readers, rounds: int = 1) -> list[Tally]:
    """Each reader reads every photo `rounds` times; a photo's time is the median of its reads
    (one read of a photo swings with the machine; the reads themselves are deterministic)."""
    tallies = []
    for reader in readers:
        tally = Tally(reader.name)
        reader.read(photos[0])  # warm-up: model load and first-call costs are not latency
        for times in getattr(reader, "stages", {}).values():
            times.clear()
        for photo in photos:
            walls, cpus = [], []
            for _ in range(rounds):
                start, cpu = time.perf_counter(), time.process_time()
                detections, hand = reader.read(photo)
                cpus.append(time.process_time() - cpu)
                walls.append(time.perf_counter() - start)
            tally.cpu.append(statistics.median(cpus))
            score_photo(tally, photo, detections, statistics.median(walls), hand)
        tallies.append(tally)
    return tallies


def print_table(title: str, tallies: list[Tally]) -> None:
    head = ["reader", "tiles right", "red fives right", "all tiles of a hand right", "hand request exact",
            "tiles found", "latency/image"]
    rows = [head] + [t.row() for t in tallies]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    print(title)
    for r in rows:
        print("  " + "  ".join(cell.ljust(w) for cell, w in zip(r, widths)))
    if len(tallies) == 2 and tallies[1].total and tallies[1].right:
        a, b = tallies
        ratio = statistics.median(b.times) / statistics.median(a.times) if a.times and b.times else float("nan")
        print(f"  tenbou/peer: tiles right x{(a.right / a.total) / (b.right / b.total):.2f}, "
              f"peer is x{ratio:.1f} slower per image")


def print_stages(reader) -> None:
    """Where Tenbou's time goes (median wall ms per image), so a slow machine can be told
    from a slow stage."""
    stages = getattr(reader, "stages", {})
    if stages and all(stages.values()):
        print("  tenbou stages (median ms): " + ", ".join(f"{name} {statistics.median(t) * 1000:.1f}"
                                                        for name, t in stages.items()))


def print_per_photo(tally: Tally) -> None:
    """Each photo's time, fastest first, the median's marked: which photo the headline hangs on."""
    ranked = sorted(zip(tally.times, tally.keys))
    middle = len(ranked) // 2 if len(ranked) % 2 else None
    print(f"  {tally.name} per photo (ms): " + ", ".join(
        f"{key} {seconds * 1000:.1f}" + (" (median)" if i == middle else "") for i, (seconds, key) in enumerate(ranked)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS, help="folder of labelled photo sets")
    parser.add_argument("--rendered", type=int, default=0, help="also read this many rendered hands")
    parser.add_argument("--seed", type=int, default=6, help="seed of the rendered hands")
    parser.add_argument("--no-peer", action="store_true", help="skip mahjong-detector")
    parser.add_argument("--rounds", type=int, default=5, help="reads of each photo; its time is their median")
    parser.add_argument("--per-photo", action="store_true", help="also print each real photo's time")
    args = parser.parse_args(argv)
    from vision.scan import use_pipeline_threads
    use_pipeline_threads()
    excluded = tuning_photos()
    photos = [p for p in read_folder(args.photos) if p.path.name not in excluded]
    print(f"{len(photos)} labelled photos in {args.photos} ({sum(len(p.tiles) for p in photos)} labelled tiles); "
          f"left out as tuning photos: {', '.join(sorted(excluded)) or 'none'}")
    readers = []
    try:
        readers.append(TenbouReader())
    except RuntimeError as error:  # the tile model is not built yet
        print(f"(tenbou skipped: {error})", file=sys.stderr)
    if not args.no_peer:
        try:
            readers.append(PeerReader())
        except ImportError:
            print("(mahjong-detector is not installed: pip install mahjong-detector==0.0.6)", file=sys.stderr)
    if photos:
        tallies = run(photos, readers, args.rounds)
        print_table("real photos (partial labels: only labelled tiles are scored)", tallies)
        print_stages(readers[0])
        if args.per_photo:
            for tally in tallies:
                print_per_photo(tally)
    scenes = rendered_scenes(args.rendered, args.seed) if args.rendered else []
    if scenes:
        print_table(f"rendered hands (seed {args.seed}, every tile known)", run(scenes, readers, args.rounds))
        print_stages(readers[0])
    print(f"(load average over the last minute: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
