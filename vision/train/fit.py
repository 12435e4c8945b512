"""Training: synthetic crops plus the real tuning crops (augmented), AdamW with a one-cycle
schedule, seeded and on the CPU."""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from ..classify import INPUT_H, INPUT_W, MEAN, SCALE
from ..labels import INDEX, LABELS
from .model import build
from .real import RealCrop


@dataclass(frozen=True)
class Settings:
    seed: int = 7
    synthetic: int = 40000
    epochs: int = 8
    batch: int = 128
    lr: float = 3e-3
    weight_decay: float = 5e-4
    label_smoothing: float = 0.05
    real_repeats: int = 2       # copies of each real crop per epoch, each jittered anew (camerash's six times more)
    photoreal_repeats: int = 1  # ... of each Blender face: many, of the same art as the rendered crops
    width: int = 32             # the plain network's
    threads: int = 2
    backbone: str = "plain"     # or "lite0": `model.build`
    overexposed: float = 0.0    # share of crops over-exposed, whites clipped (`overexpose`; tried at 0.08, the card)
    shaken: float = 0.1         # share of crops streaked by a moving camera (`shake`; 0 before 2026-11-29)


def to_tensor(images: np.ndarray) -> torch.Tensor:
    """(N, H, W, 3) uint8 BGR -> normalised (N, 3, H, W) float, as `vision.classify.prepare`."""
    x = torch.from_numpy(images).permute(0, 3, 1, 2).float()
    return (x / 255.0 - MEAN) / SCALE


def jitter_real(crops: Sequence[RealCrop], repeats: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Real crops cut again with a moved border, now and then upside down or blurred."""
    images, labels = [], []
    for crop in crops:
        h, w = crop.image.shape[:2]
        py, px = int(h * 0.08) + 1, int(w * 0.08) + 1
        padded = cv2.copyMakeBorder(crop.image, py, py, px, px, cv2.BORDER_REPLICATE)
        for _ in range(repeats):
            x1 = int(px + rng.uniform(-0.06, 0.06) * w)
            x2 = int(px + w + rng.uniform(-0.06, 0.06) * w)
            y1 = int(py + rng.uniform(-0.06, 0.06) * h)
            y2 = int(py + h + rng.uniform(-0.06, 0.06) * h)
            small = cv2.resize(padded[y1:y2, x1:x2], (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
            if rng.random() < 0.25:  # a face a dozen or two pixels wide, as in a photo of a whole table
                k = rng.uniform(1.5, 3.5)
                tiny = cv2.resize(small, (max(4, int(INPUT_W / k)), max(4, int(INPUT_H / k))), interpolation=cv2.INTER_AREA)
                small = cv2.resize(tiny, (INPUT_W, INPUT_H), interpolation=cv2.INTER_LINEAR)
            if rng.random() < 0.2:
                small = small[::-1, ::-1]
            if rng.random() < 0.3:
                small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.0))
            images.append(small)
            labels.append(INDEX[crop.label])
    if not images:
        return np.zeros((0, INPUT_H, INPUT_W, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(images), np.array(labels, np.int64)


TINTED = 0.15   # share of crops lit by coloured light (a pink or amber lamp over the table)
# Never under coloured light: a blank white dragon lit pink is a plain pink tile, which is what
# a pink back is; tinting them taught the model to doubt every back (a concealed kan's ends
# were no longer read face down).
UNTINTED = (INDEX["5z"], INDEX["back"])


def tint(x: torch.Tensor, labels: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Coloured light on a share of the crops: each channel's light scaled on its own (one kept,
    the others dimmed by up to 45%), so a white face under a pink lamp is pink, yet still a face
    and not a pink back; the ordinary cast in `photometric` is a few percent."""
    n = x.shape[0]
    dim = 1 - 0.45 * torch.rand(n, 3, 1, 1, generator=gen)
    kept = torch.randint(0, 3, (n,), generator=gen)
    dim[torch.arange(n), kept] = 1.0
    lit = (torch.rand(n, generator=gen) < TINTED) & ~torch.isin(labels, torch.tensor(UNTINTED))
    light = torch.where(lit.view(n, 1, 1, 1), dim, torch.ones_like(dim))
    return ((x * SCALE + MEAN) * light - MEAN) / SCALE


DEFOCUSED = 0.12          # share of crops out of focus ...
DEFOCUS_SIGMA = (1.0, 2.6)   # ... by a Gaussian this wide (input pixels). A webcam focused on the
# shelves behind, or a phone focused past a close hand, leaves the faces soft: the held-out
# photos blurred so (sigma 2 at the detector's 512 pixels, about 2.4 here) were named 1767 of
# 1865 right against 1840 sharp, while training blurred crops by 1.0 at most.


def defocus(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """A share of the crops (`DEFOCUSED`) blurred as out of focus, each by its own width: one
    grouped convolution, a Gaussian kernel per crop and channel, across then down."""
    n = x.shape[0]
    chosen = torch.nonzero(torch.rand(n, generator=gen) < DEFOCUSED).flatten()
    if len(chosen) == 0:
        return x
    low, high = DEFOCUS_SIGMA
    sigma = low + (high - low) * torch.rand(len(chosen), generator=gen)
    radius = int(np.ceil(3 * high))
    taps = torch.arange(-radius, radius + 1, dtype=x.dtype)
    kernel = torch.exp(-0.5 * (taps[None, :] / sigma[:, None]) ** 2)
    kernel = (kernel / kernel.sum(dim=1, keepdim=True)).repeat_interleave(3, dim=0)   # (3 * chosen, taps)
    part = x[chosen].reshape(1, -1, *x.shape[2:])
    part = F.pad(part, (radius, radius, radius, radius), mode="replicate")
    part = F.conv2d(part, kernel[:, None, None, :], groups=part.shape[1])
    part = F.conv2d(part, kernel[:, None, :, None], groups=part.shape[1])
    out = x.clone()
    out[chosen] = part.reshape(len(chosen), *x.shape[1:])
    return out


OVEREXPOSED_BY = (1.3, 1.9)   # the light of an over-exposed crop multiplied by this much, whites
# clipped: a phone's flash or a lamp close over the table. The held-out photos so (x1.5) were
# named 1807 of 1865 right against 1838 as taken, while training never brightened a crop by
# more than an eighth.


def overexpose(x: torch.Tensor, labels: torch.Tensor, share: float, gen: torch.Generator) -> torch.Tensor:
    """A share of the crops over-exposed (`OVEREXPOSED_BY`), the light clipped at white: a
    face's paper and pale ink turn one white, its strokes thin. Never a back: clipped to white,
    a pale back is a blank white dragon. The draws are made whatever the share, so a run
    without it sees the same other augmentation."""
    n = x.shape[0]
    low, high = OVEREXPOSED_BY
    by = low + (high - low) * torch.rand(n, 1, 1, 1, generator=gen)
    chosen = (torch.rand(n, generator=gen) < share) & (labels != INDEX["back"])
    light = torch.where(chosen.view(n, 1, 1, 1), by, torch.ones_like(by))
    return (((x * SCALE + MEAN) * light).clamp(max=1.0) - MEAN) / SCALE


SHAKE_LENGTH = (3, 9)   # a shaken crop's streak, in input pixels: a phone moved as it took the
# photo. The held-out photos streaked 6 pixels across at 512 (about 7 here) were named 1771 of 1865
# right against 1838 as taken, while the rendered crops' shake (`render.photo.degrade`) streaks a
# face by a few hundredths of its width.


def shake(x: torch.Tensor, share: float, gen: torch.Generator) -> torch.Tensor:
    """A share of the crops streaked as by a moving camera: each averaged along a line of its
    own length (SHAKE_LENGTH) and direction. No draws where the share is 0, so a run without it
    sees the augmentation runs before it saw."""
    if share <= 0:
        return x
    chosen = torch.nonzero(torch.rand(x.shape[0], generator=gen) < share).flatten()
    if len(chosen) == 0:
        return x
    low, high = SHAKE_LENGTH
    size = high if high % 2 else high + 1
    half = (size - 1) / 2
    length = low + (high - low) * torch.rand(len(chosen), generator=gen)
    angle = np.pi * torch.rand(len(chosen), generator=gen)
    taps = torch.arange(size, dtype=x.dtype) - half
    yy, xx = torch.meshgrid(taps, taps, indexing="ij")
    along = xx[None] * torch.cos(angle)[:, None, None] + yy[None] * torch.sin(angle)[:, None, None]
    across = -xx[None] * torch.sin(angle)[:, None, None] + yy[None] * torch.cos(angle)[:, None, None]
    # a streak one pixel wide, its ends soft: weights fall off over a pixel across and beyond its ends
    kernel = (1 - across.abs()).clamp(min=0) * (length[:, None, None] / 2 + 0.5 - along.abs()).clamp(0, 1)
    kernel = (kernel / kernel.sum(dim=(1, 2), keepdim=True)).repeat_interleave(3, dim=0)   # (3 * chosen, size, size)
    part = x[chosen].reshape(1, -1, *x.shape[2:])
    pad = int(half)
    part = F.conv2d(F.pad(part, (pad, pad, pad, pad), mode="replicate"), kernel[:, None], groups=part.shape[1])
    out = x.clone()
    out[chosen] = part.reshape(len(chosen), *x.shape[1:])
    return out


EDGE_CUT = 0.06   # share of crops cut by the photo's left or right edge
EDGE_KEPT = (0.55, 0.95)   # ... keeping this share of the face's width


def photometric(x: torch.Tensor, labels: torch.Tensor, gen: torch.Generator, overexposed: float = 0.0,
                shaken: float = 0.0) -> torch.Tensor:
    """Per-sample brightness, contrast and colour cast (now and then a strong one, `tint`, or
    over-exposure, `overexpose`, on a share `overexposed`), now and then a face out of focus
    (`defocus`) or, on a share `shaken`, streaked by a moving camera (`shake`), plus
    a small shift and zoom, and now and then a tile cut by the photo's edge (`EDGE_CUT`): only
    part of its width in view, stretched to the input as the pipeline stretches the part of a
    face it sees (on rendered hands cut by the frame, 13 of 23 such tiles were named right)."""
    x = shake(defocus(overexpose(tint(x, labels, gen), labels, overexposed, gen), gen), shaken, gen)
    n = x.shape[0]
    gain = 1 + 0.25 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    cast = 1 + 0.12 * (torch.rand(n, 3, 1, 1, generator=gen) - 0.5)
    bias = 0.4 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    x = x * gain * cast + bias
    theta = torch.zeros(n, 2, 3)
    zoom = 1 + 0.12 * (torch.rand(n, generator=gen) - 0.5)
    theta[:, 0, 0] = zoom
    theta[:, 1, 1] = zoom
    theta[:, :, 2] = 0.08 * (torch.rand(n, 2, generator=gen) - 0.5)
    low, high = EDGE_KEPT
    cut = torch.rand(n, generator=gen) < EDGE_CUT
    kept = torch.where(cut, low + (high - low) * torch.rand(n, generator=gen), torch.ones(n))
    side = torch.where(torch.rand(n, generator=gen) < 0.5, -1.0, 1.0)   # the part kept: left or right
    theta[:, 0, 0] *= kept
    theta[:, 0, 2] += side * (1 - kept)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    return F.grid_sample(x, grid, padding_mode="border", align_corners=False)


def accuracy(model: torch.nn.Module, images: np.ndarray, labels: np.ndarray) -> float:
    model.eval()
    right = 0
    with torch.no_grad():
        for i in range(0, len(images), 512):
            pred = model(to_tensor(images[i:i + 512])).argmax(1).numpy()
            right += int((pred == labels[i:i + 512]).sum())
    return right / max(1, len(images))


def train(settings: Settings, synth: tuple[np.ndarray, np.ndarray], real: list[RealCrop],
          checks: dict[str, tuple[np.ndarray, np.ndarray]], log=print,
          photoreal: Sequence[RealCrop] = ()) -> torch.nn.Module:
    """Fit the network on the rendered crops, the `real` ones and the Blender faces
    (`photoreal`), both jittered anew each epoch; `checks` are sets whose accuracy is logged
    after each epoch."""
    torch.manual_seed(settings.seed)
    torch.set_num_threads(settings.threads)
    rng = np.random.default_rng(settings.seed)
    gen = torch.Generator().manual_seed(settings.seed)
    model = build(settings.backbone, len(LABELS), settings.width)
    images, labels = synth
    per_epoch = len(images) + len(real) * settings.real_repeats + len(photoreal) * settings.photoreal_repeats
    steps = settings.epochs * ((per_epoch + settings.batch - 1) // settings.batch)
    opt = torch.optim.AdamW(model.parameters(), lr=settings.lr, weight_decay=settings.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=settings.lr, total_steps=steps, pct_start=0.15)
    for epoch in range(settings.epochs):
        start = time.time()
        jittered = [jitter_real(real, settings.real_repeats, rng), jitter_real(photoreal, settings.photoreal_repeats, rng)]
        r_images = np.concatenate([part for part, _ in jittered])
        r_labels = np.concatenate([part for _, part in jittered])
        all_images = np.concatenate([images, r_images]) if len(r_images) else images
        all_labels = np.concatenate([labels, r_labels]) if len(r_labels) else labels
        order = rng.permutation(len(all_images))
        model.train()
        total, seen = 0.0, 0
        for i in range(0, len(order), settings.batch):
            idx = np.sort(order[i:i + settings.batch])
            y = torch.from_numpy(all_labels[idx])
            x = photometric(to_tensor(all_images[idx]), y, gen, settings.overexposed, settings.shaken)
            loss = F.cross_entropy(model(x), y, label_smoothing=settings.label_smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            seen += len(idx)
        report = ", ".join(f"{name} {accuracy(model, *data):.3f}" for name, data in checks.items())
        log(f"epoch {epoch + 1}/{settings.epochs}: loss {total / seen:.3f}, {report} ({time.time() - start:.0f}s)")
    model.eval()
    return model
