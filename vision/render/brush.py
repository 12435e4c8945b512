"""The brush strokes bonus-tile pictures are made of: curved stems, pointed leaves, round
blossoms and chrysanthemum heads, drawn with sub-pixel OpenCV calls in one set's `Ink`."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

Colour = tuple[int, int, int]  # BGR
Area = tuple[float, float, float, float]
SHIFT = 4  # fixed-point bits for sub-pixel drawing
ONE = 1 << SHIFT


@dataclass(frozen=True)
class Ink:
    """The colours one set carves its bonus pictures in."""
    leaf: Colour
    bloom: Colour
    accent: Colour   # a second blossom colour (blue, pink, orange)
    branch: Colour   # plum wood, vase and basket
    face: Colour
    outline: bool    # blossoms drawn as outlines on the face colour rather than filled


def fx(p) -> tuple[int, int]:
    return int(round(p[0] * ONE)), int(round(p[1] * ONE))


def curve(p0, p1, p2, n: int = 16) -> np.ndarray:
    t = np.linspace(0, 1, n)[:, None]
    a, b, c = (np.asarray(p, np.float64) for p in (p0, p1, p2))
    return (1 - t) ** 2 * a + 2 * (1 - t) * t * b + t ** 2 * c


def stroke(img: np.ndarray, pts: np.ndarray, colour: Colour, thick: float) -> None:
    cv2.polylines(img, [np.round(pts * ONE).astype(np.int32)], False, colour, max(1, int(round(thick))),
                  cv2.LINE_AA, SHIFT)


def leaf(img: np.ndarray, base, tip, width: float, colour: Colour, bend: float = 0.0, jagged: bool = False,
          hollow: Colour | None = None) -> None:
    """A pointed leaf from `base` to `tip`, `width` pixels at its widest, bowed sideways by `bend`;
    carved as an outline filled with `hollow` (the face colour) when given."""
    base, tip = np.asarray(base, np.float64), np.asarray(tip, np.float64)
    axis = tip - base
    length = float(np.hypot(*axis)) or 1.0
    normal = np.array([-axis[1], axis[0]]) / length
    t = np.linspace(0, 1, 14)[:, None]
    spine = base + axis * t + normal * bend * length * np.sin(np.pi * t)
    half = width / 2 * np.sin(np.pi * t ** 0.8)
    if jagged:  # chrysanthemum leaves: lobed edges
        half = half * (1 + 0.35 * np.sin(t * np.pi * 6))
    outline = np.vstack([spine + normal * half, (spine - normal * half)[::-1]])
    poly = [np.round(outline * ONE).astype(np.int32)]
    cv2.fillPoly(img, poly, colour if hollow is None else hollow, cv2.LINE_AA, SHIFT)
    if hollow is not None:
        cv2.polylines(img, poly, True, colour, max(1, int(round(width * 0.2))), cv2.LINE_AA, SHIFT)
        stroke(img, spine[2:-3], colour, max(1.0, width * 0.12))


def hollow(ink: Ink) -> Colour | None:
    return ink.face if ink.outline else None


def disc(img, c, r: float, colour: Colour, thick: int = -1) -> None:
    cv2.circle(img, fx(c), max(1, int(r * ONE)), colour, thick, cv2.LINE_AA, SHIFT)


def blossom(img: np.ndarray, c, r: float, ink: Ink, colour: Colour, petals: int = 5, turn: float = 0.0) -> None:
    """A plum-like blossom: round petals around a dotted centre."""
    for k in range(petals):
        a = turn + 2 * np.pi * k / petals
        p = (c[0] + np.cos(a) * r * 0.55, c[1] + np.sin(a) * r * 0.55)
        if ink.outline:
            disc(img, p, r * 0.48, ink.face)
            disc(img, p, r * 0.48, colour, max(1, int(r * 0.16)))
        else:
            disc(img, p, r * 0.48, colour)
    disc(img, c, r * 0.22, ink.leaf if ink.outline else ink.face)


def round_bloom(img: np.ndarray, c, r: float, ink: Ink, colour: Colour, rng: np.random.Generator) -> None:
    """A peony or rose seen from the front: a round head of layered, scalloped petals."""
    if ink.outline:
        disc(img, c, r, ink.face)
        disc(img, c, r, colour, max(1, int(r * 0.14)))
    else:
        disc(img, c, r, colour)
    line = colour if ink.outline else ink.face
    for ring in (0.72, 0.45):
        start = rng.uniform(0, 360)
        for k in range(int(rng.integers(3, 6))):
            a = start + k * 360 / 4.5
            cv2.ellipse(img, fx(c), (int(r * ring * ONE), int(r * ring * 0.9 * ONE)), a, 0, 70, line,
                        max(1, int(r * 0.1)), cv2.LINE_AA, SHIFT)
    disc(img, c, r * 0.16, line)


def chrysanthemum_head(img: np.ndarray, c, r: float, ink: Ink, colour: Colour) -> None:
    """A dense head of many narrow petals radiating in rings."""
    for ring, count in ((1.0, 18), (0.7, 13), (0.42, 8)):
        for k in range(count):
            a = 360 * k / count + ring * 40
            rad = np.deg2rad(a)
            p = (c[0] + np.cos(rad) * r * ring * 0.55, c[1] + np.sin(rad) * r * ring * 0.55)
            axes = (int(r * ring * 0.45 * ONE), max(ONE, int(r * 0.11 * ONE)))
            cv2.ellipse(img, fx(p), axes, a, 0, 360, colour, -1, cv2.LINE_AA, SHIFT)
            cv2.ellipse(img, fx(p), axes, a, 0, 360, ink.face, 1, cv2.LINE_AA, SHIFT)
    disc(img, c, r * 0.18, colour)
