"""Train the tile detector and ship it: `python -m vision.train.detector [--epochs N] [--resume]`.

Seeded end to end: epoch e's samples come from the seed and e alone, so a run stopped and
resumed from its last checkpoint (`--resume`, kept in the cache folder each epoch) continues
exactly as an unbroken one. After each epoch the model is measured on the tuning photos and on a
riichi check (rendered riichi hands, standing and lying, at low angles): the epoch best on the
two together is shipped, since a model can improve on the Chinese-style photos while it gets
worse on riichi tables. The heatmap threshold is then chosen on the same tuning data and stored
in the ONNX file's metadata with the input side.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from models import model_path

from ..detect import DETECT_SIDE, MODEL_NAME, decode, letterbox
from ..render import render_scene
from . import photos
from .data import cache_dir
from .detect_data import Sample, augment, empty_sample, real_sample, rendered_sample, targets, webcam_sample
from .detect_eval import Finding, iou_matrix, worst
from .detect_model import build


@dataclass
class Settings:
    seed: int = 15
    epochs: int = 40
    samples: int = 640          # an epoch
    batch: int = 16
    side: int = 384             # training squares
    lr: float = 2e-3
    weight_decay: float = 5e-4
    width: int = 48
    real_share: float = 0.45
    empty_share: float = 0.2
    finger_share: float = 0.0   # samples with fingers drawn over them (measured at 0.2: not shipped, see the card)
    backbone: str = "plain"     # "plain" (from scratch) or "lite0" (EfficientNet-Lite0, ImageNet-pretrained)
    frozen: int = 0             # lite0: the stem and this many first blocks keep their ImageNet weights
    stretch: float = 1.0        # samples stretched wider or taller by up to this (1.0: never)
    room_share: float = 0.0     # tile-free samples that are shelves of CJK-titled books and printed cards
    webcam_share: float = 0.0   # rendered samples framed as a wide webcam frame with the room behind
    hold_out: str = ""          # an hk-roboflow venue (`sets.venue_of`) left out of training and judged with the tuning
    threads: int = 1           # two stall on each other whenever other work shares the cores
    riichi_check: int = 40      # rendered riichi hands measured each epoch
    tune_photos: int = 80       # tuning photos measured each epoch (all of them at the end)


class Stream(torch.utils.data.IterableDataset):
    """One epoch's samples, from the seed and the epoch alone."""

    def __init__(self, settings: Settings, epoch: int, real: list[photos.LabelledPhoto]):
        self.settings, self.epoch, self.real = settings, epoch, real

    def __iter__(self):
        s = self.settings
        rng = np.random.default_rng([s.seed, self.epoch])
        for _ in range(s.samples):
            pick = rng.random()
            if pick < s.real_share and self.real:
                photo = self.real[int(rng.integers(len(self.real)))]
                image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
                sample = augment(real_sample(image, photo.boxes, photo.unnamed), rng, s.side, True, s.finger_share,
                                 s.stretch)
            elif pick < s.real_share + s.empty_share:
                sample = augment(empty_sample(rng, s.side, s.room_share), rng, s.side, False, s.finger_share, s.stretch)
            elif s.webcam_share and rng.random() < s.webcam_share:
                sample = augment(webcam_sample(rng), rng, s.side, False, s.finger_share, s.stretch)
            else:
                sample = augment(rendered_sample(rng), rng, s.side, True, s.finger_share, s.stretch)
            t = targets(sample, s.side)
            yield torch.from_numpy(sample.image.transpose(2, 0, 1).astype(np.float32)), t


def focal(logits: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss over the heatmaps, per positive."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = (heat >= 1.0).float()
    pos = -torch.log(p) * (1 - p) ** 2 * positive
    neg = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - positive)
    return ((pos + neg) * weight).sum() / positive.sum().clamp(min=1.0)


def loss_of(out: torch.Tensor, t: dict[str, torch.Tensor]) -> tuple[torch.Tensor, dict[str, float]]:
    heat = focal(out[:, :2], t["heat"], t["weight"])
    centre = t["reg_mask"][:, 0:1]
    n = centre.sum().clamp(min=1.0)
    size = (F.l1_loss(out[:, 3:5], t["reg"][:, 0:2], reduction="none") * centre).sum() / n
    offset = (F.l1_loss(torch.sigmoid(out[:, 5:7]), t["reg"][:, 2:4], reduction="none") * centre).sum() / n
    posed = t["reg_mask"][:, 1]
    pose = (F.binary_cross_entropy_with_logits(out[:, 2], t["sideways"], reduction="none") * posed).sum() \
        / posed.sum().clamp(min=1.0)
    bodied = t["reg_mask"][:, 2:3]
    body = (F.l1_loss(F.softplus(out[:, 7:11]), t["reg"][:, 4:8], reduction="none") * bodied).sum() \
        / bodied.sum().clamp(min=1.0)
    total = heat + size + offset + 0.5 * pose + body
    return total, {"heat": heat.item(), "size": size.item(), "offset": offset.item(), "pose": pose.item(),
                   "body": body.item()}


@dataclass
class Check:
    """A picture with its face boxes, for measuring while training. `partial`: only some tiles
    are labelled (camerash), so detections overlapping no label say nothing."""
    image: np.ndarray
    faces: np.ndarray
    partial: bool = False


def riichi_check(count: int, seed: int = 9001) -> list[Check]:
    """Rendered riichi hands a player would photograph: half standing, seen from the seat,
    half lying, from a low angle (tilt 30-45); the riichi art and drawn Japanese sets."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        standing = i % 2 == 0
        scene = render_scene(rng, standing=standing, tilt=float(rng.uniform(5, 30) if standing else rng.uniform(30, 45)),
                             face_px=float(rng.uniform(30, 70)), max_side=1400)
        out.append(Check(scene.image, np.array([t.box for t in scene.tiles], np.float32)))
    return out


def lookalike_check(count: int, seed: int = 9002) -> list[Check]:
    """Tile-free pictures crowded with look-alikes: every detection on them is false."""
    rng = np.random.default_rng(seed)
    return [Check(empty_sample(rng, 640).image, np.zeros((0, 4), np.float32)) for _ in range(count)]


def photo_checks(items: list[photos.LabelledPhoto], partial: bool = False) -> list[Check]:
    """The photos as checks; a tile without a code (`unnamed`) is a tile to find all the same."""
    return [Check(cv2.imread(str(p.path), cv2.IMREAD_COLOR),
                  np.array(list(p.boxes) + list(p.unnamed), np.float32).reshape(-1, 4), partial) for p in items]


def by_source(items: list[photos.LabelledPhoto]) -> dict[str, list[photos.LabelledPhoto]]:
    out: dict[str, list[photos.LabelledPhoto]] = {}
    for p in items:
        out.setdefault(p.source, []).append(p)
    return out


MIN_SOURCE_PHOTOS = 5   # a venue with fewer tuning photos is too few to choose by


def choice_checks(s: Settings, root: Path, tune: list[photos.LabelledPhoto], held: list[photos.LabelledPhoto],
                  every: bool) -> dict[str, list[Check]]:
    """What the epoch and the threshold are chosen on, source by source, each judged apart:
    the tuning photos by venue (`every`: all of them, else about `tune_photos` in all), a
    venue held out of training whole (`--hold-out`), the camerash sets the classifier tunes on
    (partly labelled; the detector never trains on camerash), and rendered riichi hands with
    tile-free look-alikes. A model is as good as its worst source: a new table is a new source."""
    from .sets import TUNING_SETS

    step = 1 if every else max(1, len(tune) // s.tune_photos)
    out = {f"tune: {name}": photo_checks(items) for name, items in by_source(tune[::step]).items()
           if len(items) >= MIN_SOURCE_PHOTOS}
    if held:
        out[f"held out of training: {s.hold_out}"] = photo_checks(held[::1 if every else max(1, len(held) // 40)])
    out["camerash tuning sets"] = photo_checks(photos.camerash(root, TUNING_SETS), partial=True)
    out["rendered riichi with look-alikes"] = riichi_check(s.riichi_check) + lookalike_check(s.riichi_check // 2)
    return out


def raw_outputs(model: torch.nn.Module, checks: list[Check], side: int) -> list[tuple[np.ndarray, float]]:
    model.eval()
    out = []
    with torch.no_grad():
        for c in checks:
            boxed, factor = letterbox(c.image, side)
            x = torch.from_numpy(boxed.transpose(2, 0, 1)[None].astype(np.float32))
            out.append((model(x)[0].numpy(), factor))
    model.train()
    return out


def measure(raws: list[tuple[np.ndarray, float]], checks: list[Check], threshold: float) -> Finding:
    finding = Finding()
    for (raw, factor), c in zip(raws, checks):
        found = decode(raw, threshold, factor, c.image.shape[:2])
        boxes = np.array([f.box for f in found], np.float32).reshape(-1, 4)
        if c.partial and len(boxes):
            boxes = boxes[iou_matrix(boxes, c.faces).max(axis=1) > 0.1] if len(c.faces) else boxes[:0]
        finding.add(c.faces, boxes)
    return finding


def measure_all(model: torch.nn.Module, checks: dict[str, list[Check]], thresholds) -> dict[float, dict[str, Finding]]:
    """Each source's finding at each threshold (the network runs once a picture)."""
    raws = {name: raw_outputs(model, items, DETECT_SIDE) for name, items in checks.items()}
    return {float(t): {name: measure(raws[name], items, float(t)) for name, items in checks.items()} for t in thresholds}


def export(model: torch.nn.Module, path: Path, settings: dict) -> None:
    import onnx

    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, 384, 512), str(path), input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}}, opset_version=17,
                      dynamo=False)
    proto = onnx.load(str(path))
    entry = proto.metadata_props.add()
    entry.key, entry.value = "settings", json.dumps(settings)
    proto.producer_name = "tenbou vision.train.detector"
    onnx.save(proto, str(path))


def trained_on(s: Settings) -> list[str]:
    """The sources a model of these settings learnt from, as `bench.vision` names them."""
    venues = ["phone evenings (IMG_date)", "hand runs (hand_n)", "uploads (numeric ids)", "uploads (random ids)",
              "named sets"]
    out = [f"hk-roboflow {v} (training groups)" for v in venues if v != s.hold_out]
    out += ["rendered riichi hands (fluffy and drawn art, lying and standing)", "tile-free clutter"]
    if s.room_share:
        out.append("tile-free rooms: shelves of CJK-titled books, printed cards")
    if s.webcam_share:
        out.append("rendered webcam frames with CJK bookshelves")
    return out


def train(s: Settings, resume: bool, out: Path, stop: bool = False) -> dict:
    """Train (or with `stop`, go no further than the last checkpoint), choose the epoch and the
    threshold by the worst source, export to `out`, and return the report."""
    torch.manual_seed(s.seed)
    torch.set_num_threads(s.threads)
    root = photos.shared_photos()
    if root is None:
        raise SystemExit("the labelled photos (../shared/data/photos/hk-roboflow) are not there")
    real = photos.load(root, photos.TRAIN)
    held = [p for p in real if s.hold_out and photos.venue_of(p.key) == s.hold_out]
    real = [p for p in real if p not in held]
    tune = photos.load(root, photos.TUNE)
    checks = choice_checks(s, root, tune, held, every=False)
    model = build(s.backbone, s.width, frozen=s.frozen).to(memory_format=torch.channels_last)
    optimiser = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=s.lr,
                                  weight_decay=s.weight_decay)
    steps = s.epochs * math.ceil(s.samples / s.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, s.lr, total_steps=steps, pct_start=0.1)
    folder = cache_dir() / "detector"
    folder.mkdir(parents=True, exist_ok=True)
    tag = f"{s.backbone}-{s.seed}" if s.backbone != "plain" else f"{s.seed}"
    checkpoint = folder / f"last-{tag}.pt"
    start, history, best = 0, [], {"score": -1.0}
    if resume and checkpoint.is_file():
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        schedule.load_state_dict(state["schedule"])
        start, history, best = state["epoch"], state["history"], state["best"]
        print(f"resumed after epoch {start}", flush=True)
    for epoch in range(start, start if stop else s.epochs):
        began = time.time()
        loader = torch.utils.data.DataLoader(Stream(s, epoch, real), batch_size=s.batch, num_workers=1)
        totals: dict[str, float] = {}
        for images, t in loader:
            out_maps = model(images.contiguous(memory_format=torch.channels_last))
            loss, parts = loss_of(out_maps, t)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            for k, v in parts.items():
                totals[k] = totals.get(k, 0.0) + v
        findings = measure_all(model, checks, [0.35])[0.35]
        weakest, score = worst(findings)
        row = {"epoch": epoch + 1, "seconds": round(time.time() - began), "score": round(score, 4), "worst": weakest,
               **{name: str(f) for name, f in findings.items()},
               **{k: round(v / (s.samples / s.batch), 4) for k, v in totals.items()}}
        history.append(row)
        print(json.dumps(row), flush=True)
        torch.save(model.state_dict(), folder / f"epoch-{tag}-{epoch + 1}.pt")  # to re-choose by another rule
        if score > best["score"]:
            best = {"score": score, "epoch": epoch + 1}
            torch.save(model.state_dict(), folder / f"best-{tag}.pt")
        torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict(), "schedule": schedule.state_dict(),
                    "epoch": epoch + 1, "history": history, "best": best}, checkpoint)
    model.load_state_dict(torch.load(folder / f"best-{tag}.pt"))
    sweep = measure_all(model, choice_checks(s, root, tune, held, every=True), np.arange(0.2, 0.65, 0.05))
    threshold = max(sweep, key=lambda k: worst(sweep[k])[1])
    export(model, out, {"threshold": round(threshold, 2), "side": DETECT_SIDE, "seed": s.seed, "epoch": best["epoch"],
                        "backbone": s.backbone, "trained_on": trained_on(s)})
    report = {"settings": asdict(s), "best_epoch": best["epoch"], "threshold": round(threshold, 2),
              "chosen_on": {name: str(f) for name, f in sweep[threshold].items()},
              "worst": worst(sweep[threshold]), "history": history,
              "train_photos": len(real), "tune_photos": len(tune), "lookalikes": s.riichi_check // 2,
              "epochs_run": len(history)}
    (folder / f"report-{tag}.json").write_text(json.dumps(report, indent=1))
    return report


def held_out(path: Path) -> dict[str, Finding]:
    """The model at `path` on what no model here trained or tuned on, source by source: the
    held-out hk-roboflow groups by venue (and as taken or turned by the source), and the camerash
    sets no model was tuned on (partly labelled: detections overlapping no label are not
    counted there, so only how many tiles are found is meaningful)."""
    from ..detect import TileFinder
    from .sets import HELD_OUT_SETS

    finder = TileFinder(path)
    root = photos.shared_photos()
    out: dict[str, Finding] = {}
    if root is None:
        return out
    items = photos.load(root, photos.HELD_OUT)
    picks = [("hk-roboflow held out, all photos", lambda p: True),
             ("hk-roboflow held out, photos as taken", lambda p: not p.rotated),
             ("hk-roboflow held out, photos turned or sheared by the source", lambda p: p.rotated)]
    picks += [(f"{venue} held out", lambda p, v=venue: p.source == v) for venue in sorted({p.source for p in items})]
    checks = photo_checks(items)
    found = [np.array([f.box for f in finder.find(c.image)], np.float32).reshape(-1, 4) for c in checks]
    for label, pick in picks:
        finding = Finding()
        for p, c, f in zip(items, checks, found):
            if pick(p):
                finding.add(c.faces, f)
        out[label] = finding
    finding = Finding()
    for c in photo_checks(photos.camerash(root, HELD_OUT_SETS)):
        boxes = np.array([f.box for f in finder.find(c.image)], np.float32).reshape(-1, 4)
        finding.add(c.faces, boxes[iou_matrix(boxes, c.faces).max(axis=1) > 0.1] if len(boxes) else boxes)
    out["camerash held-out sets (labelled tiles only)"] = finding
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    defaults = Settings()
    for f in fields(Settings):
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(getattr(defaults, f.name)),
                            default=getattr(defaults, f.name))
    parser.add_argument("--resume", action="store_true", help="go on from the last checkpoint in the cache")
    parser.add_argument("--stop", action="store_true",
                        help="with --resume: train no further; choose among the epochs run, export and measure")
    parser.add_argument("--out", type=Path, default=model_path(MODEL_NAME))
    parser.add_argument("--evaluate-only", action="store_true",
                        help="measure the model at --out on the held-out photos and rewrite its card")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    settings = Settings(**{f.name: getattr(args, f.name) for f in fields(Settings)})
    tag = f"{settings.backbone}-{settings.seed}" if settings.backbone != "plain" else f"{settings.seed}"
    report_path = cache_dir() / "detector" / f"report-{tag}.json"
    if not args.evaluate_only:
        began = time.time()
        report = train(settings, args.resume, args.out, args.stop)
        report["minutes"] = round((time.time() - began) / 60)
        report_path.write_text(json.dumps(report, indent=1))
    report = json.loads(report_path.read_text())
    measured = held_out(args.out)
    for name, finding in measured.items():
        print(f"{name}: {finding}", flush=True)
    from .detect_card import write
    write(args.out.parent / "TILE_DETECTOR.md", report, measured, args.out.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
