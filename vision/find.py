"""Finding tiles in a photo: classical image processing, no model.

Tile faces are the light, unsaturated parts of a picture (and unlike the table, when a table
shows); symbols sit inside them and come back when holes are filled. Each light patch is a
tile, a row of touching tiles, or a grid of them (a whole set laid out). A patch is turned
level (a hand photographed a little askew), cut into rows and then into tiles at its seams
(`seams.py`), the tile size coming from how often the seams repeat. Tile backs (a concealed
kan) are found beside the faces (`backs.py`). Pose follows from shape: a tile turned
sideways is wider for its height than the other tiles, at any viewing angle to about 45°.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .seams import cut_profile, period, valleys

UPRIGHT, SIDEWAYS, FACE_DOWN = "upright", "sideways", "face_down"
FIND_SIDE = 512      # tiles are found on a copy this size; they need few pixels to be told apart
NEUTRAL_SATURATION = 70  # HSV saturation below which a dark line may be a seam, not a stroke
MIN_TILE = 10        # pixels (on that copy): no narrower tile can be named anyway
MIN_TILT = 1.5       # degrees: a patch more askew than this is turned level before cutting
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Found:
    """One tile: its box (x1, y1, x2, y2) in the pixels of the image searched, and pose."""
    box: Box
    pose: str

    @property
    def width(self) -> int:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]


def _whiteness(lab: np.ndarray) -> np.ndarray:
    light = lab[..., 0].astype(np.int16)
    chroma = np.abs(lab[..., 1].astype(np.int16) - 128) + np.abs(lab[..., 2].astype(np.int16) - 128)
    return np.clip(light - 2 * chroma, 0, 255).astype(np.uint8)


def table_colour(lab: np.ndarray, gray: np.ndarray) -> np.ndarray | None:
    """The table's colour, from the photo's edge, when the edge is table: smooth, not the
    busy seams and strokes of tiles filling the picture."""
    band = max(2, min(lab.shape[:2]) // 25)
    edge = np.concatenate([lab[:band].reshape(-1, 3), lab[-band:].reshape(-1, 3),
                           lab[:, :band].reshape(-1, 3), lab[:, -band:].reshape(-1, 3)])
    edge_gray = np.concatenate([gray[:band].ravel(), gray[-band:].ravel(), gray[:, :band].ravel(), gray[:, -band:].ravel()])
    if np.percentile(edge_gray, 90) - np.percentile(edge_gray, 10) > 60:
        return None
    return np.median(edge, axis=0)


def face_mask(image: np.ndarray, gray: np.ndarray | None = None) -> np.ndarray:
    """Pixels that look like a tile face: bright and nearly colourless relative to the photo,
    and (where a table shows) clearly not the table's colour."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    whiteness = _whiteness(lab)
    level, _ = cv2.threshold(whiteness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Ivory faces under warm light score well below paper white; never demand more than that.
    mask = whiteness > max(min(level, 170.0), 90)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if gray is None else gray
    table = table_colour(lab, gray)
    # An edge that itself looks like tile face is tiles filling the picture, not a table.
    if table is not None and _whiteness(table.reshape(1, 1, 3).astype(np.uint8))[0, 0] > max(min(level, 170.0), 90):
        table = None
    if table is not None:
        distance = np.linalg.norm(lab.astype(np.float32) - table.astype(np.float32), axis=2)
        mask &= distance > 22
        # On a light table the faces are the lighter, creamier parts.
        if _whiteness(table.reshape(1, 1, 3).astype(np.uint8))[0, 0] > 90:
            mask &= (lab[..., 0] > table[0]) | (distance > 40)
    return mask.astype(np.uint8)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


def _tighten(faces: np.ndarray, box: Box, share: float = 0.4) -> Box | None:
    """Shrink a box to the rows and columns that are at least `share` tile face."""
    x1, y1, x2, y2 = box
    region = faces[y1:y2, x1:x2]
    if region.size == 0:
        return None
    rows = np.flatnonzero(region.mean(axis=1) > share)
    if rows.size == 0:
        return None
    cols = np.flatnonzero(region[rows[0]:rows[-1] + 1].mean(axis=0) > share)
    if cols.size == 0:
        return None
    return x1 + int(cols[0]), y1 + int(rows[0]), x1 + int(cols[-1]) + 1, y1 + int(rows[-1]) + 1


@dataclass(frozen=True)
class Layout:
    """A patch's tile size: the column step (a tile's width) and row step (its height)."""
    column: float
    row: float
    rows: bool        # the patch holds several rows


def patch_layout(faces: np.ndarray, across: np.ndarray, down: np.ndarray, fallback: float | None) -> Layout | None:
    """Tile width and height inside one level patch, from how often its seams repeat.

    A patch one row high gives the tile height outright; a taller one must show rows
    repeating. The tile width is then sought between half and 1.2 times the height."""
    rows = np.flatnonzero(faces.mean(axis=1) > 0.25)
    if rows.size == 0:
        return None
    height = float(rows[-1] - rows[0] + 1)
    col_profile = (across & (faces > 0)).sum(axis=0).astype(float)
    # Rows count only if they repeat at a tile's height for the width the seams repeat at
    # (strokes of a character repeat too, but far closer together).
    free_column, _ = period(col_profile, MIN_TILE, faces.shape[1] / 1.4)
    row_step, clarity = period((down & (faces > 0)).sum(axis=1).astype(float), max(MIN_TILE, height / 20), height / 1.6)
    cols = np.flatnonzero(faces.mean(axis=0) > 0.25)
    width = float(cols[-1] - cols[0] + 1) if cols.size else 0.0
    # A grid shows at least two columns, and its rows are taller than any tile seen alone.
    several = (clarity > 0.25 and height > 1.6 * row_step and free_column > 0
               and 0.85 * free_column <= row_step <= 1.9 * free_column and width >= 1.5 * free_column
               and (fallback is None or row_step >= 0.85 * fallback))
    unit = row_step if several else height
    # A repeat must show at least twice; a patch narrower than that is one tile or two.
    column, clarity = period(col_profile, max(MIN_TILE, 0.45 * unit), min(1.2 * unit, width / 1.9))
    if fallback is not None and width < 2.2 * fallback and not several:
        # One or two tiles: their own seams say little; the tiles seen elsewhere say more.
        clarity = 0.0
    if clarity < 0.15 or column <= 0:
        fits = fallback is not None and 0.45 * unit <= fallback <= 1.2 * unit
        column = fallback if fits else 0.75 * unit
    return Layout(column, unit, several)


def split_patch(faces: np.ndarray, across: np.ndarray, down: np.ndarray, layout: Layout) -> list[Box]:
    """Cut a level patch into rows, and rows into tiles, at the seams."""
    height, width = faces.shape
    cuts = [0, height]
    if layout.rows:
        cuts = cut_profile(down.sum(axis=1).astype(float), layout.row, 0.7, 1.35)
    tiles = []
    for top, bottom in zip(cuts, cuts[1:]):
        # A row holds shorter sideways tiles and gaps: keep every line that is partly face.
        strip = _tighten(faces, (0, top, width, bottom), share=0.2)
        if strip is None:
            continue
        sx1, sy1, sx2, sy2 = strip
        columns = cut_profile(across[sy1:sy2, sx1:sx2].sum(axis=0).astype(float), layout.column, 0.6, 1.55)
        for left, right in zip(columns, columns[1:]):
            tile = _tighten(faces, (sx1 + left, sy1, sx1 + right, sy2))
            if tile and tile[2] - tile[0] >= 0.45 * layout.column and tile[3] - tile[1] >= 0.4 * layout.column:
                tiles.append(tile)
    return tiles


@dataclass
class Patch:
    """One light patch, turned level: its images, and the map back to the photo."""
    gray: np.ndarray
    faces: np.ndarray
    neutral: np.ndarray   # colourless pixels: seams are grey shadow, strokes are coloured
    back: np.ndarray      # 2x3 affine: patch pixels -> photo pixels


def _tilt(mask: np.ndarray) -> float:
    """How far a patch's bottom edge runs off level, in degrees. Players line a row up
    along the edge nearest them, so the bottom edge is straight even where a sideways tile
    leaves the top edge ragged."""
    present = np.flatnonzero(mask.any(axis=0))
    if present.size < 3 * MIN_TILE:
        return 0.0
    bottoms = mask.shape[0] - 1 - np.argmax(mask[::-1, present], axis=0)
    xs, ys = present.astype(float), bottoms.astype(float)
    for _ in range(2):  # refit without the points that stray (corners, shadows)
        slope, offset = np.polyfit(xs, ys, 1)
        residual = np.abs(ys - (slope * xs + offset))
        keep = residual <= max(1.5, 2 * np.median(residual))
        if keep.sum() < 10:
            break
        xs, ys = xs[keep], ys[keep]
    slope, _ = np.polyfit(xs, ys, 1)
    return float(np.degrees(np.arctan(slope)))


def level_patch(gray: np.ndarray, component: np.ndarray, neutral: np.ndarray, box: Box) -> Patch:
    """Cut out one patch (padded) and turn it so its long side runs level."""
    x1, y1, x2, y2 = box
    pad = 3
    x1, y1 = max(0, x1 - pad), max(0, y1 - pad)
    x2, y2 = min(gray.shape[1], x2 + pad), min(gray.shape[0], y2 + pad)
    sub_gray, sub_mask, sub_neutral = gray[y1:y2, x1:x2], component[y1:y2, x1:x2], neutral[y1:y2, x1:x2]
    shift = np.array([[1, 0, x1], [0, 1, y1]], np.float64)
    angle = _tilt(sub_mask)
    if abs(angle) < MIN_TILT or abs(angle) > 30:
        return Patch(sub_gray, sub_mask, sub_neutral, shift)
    height, width = sub_mask.shape
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    new_w, new_h = int(width * cos + height * sin) + 2, int(width * sin + height * cos) + 2
    turn[0, 2] += new_w / 2 - width / 2
    turn[1, 2] += new_h / 2 - height / 2
    level_gray = cv2.warpAffine(sub_gray, turn, (new_w, new_h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    level_mask = cv2.warpAffine(sub_mask, turn, (new_w, new_h), flags=cv2.INTER_NEAREST)
    level_neutral = cv2.warpAffine(sub_neutral, turn, (new_w, new_h), flags=cv2.INTER_NEAREST)
    undo = cv2.invertAffineTransform(turn)
    back = shift @ np.vstack([undo, [0, 0, 1]])
    return Patch(level_gray, level_mask, level_neutral, back)


def _to_photo(box: Box, back: np.ndarray) -> Box:
    x1, y1, x2, y2 = box
    corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64)
    mapped = corners @ back.T
    return (int(mapped[:, 0].min()), int(mapped[:, 1].min()), int(np.ceil(mapped[:, 0].max())), int(np.ceil(mapped[:, 1].max())))


def _patches(faces: np.ndarray, min_area: int) -> list[tuple[np.ndarray, Box]]:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(faces, connectivity=8)
    order = sorted(range(1, count), key=lambda i: -stats[i, 4])
    return [((labels == i).astype(np.uint8), (int(stats[i, 0]), int(stats[i, 1]), int(stats[i, 0] + stats[i, 2]),
                                              int(stats[i, 1] + stats[i, 3])))
            for i in order if stats[i, 4] >= min_area]


def find_faces(image: np.ndarray) -> list[Box]:
    """Boxes of face-up tiles, in the pixels of `image`."""
    shrink = min(1.0, FIND_SIDE / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA) if shrink < 1 else image
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    faces = _fill_holes(cv2.morphologyEx(face_mask(small, gray), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)))
    neutral = (cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[..., 1] < NEUTRAL_SATURATION).astype(np.uint8)
    smallest = max(6, min(gray.shape) // 50)
    boxes: list[Box] = []
    known: list[float] = []   # tile widths seen so far, for patches too small to tell
    for component, box in _patches(faces, smallest * smallest):
        patch = level_patch(gray, component, neutral, box)
        grey = patch.neutral > 0
        across, down = valleys(patch.gray, 1) & grey, valleys(patch.gray, 0) & grey
        layout = patch_layout(patch.faces, across, down, float(np.median(known)) if known else None)
        if layout is None:
            continue
        tiles = split_patch(patch.faces, across, down, layout)
        if len(tiles) >= 2:
            known.append(layout.column)
        elif len(tiles) == 1 and 0.5 <= (tiles[0][2] - tiles[0][0]) / max(1, tiles[0][3] - tiles[0][1]) <= 1.1:
            known.append(float(tiles[0][2] - tiles[0][0]))
        boxes += [_to_photo(t, patch.back) for t in tiles]
    return [tuple(int(round(v / shrink)) for v in box) for box in _drop_scraps(boxes)]


def _drop_scraps(boxes: list[Box]) -> list[Box]:
    """Leave out slivers far smaller than the typical tile (a tile's lit side, a reflection)."""
    if len(boxes) < 3:
        return boxes
    areas = np.array([(b[2] - b[0]) * (b[3] - b[1]) for b in boxes], float)
    heights = np.array([b[3] - b[1] for b in boxes], float)
    typical_area, typical_height = np.median(areas), np.median(heights)
    return [b for b, a, h in zip(boxes, areas, heights) if a >= 0.35 * typical_area and h >= 0.5 * typical_height]


def assign_poses(boxes: list[Box]) -> list[Found]:
    """Upright or sideways, judged against the other tiles: a sideways tile is markedly wider
    for its height than the typical tile of the photo."""
    if not boxes:
        return []
    aspects = np.array([(b[2] - b[0]) / max(1, b[3] - b[1]) for b in boxes])
    typical = float(np.median(aspects))
    # Seen from above an upright face is about 3:4; a photo full of sideways tiles is rare.
    if typical > 1.15:
        typical = 0.75
    return [Found(tuple(int(v) for v in box), SIDEWAYS if aspect > typical * 1.4 else UPRIGHT)
            for box, aspect in zip(boxes, aspects)]


def find_tiles(image: np.ndarray) -> list[Found]:
    """Every tile in the image, face up or face down, in reading order (top to bottom rows,
    left to right)."""
    from .backs import find_backs  # tile backs need the faces' size and rows

    faces = assign_poses(find_faces(image))
    found = faces + find_backs(image, faces)
    return sorted(found, key=lambda f: (f.box[1] // max(1, f.height), f.box[0]))
