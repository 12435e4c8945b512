"""Single-tile crops for training the classifier, cut the way the photo pipeline cuts them:
each tile's face box in a photo of a few tiles, neighbours at the edges, turned upright."""
from __future__ import annotations

import numpy as np

from ..labels import BACK, LABELS, NONE
from .body import FACE_DOWN, SIDEWAYS, UPRIGHT, Placed
from .compose import box_of, photograph, random_aspect
from .tilesets import TileSet, has_red_fives, random_set

FACE_LABELS = tuple(label for label in LABELS if label not in (BACK, NONE))
RIICHI_LABELS = tuple(label for label in FACE_LABELS if not label.endswith("f"))
# flowers and seasons differ most between makers and are few in a set: drawn half as often again
BONUS_WEIGHT = 1.5
# a share of random rows have one or two dice beside them, cut as the finder would box them
# and named NONE (`render.dice`): about 3.3% of the crops, 1.5 times a tile class's share
DICE_ROWS = 0.15


def labels_for(ts: TileSet) -> tuple[str, ...]:
    """What a set can show: the CC0 art has no flowers; a set with red numerals no red fives."""
    labels = RIICHI_LABELS if ts.art == "fluffy" else FACE_LABELS
    return labels if has_red_fives(ts) else tuple(label for label in labels if label[0] != "0")


def render_crops(rng: np.random.Generator, labels: list[str] | None = None, tileset: TileSet | None = None,
                 sideways: float = 0.2, flip: float = 0.15) -> list[tuple[np.ndarray, str]]:
    """Crops (BGR, any size) of a row of tiles photographed together, with their classes.

    `labels` picks the classes (random, 3-9 of them, when None); `back` is a face-down tile.
    A sideways tile is cut and turned upright as the caller would; a `flip` share of crops
    is upside down, as players leave some tiles. A random row (`labels` None) may have dice
    beside it (DICE_ROWS), whose crops follow the tiles', named NONE.
    """
    ts = tileset or random_set(rng)
    choices = labels_for(ts)
    weights = np.array([BONUS_WEIGHT if label.endswith("f") else 1.0 for label in choices])
    weights /= weights.sum()
    dice = int(rng.integers(1, 3)) if labels is None and rng.random() < DICE_ROWS else 0
    if labels is None:
        labels = [BACK if rng.random() < 0.04 else choices[int(rng.choice(len(choices), p=weights))]
                  for _ in range(int(rng.integers(3, 10)))]
    out_w = float(rng.uniform(28, 110))
    face_w = max(40.0, out_w * 1.25)
    aspect = random_aspect(rng)
    height = face_w * aspect
    gap = face_w * rng.uniform(0.0, 0.08)
    tiles: list[Placed] = []
    x = 0.0
    for label in labels:
        pose = FACE_DOWN if label == BACK else (SIDEWAYS if rng.random() < sideways else UPRIGHT)
        face = choices[int(rng.integers(len(choices)))] if label == BACK else label
        width = height if pose == SIDEWAYS else face_w
        cy = (height - face_w) / 2 if pose == SIDEWAYS else 0.0
        tiles.append(Placed(face, pose, x + width / 2, cy + rng.normal(0, 1.0), rng.normal(0, 1.5),
                            quarter=1 if rng.random() < 0.8 else 3))
        x += width + gap
    shot = photograph(tiles, ts, rng, face_w=face_w, aspect=aspect, out_face_w=out_w, tilt=float(rng.uniform(0, 45)),
                      yaw=float(rng.normal(0, 6)), margin=1.0 if dice else 0.8, dice=dice)
    crops = [(_cut(shot.image, quad, tile, rng, flip), label) for quad, tile, label in zip(shot.quads, tiles, labels)]
    return crops + [(_cut(shot.image, quad, None, rng, flip), NONE) for quad in shot.dice if _in_view(quad, shot.image)]


def _in_view(quad: np.ndarray, image: np.ndarray) -> bool:
    h, w = image.shape[:2]
    return bool(quad.min() >= 0 and (quad[:, 0] <= w).all() and (quad[:, 1] <= h).all())


def render_crop(rng: np.random.Generator, label: str | None = None, tileset: TileSet | None = None) -> tuple[np.ndarray, str]:
    """One crop of `label` (random when None) between random neighbours."""
    ts = tileset or random_set(rng)
    choices = labels_for(ts)
    pick = lambda: choices[int(rng.integers(len(choices)))]  # noqa: E731
    target = label if label is not None else pick()
    row = [pick() for _ in range(int(rng.integers(0, 2)))] + [target] + [pick() for _ in range(int(rng.integers(0, 2)))]
    crops = render_crops(rng, row, ts)
    return crops[row.index(target)] if label is None or label in row else crops[0]


def _cut(image: np.ndarray, quad: np.ndarray, tile: Placed | None, rng: np.random.Generator, flip: float) -> np.ndarray:
    x1, y1, x2, y2 = box_of(quad, image.shape)
    bw, bh = x2 - x1, y2 - y1
    jx = rng.uniform(-0.04, 0.1, 2) * bw
    jy = rng.uniform(-0.04, 0.1, 2) * bh
    h, w = image.shape[:2]
    cx1, cx2 = int(max(0, x1 - jx[0])), int(min(w, x2 + jx[1]))
    cy1, cy2 = int(max(0, y1 - jy[0])), int(min(h, y2 + jy[1]))
    crop = image[cy1:max(cy1 + 2, cy2), cx1:max(cx1 + 2, cx2)]
    if tile is not None and tile.pose == SIDEWAYS:
        crop = np.rot90(crop, -tile.quarter)
    if rng.random() < flip:
        crop = crop[::-1, ::-1]
    return np.ascontiguousarray(crop)
