"""Which pixels are tile face: light, nearly colourless, and unlike the table.

Three cases, told apart by the photo's edge: tiles filling the picture (a set laid out in a
grid: the edge is tile face, busy with seams and strokes), tiles on a coloured table (faces
are the light pixels unlike the table's colour), and tiles on a table as light as they are
(colour cannot part them; the tiles are where the picture has detail). A grey grained table
passes for tiles filling the picture (lines cross its edge everywhere) until the faces are
seen to be far lighter than it. Some sets have black faces with light symbols: there the
faces are the dark colourless pixels unlike the table.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .medians import at_least_percentile, median_colour, median_u8
from .seams import valley_depth

# A black face is dark and colourless (Lab lightness and chroma, 0-255 units); its symbols are
# light or coloured, and lie inside it. A set is taken for black-faced when such pixels, unlike
# the table, are at least DARK_SHARE of the light ones, and hold ENCLOSED of the light pixels
# within their outlines (rendered black sets: 1.7-6.8x and 38-100%, a glare on the table
# being light too; white sets on dark or grained tables reached 1.0x, but at most 4% enclosed;
# the labelled real photos at most 0.5x and 20%).
DARK_FACE, DARK_CHROMA, DARK_SHARE, ENCLOSED = 70, 16, 0.8, 0.3
# Lines crossing the photo's edge everywhere are a grained table's, not tiles filling the
# picture, when the lightest LIGHTEST percent of the photo (faces) is LIGHTER_BY lighter (Lab
# L) than the edge (the labelled photos of whole sets: 8-24; rendered grey grained tables: 66).
LIGHTEST, LIGHTER_BY = 95, 40
# A face is at least this much whiter than the mean of its surroundings (rendered hands: a lamp's
# bright patch on a grey table, taken for faces without it; 1 hand in 140 more read right).
AROUND_MARGIN = 8


def colourless(image: np.ndarray, saturation: int) -> np.ndarray:
    """0/1 (uint8): pixels of a BGR uint8 image whose HSV saturation, as OpenCV works it out,
    is below `saturation`. That saturation depends only on a pixel's brightest channel and
    its spread (brightest less dimmest), and grows with the spread: so the pixels are those
    whose spread is below a least spread looked up by brightest channel, which costs half a
    conversion to HSV (checked on all 16.7 million colours in the tests)."""
    blue, green, red = cv2.split(image)
    brightest = cv2.max(cv2.max(blue, green), red)
    spread = cv2.subtract(brightest, cv2.min(cv2.min(blue, green), red))
    return (spread < cv2.LUT(brightest, _least_saturated_spread(saturation))).view(np.uint8)


@lru_cache(maxsize=4)
def _least_saturated_spread(saturation: int) -> np.ndarray:
    """For each brightest-channel value, the least spread whose HSV saturation reaches
    `saturation` (255 where none does: a spread never exceeds its brightest value)."""
    value, spread = np.meshgrid(np.arange(256), np.arange(256), indexing="ij")
    colours = np.zeros((256, 256, 3), np.uint8)
    colours[..., 0] = value
    colours[..., 1] = colours[..., 2] = np.clip(value - spread, 0, 255)
    reaches = (cv2.cvtColor(colours, cv2.COLOR_BGR2HSV)[..., 1] >= saturation) & (spread <= value)
    return np.where(reaches.any(axis=1), reaches.argmax(axis=1), 255).astype(np.uint8)


def whiteness(lab: np.ndarray) -> np.ndarray:
    """Lightness less twice the chroma (|a-128| + |b-128|), at least 0. In OpenCV's saturating
    uint8 arithmetic: subtracting the chroma twice stops at 0 as the clipped difference does,
    and a chroma past 255 leaves 0 either way (no face is that colourful)."""
    light, a, b = cv2.split(np.ascontiguousarray(lab))
    chroma = cv2.add(cv2.absdiff(a, 128), cv2.absdiff(b, 128))
    return cv2.subtract(cv2.subtract(light, chroma), chroma)


def table_colour(lab: np.ndarray) -> np.ndarray:
    """The median colour of the photo's edge: the table's, unless tiles fill the picture."""
    band = max(2, min(lab.shape[:2]) // 25)
    edge = np.concatenate([lab[:band].reshape(-1, 3), lab[-band:].reshape(-1, 3),
                           lab[:, :band].reshape(-1, 3), lab[:, -band:].reshape(-1, 3)])
    return median_colour(edge)


def edge_lines(gray: np.ndarray, band: int) -> list[np.ndarray]:
    """Line depth (the deeper of `valley_depth` down and across) in the photo's four edge
    bands `band` pixels deep: top and bottom as they lie, left and right turned on their side."""
    depth = np.maximum(valley_depth(gray, 0), valley_depth(gray, 1))
    return [depth[:band], depth[-band:], depth[:, :band].T, depth[:, -band:].T]


def smooth_edge_share(gray: np.ndarray, contrast: int, strips: list[np.ndarray] | None = None) -> float:
    """The share of the photo's edge, in pieces a quarter of its short side long, crossed by
    almost no line `contrast` grey levels darker than its sides: bare table, not tiles.
    `strips`: `edge_lines` of `gray`, when the caller has them."""
    height, width = gray.shape
    band, length = max(2, min(height, width) // 25), max(8, min(height, width) // 4)
    pieces = []
    for strip in (edge_lines(gray, band) if strips is None else strips):
        whole = strip.shape[1] // length * length
        crossed = np.count_nonzero(strip[:, :whole] > contrast, axis=0).reshape(-1, length).sum(axis=1)
        pieces.append(crossed / (strip.shape[0] * length))
    shares = np.concatenate(pieces)
    return float(np.mean(shares < 0.01)) if shares.size else 0.0


def tiles_fill_picture(gray: np.ndarray) -> bool:
    """Tiles reach every edge (a set laid out in a grid) rather than lying on a light table.
    Seams and strokes cross the edge everywhere; a table's edge is plain, or crossed only by
    its grain, which is fainter than any stroke (measured on the labelled photos: at most 67%
    of a grid photo's edge is free of strong lines; a light rendered table, 70% and more)."""
    strips = edge_lines(gray, max(2, min(gray.shape) // 25))
    return smooth_edge_share(gray, 6, strips) < 0.45 and smooth_edge_share(gray, 20, strips) < 0.7


def far_from(lab: np.ndarray, colour: np.ndarray, distance: float) -> np.ndarray:
    """Pixels further than `distance` (Lab units) from `colour`; OpenCV's per-channel
    arithmetic is many times faster here than numpy's norm over the colour axis."""
    diff = cv2.subtract(lab.astype(np.float32), tuple(float(v) for v in colour) + (0.0,))
    return cv2.transform(cv2.multiply(diff, diff), np.ones((1, 3), np.float32)) > distance * distance


@dataclass(frozen=True)
class FaceMask:
    mask: np.ndarray      # 0/1: tile face
    dark: bool = False    # the faces are black (a dark-faced set): seams show little contrast
    filled: bool = False  # taken for tiles filling the picture (the edge is faces and seams)


def face_mask(image: np.ndarray, gray: np.ndarray | None = None, lab: np.ndarray | None = None) -> FaceMask:
    """Pixels that look like a tile face: bright and nearly colourless relative to the photo,
    and (where a table shows) clearly not the table's colour; or, for a black-faced set,
    dark and colourless and not the table. `gray` and `lab` may be given when the caller has
    them already."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB) if lab is None else lab
    white = whiteness(lab)
    level, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Ivory faces under warm light score well below paper white; never demand more than that.
    level = max(min(level, 170.0), 90)
    mask = white > level
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if gray is None else gray
    table = table_colour(lab)
    # An edge as light as a face is either tiles filling the picture or a light table.
    if whiteness(table.reshape(1, 1, 3).astype(np.uint8))[0, 0] > level:
        if tiles_fill_picture(gray):
            if not clearly_lighter(lab, white, table):
                return FaceMask(mask.astype(np.uint8), filled=True)
            # Lines cross the edge everywhere, but they are a grained table's: the faces are
            # far lighter than the edge, and colour parts them from it after all.
        else:
            return FaceMask(busy_mask(gray))   # a light table: tiles are where the detail is
    unlike_table = far_from(lab, table, 22)
    light = mask & unlike_table & lighter_than_around(white)
    dark = dark_faces(lab, unlike_table, light)
    if dark is not None:
        # The light symbols on a black face belong to it too.
        return FaceMask((dark | light).astype(np.uint8), dark=True)
    return FaceMask(light.astype(np.uint8))


def lighter_than_around(white: np.ndarray) -> np.ndarray:
    """Pixels whiter than their surroundings (a window half the picture's short side) by
    AROUND_MARGIN: a face is whiter than the table beside it, where a patch of grey table under
    a lamp is no whiter than the table around it, though far from the table's usual colour."""
    size = max(31, (min(white.shape) // 2) | 1)
    around = cv2.blur(white, (size, size))
    return white.astype(np.int16) > around.astype(np.int16) + AROUND_MARGIN


def clearly_lighter(lab: np.ndarray, white: np.ndarray, table: np.ndarray) -> bool:
    """The lightest things in the photo (the faces) are far lighter than its edge: not tiles
    filling the picture (their edge is faces and seams) but a table, grey and grained."""
    brightest = at_least_percentile(white, LIGHTEST)
    face_lightness = median_u8(lab[..., 0][brightest])
    return bool(face_lightness - table[0] > LIGHTER_BY)


def dark_faces(lab: np.ndarray, unlike_table: np.ndarray, light: np.ndarray) -> np.ndarray | None:
    """Dark colourless pixels unlike the table, when they are the faces of a black-faced set
    (many of them, with the light pixels inside their outlines); otherwise None."""
    dark = lab[..., 0] < DARK_FACE
    light_count = np.count_nonzero(light)
    if np.count_nonzero(dark) < DARK_SHARE * light_count:
        return None
    chroma = cv2.absdiff(lab[..., 1], 128).astype(np.int16) + cv2.absdiff(lab[..., 2], 128)
    dark &= (chroma < DARK_CHROMA) & unlike_table
    if np.count_nonzero(dark) < DARK_SHARE * max(1, light_count):
        return None
    outlines = fill_holes(cv2.morphologyEx(dark.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((4, 4), np.uint8))) > 0
    if np.count_nonzero(light & outlines) < ENCLOSED * light_count:
        return None
    return dark


def busy_mask(gray: np.ndarray) -> np.ndarray:
    """On a table as light as the tiles, colour cannot part them: the tiles are where the
    picture has detail (outlines, strokes), the table is smooth. Edges are joined up into
    solid patches a tile's size at least."""
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 30, 90)
    size = max(3, min(gray.shape) // 60)
    joined = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * size + 1, 2 * size + 1)))
    joined = fill_holes((joined > 0).astype(np.uint8))
    return cv2.morphologyEx(joined, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))


def fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


