"""The photograph: table cloth, the camera's perspective, light, shadow, blur, noise and JPEG."""
from __future__ import annotations

import cv2
import numpy as np

TABLE_COLOURS = ((50, 110, 40), (60, 90, 30), (110, 70, 30), (40, 60, 100), (60, 100, 150), (200, 200, 200),
                 (40, 40, 40), (120, 120, 120), (30, 30, 90), (150, 120, 60), (80, 140, 190), (230, 235, 235))


def table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A felt, wood or plain cloth of a random colour with some texture."""
    base = np.array(TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))], np.float32)
    base = np.clip(base * rng.uniform(0.8, 1.2, 3), 0, 255)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    kind = rng.integers(3)
    if kind == 0:  # felt: fine fibres
        noise = rng.normal(0, rng.uniform(3, 10), (h, w, 1)).astype(np.float32)
        img += cv2.GaussianBlur(noise, (0, 0), 0.8)[..., None] if noise.ndim == 3 else noise
    elif kind == 1:  # wood grain
        yy = np.arange(h, dtype=np.float32)[:, None]
        xx = np.arange(w, dtype=np.float32)[None, :]
        period = rng.uniform(8, 40)
        wobble = cv2.resize(rng.normal(0, 1, (max(2, h // 40), 2)).astype(np.float32), (w, h)) * period
        grain = np.sin((yy + wobble + xx * rng.uniform(-0.05, 0.05)) / period * 2 * np.pi)
        img += (grain[..., None] * rng.uniform(6, 20)).astype(np.float32)
    else:  # plain with blotches
        blot = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        img += blot[..., None] * rng.uniform(3, 12)
    return np.clip(img, 0, 255).astype(np.uint8)


def camera_homography(rng: np.random.Generator, plane_w: float, plane_h: float, tilt_deg: float,
                      yaw_deg: float) -> np.ndarray:
    """Where a camera `tilt_deg` from straight above, turned `yaw_deg`, sees the plane's points
    (plane centre at the origin of the result, one plane unit ~ one pixel at the centre)."""
    cx, cy = plane_w / 2, plane_h / 2
    t = np.deg2rad(tilt_deg)
    a = np.deg2rad(yaw_deg)
    dist = max(plane_w, plane_h) * rng.uniform(1.2, 2.2)
    src = np.array([[0, 0], [plane_w, 0], [plane_w, plane_h], [0, plane_h]], np.float32)
    pts = src - (cx, cy)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    pts = pts @ rot.T
    # camera above the player's side, looking at the centre; y grows towards the player
    x, y = pts[:, 0], pts[:, 1]
    depth = dist - y * np.sin(t)
    height = y * np.cos(t)
    dst = np.stack([x * dist / depth, height * dist / depth], 1).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a soft gradient, a tint, sometimes a glare spot."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    field = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    field *= rng.uniform(0.7, 1.15)
    out *= field[..., None]
    out *= rng.uniform(0.88, 1.12, 3).astype(np.float32)
    if rng.random() < 0.25:
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.3) * max(h, w)
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(20, 80)
        out += glare[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def degrade(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Focus blur or shake, sensor noise and JPEG compression."""
    out = img
    r = rng.random()
    if r < 0.45:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.4) * strength)
    elif r < 0.6:
        k = int(rng.integers(3, 7))
        kernel = np.zeros((k, k), np.float32)
        angle = rng.uniform(0, 180)
        c = (k - 1) / 2
        cv2.line(kernel, (int(c - np.cos(np.deg2rad(angle)) * c), int(c - np.sin(np.deg2rad(angle)) * c)),
                 (int(c + np.cos(np.deg2rad(angle)) * c), int(c + np.sin(np.deg2rad(angle)) * c)), 1.0, 1)
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1))
    sigma = rng.uniform(0, 7) * strength
    if sigma > 0.5:
        out = np.clip(out.astype(np.float32) + rng.normal(0, sigma, out.shape).astype(np.float32), 0, 255)
        out = out.astype(np.uint8)
    if rng.random() < 0.8:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
