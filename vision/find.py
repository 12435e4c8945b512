"""Finding tiles in a photo: classical image processing, no model.

Tile faces are the light, unsaturated parts of a picture (and unlike the table, when a table
shows); symbols sit inside them and come back when holes are filled. Each light patch is a
tile, a row of touching tiles, or a grid of them (a whole set laid out). A patch is turned
level (a hand photographed a little askew; `patches.py`), cut into rows and then into tiles at its seams
(`seams.py`), the tile size coming from how often the seams repeat, and where a row's top
edge steps at a turned tile; the front of the tiles' bodies below a row is left out
(`row_edges.py`). Tile backs (a concealed kan) are found beside the faces (`backs.py`).
Pose follows from shape: a tile turned sideways is wider for its height than the other
tiles, at any viewing angle to about 45°.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .image_io import shrunk
from .masks import FaceMask, busy_mask, colourless, face_mask, fill_holes
from .medians import median, median_u8
from .patches import Box, Patch, level_patch, patches_of, rows_apart, tilted, to_photo
from .row_edges import STEP_SEAM, face_bottom, top_steps
from .seams import cut_profile, period, valleys
from .tidy import drop_cut_at_edge, drop_scraps, join_halves, split_stacks

UPRIGHT, SIDEWAYS, FACE_DOWN = "upright", "sideways", "face_down"
FIND_SIDE = 512      # tiles are found on a copy this size; they need few pixels to be told apart
NEUTRAL_SATURATION = 70  # HSV saturation below which a dark line may be a seam, not a stroke
MIN_TILE = 10        # pixels (on that copy): no narrower tile can be named anyway
# A row lower than this share of the usual tile width holds no tile: a sideways tile is
# about as high as an upright one is wide.
SLIVER = 0.6
# A sideways face is 4/3 as wide for its height as an upright one in theory; found boxes of
# rendered hands measured upright at most 1.16x the photo's typical aspect, sideways at least 1.30x.
SIDEWAYS_RATIO = 1.23
DARK_FACE_GREY = 150  # grey level black faces are stretched to before seams are sought
# Tiles filling the picture lie many to a column: the labelled photos of whole sets show
# none over a quarter of the picture high. One of 0.4 is no such photo.
FILLED_TILE = 0.4


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


def _lines_over(mask: np.ndarray, axis: int, share: float) -> np.ndarray:
    """Indices of the rows (axis 1) or columns (axis 0) of a 0/1 mask more than `share` set
    (a plain sum: numpy's mean costs several times more on arrays this small)."""
    return np.flatnonzero(np.add.reduce(mask, axis=axis, dtype=np.int32) > share * mask.shape[axis])


def _tighten(faces: np.ndarray, box: Box, share: float = 0.4) -> Box | None:
    """Shrink a box to the rows and columns that are at least `share` tile face."""
    x1, y1, x2, y2 = box
    region = faces[y1:y2, x1:x2]
    if region.size == 0:
        return None
    rows = _lines_over(region, 1, share)
    if rows.size == 0:
        return None
    cols = _lines_over(region[rows[0]:rows[-1] + 1], 0, share)
    if cols.size == 0:
        return None
    return x1 + int(cols[0]), y1 + int(rows[0]), x1 + int(cols[-1]) + 1, y1 + int(rows[-1]) + 1


def tighten_row(faces: np.ndarray, top: int, bottom: int, spans: list[tuple[int, int]],
                share: float = 0.4) -> list[Box | None]:
    """`_tighten` of each box (left, top, right, bottom) for (left, right) in `spans`, boxes
    side by side in one row of a 0/1 uint8 mask, all at once: each box's line sums come from
    the row's integral image (whole numbers, so the same sums), not a sum per box."""
    if bottom <= top or not spans:
        return [None] * len(spans)
    # Only the columns the boxes cover, counted from the first of them.
    first_column = min(max(a, 0) for a, _ in spans)
    region = faces[top:bottom, first_column:max(max(b, 0) for _, b in spans)]
    height, width = region.shape
    if height == 0 or width == 0:
        return [None] * len(spans)
    lefts = np.array([min(max(a, 0) - first_column, width) for a, _ in spans])
    rights = np.array([min(max(b, 0) - first_column, width) for _, b in spans])
    total = cv2.integral(region)                  # (height+1) x (width+1): sums above and left
    across = total[1:] - total[:-1]               # per line, the sum of its first x pixels
    rows_over = across[:, rights] - across[:, lefts] > share * (rights - lefts)   # height x boxes
    has_rows = rows_over.any(axis=0) & (rights > lefts)
    first = np.argmax(rows_over, axis=0)
    last = height - 1 - np.argmax(rows_over[::-1], axis=0)
    block = total[last + 1] - total[first]        # per box, sums of its lines' first x pixels
    columns = np.arange(width)
    cols_over = ((block[:, 1:] - block[:, :-1] > (share * (last - first + 1))[:, None])
                 & (columns >= lefts[:, None]) & (columns < rights[:, None]))     # boxes x width
    has_cols = cols_over.any(axis=1)
    start = np.argmax(cols_over, axis=1)
    end = width - np.argmax(cols_over[:, ::-1], axis=1)
    return [(first_column + int(x1), top + int(y1), first_column + int(x2), top + int(y2) + 1) if ok else None
            for x1, y1, x2, y2, ok in zip(start, first, end, last, has_rows & has_cols)]


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
    rows = _lines_over(faces, 1, 0.25)
    if rows.size == 0:
        return None
    height = float(rows[-1] - rows[0] + 1)
    col_profile = (across & (faces > 0)).sum(axis=0).astype(float)
    # Rows count only if they repeat at a tile's height for the width the seams repeat at
    # (strokes of a character repeat too, but far closer together).
    free_column, _ = period(col_profile, MIN_TILE, faces.shape[1] / 1.4)
    row_step, clarity = period((down & (faces > 0)).sum(axis=1).astype(float), max(MIN_TILE, height / 20), height / 1.6)
    cols = _lines_over(faces, 0, 0.25)
    width = float(cols[-1] - cols[0] + 1) if cols.size else 0.0
    # A grid shows at least two columns, and its rows are taller than any tile seen alone.
    several = (clarity > 0.25 and height > 1.6 * row_step and free_column > 0
               and 0.85 * free_column <= row_step <= 1.9 * free_column and width >= 1.5 * free_column
               and (fallback is None or row_step >= 0.85 * fallback))
    unit = row_step if several else height
    # A repeat must show at least twice; a patch narrower than that is one tile or two.
    column, clarity = period(col_profile, max(MIN_TILE, 0.45 * unit), min(1.2 * unit, width / 1.9))
    if fallback is not None and not several and (width < 2.2 * fallback or abs(column - fallback) > 0.25 * fallback):
        # One or two tiles, or a short row that disagrees with the longest one: a few
        # tiles' own seams say little; the tiles seen elsewhere say more.
        clarity = 0.0
    if clarity < 0.15 or column <= 0:
        fits = fallback is not None and 0.45 * unit <= fallback <= 1.2 * unit
        column = fallback if fits else 0.75 * unit
    return Layout(column, unit, several)


def split_patch(patch: Patch, across: np.ndarray, down: np.ndarray, layout: Layout) -> list[Box]:
    """Cut a level patch into rows, and rows into tiles, at the seams."""
    faces = patch.faces
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
        sy2 = face_bottom(patch.gray, faces, strip)   # not the tiles' bodies below
        seams = across[sy1:sy2, sx1:sx2].sum(axis=0).astype(float)
        seams[top_steps(faces[sy1:sy2, sx1:sx2])] += STEP_SEAM * (sy2 - sy1)
        columns = cut_profile(seams, layout.column, 0.6, 1.55)
        spans = [(sx1 + left, sx1 + right) for left, right in zip(columns, columns[1:])]
        for tile in tighten_row(faces, sy1, sy2, spans):
            if tile and tile[2] - tile[0] >= 0.45 * layout.column and tile[3] - tile[1] >= 0.4 * layout.column:
                tiles.append(tile)
    return tiles




def brighten(gray: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Black faces, stretched to the grey of a light face: a seam between two of them is a
    few grey levels darker than the faces, too little for `valleys` until stretched."""
    level = median_u8(gray[faces > 0]) if faces.any() else 0.0
    return cv2.convertScaleAbs(gray, alpha=DARK_FACE_GREY / max(8.0, level))


def find_faces(small: np.ndarray, lab: np.ndarray | None = None) -> tuple[list[Box], dict[Box, float]]:
    """Boxes of face-up tiles in an image already shrunk to at most FIND_SIDE pixels (`lab`:
    the same image in Lab colours, when the caller has it), and each box's width for height
    as it lay in its levelled patch (boxes mended afterwards have none)."""
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    neutral = colourless(small, NEUTRAL_SATURATION)
    found = face_mask(small, gray, lab)
    boxes, shapes = faces_in(found, gray, neutral)
    if found.filled and boxes and max(b[3] - b[1] for b in boxes) > FILLED_TILE * gray.shape[0]:
        # Tiles filling the picture come many to a column; a "tile" near half the picture high
        # means a grained table taken for one: the hand's tiles are where the detail is.
        boxes, shapes = faces_in(FaceMask(busy_mask(gray)), gray, neutral)
    return boxes, shapes


def faces_in(found: FaceMask, gray: np.ndarray, neutral: np.ndarray) -> tuple[list[Box], dict[Box, float]]:
    """The boxes of the tiles in a face mask, and their shapes (see `find_faces`)."""
    faces = cv2.morphologyEx(found.mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    # Bridge small breaks in a face's outline (a stroke running to its edge) before filling.
    faces = fill_holes(cv2.morphologyEx(faces, cv2.MORPH_CLOSE, np.ones((4, 4), np.uint8)))
    if found.dark:
        gray = brighten(gray, faces)
    smallest = max(6, min(gray.shape) // 50)
    boxes: list[Box] = []
    shapes: dict[Box, float] = {}   # width for height of each tile in its levelled patch
    known: list[float] = []   # tile widths seen so far, for patches too small to tell
    patches = (part for component, box, tilt in tilted(patches_of(faces, smallest * smallest))
               for part in rows_apart(level_patch(gray, component, neutral, box, tilt)))
    for patch in patches:
        grey = patch.neutral > 0
        across, down = valleys(patch.gray, 1) & grey, valleys(patch.gray, 0) & grey
        usual = median(known) if known else None
        layout = patch_layout(patch.faces, across, down, usual)
        if layout is None or layout.row < max(MIN_TILE, SLIVER * (usual or 0)):
            # A sliver (the lit side of a tile, a tile cut by the photo's edge) is lower than
            # any tile, even one turned sideways: cut into "tiles" its few pixels high, it
            # would pass for many, and sway every median the tidying steps take.
            continue
        tiles = split_patch(patch, across, down, layout)
        if len(tiles) >= 2:
            known.append(layout.column)
        elif len(tiles) == 1 and 0.5 <= (tiles[0][2] - tiles[0][0]) / max(1, tiles[0][3] - tiles[0][1]) <= 1.1:
            known.append(float(tiles[0][2] - tiles[0][0]))
        for tile, photo_box in zip(tiles, to_photo(tiles, patch.back)):
            boxes.append(photo_box)
            # A turned patch's boxes are wider in the photo than the tiles are: the pose is
            # judged by the shape the tile has in its level row.
            shapes[photo_box] = (tile[2] - tile[0]) / max(1, tile[3] - tile[1])
    return split_stacks(join_halves(drop_scraps(boxes))), shapes


def assign_poses(boxes: list[Box], shapes: dict[Box, float] | None = None) -> list[Found]:
    """Upright or sideways, judged against the other tiles: a sideways tile is markedly wider
    for its height than the typical tile of the photo. `shapes`: width for height of boxes
    as they lay level (a box in the photo of a tile askew is wider than the tile)."""
    if not boxes:
        return []
    shapes = shapes or {}
    aspects = np.array([shapes.get(b, (b[2] - b[0]) / max(1, b[3] - b[1])) for b in boxes])
    typical = median(aspects)
    # Seen from above an upright face is about 3:4; a photo full of sideways tiles is rare.
    if typical > 1.15:
        typical = 0.75
    return [Found(tuple(int(v) for v in box), SIDEWAYS if aspect > typical * SIDEWAYS_RATIO else UPRIGHT)
            for box, aspect in zip(boxes, aspects)]


def find_tiles(image: np.ndarray) -> list[Found]:
    """Every tile in the image, face up or face down, in reading order (top to bottom rows,
    left to right)."""
    from .backs import find_backs  # tile backs need the faces' size and rows

    shrink = min(1.0, FIND_SIDE / max(image.shape[:2]))
    small = shrunk(image, shrink) if shrink < 1 else image
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)  # faces and backs both judge colour in Lab
    boxes, shapes = find_faces(small, lab)
    faces = assign_poses(drop_cut_at_edge(boxes, small.shape[:2]), shapes)
    found = [Found(tuple(int(round(v / shrink)) for v in f.box), f.pose) for f in faces + find_backs(small, faces, lab)]
    return sorted(found, key=lambda f: (f.box[1] // max(1, f.height), f.box[0]))
