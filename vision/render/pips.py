"""The pictures on suit and bonus tiles, drawn with OpenCV: dots (coins), bamboo sticks,
and the 1-sou bird. Coordinates are fractions of the face."""
from __future__ import annotations

import cv2
import numpy as np

Colour = tuple[int, int, int]  # BGR

# Where the dots sit on 2p..9p, with the colour slot of each (0 first colour, 1 second, 2 third).
COIN_LAYOUTS: dict[int, list[tuple[float, float, int]]] = {
    2: [(0.5, 0.27, 0), (0.5, 0.73, 1)],
    3: [(0.24, 0.2, 1), (0.5, 0.5, 2), (0.76, 0.8, 0)],
    4: [(0.28, 0.27, 1), (0.72, 0.27, 0), (0.28, 0.73, 0), (0.72, 0.73, 1)],
    5: [(0.26, 0.22, 1), (0.74, 0.22, 0), (0.5, 0.5, 2), (0.26, 0.78, 0), (0.74, 0.78, 1)],
    6: [(0.28, 0.18, 0), (0.72, 0.18, 0), (0.28, 0.52, 2), (0.72, 0.52, 2), (0.28, 0.84, 2), (0.72, 0.84, 2)],
    7: [(0.2, 0.12, 0), (0.5, 0.22, 0), (0.8, 0.32, 0), (0.28, 0.58, 2), (0.72, 0.58, 2),
        (0.28, 0.86, 2), (0.72, 0.86, 2)],
    8: [(x, y, 1) for y in (0.13, 0.38, 0.62, 0.87) for x in (0.28, 0.72)],
    9: [(x, y, slot) for y, slot in ((0.18, 1), (0.5, 2), (0.82, 0)) for x in (0.2, 0.5, 0.8)],
}
COIN_RADIUS = {2: 0.2, 3: 0.15, 4: 0.17, 5: 0.15, 6: 0.14, 7: 0.125, 8: 0.115, 9: 0.12}

# Bamboo sticks for 2s..9s: centre x, centre y, length (fraction of face height), tilt in degrees,
# colour slot (0 green, 1 accent red, 2 accent blue).
STICK_LAYOUTS: dict[int, list[tuple[float, float, float, float, int]]] = {
    2: [(0.5, 0.27, 0.4, 0, 0), (0.5, 0.73, 0.4, 0, 0)],
    3: [(0.5, 0.27, 0.4, 0, 0), (0.27, 0.73, 0.4, 0, 0), (0.73, 0.73, 0.4, 0, 0)],
    4: [(x, y, 0.4, 0, 0 if (x < 0.5) == (y < 0.5) else 2) for y in (0.27, 0.73) for x in (0.3, 0.7)],
    5: [(x, y, 0.4, 0, 0 if (x < 0.5) == (y < 0.5) else 2) for y in (0.27, 0.73) for x in (0.22, 0.78)]
    + [(0.5, 0.5, 0.4, 0, 1)],
    6: [(x, y, 0.4, 0, 0) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17, 0.28, 0, 1)] + [(x, y, 0.28, 0, 0 if y > 0.6 else 2) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
    8: [(0.16, 0.27, 0.4, 0, 0), (0.38, 0.27, 0.4, 28, 0), (0.62, 0.27, 0.4, -28, 0), (0.84, 0.27, 0.4, 0, 0),
        (0.16, 0.73, 0.4, 0, 0), (0.38, 0.73, 0.4, -28, 0), (0.62, 0.73, 0.4, 28, 0), (0.84, 0.73, 0.4, 0, 0)],
    9: [(x, y, 0.28, 0, 1 if x == 0.5 else 0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}


def _px(img: np.ndarray, x: float, y: float) -> tuple[int, int]:
    h, w = img.shape[:2]
    return int(round(x * w * 16)), int(round(y * h * 16))


def coin(img: np.ndarray, x: float, y: float, r: float, colours: tuple[Colour, Colour], style: int) -> None:
    """One dot: concentric rings (style 0), a ring of petals (1) or a bold disc with a hole (2)."""
    h, w = img.shape[:2]
    cx, cy = _px(img, x, y)
    rad = r * w
    main, inner = colours
    sh = 4  # fixed-point shift for sub-pixel circles

    def circ(rr: float, col: Colour, thick: float) -> None:
        cv2.circle(img, (cx, cy), max(1, int(rr * 16)), col, -1 if thick < 0 else max(1, int(round(thick))),
                   cv2.LINE_AA, sh)

    if style == 0:
        circ(rad, main, max(1.0, rad * 0.22))
        circ(rad * 0.62, inner, max(1.0, rad * 0.14))
        circ(rad * 0.22, main, -1)
    elif style == 1:
        circ(rad, main, max(1.0, rad * 0.16))
        for k in range(8):
            a = k * np.pi / 4
            px, py = cx + int(np.cos(a) * rad * 0.62 * 16), cy + int(np.sin(a) * rad * 0.62 * 16)
            cv2.circle(img, (px, py), max(1, int(rad * 0.16 * 16)), inner, -1, cv2.LINE_AA, sh)
        circ(rad * 0.25, main, -1)
    else:
        circ(rad, main, -1)
        circ(rad * 0.45, img_colour(img, x, y, rad), -1)
        circ(rad * 0.2, inner, -1)


def img_colour(img: np.ndarray, x: float, y: float, rad: float) -> Colour:
    """The face colour just outside a dot, to punch a hole the colour of the face."""
    h, w = img.shape[:2]
    px = min(w - 1, int(x * w + rad * 1.3))
    py = min(h - 1, int(y * h))
    return tuple(int(v) for v in img[py, px])


def big_coin(img: np.ndarray, palette: tuple[Colour, Colour, Colour], rng: np.random.Generator) -> None:
    """The 1-dot: one large decorated disc."""
    h, w = img.shape[:2]
    cx, cy = _px(img, 0.5, 0.5)
    rad = 0.4 * w
    order = rng.permutation(3)
    rings = [(1.0, 0.1), (0.82, 0.12), (0.62, 0.1), (0.42, 0.12)]
    for i, (rr, th) in enumerate(rings):
        cv2.circle(img, (cx, cy), int(rad * rr * 16), palette[order[i % 3]], max(1, int(rad * th)), cv2.LINE_AA, 4)
    for k in range(int(rng.integers(6, 13))):
        a = k * 2 * np.pi / 12
        px, py = cx + int(np.cos(a) * rad * 0.52 * 16), cy + int(np.sin(a) * rad * 0.52 * 16)
        cv2.circle(img, (px, py), int(rad * 0.07 * 16), palette[order[1]], -1, cv2.LINE_AA, 4)
    cv2.circle(img, (cx, cy), int(rad * 0.22 * 16), palette[order[2]], -1, cv2.LINE_AA, 4)


def stick(img: np.ndarray, x: float, y: float, length: float, tilt: float, colour: Colour, width: float) -> None:
    """One bamboo stick: a rounded bar with joints at the ends and the middle."""
    h, w = img.shape[:2]
    half = length * h / 2
    a = np.deg2rad(tilt)
    dx, dy = np.sin(a) * half, np.cos(a) * half
    cx, cy = x * w, y * h
    thick = max(2, int(round(width * w)))
    p1 = (int((cx - dx) * 16), int((cy - dy) * 16))
    p2 = (int((cx + dx) * 16), int((cy + dy) * 16))
    cv2.line(img, p1, p2, colour, thick, cv2.LINE_AA, 4)
    # joints: short bulges across the stick
    for t in (-0.92, 0.0, 0.92):
        jx, jy = cx + dx * t, cy + dy * t
        ox, oy = np.cos(a) * thick * 0.7, -np.sin(a) * thick * 0.7
        cv2.line(img, (int((jx - ox) * 16), int((jy - oy) * 16)), (int((jx + ox) * 16), int((jy + oy) * 16)),
                 colour, max(1, thick // 2), cv2.LINE_AA, 4)
    # a light stripe down the middle of each half, as carved sticks have
    face = tuple(int(v) for v in img[min(h - 1, max(0, int(cy - dy * 0.5))), min(w - 1, max(0, int(cx + thick * 2)))])
    for t0, t1 in ((-0.75, -0.2), (0.2, 0.75)):
        q1 = (int((cx + dx * t0) * 16), int((cy + dy * t0) * 16))
        q2 = (int((cx + dx * t1) * 16), int((cy + dy * t1) * 16))
        cv2.line(img, q1, q2, face, max(1, thick // 4), cv2.LINE_AA, 4)


def bird(img: np.ndarray, palette: list[Colour], rng: np.random.Generator) -> None:
    """A 1-sou bird (sparrow, peacock or phoenix): body, head, beak, wing and a fan of tail strokes."""
    h, w = img.shape[:2]
    flip = rng.random() < 0.5
    cx, cy = w * rng.uniform(0.42, 0.58), h * rng.uniform(0.42, 0.58)
    body = (int(w * rng.uniform(0.16, 0.24)), int(h * rng.uniform(0.1, 0.16)))
    ang = rng.uniform(-40, 40)
    cols = [palette[i] for i in rng.permutation(len(palette))]
    for k in range(int(rng.integers(5, 10))):  # tail feathers
        a = np.deg2rad(rng.uniform(90, 240) if not flip else rng.uniform(-60, 90))
        ln = rng.uniform(0.25, 0.45) * h
        end = (int(cx + np.cos(a) * ln), int(cy + np.sin(a) * ln))
        cv2.line(img, (int(cx), int(cy)), end, cols[k % len(cols)], max(1, w // 40), cv2.LINE_AA)
        cv2.circle(img, end, max(2, w // 22), cols[(k + 1) % len(cols)], -1, cv2.LINE_AA)
    cv2.ellipse(img, (int(cx), int(cy)), body, ang, 0, 360, cols[0], -1, cv2.LINE_AA)
    cv2.ellipse(img, (int(cx), int(cy)), (body[0] // 2, body[1] // 2), ang + 20, 0, 360, cols[1], -1, cv2.LINE_AA)
    hx = cx + (body[0] * 0.9 if not flip else -body[0] * 0.9)
    hy = cy - body[1] * 1.1
    cv2.circle(img, (int(hx), int(hy)), max(3, int(w * 0.08)), cols[2 % len(cols)], -1, cv2.LINE_AA)
    beak = np.array([[hx, hy - 2], [hx + (1 if not flip else -1) * w * 0.12, hy + 2], [hx, hy + 5]], np.int32)
    cv2.fillConvexPoly(img, beak, cols[1], cv2.LINE_AA)
    cv2.circle(img, (int(hx), int(hy)), max(1, w // 60), (20, 20, 20), -1, cv2.LINE_AA)
    for k in range(2):  # legs
        lx = int(cx + (k - 0.5) * body[0] * 0.6)
        cv2.line(img, (lx, int(cy + body[1] * 0.8)), (lx, int(cy + body[1] * 1.8)), cols[1], max(1, w // 50), cv2.LINE_AA)

