"""A camera's metering for the Blender frames: exposure set from the light the frame holds.

Lights, sun and cloth are drawn at random, so a fixed exposure left about one frame in six
blown out, faces and all (white over a fifth of the frame or more, 55 of the first 330 frames).
Blender writes each frame `HEADROOM` stops darker, in 16 bits a channel; here the frame is
brought back to light so that the brightest faces (their 99th percentile of luminance) sit just
under white, give or take the frame's own metering error (`bias`, in stops: cameras misjudge
too), and written as the JPEG a camera would write.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

HEADROOM = 3.0      # stops Blender renders below the plan's light
TARGET = 0.9        # where the brightest faces land, in linear light (about 0.95 once encoded)
PERCENTILE = 99


def to_linear(encoded: np.ndarray) -> np.ndarray:
    """sRGB-encoded values in 0-1 (Blender's Standard view) back to linear light."""
    return np.where(encoded <= 0.04045, encoded / 12.92, ((encoded + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def gain(linear: np.ndarray, faces: list[list[float]], bias: float) -> float:
    """The factor that puts the faces' bright end at TARGET, times 2**bias. Metered on the face
    boxes where any show, else on the whole frame."""
    luminance = linear @ np.array([0.0722, 0.7152, 0.2126], np.float32)   # BGR
    h, w = luminance.shape
    pixels = [luminance[max(0, int(y1)):min(h, int(y2)), max(0, int(x1)):min(w, int(x2))].ravel()
              for x1, y1, x2, y2 in faces]
    pixels = [p for p in pixels if p.size]
    sample = np.concatenate(pixels) if pixels else luminance.ravel()
    bright = float(np.percentile(sample, PERCENTILE))
    return TARGET / max(bright, 1e-4) * 2.0 ** bias


def develop(raw_png: Path, jpeg: Path, faces: list[list[float]], bias: float, quality: int = 92) -> None:
    """Blender's 16-bit frame at `raw_png` -> the metered JPEG at `jpeg`; the PNG is removed."""
    raw = cv2.imread(str(raw_png), cv2.IMREAD_UNCHANGED)
    if raw is None:
        raise ValueError(f"Blender wrote no readable frame at {raw_png}")
    linear = to_linear(raw[..., :3].astype(np.float32) / 65535.0)
    out = to_srgb(linear * gain(linear, faces, bias))
    cv2.imwrite(str(jpeg), np.round(out * 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])
    raw_png.unlink()
