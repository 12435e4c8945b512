"""Train the tile detector and ship it: `python -m vision.train.detector [--epochs N | --minutes M] [--resume]`.

Seeded end to end: each sample comes from the seed, its epoch and its number alone, so any
number of sample workers (`--workers`) draws the same epoch, and a run stopped and resumed from
its last checkpoint (`--resume`, kept in the cache folder each epoch) continues as an unbroken
one. On a GPU (`--device cuda`) a run is best given minutes rather than epochs: the learning
rate then follows the clock. After each epoch the model is measured on every source it does not
train on, apart (the tuning venues, camerash tuning sets, rendered riichi hands with look-alikes,
Blender frames on a held-out cloth, a venue held out with `--hold-out`): the epoch whose worst
source is best ships, since a player's table is always a source the model never saw. The
heatmap threshold is then chosen the same way (`detect_eval.choose_threshold`; again on the
shipped 8-bit model with `--evaluate-only --rechoose`) and stored in the ONNX file's metadata
with the input side.
"""
from __future__ import annotations

import argparse
import contextlib
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
from ..render.clutter import page
from . import photos
from .data import cache_dir
from .detect_card import report_beside, write
from .detect_data import (Sample, augment, empty_sample, photoreal_sample, real_sample, rendered_sample, targets,
                          webcam_sample)
from .detect_eval import IOU_MATCH, Finding, choose_threshold, iou_matrix, worst
from .detect_model import build
from .from_onnx import freeze_norms, load_onnx_weights
from .photoreal_frames import PhotorealFrame, photoreal_frames
from .schedule import one_cycle


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
    page_share: float = 0.0     # tile-free samples that are pages of text (screens, score sheets, menus)
    webcam_share: float = 0.0   # rendered samples framed as a wide webcam frame with the room behind
    hold_out: str = ""          # an hk-roboflow venue (`sets.venue_of`) left out of training and judged with the tuning
    overexposed_share: float = 0.0  # samples over-exposed, whites clipped (`detect_data.recolour`)
    photoreal_share: float = 0.0  # samples that are Blender frames (`render.photoreal`), their held-out cloth aside
    threads: int = 1           # two stall on each other whenever other work shares the cores
    workers: int = 1            # processes drawing samples (each draws its own share of an epoch)
    device: str = "cpu"         # where the network trains ("cuda" on a GPU machine)
    minutes: float = 0.0        # train this long, the learning rate following the clock (0: `epochs` epochs)
    init: str = ""              # start from these weights: a `best-*.pt` of the same backbone (e.g. a GPU run's),
    #                             or an exported model of it (`.onnx`, the shipped one: `from_onnx`)
    riichi_check: int = 40      # rendered riichi hands measured each epoch
    tune_photos: int = 80       # tuning photos measured each epoch (all of them at the end)


class Stream(torch.utils.data.IterableDataset):
    """One epoch's samples, each from the seed, the epoch and its number alone, so any number
    of workers (each drawing every n-th sample) gives the same epoch."""

    def __init__(self, settings: Settings, epoch: int, real: list[photos.LabelledPhoto],
                 frames: list[PhotorealFrame] = ()):
        self.settings, self.epoch, self.real, self.frames = settings, epoch, real, list(frames)

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        first, step = (info.id, info.num_workers) if info else (0, 1)
        for n in range(first, self.settings.samples, step):
            yield self.sample(np.random.default_rng([self.settings.seed, self.epoch, n]))

    def sample(self, rng: np.random.Generator) -> tuple[torch.Tensor, dict[str, np.ndarray]]:
        s = self.settings

        def shaped(sample: Sample, turn: bool) -> Sample:   # every kind of sample, one augmentation
            return augment(sample, rng, s.side, turn, s.finger_share, s.stretch, s.overexposed_share)
        pick = rng.random()
        if pick < s.real_share and self.real:
            photo = self.real[int(rng.integers(len(self.real)))]
            image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            sample = shaped(real_sample(image, photo.boxes, photo.unnamed), True)
        elif pick < s.real_share + s.empty_share:
            sample = shaped(empty_sample(rng, s.side, s.room_share, s.page_share), False)
        elif pick < s.real_share + s.empty_share + s.photoreal_share and self.frames:
            frame = self.frames[int(rng.integers(len(self.frames)))]
            sample = shaped(photoreal_sample(cv2.imread(str(frame.path), cv2.IMREAD_COLOR), frame.tiles), True)
        elif s.webcam_share and rng.random() < s.webcam_share:
            sample = shaped(webcam_sample(rng), False)
        else:
            sample = shaped(rendered_sample(rng), True)
        return torch.from_numpy(sample.image.transpose(2, 0, 1).astype(np.float32)), targets(sample, s.side)


def _quiet_worker(_: int) -> None:
    """A sample worker uses one thread: the workers are the parallelism. (OpenCV's own thread
    count is set before the workers fork, in `train`: set in a forked child it can hang.)"""
    torch.set_num_threads(1)


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
    are labelled (camerash), so detections overlapping no label say nothing. `whole`: the
    boxes are whole tiles (the Blender frames), matched against the whole boxes found.
    `ignore`: tiles mostly out of the frame, neither counted nor false when found."""
    image: np.ndarray
    faces: np.ndarray
    partial: bool = False
    whole: bool = False
    ignore: np.ndarray | None = None


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


def webcam_check(count: int, seed: int = 9003) -> list[Check]:
    """Rendered wide webcam frames, the hand in a strip below shelves of CJK-titled books: where
    the detector before the pretrained one took the most false tiles."""
    from ..render.scene import webcam_frame

    rng = np.random.default_rng(seed)
    return [Check(scene.image, np.array([t.box for t in scene.tiles], np.float32))
            for scene in (webcam_frame(rng) for _ in range(count))]


def lookalike_check(count: int, seed: int = 9002) -> list[Check]:
    """Tile-free pictures crowded with look-alikes: every detection on them is false."""
    rng = np.random.default_rng(seed)
    return [Check(empty_sample(rng, 640).image, np.zeros((0, 4), np.float32)) for _ in range(count)]


def tile_free_counts(s: Settings) -> tuple[int, int]:
    """How many tile-free pictures crowded with look-alikes, and how many pages of text, join the
    rendered riichi hands a model is chosen on."""
    return s.riichi_check // 2, s.riichi_check // 4


def page_check(count: int, seed: int = 9004) -> list[Check]:
    """Tile-free pages of text (screens, score sheets, menus) in large and small letters: every
    detection on them is false."""
    rng = np.random.default_rng(seed)
    return [Check(page(rng, 640, int(640 * rng.uniform(0.5, 1.8))), np.zeros((0, 4), np.float32)) for _ in range(count)]


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
    lookalikes, pages = tile_free_counts(s)
    out["rendered riichi with look-alikes"] = (riichi_check(s.riichi_check) + lookalike_check(lookalikes)
                                               + page_check(pages))
    out["rendered webcam frames, shelves behind"] = webcam_check(s.riichi_check // 4)
    unseen = [f for f in photoreal_frames() if f.held_out]
    if unseen:
        out["Blender frames on a cloth never trained on (whole tiles)"] = [
            blender_check(f) for f in unseen[::1 if every else max(1, len(unseen) // 40)]]
    return out


def blender_check(frame: PhotorealFrame) -> Check:
    image = cv2.imread(str(frame.path), cv2.IMREAD_COLOR)
    tiles, ignore = frame.in_view(image.shape[1], image.shape[0])
    return Check(image, np.array([box for box, _ in tiles], np.float32).reshape(-1, 4), whole=True,
                 ignore=np.array(ignore, np.float32).reshape(-1, 4))


def raw_outputs(model: torch.nn.Module, checks: list[Check], side: int) -> list[tuple[np.ndarray, float]]:
    model.eval()
    device = next(model.parameters()).device
    out = []
    with torch.no_grad():
        for c in checks:
            boxed, factor = letterbox(c.image, side)
            x = torch.from_numpy(boxed.transpose(2, 0, 1)[None].astype(np.float32)).to(device)
            out.append((model(x)[0].float().cpu().numpy(), factor))
    model.train()
    return out


def measure(raws: list[tuple[np.ndarray, float]], checks: list[Check], threshold: float) -> Finding:
    finding = Finding()
    for (raw, factor), c in zip(raws, checks):
        found = decode(raw, threshold, factor, c.image.shape[:2])
        boxes = np.array([f.whole if c.whole else f.box for f in found], np.float32).reshape(-1, 4)
        if c.partial and len(boxes):
            boxes = boxes[iou_matrix(boxes, c.faces).max(axis=1) > 0.1] if len(c.faces) else boxes[:0]
        if c.ignore is not None and len(c.ignore) and len(boxes):
            boxes = boxes[iou_matrix(boxes, c.ignore).max(axis=1) < IOU_MATCH]
        finding.add(c.faces, boxes)
    return finding


def sweep(raws: dict[str, list[tuple[np.ndarray, float]]], checks: dict[str, list[Check]],
          thresholds) -> dict[float, dict[str, Finding]]:
    """Each source's finding at each threshold, from the network's outputs on its pictures."""
    return {float(t): {name: measure(raws[name], items, float(t)) for name, items in checks.items()} for t in thresholds}


def measure_all(model: torch.nn.Module, checks: dict[str, list[Check]], thresholds) -> dict[float, dict[str, Finding]]:
    """Each source's finding at each threshold (the network runs once a picture)."""
    return sweep({name: raw_outputs(model, items, DETECT_SIDE) for name, items in checks.items()}, checks, thresholds)


def held_venue(s: Settings, train: list[photos.LabelledPhoto]) -> list[photos.LabelledPhoto]:
    """The training photos of the venue `--hold-out` leaves out of training (none without it)."""
    return [p for p in train if s.hold_out and photos.venue_of(p.key) == s.hold_out]


THRESHOLDS = np.arange(0.2, 0.65, 0.05)


def rechoose(path: Path, report: dict) -> dict:
    """Choose again the threshold of the exported model at `path` on the checks its settings
    name (the network run by onnxruntime, as it ships), store it in the file and the report."""
    import onnx

    from ..detect import TileFinder

    s = Settings(**report["settings"])
    root = photos.shared_photos()
    checks = choice_checks(s, root, photos.load(root, photos.TUNE), held_venue(s, photos.load(root, photos.TRAIN)),
                           every=True)
    finder = TileFinder(path)
    found = sweep({name: [finder.raw(c.image) for c in items] for name, items in checks.items()}, checks, THRESHOLDS)
    threshold = choose_threshold(found)
    proto = onnx.load(str(path))
    entry = next(e for e in proto.metadata_props if e.key == "settings")
    entry.value = json.dumps({**json.loads(entry.value), "threshold": round(threshold, 2)})
    onnx.save(proto, str(path))
    return {**report, "threshold": round(threshold, 2), "chosen_on": {n: str(f) for n, f in found[threshold].items()},
            "worst": worst(found[threshold])}


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
    if s.page_share:
        out.append("tile-free pages of text: screens, score sheets, menus")
    if s.webcam_share:
        out.append("rendered webcam frames with CJK bookshelves")
    if s.photoreal_share:
        out.append("Blender photoreal frames (all cloths but the blue felt)")
    if s.init.endswith(".onnx"):   # and what the model it went on from learnt from
        out += [source for source in _settings_of(s.init).get("trained_on", []) if source not in out]
    return out


def _settings_of(path: str) -> dict:
    """The settings an exported model was stored with (its metadata)."""
    import onnx

    proto = onnx.load(path)
    return json.loads(next((p.value for p in proto.metadata_props if p.key == "settings"), "{}"))


def train(s: Settings, resume: bool, out: Path, stop: bool = False) -> dict:
    """Train (or with `stop`, go no further than the last checkpoint), choose the epoch and the
    threshold by the worst source, export to `out`, and return the report."""
    torch.manual_seed(s.seed)
    torch.set_num_threads(s.threads)
    cv2.setNumThreads(1)   # before any sample worker forks: OpenCV's pool does not survive a fork
    root = photos.shared_photos()
    if root is None:
        raise SystemExit("the labelled photos (../shared/data/photos/hk-roboflow) are not there")
    real = photos.load(root, photos.TRAIN)
    held = held_venue(s, real)
    real = [p for p in real if p not in held]
    tune = photos.load(root, photos.TUNE)
    checks = choice_checks(s, root, tune, held, every=False)
    frames = [f for f in photoreal_frames() if not f.held_out] if s.photoreal_share else []
    device = torch.device(s.device)
    model = build(s.backbone, s.width, frozen=s.frozen).to(device, memory_format=torch.channels_last)
    if s.init.endswith(".onnx"):   # go on from an exported model: its batch norms folded, kept frozen
        load_onnx_weights(model, Path(s.init), torch.zeros(1, 3, 128, 128, device=device))
        freeze_norms(model)
    elif s.init:   # go on from another run's weights (frozen blocks keep these, not ImageNet's)
        model.load_state_dict(torch.load(s.init, map_location=device, weights_only=True))
    optimiser = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=s.lr,
                                  weight_decay=s.weight_decay)
    steps = s.epochs * math.ceil(s.samples / s.batch)
    folder = cache_dir() / "detector"
    folder.mkdir(parents=True, exist_ok=True)
    tag = f"{s.backbone}-{s.seed}" if s.backbone != "plain" else f"{s.seed}"
    checkpoint = folder / f"last-{tag}.pt"
    start, step, spent, history, best = 0, 0, 0.0, [], {"score": -1.0}
    if resume and checkpoint.is_file():
        state = torch.load(checkpoint, weights_only=False, map_location=device)
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        start, history, best = state["epoch"], state["history"], state["best"]
        step, spent = state.get("step", start * math.ceil(s.samples / s.batch)), state.get("spent", 0.0)
        print(f"resumed after epoch {start}", flush=True)
    # bf16 on a GPU: the sums stay in float32, the loss is taken in float32
    autocast = torch.autocast("cuda", torch.bfloat16) if device.type == "cuda" else contextlib.nullcontext()
    clock = time.time() - spent
    progress = lambda: min(1.0, (time.time() - clock) / (s.minutes * 60) if s.minutes else step / steps)  # noqa: E731
    epoch = start
    while not stop and progress() < 1.0 and (s.minutes or epoch < s.epochs):
        began = time.time()
        loader = torch.utils.data.DataLoader(Stream(s, epoch, real, frames), batch_size=s.batch,
                                             num_workers=s.workers, worker_init_fn=_quiet_worker,
                                             pin_memory=device.type == "cuda",
                                             prefetch_factor=4 if s.workers else None)
        totals: dict[str, float] = {}
        batches = 0
        for images, t in loader:
            images = images.to(device, non_blocking=True).contiguous(memory_format=torch.channels_last)
            t = {k: v.to(device, non_blocking=True) for k, v in t.items()}
            for group in optimiser.param_groups:
                group["lr"] = one_cycle(progress(), s.lr)
            with autocast:
                out_maps = model(images)
            loss, parts = loss_of(out_maps.float(), t)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            step, batches = step + 1, batches + 1
            for k, v in parts.items():
                totals[k] = totals.get(k, 0.0) + v
            if progress() >= 1.0:
                break
        findings = measure_all(model, checks, [0.35])[0.35]
        weakest, score = worst(findings)
        epoch += 1
        row = {"epoch": epoch, "seconds": round(time.time() - began), "steps": step, "score": round(score, 4),
               "worst": weakest, **{name: str(f) for name, f in findings.items()},
               **{k: round(v / max(batches, 1), 4) for k, v in totals.items()}}
        history.append(row)
        print(json.dumps(row), flush=True)
        torch.save(model.state_dict(), folder / f"epoch-{tag}-{epoch}.pt")  # to re-choose by another rule
        if score > best["score"]:
            best = {"score": score, "epoch": epoch}
            torch.save(model.state_dict(), folder / f"best-{tag}.pt")
        torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict(), "epoch": epoch, "step": step,
                    "spent": time.time() - clock, "history": history, "best": best}, checkpoint)
    model.load_state_dict(torch.load(folder / f"best-{tag}.pt", map_location=device))
    found = measure_all(model, choice_checks(s, root, tune, held, every=True), THRESHOLDS)
    threshold = choose_threshold(found)
    lookalikes, pages = tile_free_counts(s)
    export(model.to("cpu"), out, {"threshold": round(threshold, 2), "side": DETECT_SIDE, "seed": s.seed,
                                  "epoch": best["epoch"], "backbone": s.backbone, "trained_on": trained_on(s)})
    report = {"settings": asdict(s), "best_epoch": best["epoch"], "threshold": round(threshold, 2),
              "chosen_on": {name: str(f) for name, f in found[threshold].items()},
              "worst": worst(found[threshold]), "history": history,
              "train_photos": len(real), "tune_photos": len(tune), "lookalikes": lookalikes, "pages": pages,
              "epochs_run": len(history), "steps": step, "samples_seen": step * s.batch,
              "photoreal_frames": len(frames), "photoreal_rich": sum(f.rich for f in frames), "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"}
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
    parser.add_argument("--rechoose", action="store_true",
                        help="with --evaluate-only: choose the threshold of the model at --out again first")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    settings = Settings(**{f.name: getattr(args, f.name) for f in fields(Settings)})
    tag = f"{settings.backbone}-{settings.seed}" if settings.backbone != "plain" else f"{settings.seed}"
    report_path = cache_dir() / "detector" / f"report-{tag}.json"
    # The run's report travels beside the model it made, so its card can be written again from
    # a fresh clone; a model measured without one takes the cache's report of its run.
    beside = report_beside(args.out)
    if not args.evaluate_only:
        began = time.time()
        report = train(settings, args.resume, args.out, args.stop)
        report["minutes"] = round((time.time() - began) / 60)
        report_path.write_text(json.dumps(report, indent=1))
    report = json.loads((beside if args.evaluate_only and beside.is_file() else report_path).read_text())
    if args.rechoose:
        report = rechoose(args.out, report)
        report_path.write_text(json.dumps(report, indent=1))
    measured = held_out(args.out)
    for name, finding in measured.items():
        print(f"{name}: {finding}", flush=True)
    write(args.out.parent / "TILE_DETECTOR.md", report, measured, args.out.stat().st_size)
    beside.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
