"""White balance from the tiles themselves: every face is printed on the same white or ivory
paper, so the colour the paper comes out in a photo is the colour of the light, and how bright
it comes out is how much light the camera let in.

Under a warm lamp a camera that keeps the room's warmth (phones do, on purpose) turns the
paper orange, and a blank face (a white dragon) then looks like a tile's yellow back: with the
hk-roboflow held-out photos lit so (blue x0.62, green x0.88, red x1.08) the classifier named 63
white dragons "back", and the photos read exactly fell from 60 to 32 of 78. The crops are
named after the paper's cast is taken out, so the classifier sees paper as it learnt it.

In a dim room the paper comes out grey, and flowers and seasons, whose faces differ by their
inks, were named worse: the held-out photos at 0.45 of their light named 52 of 72 flowers and
seasons right against 61 as taken. Where the paper is that dim, the crops are brightened to the
paper's usual light before they are named.

The same paper tells a dark back from a face: no face is much darker than the others' paper,
and a black back, which the classifier takes for a blank white dragon, is (`dark_faces`).
"""
from __future__ import annotations

import numpy as np

from .detect import FACE_DOWN, Found

# The paper the classifier learnt from, as shares of its mean (blue, green, red): the mean of
# the renderer's face colours (`render.tilesets.FACE_COLOURS`; a test keeps the two in step).
PAPER = np.array([0.978, 1.011, 1.011])
# A face's paper is its bright end (the rest is ink): this percentile of each channel.
PAPER_PERCENTILE = 85
# The light's cast is only taken out where it is stronger than the photos the classifier names
# well as they are: on the held-out hk-roboflow photos the gains' spread reaches 1.18, and a
# photo lit half as warm as above (1.38) is named as well as unlit, so 1.25 leaves every
# ordinary photo untouched.
CAST_SPREAD = 1.25
# ... and at most this much: a light that leaves one channel all but dark (a held-out photo
# under magenta club lights wants green x10) is no lamp's warmth, and raising that channel
# raises its noise. Taken out so far, that photo is named as well as left as it is.
MOST_SPREAD = 3.0
# A photo is dim where its lighter faces' paper (the LIGHTER_FACES percentile of the faces'
# paper's brightness, 0-255) is under DIM_PAPER, and its crops are then brightened until that
# paper reaches PAPER_LIGHT, at most MOST_BRIGHTER times. That paper by photo: held-out
# hk-roboflow photos 102-241 (5% under 199, median 217), camerash 195-237, rendered hands
# 142-255, Blender frames 134-255. Measured on 2026-11-29 with the classifier shipped that
# morning (the held-out photos named right, of 1865): at 0.45 of their light (that paper about
# 100), 1832 brightened against 1823 left dim, flowers and seasons 58 against 52 of 72; at 0.7
# (about 150) 1833 either way, left alone here.
# Rendered hands and cases at 0.45: 1321 against 1315 of 1342; Blender frames 723 against 722 of
# 799. Brightened from 150, one of 40 rendered hands as lit (`render_scene`, 50-pixel faces, seed
# 221, an ivory face under a yellow cast) read worse, so moderately dim photos are left as they
# are; brightened by the median face, a Blender frame with half its faces in shade (their paper
# about 80, the others' 215) read 5 tiles otherwise, one fewer right.
DIM_PAPER = 120.0
PAPER_LIGHT = 230.0
MOST_BRIGHTER = 3.0
LIGHTER_FACES = 75
MIN_FACES = 3   # fewer face-up tiles tell too little of the light
SAMPLE_GRID = (16, 12)   # rows, columns of the grid of a face's pixels its paper is read on
LUMA = np.array([0.114, 0.587, 0.299])   # blue, green, red
# A tile found face up whose paper is darker than this share of the photo's faces' paper (the
# median) is a dark back: a black or grey back with no mark, which the classifier names a white
# dragon (a rendered standing row's concealed kan ends: 0.14). Of the tiles found face up on the
# bench's sources (held-out real photos as stored and from farther away, rendered hands and
# cases, Blender frames), the darkest face was 0.50 (a red five in a Blender frame's shadow);
# under 0.35 were backs (0.14-0.29, and 0.30-0.31 already named so) and a TV remote's buttons.
DARK_BACK = 0.35


def paper_gains(papers: dict[int, np.ndarray]) -> np.ndarray | None:
    """Per-channel factors (blue, green, red) that bring the faces' paper (`face_papers`) to
    PAPER (`cast`), and then, where the photo is dim, to PAPER_LIGHT (`brighter`); None where
    the light needs neither or too few faces show."""
    if len(papers) < MIN_FACES:
        return None
    faces = np.array(list(papers.values()))
    paper = np.median(faces, axis=0)
    if paper.min() < 1:
        return None
    gains = cast(paper)
    by = brighter(faces if gains is None else faces * gains)
    if gains is None and by == 1.0:
        return None
    return (np.ones(3) if gains is None else gains) * by


def cast(paper: np.ndarray) -> np.ndarray | None:
    """Per-channel factors that bring `paper` to PAPER at its own brightness, or None where the
    cast is slight (CAST_SPREAD)."""
    gains = PAPER / (paper / paper.mean())
    if gains.max() / gains.min() < CAST_SPREAD:
        return None
    gains = np.minimum(gains, gains.min() * MOST_SPREAD)
    return gains / float(gains @ LUMA)


def brighter(papers: np.ndarray) -> float:
    """How many times brighter to name a photo's crops in, its faces' paper being `papers`
    (one row each): 1 where the lighter faces' paper (LIGHTER_FACES) is light enough
    (DIM_PAPER), else as much as brings it to PAPER_LIGHT (MOST_BRIGHTER at most). The lighter
    faces decide, not the median: where half the faces stand in shade, the others would be
    brightened to a blank."""
    light = float(np.percentile(papers @ LUMA, LIGHTER_FACES))
    return 1.0 if light >= DIM_PAPER else min(PAPER_LIGHT / max(light, 1.0), MOST_BRIGHTER)


def dark_faces(papers: dict[int, np.ndarray]) -> set[int]:
    """The tiles found face up whose paper (`face_papers`) is darker than DARK_BACK of the
    faces' paper: no face is, so each is a tile's dark back (where at least MIN_FACES faces show)."""
    if len(papers) < MIN_FACES:
        return set()
    luma = {i: float(paper @ LUMA) for i, paper in papers.items()}
    light = float(np.median(list(luma.values())))
    return {i for i, value in luma.items() if value < DARK_BACK * light}


def face_papers(image: np.ndarray, found: list[Found]) -> dict[int, np.ndarray]:
    """Each face-up tile's paper (blue, green, red: the bright end of its face), by its index
    in `found`; faces under 4 pixels across are left out."""
    h, w = image.shape[:2]
    index = [i for i, t in enumerate(found) if t.pose != FACE_DOWN]
    boxes = np.array([found[i].box for i in index], np.float64).reshape(-1, 4)
    boxes = np.clip(boxes, 0, [w, h, w, h])
    wide = (boxes[:, 2] - boxes[:, 0] >= 4) & (boxes[:, 3] - boxes[:, 1] >= 4)
    boxes, index = boxes[wide], [i for i, keep in zip(index, wide) if keep]
    if not index:
        return {}
    # each face read on a grid of its pixels, all faces in one step: pixel by pixel, a photo
    # of a whole set's big faces took milliseconds
    rows = (boxes[:, 1:2] + (boxes[:, 3:4] - 1 - boxes[:, 1:2]) * np.linspace(0, 1, SAMPLE_GRID[0])).astype(int)
    cols = (boxes[:, 0:1] + (boxes[:, 2:3] - 1 - boxes[:, 0:1]) * np.linspace(0, 1, SAMPLE_GRID[1])).astype(int)
    samples = image[rows[:, :, None], cols[:, None, :]].reshape(len(boxes), -1, 3)
    return dict(zip(index, np.percentile(samples, PAPER_PERCENTILE, axis=1)))


def balanced(crop: np.ndarray, gains: np.ndarray | None) -> np.ndarray:
    """The crop with the light's cast taken out (as it is, where `gains` is None)."""
    if gains is None:
        return crop
    return np.clip(crop.astype(np.float32) * gains.astype(np.float32), 0, 255).astype(np.uint8)
