"""Whole photos of a winning hand laid out as players lay it, with the ground truth.

The concealed row (sorted, as most players keep it), the winning tile set a little apart at
its end, the called melds to the right or on a second line (the called tile turned sideways
on the side of the player it came from; an added kan stacks a second sideways tile on it; a
concealed kan shows its two end tiles face down), and dora indicators set apart above.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scorer.tiles import Tile

from ..labels import BACK, label_of
from .body import FACE_DOWN, SIDEWAYS, UPRIGHT, Placed
from .compose import box_of, photograph, random_aspect
from .hands import Hand, Meld, random_hand
from .tilesets import TileSet, has_red_fives, random_set

SIDE_INDEX = {"left": 0, "across": 1, "right": 2}


@dataclass
class SceneTile:
    label: str                 # the classifier's class for what shows: "0p" for a red five, "back" face down
    tile: str                  # the tile itself, "5p" (also under a back)
    red: bool
    box: list[float]           # x1, y1, x2, y2 of the visible top surface, image pixels
    pose: str                  # upright | sideways | face_down
    group: str                 # concealed | meld | win | dora
    meld: int | None = None    # index into hand["melds"]
    whole: list[float] | None = None  # the whole tile as seen, face and body (what a detector finds)


@dataclass
class Scene:
    image: np.ndarray                                  # BGR uint8
    tiles: list[SceneTile]
    hand: dict                                         # request per shared/spec/hand-json.md
    tileset: TileSet | None = field(default=None, repr=False)
    dice: list[list[float]] = field(default_factory=list)   # each die's top (x1, y1, x2, y2): no tile


def render_scene(rng: np.random.Generator, *, hand: Hand | None = None, melds: int | None = None,
                 dora: int | None = None, art: str | None = None, tilt: float | None = None,
                 yaw: float | None = None, face_px: float | None = None, melds_below: bool | None = None,
                 sort: bool = True, degrade: bool = True, max_side: int = 2000, standing: bool = False,
                 dice: int = 0) -> Scene:
    """A photo of a random (or the given) winning hand.

    `art`: "fluffy" (the CC0 riichi art) or "drawn" (other styles); `tilt`: degrees from straight
    above (0-45); `yaw`: the camera's turn; `face_px`: a face's width in the photo; `standing`:
    the tiles stand facing the camera, a player's own hand seen from their seat (`photograph`);
    `dice`: as many dice lie beside the tiles (`render.dice`).
    """
    hand = hand or random_hand(rng, melds, dora)
    ts = random_set(rng, art)
    while not has_red_fives(ts) and any(t.red for t in hand.concealed + hand.dora_indicators
                                         + [t for m in hand.melds for t in m.tiles]):
        ts = random_set(rng, art)  # a set that prints numerals red cannot show a red five
    face_px = float(rng.uniform(36, 90)) if face_px is None else face_px
    fw = max(48.0, face_px * 1.2)
    aspect = random_aspect(rng)
    placed = _layout(hand, rng, fw, fw * aspect, sort,
                     bool(rng.random() < 0.35) if melds_below is None else melds_below)
    shot = photograph([p for p, _ in placed], ts, rng, face_w=fw, aspect=aspect, out_face_w=face_px,
                      tilt=float(rng.uniform(0, 45)) if tilt is None else tilt,
                      yaw=float(rng.normal(0, 5)) if yaw is None else yaw,
                      margin=1.0, max_side=max_side, degrade=degrade, standing=standing, dice=dice)
    tiles = [SceneTile(p.label if p.pose != FACE_DOWN else BACK, str(Tile(t.kind)), t.red,
                       box_of(q, shot.image.shape), p.pose, p.group, p.meld, box_of(o, shot.image.shape))
             for (p, t), q, o in zip(placed, shot.quads, shot.outlines)]
    return Scene(shot.image, tiles, hand.request(), ts, [box_of(q, shot.image.shape) for q in shot.dice])


def _layout(hand: Hand, rng: np.random.Generator, fw: float, fh: float, sort: bool,
            melds_below: bool) -> list[tuple[Placed, Tile]]:
    """Placed tiles in plane units (the scale is fixed later), each with the tile it is."""
    out: list[tuple[Placed, Tile]] = []
    jitter = lambda: (float(rng.normal(0, 0.6)), float(rng.normal(0, 0.8)))  # noqa: E731
    gap = lambda: fw * float(rng.uniform(0.0, 0.05))  # noqa: E731
    row = list(hand.concealed)
    row.remove(hand.win_tile)
    if sort:
        row.sort(key=lambda t: (t.kind, t.red))
    else:
        rng.shuffle(row)
    x = 0.0
    for t in row:
        dy, da = jitter()
        out.append((Placed(label_of(str(Tile(t.kind)), t.red), UPRIGHT, x + fw / 2, dy, da, "concealed"), t))
        x += fw + gap()
    x += fw * float(rng.uniform(0.3, 0.9))
    dy, da = jitter()
    win = hand.win_tile
    out.append((Placed(label_of(str(Tile(win.kind)), win.red), UPRIGHT, x + fw / 2, dy, da, "win"), win))
    x += fw
    if melds_below:
        mx, my = float(rng.uniform(0, 3)) * fw, fh * float(rng.uniform(1.3, 1.8))
    else:
        mx, my = x + fw * float(rng.uniform(0.6, 2.0)), 0.0
    # the first meld lies furthest right, later ones to its left, as in riichi
    widths = [_meld_width(m, fw, fh) for m in hand.melds]
    right = mx + sum(widths) + fw * 0.1 * len(widths)
    for i, meld in enumerate(hand.melds):
        right -= widths[i]
        out += _meld(meld, i, right, my, fw, fh, rng)
        right -= fw * float(rng.uniform(0.05, 0.3))
    for j, t in enumerate(hand.dora_indicators):
        dy, da = jitter()
        out.append((Placed(label_of(str(Tile(t.kind)), t.red), UPRIGHT, fw * (0.5 + j * 1.03), -fh * 1.7 + dy, da,
                           "dora"), t))
    return out


def _meld_width(meld: Meld, fw: float, fh: float) -> float:
    sideways = 0 if meld.called is None else 1
    return (len(meld.tiles) - sideways - (1 if meld.kind == "kakan" else 0)) * fw + sideways * fh


def _meld(meld: Meld, index: int, x: float, y: float, fw: float, fh: float,
          rng: np.random.Generator) -> list[tuple[Placed, Tile]]:
    tiles = list(meld.tiles)
    out: list[tuple[Placed, Tile]] = []
    if meld.called is None:  # concealed kan: the two end tiles face down
        for j, t in enumerate(tiles):
            pose = FACE_DOWN if j in (0, 3) else UPRIGHT
            out.append((Placed(_lab(t), pose, x + fw * (j + 0.5), y, float(rng.normal(0, 0.6)), "meld", index), t))
        return out
    called = tiles.pop(meld.called)
    added = tiles.pop() if meld.kind == "kakan" else None
    n = len(tiles) + 1
    slot = {"left": 0, "across": 1 if n == 3 else int(rng.integers(1, 3)), "right": n - 1}[meld.source or "left"]
    order: list[tuple[Tile, bool]] = [(t, False) for t in tiles]
    order.insert(slot, (called, True))
    for t, sideways in order:
        if sideways:
            cy = y + (fh - fw) / 2  # bottom-aligned with the upright tiles
            out.append((Placed(_lab(t), SIDEWAYS, x + fh / 2, cy, float(rng.normal(0, 0.6)), "meld", index,
                               1 if rng.random() < 0.85 else 3), t))
            if added is not None:
                out.append((Placed(_lab(added), SIDEWAYS, x + fh / 2, cy - fw * 1.02, float(rng.normal(0, 0.6)),
                                   "meld", index, 1 if rng.random() < 0.85 else 3), added))
            x += fh
        else:
            out.append((Placed(_lab(t), UPRIGHT, x + fw / 2, y, float(rng.normal(0, 0.6)), "meld", index), t))
            x += fw
    return out


def _lab(t: Tile) -> str:
    return label_of(str(Tile(t.kind)), t.red)


def webcam_frame(rng: np.random.Generator, *, hand: Hand | None = None, standing: bool | None = None,
                 face_px: float | None = None, art: str | None = None) -> Scene:
    """A wide webcam frame (16:9) across a table: the hand in a strip along the bottom, the room
    behind it above (shelves of books with CJK titles, printed cards: `clutter.room`), as a
    webcam on an automatic table frames a player's tiles."""
    from .clutter import room

    standing = bool(rng.random() < 0.5) if standing is None else standing
    scene = render_scene(rng, hand=hand, art=art, standing=standing,
                         tilt=float(rng.uniform(5, 30) if standing else rng.uniform(30, 50)),
                         face_px=float(rng.uniform(14, 36)) if face_px is None else face_px, max_side=900)
    sh, sw = scene.image.shape[:2]
    width = int(max(sw * rng.uniform(1.0, 1.4), 16 / 9 * sh * 1.6))
    height = int(width * 9 / 16)
    frame = room(rng, height, width)
    ox, oy = int(rng.integers(0, width - sw + 1)), height - sh - int(rng.integers(0, max(1, (height - sh) // 4)))
    frame[oy:oy + sh, ox:ox + sw] = scene.image
    shift = [ox, oy, ox, oy]
    tiles = [SceneTile(t.label, t.tile, t.red, [v + d for v, d in zip(t.box, shift)], t.pose, t.group, t.meld,
                       None if t.whole is None else [v + d for v, d in zip(t.whole, shift)]) for t in scene.tiles]
    return Scene(frame, tiles, scene.hand, scene.tileset)
