"""The pictures on flower and season tiles, each plant drawn the way Chinese and Hong Kong
makers carve it: plum, orchid, chrysanthemum and bamboo for the flowers; a round peony-like
blossom, a flower in a vase or basket, or the season's own plant for the seasons.

Every function draws into `area` (x1, y1, x2, y2 in pixels) of a BGR face.
"""
from __future__ import annotations

import cv2
import numpy as np

from .brush import (ONE, SHIFT, Area, Ink, blossom, chrysanthemum_head, curve, disc, fx, hollow, leaf, round_bloom,
                    stroke)


def plum(img: np.ndarray, area: Area, ink: Ink, rng: np.random.Generator) -> None:
    """Plum: round five-petal blossoms and buds on a crooked dark branch."""
    x1, y1, x2, y2 = area
    w, h = x2 - x1, y2 - y1
    thick = w * rng.uniform(0.045, 0.07)
    side = 1 if rng.random() < 0.5 else -1
    cx = x1 + w * 0.5
    # the trunk zigzags up from one bottom corner
    pts = [(cx - side * w * 0.3, y2)]
    for k, frac in enumerate((0.72, 0.45, 0.18)):
        pts.append((cx + side * w * rng.uniform(-0.25, 0.25) * (1 if k % 2 else -1), y1 + h * max(frac, 0.12)))
    trunk = np.asarray(pts, np.float64)
    stroke(img, trunk, ink.branch, thick)
    sprigs = []
    for k in range(1, len(pts)):
        reach = pts[k][0] + side * w * rng.uniform(0.2, 0.4) * (1 if k % 2 else -1)
        end = (float(np.clip(reach, x1 + w * 0.12, x2 - w * 0.12)), max(y1 + h * 0.1, pts[k][1] - h * rng.uniform(0.05, 0.15)))
        stroke(img, np.asarray([pts[k], end], np.float64), ink.branch, thick * 0.6)
        sprigs.append(end)
    r = w * rng.uniform(0.13, 0.17)
    spots = [pts[-1]] + sprigs + [pts[1]]
    for i, p in enumerate(spots[: int(rng.integers(3, 6))]):
        colour = ink.bloom if i % 3 else ink.accent if rng.random() < 0.3 else ink.bloom
        size = r * rng.uniform(0.8, 1.1)
        blossom(img, (p[0], max(p[1], y1 + size)), size, ink, colour, 5, rng.uniform(0, np.pi))
    for p in spots[2:]:  # buds
        disc(img, (p[0] + rng.normal(0, w * 0.05), p[1] + rng.normal(0, w * 0.05)), r * 0.25, ink.bloom)


def orchid(img: np.ndarray, area: Area, ink: Ink, rng: np.random.Generator) -> None:
    """Orchid: long thin arching leaves from one base, a few small blossoms on fine stems."""
    x1, y1, x2, y2 = area
    w, h = x2 - x1, y2 - y1
    base = (x1 + w * rng.uniform(0.4, 0.6), y2 - h * 0.02)
    for k in range(int(rng.integers(5, 9))):
        spread = (k / 6 - 0.5) * 2 + rng.normal(0, 0.15)
        tip = (base[0] + spread * w * 0.55, y1 + h * rng.uniform(0.05, 0.55) + abs(spread) * h * 0.25)
        leaf(img, base, tip, w * rng.uniform(0.05, 0.08), ink.leaf, bend=rng.uniform(-0.25, 0.25))
    for k in range(int(rng.integers(2, 4))):
        top = (x1 + w * rng.uniform(0.15, 0.85), y1 + h * rng.uniform(0.08, 0.45))
        mid = ((base[0] + top[0]) / 2 + rng.normal(0, w * 0.1), (base[1] + top[1]) / 2)
        stroke(img, curve(base, mid, top), ink.leaf, max(1.0, w * 0.02))
        r = w * rng.uniform(0.07, 0.1)
        colour = ink.bloom if k != 1 else ink.accent
        for j in range(3):  # orchid blossom: three narrow petals and a lip
            a = np.deg2rad(-90 + (j - 1) * 70 + rng.normal(0, 8))
            leaf(img, top, (top[0] + np.cos(a) * r * 1.6, top[1] + np.sin(a) * r * 1.6), r * 0.8, colour)
        disc(img, (top[0], top[1] + r * 0.3), r * 0.4, colour)


def chrysanthemum(img: np.ndarray, area: Area, ink: Ink, rng: np.random.Generator) -> None:
    """Chrysanthemum: one or two dense many-petalled heads over jagged leaves."""
    x1, y1, x2, y2 = area
    w, h = x2 - x1, y2 - y1
    heads = 1 if rng.random() < 0.6 else 2
    base = (x1 + w * rng.uniform(0.4, 0.6), y2)
    centres = [(x1 + w * rng.uniform(0.38, 0.62), y1 + h * rng.uniform(0.25, 0.4))] if heads == 1 else [
        (x1 + w * rng.uniform(0.25, 0.38), y1 + h * rng.uniform(0.2, 0.35)),
        (x1 + w * rng.uniform(0.62, 0.75), y1 + h * rng.uniform(0.4, 0.55))]
    for c in centres:
        stroke(img, curve(base, ((base[0] + c[0]) / 2 + rng.normal(0, w * 0.06), (base[1] + c[1]) / 2), c),
                ink.leaf, max(1.0, w * 0.03))
    for k in range(int(rng.integers(3, 6))):
        t = rng.uniform(0.35, 0.85)
        stem = (base[0] + (centres[0][0] - base[0]) * t, base[1] + (centres[0][1] - base[1]) * t)
        side = 1 if k % 2 else -1
        tip = (stem[0] + side * w * rng.uniform(0.2, 0.35), stem[1] - h * rng.uniform(-0.05, 0.12))
        leaf(img, stem, tip, w * rng.uniform(0.13, 0.19), ink.leaf, bend=rng.uniform(-0.2, 0.2), jagged=True,
              hollow=hollow(ink))
    r = w * (rng.uniform(0.24, 0.3) if heads == 1 else rng.uniform(0.18, 0.22))
    for i, c in enumerate(centres):
        chrysanthemum_head(img, c, r, ink, ink.bloom if i == 0 else ink.accent)


def bamboo(img: np.ndarray, area: Area, ink: Ink, rng: np.random.Generator) -> None:
    """Bamboo: jointed upright stalks with sprays of narrow pointed leaves."""
    x1, y1, x2, y2 = area
    w, h = x2 - x1, y2 - y1
    stalks = int(rng.integers(2, 4))
    joints_at = []
    for k in range(stalks):
        sx = x1 + w * (0.25 + 0.5 * k / max(1, stalks - 1)) + rng.normal(0, w * 0.04)
        top = y1 + h * rng.uniform(0.02, 0.3)
        lean = rng.normal(0, w * 0.04)
        thick = w * rng.uniform(0.06, 0.09)
        stalk = np.asarray([(sx, y2), (sx + lean, top)], np.float64)
        stroke(img, stalk, ink.leaf, thick)
        if ink.outline:  # carved as two lines with the face showing between
            stroke(img, stalk + [(0, -thick * 0.2), (0, thick * 0.2)], ink.face, thick * 0.5)
        joints = int(rng.integers(3, 5))
        for j in range(1, joints + 1):
            t = j / (joints + 1)
            jy = y2 + (top - y2) * t
            jx = sx + lean * t
            stroke(img, np.asarray([(jx - thick * 0.75, jy), (jx + thick * 0.75, jy)], np.float64),
                    ink.leaf if ink.outline else ink.face, max(1.0, thick * 0.25))
            joints_at.append((jx, jy))
    for j in rng.permutation(len(joints_at))[: int(rng.integers(3, 6))]:
        jx, jy = joints_at[j]
        side = 1 if rng.random() < 0.5 else -1
        for _ in range(int(rng.integers(2, 4))):
            a = np.deg2rad(rng.uniform(-60, 30))
            ln = w * rng.uniform(0.22, 0.34)
            tip = (jx + side * np.cos(a) * ln, jy + np.sin(a) * ln)
            leaf(img, (jx, jy), tip, w * rng.uniform(0.05, 0.08), ink.leaf, bend=rng.uniform(-0.15, 0.15))


def peony(img: np.ndarray, area: Area, ink: Ink, rng: np.random.Generator) -> None:
    """The generic season picture: one or two round red blossoms with leaves on curving stems."""
    x1, y1, x2, y2 = area
    w, h = x2 - x1, y2 - y1
    base = (x1 + w * rng.uniform(0.3, 0.7), y2)
    blooms = 1 if rng.random() < 0.65 else 2
    centres = [(x1 + w * rng.uniform(0.3, 0.7), y1 + h * rng.uniform(0.25, 0.5)) for _ in range(blooms)]
    for c in centres:
        stroke(img, curve(base, (c[0] + rng.normal(0, w * 0.15), (base[1] + c[1]) / 2), c), ink.leaf,
                max(1.0, w * 0.03))
    for k in range(int(rng.integers(3, 6))):
        t = rng.uniform(0.2, 0.8)
        c = centres[k % blooms]
        stem = (base[0] + (c[0] - base[0]) * t, base[1] + (c[1] - base[1]) * t)
        side = 1 if k % 2 else -1
        tip = (stem[0] + side * w * rng.uniform(0.18, 0.32), stem[1] - h * rng.uniform(-0.08, 0.12))
        leaf(img, stem, tip, w * rng.uniform(0.1, 0.15), ink.leaf, bend=rng.uniform(-0.25, 0.25), hollow=hollow(ink))
    if rng.random() < 0.5:  # tendrils
        for _ in range(2):
            s = (x1 + w * rng.uniform(0.1, 0.9), y1 + h * rng.uniform(0.05, 0.3))
            stroke(img, curve(s, (s[0] + rng.normal(0, w * 0.1), s[1] + h * 0.1), (s[0], s[1] + h * 0.2)),
                    ink.leaf, max(1.0, w * 0.018))
    r = w * (rng.uniform(0.2, 0.27) if blooms == 1 else rng.uniform(0.15, 0.2))
    for i, c in enumerate(centres):
        round_bloom(img, c, r, ink, ink.bloom if i == 0 or rng.random() < 0.6 else ink.accent, rng)


def vessel(img: np.ndarray, area: Area, ink: Ink, rng: np.random.Generator) -> Area:
    """A vase, bowl or basket at the foot of `area`; returns the area left above it for the flowers."""
    x1, y1, x2, y2 = area
    w, h = x2 - x1, y2 - y1
    kind = int(rng.integers(3))
    colour = ink.branch if rng.random() < 0.5 else ink.accent
    thick = max(1, int(w * 0.035))
    cx = x1 + w / 2
    if kind == 0:  # vase: a round body and a neck
        body_r = w * rng.uniform(0.2, 0.26)
        cy = y2 - body_r
        disc(img, (cx, cy), body_r, colour, -1 if not ink.outline else thick)
        neck = np.array([(cx - body_r * 0.4, cy - body_r * 1.5), (cx + body_r * 0.4, cy - body_r * 1.5),
                         (cx + body_r * 0.35, cy - body_r * 0.8), (cx - body_r * 0.35, cy - body_r * 0.8)])
        cv2.fillPoly(img, [np.round(neck * ONE).astype(np.int32)], colour, cv2.LINE_AA, SHIFT)
        top = cy - body_r * 1.5
    elif kind == 1:  # bowl: a wide half ellipse on a foot
        bw, bh = w * rng.uniform(0.32, 0.42), h * rng.uniform(0.1, 0.15)
        cy = y2 - bh * 0.5
        cv2.ellipse(img, fx((cx, cy - bh * 0.8)), (int(bw * ONE), int(bh * ONE)), 0, 0, 180, colour,
                    -1 if not ink.outline else thick, cv2.LINE_AA, SHIFT)
        stroke(img, np.asarray([(cx - bw, cy - bh * 0.8), (cx + bw, cy - bh * 0.8)]), colour, thick)
        stroke(img, np.asarray([(cx - bw * 0.3, cy + bh * 0.3), (cx + bw * 0.3, cy + bh * 0.3)]), colour, thick)
        top = cy - bh * 0.8
    else:  # basket: a trapezoid with weave lines and a handle
        bw, bh = w * rng.uniform(0.3, 0.4), h * rng.uniform(0.16, 0.22)
        top = y2 - bh
        shape = np.array([(cx - bw, top), (cx + bw, top), (cx + bw * 0.7, y2), (cx - bw * 0.7, y2)])
        cv2.polylines(img, [np.round(shape * ONE).astype(np.int32)], True, colour, thick, cv2.LINE_AA, SHIFT)
        for k in range(1, 4):
            yy = top + bh * k / 4
            stroke(img, np.asarray([(cx - bw * (1 - 0.3 * k / 4), yy), (cx + bw * (1 - 0.3 * k / 4), yy)]), colour,
                    max(1, thick // 2))
        cv2.ellipse(img, fx((cx, top)), (int(bw * 0.9 * ONE), int(bh * 1.2 * ONE)), 0, 180, 360, colour, thick,
                    cv2.LINE_AA, SHIFT)
    return x1, y1, x2, top + h * 0.04


def fruit(img: np.ndarray, area: Area, ink: Ink, rng: np.random.Generator) -> None:
    """Autumn fruit or berries: round fruits hanging among leaves."""
    x1, y1, x2, y2 = area
    w, h = x2 - x1, y2 - y1
    base = (x1 + w * 0.5, y2)
    top = (x1 + w * rng.uniform(0.35, 0.65), y1 + h * 0.05)
    stroke(img, curve(base, (x1 + w * rng.uniform(0.2, 0.8), y1 + h * 0.5), top), ink.leaf, max(1.0, w * 0.03))
    for k in range(int(rng.integers(4, 7))):
        t = rng.uniform(0.1, 0.9)
        p = (base[0] + (top[0] - base[0]) * t, base[1] + (top[1] - base[1]) * t)
        side = 1 if k % 2 else -1
        leaf(img, p, (p[0] + side * w * rng.uniform(0.2, 0.3), p[1] - h * rng.uniform(0.0, 0.12)), w * 0.1, ink.leaf,
              hollow=hollow(ink))
    for _ in range(int(rng.integers(2, 4))):
        c = (x1 + w * rng.uniform(0.25, 0.75), y1 + h * rng.uniform(0.3, 0.8))
        r = w * rng.uniform(0.1, 0.15)
        disc(img, c, r, ink.bloom)
        for _ in range(4):  # the dotted skin of lychees and berries
            disc(img, (c[0] + rng.normal(0, r * 0.35), c[1] + rng.normal(0, r * 0.35)), max(1.0, r * 0.12), ink.face)


FLOWERS = (plum, orchid, chrysanthemum, bamboo)
# The season's own plant, never the picture of the flower with its number (spring 1 is not the
# plum of flower 1, and so on): where a set prints no names, the picture is what tells them apart.
SEASONAL = ((orchid, peony), (peony,), (fruit, peony), (plum, peony))
