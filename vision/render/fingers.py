"""Fingers over a picture: the hand that holds the phone, or points at a tile, comes into real
photos of a table. Drawn as one to four rounded fingers from an edge of the picture, shaded
round, with nails and a soft shadow, in skin tones from pale to dark.

The detector learns from them that a tile mostly hidden is no tile to name, one partly hidden
still is, and that a fingernail (a pale rounded oblong, about a tile's size) is not a tile.
"""
from __future__ import annotations

import cv2
import numpy as np

# BGR skin tones from pale to dark; each finger's is one of them, jittered
SKIN = np.array([(178, 198, 240), (150, 178, 226), (120, 152, 205), (92, 124, 176), (66, 92, 138), (48, 66, 100)],
                np.float32)


def draw_fingers(image: np.ndarray, rng: np.random.Generator, width: float) -> tuple[np.ndarray, np.ndarray]:
    """`image` with fingers `width` pixels wide coming in from one edge; also the mask (0..1,
    float32) of what they cover."""
    h, w = image.shape[:2]
    count = int(rng.choice(4, p=[0.35, 0.3, 0.2, 0.15])) + 1
    width = max(4.0, float(width) * float(rng.uniform(0.55, 0.9)))
    edge = int(rng.integers(4))
    along = float(rng.uniform(0.1, 0.9))
    start = np.array([(along * w, -width), (w + width, along * h), (along * w, h + width), (-width, along * h)][edge])
    inward = np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][edge], np.float64)
    turn = float(rng.uniform(-0.6, 0.6))
    direction = np.array([inward[0] * np.cos(turn) - inward[1] * np.sin(turn),
                          inward[0] * np.sin(turn) + inward[1] * np.cos(turn)])
    across = np.array([-direction[1], direction[0]])
    mask = np.zeros((h, w), np.uint8)
    tips = []
    reach = float(rng.uniform(1.5, 5.0)) * width
    for i in range(count):
        # the middle fingers reach further than the outer ones, as on a real hand
        offset = (i - (count - 1) / 2) * width * 1.05
        length = reach * (1 - 0.12 * abs(i - (count - 1) / 2)) * float(rng.uniform(0.9, 1.1))
        base = start + across * offset - direction * width
        tip = start + across * offset + direction * length
        cv2.line(mask, _pt(base), _pt(tip), 255, int(round(width)), cv2.LINE_AA)
        cv2.circle(mask, _pt(tip), int(round(width / 2)), 255, -1, cv2.LINE_AA)
        tips.append(tip)
    cover = mask.astype(np.float32) / 255
    if not cover.any():
        return image, cover
    # shaded round: bright along each finger's middle, darker to its sides
    depth = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.72 + 0.38 * np.sqrt(np.clip(depth / (width / 2), 0, 1))
    skin = SKIN[int(rng.integers(len(SKIN)))] * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    out = image.astype(np.float32)
    # a soft shadow beside the fingers, where the light is blocked
    shift = (width * 0.25 * np.array(rng.uniform(-1, 1, 2))).astype(np.float32)
    shadow = cv2.warpAffine(cover, np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]), (w, h))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, width * 0.3))
    out *= (1 - 0.45 * shadow)[..., None]
    finger = skin[None, None, :] * shade[..., None]
    nails = np.zeros((h, w), np.uint8)
    for tip in tips:
        centre = tip - direction * width * 0.3
        angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
        cv2.ellipse(nails, _pt(centre), (max(1, int(width * 0.3)), max(1, int(width * 0.24))), angle, 0, 360, 255,
                    -1, cv2.LINE_AA)
    nail = (nails.astype(np.float32) / 255 * cover)[..., None]
    finger = finger * (1 - nail) + np.clip(skin * 1.18 + np.float32([12, 10, 22]), 0, 255) * nail
    out = out * (1 - cover[..., None]) + finger * cover[..., None]
    return np.clip(out, 0, 255).astype(np.uint8), cover


def _pt(p: np.ndarray) -> tuple[int, int]:
    return int(round(float(p[0]))), int(round(float(p[1])))
