"""Finding tiles lying face down (a concealed kan shows two of them at its ends).

A back is not light like a face, so the face finder misses it; but it lies in line with the
faces, at their size, in one colour that is not the table's. So look beside every face, one
tile further along the row, and keep the spots that are tile-sized, evenly coloured and
unlike the table. A back of the table's own colour shows only by its outline: a spot beside
a face with a tile's edges all round it and a plain inside is one too.
"""
from __future__ import annotations

import cv2
import numpy as np

from .find import FACE_DOWN, UPRIGHT, Found
from .medians import median, median_colour

MIN_TABLE_DISTANCE = 28.0   # in Lab units: a back must differ this much from the table
SAME_COLOUR = 25.0          # a back is one colour: most of it lies this close to its median
# A back the table's colour: its far side, top and bottom each show an edge (Sobel strength)
# along most of their length OUTLINE_RATIO times the spot's plain inside, and OUTLINE_MIN at
# least (on 160 rendered hands no spot beside a face passed this that was not a back; at
# 2.5 and 25 one did).
OUTLINE_RATIO, OUTLINE_MIN = 3.0, 30.0


def free_edge_colour(lab: np.ndarray, occupied: np.ndarray) -> np.ndarray | None:
    """The median colour of the photo's edge where no tile lies; None if tiles fill it."""
    rows, cols = occupied.shape
    band = max(2, min(rows, cols) // 30)
    if 2 * band > min(rows, cols):   # the bands overlap: mark them on the whole photo
        edge = np.zeros(occupied.shape, bool)
        edge[:band, :] = edge[-band:, :] = edge[:, :band] = edge[:, -band:] = True
        free = edge & ~occupied
        if free.sum() < 0.2 * edge.sum():
            return None
        return median_colour(lab[free].reshape(-1, 3))
    # Top and bottom bands whole, the sides between them: each edge pixel once, and only
    # those pixels looked at.
    strips = [(slice(0, band), slice(None)), (slice(rows - band, rows), slice(None)),
              (slice(band, rows - band), slice(0, band)), (slice(band, rows - band), slice(cols - band, cols))]
    free = [lab[strip][~occupied[strip]] for strip in strips]
    if sum(len(f) for f in free) < 0.2 * (2 * band * cols + 2 * band * (rows - 2 * band)):
        return None
    return median_colour(np.concatenate(free).reshape(-1, 3))


def _share(mask: np.ndarray) -> float:
    """mask.mean() of a bool array (the same division), without numpy's general mean."""
    return np.count_nonzero(mask) / mask.size if mask.size else float("nan")


def _looks_like_back(lab: np.ndarray, box, table: np.ndarray, occupied: np.ndarray) -> bool:
    x1, y1, x2, y2 = box
    h, w = occupied.shape
    if x1 < 0 or y1 < 0 or x2 > w or y2 > h or x2 - x1 < 4 or y2 - y1 < 4:
        return False
    # Judge the middle of the spot, away from edges, shadows and neighbours.
    mx, my = (x2 - x1) // 5, (y2 - y1) // 5
    inner = (slice(y1 + my, y2 - my), slice(x1 + mx, x2 - mx))
    if _share(occupied[inner]) > 0.2:
        return False
    pixels = lab[inner].reshape(-1, 3)
    colour = median_colour(pixels)
    table = _local_table(lab, box, occupied, table)
    # A shadow on the table is the table's hue, only darker; a back has a hue of its own.
    own_hue = np.linalg.norm(colour[1:] - table[1:]) > 12 or colour[0] > table[0] + 20
    if not (np.linalg.norm(colour - table) > MIN_TABLE_DISTANCE and own_hue):
        return False   # most spots: table; only a spot unlike it is checked for one colour
    alike = np.mean(np.linalg.norm(pixels.astype(float) - colour, axis=1) < SAME_COLOUR)
    return bool(alike > 0.6)


def _local_table(lab: np.ndarray, box, occupied: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The table all round a spot (light on a table is rarely even, and a grained or striped
    cloth changes colour from one side to the next): its median colour in a ring a third of
    a tile wide where no tile lies, or the table's overall colour when too little of it
    shows. A real back stands out from every side of it; a patch of table only from some."""
    x1, y1, x2, y2 = box
    h, w = occupied.shape
    reach = max(2, (x2 - x1) // 3)
    rx1, ry1, rx2, ry2 = max(0, x1 - reach), max(0, y1 - reach), min(w, x2 + reach), min(h, y2 + reach)
    free = ~occupied[ry1:ry2, rx1:rx2]
    free[y1 - ry1:y2 - ry1, x1 - rx1:x2 - rx1] = False
    if free.sum() < 20 or free.sum() < 0.3 * max(1, free.size - (x2 - x1) * (y2 - y1)):
        return table
    return median_colour(lab[ry1:ry2, rx1:rx2][free].reshape(-1, 3))


def _fit_back(lab: np.ndarray, box, occupied: np.ndarray) -> tuple[int, int, int, int]:
    """The back's own extent: the patch of its colour around the spot where it was found. A
    row photographed askew puts the back higher or lower than the face beside it, and a box
    copied from that face would then hold table as much as back."""
    x1, y1, x2, y2 = (int(v) for v in box)
    w, h = x2 - x1, y2 - y1
    rows, cols = occupied.shape
    wx1, wy1 = max(0, x1 - w // 4), max(0, y1 - int(0.4 * h))
    wx2, wy2 = min(cols, x2 + w // 4), min(rows, y2 + int(0.4 * h))
    mx, my = w // 5, h // 5
    colour = np.median(lab[y1 + my:y2 - my, x1 + mx:x2 - mx].reshape(-1, 3).astype(np.float32), axis=0)
    window = lab[wy1:wy2, wx1:wx2].astype(np.float32) - colour
    alike = ((window * window).sum(axis=2) < SAME_COLOUR ** 2) & ~occupied[wy1:wy2, wx1:wx2]
    alike = cv2.morphologyEx(alike.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(alike, connectivity=4)
    centre = labels[(y1 + y2) // 2 - wy1, (x1 + x2) // 2 - wx1]
    if centre == 0:
        return x1, y1, x2, y2
    bx, by, bw, bh = (int(v) for v in stats[centre, :4])
    # Only a patch of about a tile's size is the back; more is table or shadow of its colour.
    if not (0.6 * w <= bw <= 1.5 * w and 0.6 * h <= bh <= 1.5 * h):
        return x1, y1, x2, y2
    return wx1 + bx, wy1 + by, wx1 + bx + bw, wy1 + by + bh


def _outlined(edges: np.ndarray, box, side: int, occupied: np.ndarray) -> bool:
    """A back the colour of the table at `box`: a plain spot with an edge along its far side
    (`side` -1: its left, the face being to its right; 1: its right), its top and its bottom.
    The near side is left out: the face beside it has an edge there anyway."""
    x1, y1, x2, y2 = box
    h, w = occupied.shape
    if x1 < 2 or y1 < 2 or x2 > w - 2 or y2 > h - 2 or x2 - x1 < 8 or y2 - y1 < 8:
        return False
    mx, my = (x2 - x1) // 5, (y2 - y1) // 5
    if _share(occupied[y1 + my:y2 - my, x1 + mx:x2 - mx]) > 0.2:
        return False
    inside = float(np.median(edges[y1 + my:y2 - my, x1 + mx:x2 - mx]))
    need = max(OUTLINE_MIN, OUTLINE_RATIO * inside)
    far = x1 if side < 0 else x2 - 1
    # Each side: the strongest edge within two pixels of where it should be, along its middle.
    far_edge = edges[y1 + my:y2 - my, far - 2:far + 3].max(axis=1)
    top_edge = edges[y1 - 2:y1 + 3, x1 + mx:x2 - mx].max(axis=0)
    bottom_edge = edges[y2 - 3:y2 + 2, x1 + mx:x2 - mx].max(axis=0)
    return all(np.mean(line > need) > 0.7 for line in (far_edge, top_edge, bottom_edge))


def _edge_strength(image: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))


def find_backs(image: np.ndarray, faces: list[Found], lab: np.ndarray | None = None) -> list[Found]:
    """Face-down tiles beside the face-up ones, at most two in a run (a kan's ends); boxes in
    the pixels of `image` (the finder's small copy: colours need few pixels). `lab`: the
    image in Lab colours, when the caller has it."""
    upright = [f for f in faces if f.pose == UPRIGHT]
    if not upright:
        return []
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB) if lab is None else lab
    occupied = np.zeros(lab.shape[:2], bool)
    for f in faces:
        x1, y1, x2, y2 = f.box
        occupied[y1:y2, x1:x2] = True
    table = free_edge_colour(lab, occupied)
    if table is None:
        return []
    width = median([f.width for f in upright])
    gap = max(1, int(0.08 * width))
    backs: list[Found] = []
    edges = None   # edge strength, worked out only when a spot has the table's colour
    frontier = list(upright)
    for _ in range(2):
        found_now = []
        for tile in frontier:
            x1, y1, x2, y2 = tile.box
            for side in (-1, 1):
                left = x1 - gap - int(width) if side < 0 else x2 + gap
                box = (left, y1, left + int(width), y2)
                if _looks_like_back(lab, box, table, occupied):
                    back = Found(_fit_back(lab, box, occupied), FACE_DOWN)
                else:
                    edges = _edge_strength(image) if edges is None else edges
                    if not _outlined(edges, box, side, occupied):
                        continue
                    back = Found(box, FACE_DOWN)
                found_now.append(back)
                bx1, by1, bx2, by2 = back.box
                occupied[by1:by2, bx1:bx2] = True
        backs += found_now
        frontier = found_now
    return backs

