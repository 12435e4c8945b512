"""Photo -> tiles -> hand: the camera pipeline in one call.

Data flows one way: the photo is checked and decoded (`image_io`), tiles are found
(`detect`, a learned detector), named (`classify`), grouped into the hand as players lay it (`hand`) and repaired
with what a hand must be (`repair`). Scoring the hand is the caller's step (`webui` wires
the scorer in), so this package stays images in, tiles and a proposed hand out.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from .detect import FACE_DOWN, SIDEWAYS, UPRIGHT, Found, find_tiles
from .hand import CONCEALED, MELD, WIN, Arrangement, Detection, arrange, face_down, overlap_x
from .hand_request import DEFAULT_RULES, is_bonus, takes_flowers
from .image_io import Photo, PhotoError, decode_photo, load_photo
from .labels import BACK, NONE, tile_of
from .level import LEVEL_FROM, hand_tilt, level
from .repair import MAX_TRIES, Repaired, one_of_each_bonus, repair
from .white_balance import balanced, dark_faces, face_papers, paper_gains

MIN_TILES = 14  # a winning hand, all called melds included
MAX_TILES = 40  # a hand with four kans, dora indicators and flowers stays well below this
# A tile named less surely than this is doubtful, whatever the repair step made of it: the
# player is shown it outlined, to check with a glance.
DOUBTFUL_BELOW = 0.9
# Tiles are named in one batch of small crops: too little work to share between threads, and
# on a busy machine waiting for the second thread costs more than it saves (measured on 2
# shared cores, 40 rendered hands: naming 34 ms with the model's two threads, 20 ms with one).
PIPELINE_THREADS = 1
# ... except the naming of a whole batch, which splits into parts run side by side (see
# TileClassifier._logits): 9 labelled photos, 20-45 tiles each, named in a median 38 ms in
# one part and 19 ms in two on this 2-core machine.
NAMING_PARTS = 2
# A tile taken for sideways is upright after all when named this surely as it lies, and this
# much surer than turned: a tile only set askew looks as wide as a turned one. The same holds
# the other way: a face found upright but wider than tall is named turned too, and is sideways
# when named so this surely (the finder's pose is learnt from rendered tiles alone, and on real
# photos of lying sideways tiles it is the less sure).
OTHER_POSE_SURE, OTHER_POSE_MARGIN = 0.7, 0.2
# A tile the detector took for a back is face up when the classifier names it a face this
# surely, and a tile found as a face is face down when named "back" this surely.
FACE_UP_SURE = 0.75
BACK_SURE = 0.84
# A tile found face up and named "none" (no tile: a die, `render.dice`) this surely as found,
# and no tile OTHER_POSE_SURE surely in its other pose, is no tile and is left out. Named "none"
# less surely, it is a tile, its names without that share (so the less sure). Measured with the
# classifier that first named "none" (2026-11-29), its surest crop as found: of the 17459 labelled
# tiles found face up on the bench's sources (held-out photos as taken, from farther away and
# under each light, blur and shake the bench adds; camerash; rendered hands from every seat and
# cases; Blender frames), none reached 0.65 (the surest 0.61, a 1m of a held-out photo seen
# otherwise; two over 0.5); of 53 things found beside rendered hands with two dice each, 48
# reached 0.7 (44 0.8, 34 0.9).
NOT_A_TILE_SURE = 0.7
# Share of the face's width and height added on every side before it is named: the model
# learnt crops cut 4% inside to 10% outside a face's edges.
CROP_MARGIN = 0.03
# Where the player names no rules, a photo is read with riichi rules unless one tile's names give
# a flower or season at least FLOWER_SURE together, or two tiles' at least FLOWERS_SEEN each:
# then the table plays them, and the photo is read with classical Chinese rules. Measured with
# the shipped models on 260 riichi photos (rendered seeds 6 and 1000, their cases, Blender
# frames): one tile reached 0.71 (a washed-out Blender face), the rest at most 0.38, and no
# photo's second surest 0.17; of the 35 held-out Chinese photos that show flowers or seasons,
# 34 pass (the last shows one flower, named so 0.6 surely).
FLOWER_SURE, FLOWERS_SEEN = 0.8, 0.4
FLOWER_RULES = "chinese-classical"
# Which way up the hand lies. A winner lays the hand facing their own seat, but the photo may be
# taken from another: from across the table the hand is upside down (its winning tile and melds
# at the left); from beside it, or by a camera that kept no note of which way was up, the hand
# lies across the photo, at least TURNED_SHARE of its faces named sideways (150 rendered hands
# and cases seen from their seat: at most 31% of a photo's faces; turned a quarter, at least
# 59%; held-out real photos turned a quarter, 63 of 78). Such a photo is turned a quarter, the
# way its tiles read more like a laid hand, and its tiles found again (the finder found 96.1% of
# the tiles of rendered hands turned a quarter, 99.8% upright). The classifier names a tile
# about as surely upside down, so how the tiles lie decides which way is up: a hand that does not
# read as a hand laid as players lay it (a whole hand, the winning tile set apart, no meld or
# winning tile left of the concealed part) is read upside down on its boxes, and where that
# reads nearer such a hand, the photo is turned over and its tiles found again; on a tie it
# stays as it is. Counting doubts instead turned 4 upright held-out photos upside down.
TURNED_SHARE = 0.5
QUARTERS = (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE)
UNTURN = {cv2.ROTATE_90_CLOCKWISE: cv2.ROTATE_90_COUNTERCLOCKWISE,
          cv2.ROTATE_90_COUNTERCLOCKWISE: cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180: cv2.ROTATE_180}
THEN_UPSIDE_DOWN = {None: cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE: cv2.ROTATE_90_COUNTERCLOCKWISE,
                    cv2.ROTATE_90_COUNTERCLOCKWISE: cv2.ROTATE_90_CLOCKWISE}   # a turn, and then upside down
# A standing tile seen from above shows its top, a blank strip over its face, and the finder
# may take that for a white dragon (a blank face). A tile named so is a standing tile's top
# where it sits on another tile's top edge (its foot within TOP_FOOT of that tile's height
# below the edge, and as far above it as half its own height), over at least TOP_OVER of the
# narrower one's width, at most TOP_HEIGHT as tall as it. Seen on two real standing rows from above
# (hk-roboflow, one held out, one trained on): 9 tops named white dragons. Of the 1257 other
# tiles named so in 1516 photos (`bench.vision`'s sources, the hk-roboflow training and tuning
# groups, rendered hands and cases of three more seeds; standing rows of white dragons among
# them), none is taken for a top, and no other reading changes. The name decides it: 8 real
# tiles of other names lie so (6 of them in hk-roboflow tuning photos, a row beyond another seen
# at an angle), so a white dragon lying just so beyond a row would be dropped too.
TOP_OVER, TOP_HEIGHT, TOP_FOOT = 0.6, 0.6, 0.5
WHITE_DRAGON = "5z"
REFUSED = (True, True, True)   # how unlike a laid hand tiles too many or too few for one are: the most
TURNED_SAID = {cv2.ROTATE_180: "the hand lies upside down in the photo, as seen from across the table: "
                               "it was read the right way up",
               cv2.ROTATE_90_CLOCKWISE: "the hand lies across the photo: it was read turned a quarter clockwise",
               cv2.ROTATE_90_COUNTERCLOCKWISE: "the hand lies across the photo: it was read turned a quarter "
                                               "counter-clockwise"}
LEVELLED_SAID = "the hand lies askew in the photo, its rows {:.0f} degrees off level: it was read levelled"


def pipeline_classifier(path: Path | None = None):
    """The tile model as the pipeline runs it, the shipped one unless `path` (raises
    ModelMissing when it cannot be loaded)."""
    from .classify import TileClassifier
    return TileClassifier(path, threads=PIPELINE_THREADS, parts=NAMING_PARTS)


def use_pipeline_threads() -> None:
    """Set OpenCV's thread count (process-wide) for reading photos; callers that own the
    process (the CLI, the bench) call this once."""
    cv2.setNumThreads(PIPELINE_THREADS)


class ScanError(PhotoError):
    """The photo was read but holds no hand Tenbou can use; `found` keeps the tiles seen
    (in the working image's pixels) so they can still be shown, and `named`, when there were
    too few for a hand, those tiles named: a photo of the dora indicators alone, or a hand with
    a tile the finder missed, which the player completes rather than enters again."""

    def __init__(self, code: str, message: str, found: list[Found] | None = None, named: Scan | None = None):
        super().__init__(code, message)
        self.found = found or []
        self.named = named


@dataclass
class Scan:
    """What the camera saw: tiles (in the photo's own pixels) and the hand request."""
    detections: list[Detection]
    boxes: list[tuple[int, int, int, int]]          # whole tiles, in the pixels of the original photo
    arrangement: Arrangement
    repaired: Repaired | None
    doubts: list[str] = field(default_factory=list)
    situation: dict | None = None                   # the rules read for: which names they play
    rules_guessed: bool = False                     # the player named none: they are `rules_seen`'s

    @property
    def hand(self) -> dict | None:
        return self.repaired.reading.request if self.repaired else None

    @property
    def labels(self) -> list[str]:
        return self.repaired.labels if self.repaired else [d.label for d in self.detections]

    def doubtful(self) -> set[int]:
        """The tiles a player should check, the ones the doubts name: renamed or doubted by the
        repair step (which trusts the names of a whole hand more), or where no hand was read,
        named less than DOUBTFUL_BELOW surely."""
        repaired = self.repaired
        if repaired is not None:
            return set(repaired.doubtful) | set(repaired.changed)
        return {i for i, d in enumerate(self.detections)
                if d.pose != FACE_DOWN and _probability(d, self.labels[i]) < DOUBTFUL_BELOW}

    def _next_guesses(self, detection: Detection, label: str) -> list[tuple[str, float]]:
        """A tile's runner-up names, surest first: only names its rules play (no flower or
        season in riichi or Fundamentals) and, for a tile seen face up, never a back."""
        with_flowers = takes_flowers(self.situation)
        return [(n, p) for n, p in detection.candidates[:6]
                if n != label and (with_flowers or not is_bonus(n)) and (n != BACK or detection.pose == FACE_DOWN)][:3]

    def to_json(self) -> dict:
        tiles = []
        changed = self.repaired.changed if self.repaired else {}
        doubtful = self.doubtful()
        for i, (detection, box) in enumerate(zip(self.detections, self.boxes)):
            label = self.labels[i]
            tile = {"tile": _name(label)[0], "red": _name(label)[1], "box": list(box), "pose": detection.pose,
                    "confidence": round(_probability(detection, label), 4),
                    "alternatives": [{"tile": _name(n)[0], "red": _name(n)[1], "confidence": round(p, 4)}
                                     for n, p in self._next_guesses(detection, label)],
                    "doubtful": i in doubtful}
            if i in changed:  # renamed by the repair step: what it looked like at first
                tile["first_read"] = {"tile": _name(changed[i][0])[0], "red": _name(changed[i][0])[1]}
            tiles.append(tile)
        return {"tiles": tiles, "hand": self.hand, "doubts": self.doubts}

    @property
    def scorable(self) -> bool:
        """The hand has the right tiles for its melds, so the scorer can judge it."""
        return self.hand is not None and not self.repaired.reading.structural


def _name(label: str) -> tuple[str | None, bool]:
    """`0p` -> ("5p", True); a back has no name."""
    return (None, False) if label == BACK else tile_of(label)


def _probability(detection: Detection, label: str) -> float:
    if detection.pose == FACE_DOWN:
        return 1.0
    return next((p for n, p in detection.candidates if n == label), 0.0)


def crop_tile(image: np.ndarray, found: Found) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The tile's face with a margin (CROP_MARGIN), turned upright as the finder's pose has it,
    and as the other pose would have it where the tile may lie so. A sideways tile may have been
    turned either way, so it comes turned both ways, and in the other pose as it lies: a tile
    only set askew looks as wide as a turned one, and is then named surest unturned. A face found
    upright but wider than tall comes as it lies, and in the other pose turned both ways."""
    x1, y1, x2, y2 = found.box
    dx, dy = CROP_MARGIN * (x2 - x1), CROP_MARGIN * (y2 - y1)
    x1, x2 = max(0, round(x1 - dx)), max(0, round(x2 + dx))
    y1, y2 = max(0, round(y1 - dy)), max(0, round(y2 + dy))
    crop = image[y1:y2, x1:x2]
    turns = [cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE), cv2.rotate(crop, cv2.ROTATE_90_COUNTERCLOCKWISE)]
    if found.pose == SIDEWAYS:
        return turns, [crop]
    if found.pose == UPRIGHT and x2 - x1 > y2 - y1:
        return [crop], turns
    return [crop], []


def name_tiles(image: np.ndarray, found: list[Found], classifier) -> list[Detection]:
    """Detections with the classifier's names (best first), each pose settled by them (see
    `_settled`). The crops are named with the light's cast taken out (`white_balance`). A tile's
    crops in the other pose (`crop_tile`) are named only where they could settle it: it keeps
    the finder's pose unless named OTHER_POSE_MARGIN surer so, which no name of a tile named
    surer than 1 - OTHER_POSE_MARGIN as found can be, unless that name is "none": a tile's
    crop in the wrong pose is no face. From the seat beside, most of a hand's tiles lie
    sideways, and their crops as they lie were a third of its naming."""
    papers = face_papers(image, found)   # read once: the light's cast, and which faces are dark backs
    gains = paper_gains(papers)
    cut = [crop_tile(image, tile) for tile in found]
    named = _surest(classifier, [(i, crop) for i, (crops, _) in enumerate(cut) for crop in crops], gains)
    unsure = [(i, crop) for i, (_, crops) in enumerate(cut)
              if i not in named or named[i][0][1] + OTHER_POSE_MARGIN <= 1.0 or named[i][0][0] == NONE
              for crop in crops]
    other = {i: _tiles_only(ranking) for i, ranking in _surest(classifier, unsure, gains).items()}
    dark = dark_faces(papers)
    return [_settled(tile, named.get(i), other.get(i), i in dark) for i, tile in enumerate(found)]


def _surest(classifier, crops: list[tuple[int, np.ndarray]], gains: np.ndarray | None
            ) -> dict[int, list[tuple[str, float]]]:
    """Each tile's surest reading of its crops, `crops` being (tile's index, crop) pairs; crops
    under 2 pixels either way are not read."""
    usable = [(i, balanced(crop, gains)) for i, crop in crops if crop.shape[0] >= 2 and crop.shape[1] >= 2]
    surest: dict[int, list[tuple[str, float]]] = {}
    if not usable:
        return surest
    for (i, _), ranking in zip(usable, classifier.classify([crop for _, crop in usable])):
        if i not in surest or ranking[0][1] > surest[i][0][1]:
            surest[i] = ranking
    return surest


def _tiles_only(ranking: list[tuple[str, float]] | None) -> list[tuple[str, float]] | None:
    """A ranking without "none": the names a tile can have."""
    return None if ranking is None else [(name, p) for name, p in ranking if name != NONE]


def _settled(tile: Found, ranking: list[tuple[str, float]] | None,
             other: list[tuple[str, float]] | None, dark: bool = False) -> Detection:
    """A tile's pose and names, the classifier's word weighed against the finder's: a tile
    found face down and surely named a face is face up; a tile taken for sideways and named
    surest as it lies is upright, and one taken for upright but named surest turned is
    sideways; a tile found as a face but surely named "back", or darker than any face
    (`dark`, see `white_balance.dark_faces`), is face down; a thing found as a face and surely
    named "none" (NOT_A_TILE_SURE) is no tile, its one name "none" (`named_view` leaves it out).
    `other` has no "none" in it."""
    outline = tile.outline
    if dark:
        return Detection(tile.box, FACE_DOWN, (), outline)
    if (tile.pose != FACE_DOWN and ranking and ranking[0][0] == NONE and ranking[0][1] >= NOT_A_TILE_SURE
            and not (other and other[0][1] >= OTHER_POSE_SURE)):
        return Detection(tile.box, tile.pose, (ranking[0],), outline)
    ranking = _tiles_only(ranking)
    if tile.pose == FACE_DOWN:
        if ranking and ranking[0][0] != BACK and ranking[0][1] >= FACE_UP_SURE:
            return Detection(tile.box, UPRIGHT, tuple(ranking), outline)
        return Detection(tile.box, FACE_DOWN, (), outline)
    pose = tile.pose
    best = ranking[0][1] if ranking else 0.0
    if other and other[0][1] >= max(OTHER_POSE_SURE, best + OTHER_POSE_MARGIN):
        ranking, pose = other, UPRIGHT if pose == SIDEWAYS else SIDEWAYS
    if ranking and ranking[0][0] == BACK and ranking[0][1] >= BACK_SURE:
        return Detection(tile.box, FACE_DOWN, (), outline)
    return Detection(tile.box, pose, tuple(ranking or ()), outline)


def scan_photo(photo: Photo, classifier=None, situation: dict | None = None) -> Scan:
    """Read a decoded photo. Raises ScanError when there is no hand to read."""
    found = reading_order(find_tiles(photo.image))
    if not found:
        raise ScanError("no_tiles", "no tiles found in the photo: put the whole hand in view, face up, in good light")
    return read_found(photo, found, classifier or pipeline_classifier(), situation)


def read_found(photo: Photo, found: list[Found], classifier, situation: dict | None = None,
               finder=None) -> Scan:
    """The tiles found in a photo named and read as a hand, however it lies: a hand lying
    askew (`level.hand_tilt`) is found again in the photo turned level (the finder, `finder` or the
    shipped one, knows tiles best upright), and then read whichever way up it lies
    (`_read_any_way_up`). Raises ScanError when the tiles are too many or too few for a hand."""
    tilt = hand_tilt([f.box for f in found])
    if abs(tilt) >= LEVEL_FROM:
        levelled = level(photo.image, tilt, [f.outline for f in found])
        again = reading_order(find_tiles(levelled.image, finder))
        if again:
            back = partial(levelled.box_back, shape=photo.image.shape)
            try:
                scan = _read_any_way_up(replace(photo, image=levelled.image), again, classifier, situation, finder)
            except ScanError as error:
                raise _moved_back(error, photo, back) from None
            scan = _moved_back(scan, photo, back)
            return replace(scan, doubts=scan.doubts + [LEVELLED_SAID.format(abs(tilt))])
    return _read_any_way_up(photo, found, classifier, situation, finder)


def _read_any_way_up(photo: Photo, found: list[Found], classifier, situation: dict | None = None,
                     finder=None) -> Scan:
    """The tiles found in a photo named and read as a hand, whichever way up it lies: a hand
    lying across the photo (`lies_across`) is found again in the photo turned a quarter (the
    finder knows tiles best the right way up), and a hand that reads nearer a laid one upside
    down (`_unlike_a_laid_hand`) is found again upside down."""
    turn, view = None, named_view(photo, found, classifier)
    if _no_hand(len(view[1])) is None and lies_across(view[2]):
        quarter = min(QUARTERS, key=lambda way: _unlike_turned(view, way, situation))
        across = _view(photo, quarter, classifier, finder)
        if across is not None and not lies_across(across[2]):
            turn, view = quarter, across
    scan = _read_or_refused(view, situation)
    unlike = _unlike_a_laid_hand(scan)
    if any(unlike) and _worth_reading_upside_down(view, unlike, situation):
        again = _view(photo, THEN_UPSIDE_DOWN[turn], classifier, finder)
        # judged unsearched (see `_unlike_a_laid_hand`), searched once taken
        read = again and _read_or_refused(again, situation, tries=0)
        if isinstance(read, Scan) and _reads_better(_unlike_a_laid_hand(read), unlike):
            turn, view, scan = THEN_UPSIDE_DOWN[turn], again, _read_or_refused(again, situation)
    if turn is not None:
        shape = view[0].image.shape
        scan = _moved_back(scan, photo, lambda box: turned_box(box, shape, UNTURN[turn]))
    if isinstance(scan, ScanError):
        raise scan
    return scan if turn is None else replace(scan, doubts=scan.doubts + [TURNED_SAID[turn]])


def _unlike_turned(view: tuple[Photo, list[Found], list[Detection]], turn: int, situation: dict | None
                   ) -> tuple[bool, bool, bool]:
    """How unlike a laid hand a view's tiles read where they lie, turned by `turn`: judged on
    their boxes and names alone, before the photo is turned and they are found again."""
    shape = view[0].image.shape
    quarter = turn != cv2.ROTATE_180
    turned = [replace(d, box=turned_box(d.box, shape, turn),
                      pose={UPRIGHT: SIDEWAYS, SIDEWAYS: UPRIGHT}.get(d.pose, d.pose) if quarter else d.pose)
              for d in view[2]]
    return _unlike_a_laid_hand(_read_or_refused((view[0], view[1], turned), situation, tries=0))


def _turned(photo: Photo, turn: int) -> Photo:
    """The photo turned by `turn` (an OpenCV rotation)."""
    if turn == cv2.ROTATE_180:
        return replace(photo, image=cv2.rotate(photo.image, turn))
    return replace(photo, image=cv2.rotate(photo.image, turn), width=photo.height, height=photo.width)


def _view(photo: Photo, turn: int, classifier, finder) -> tuple[Photo, list[Found], list[Detection]] | None:
    """The photo turned by `turn`, its tiles found again and named; None where they are too
    many or too few for a hand."""
    turned = _turned(photo, turn)
    found = reading_order(find_tiles(turned.image, finder))
    if _no_hand(len(found)) is not None:
        return None
    return named_view(turned, found, classifier)


def named_view(photo: Photo, found: list[Found], classifier) -> tuple[Photo, list[Found], list[Detection]]:
    """A photo's tiles named (`name_tiles`), less the tops of standing tiles (`standing_tops`)
    and the things named no tile (`_settled`)."""
    detections = name_tiles(photo.image, found, classifier)
    gone = standing_tops(detections) | {i for i, d in enumerate(detections) if d.label == NONE}
    if not gone:
        return photo, found, detections
    return (photo, [f for i, f in enumerate(found) if i not in gone],
            [d for i, d in enumerate(detections) if i not in gone])


def standing_tops(detections: list[Detection]) -> set[int]:
    """The tiles named white dragons that are the tops of standing tiles below them (`TOP_OVER`)."""
    tops = set()
    for i, top in enumerate(detections):
        if top.pose == FACE_DOWN or top.label != WHITE_DRAGON:
            continue
        outline = top.outline or top.box
        y1, y2 = outline[1], outline[3]
        for j, below in enumerate(detections):
            under = below.outline or below.box
            by1, by2 = under[1], under[3]
            if (j != i and overlap_x(outline, under) >= TOP_OVER and y2 - y1 <= TOP_HEIGHT * (by2 - by1)
                    and y1 < by1 and by1 - (y2 - y1) / 2 <= y2 < by1 + TOP_FOOT * (by2 - by1)):
                tops.add(i)
                break
    return tops


def _unlike_a_laid_hand(reading: Scan | ScanError) -> tuple[bool, bool, bool]:
    """How far a reading is from a hand laid as players lay it, the tiles where it put them:
    tiles too many or too few for a hand (`REFUSED`, the farthest); no whole hand; then no
    winning tile set apart; then a meld or the winning tile left of the concealed part. The last
    two are judged on how the tiles lie even where they make no whole hand: upside down the
    finder may take a called tile for an upright one, and the layout still shows which way is up.
    None of this hangs on the names the repair step searches for: it renames tiles only where
    their count makes a hand (`Reading.structural` is the first names' still), and the groups are
    laid out before it. So a reading made only to judge this skips the search (`tries=0`),
    the most of its time."""
    if isinstance(reading, ScanError):
        return REFUSED
    groups, detections = reading.arrangement, reading.detections
    left = min((detections[i].box[0] for g in groups.of(CONCEALED) for i in g.members), default=0)
    before = any(max(detections[i].box[2] for i in g.members) <= left for g in groups.of(MELD) + groups.of(WIN))
    return not reading.scorable, not groups.of(WIN), before


def _read_or_refused(view: tuple[Photo, list[Found], list[Detection]], situation: dict | None,
                     tries: int = MAX_TRIES) -> Scan | ScanError:
    """`read_tiles` of a view, or the ScanError it raises (tiles too many or too few for a hand)."""
    try:
        return read_tiles(*view, situation, tries)
    except ScanError as error:
        return error


def _worth_reading_upside_down(view: tuple[Photo, list[Found], list[Detection]], unlike: tuple[bool, bool, bool],
                               situation: dict | None) -> bool:
    """Whether to find a view's tiles again upside down, a look's time: where they read a whole
    hand with its winning tile or a meld left of its concealed tiles, or one tile short of a
    hand (the finder may miss a tile upside down); else where their boxes, read upside down,
    come nearer a laid hand. A whole hand with no winning tile set apart is common the right
    way up, and a photo of no hand at all mostly reads alike either way up: both are spared the
    second look unless their boxes say otherwise; tiles too few or too many for a hand (but one
    short) stay so turned over, and are spared both."""
    if (not unlike[0] and unlike[2]) or len(view[1]) == MIN_TILES - 1:
        return True
    return _no_hand(len(view[1])) is None and _unlike_turned(view, cv2.ROTATE_180, situation) < unlike


def _reads_better(turned: tuple[bool, bool, bool], unlike: tuple[bool, bool, bool]) -> bool:
    """Whether a reading found again upside down (`turned`, as `_unlike_a_laid_hand` says) is
    the one to take: nearer a laid hand, and where the photo as it lies read no whole hand, a
    laid hand entirely (one that reads only partly either way is no surer of the way up)."""
    return turned < unlike and not (unlike[0] and any(turned))


def lies_across(tiles: list[Found] | list[Detection]) -> bool:
    """Whether the hand lies across the photo, turned a quarter (`TURNED_SHARE`)."""
    faces = [t for t in tiles if t.pose != FACE_DOWN]
    return bool(faces) and sum(t.pose == SIDEWAYS for t in faces) >= TURNED_SHARE * len(faces)


def _moved_back(scan: Scan | ScanError, photo: Photo, back) -> Scan | ScanError:
    """A scan read in a turned view of `photo`, its tiles' boxes moved by `back` (a box of the
    view to one of the photo's working image) into the photo's; for a ScanError, the tiles it
    found and named."""
    if isinstance(scan, ScanError):
        found = [replace(f, box=back(f.box), whole=f.whole and back(f.whole)) for f in scan.found]
        return ScanError(scan.code, scan.message, found, scan.named and _moved_back(scan.named, photo, back))
    moved = [replace(d, box=back(d.box), outline=d.outline and back(d.outline)) for d in scan.detections]
    return replace(scan, detections=moved, boxes=_boxes(moved, photo))


def turned_box(box: tuple[int, int, int, int], shape: tuple[int, ...], turn: int) -> tuple[int, int, int, int]:
    """A box in an image of `shape` (height, width, ...), where it lies once the image is
    turned by `turn` (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE or cv2.ROTATE_180)."""
    height, width = shape[:2]
    x1, y1, x2, y2 = box
    if turn == cv2.ROTATE_90_CLOCKWISE:
        return (height - y2, x1, height - y1, x2)
    if turn == cv2.ROTATE_180:
        return (width - x2, height - y2, width - x1, height - y1)
    return (y1, width - x2, y2, width - x1)


def read_tiles(photo: Photo, found: list[Found], detections: list[Detection], situation: dict | None = None,
               tries: int = MAX_TRIES) -> Scan:
    """The hand the named tiles of a photo show, read with the situation's rules, or where it
    names none, the rules the tiles suggest (`rules_seen`); `tries`: the repair step's search.
    Raises ScanError, with the tiles named, when they are too many or too few for a hand."""
    guessed = situation is None or "rules" not in situation
    if guessed:
        situation = {**(situation or {}), "rules": rules_seen(detections)}
    dealt = []
    if takes_flowers(situation):
        detections, dealt = one_of_each_bonus(detections)
    refused = _no_hand(len(found))
    if refused:
        code, message = refused
        named = _played(detections, situation)
        raise ScanError(code, message, found, Scan(named, _boxes(named, photo), Arrangement(), None,
                                                   [message] + dealt, situation, guessed))
    detections, arrangement, repaired = read_hand(detections, situation, tries)
    return Scan(detections, _boxes(detections, photo), arrangement, repaired, dealt + repaired.doubts, situation,
                guessed)


def _no_hand(count: int) -> tuple[str, str] | None:
    """Why `count` tiles are too many or too few for a hand (code, message), or None."""
    if count > MAX_TILES:
        return "too_many_tiles", (f"{count} tiles in view; a hand has at most 18 plus dora indicators: "
                                  "photograph just the one hand")
    if count < MIN_TILES:
        return "too_few_tiles", (f"only {count} tiles found; a winning hand has at least {MIN_TILES}: "
                                 "put the whole hand in view, melds and winning tile included")
    return None


def rules_seen(detections: list[Detection]) -> str:
    """Classical Chinese rules where the tiles surely show a flower or season (riichi and
    Fundamentals play none, and the repair step would rename it as a suit tile), else riichi."""
    shares = sorted((sum(p for n, p in d.candidates if is_bonus(n)) for d in detections if d.pose != FACE_DOWN),
                    reverse=True) + [0.0, 0.0]
    return FLOWER_RULES if shares[0] >= FLOWER_SURE or shares[1] >= FLOWERS_SEEN else DEFAULT_RULES


def read_hand(detections: list[Detection], situation: dict | None = None, tries: int = MAX_TRIES
              ) -> tuple[list[Detection], Arrangement, Repaired]:
    """The hand the named tiles lie in: arranged, the tiles it read as a concealed kan's ends
    turned face down, then named whole (`repair`, searching `tries` readings at most)."""
    arrangement = arrange(detections)
    detections = face_down(detections, arrangement)
    return detections, arrangement, repair(arrangement, detections, situation, tries)


def _played(detections: list[Detection], situation: dict | None) -> list[Detection]:
    """Each tile with only the names its rules play, best first: no flower or season where the
    rules have none (riichi, Fundamentals). For tiles too few for a hand: in a hand the repair
    step renames such tiles, but it never sees these."""
    if takes_flowers(situation):
        return detections
    return [replace(d, candidates=tuple(c for c in d.candidates if not is_bonus(c[0]))) for d in detections]


def _boxes(detections: list[Detection], photo: Photo) -> list[tuple[int, int, int, int]]:
    """The whole tiles' boxes in the pixels of the original photo."""
    return [tuple(int(round(v / photo.scale)) for v in (d.outline or d.box)) for d in detections]


def reading_order(found: list[Found]) -> list[Found]:
    """Tiles top to bottom by rows, left to right within a row, as a person reads the photo:
    the detector gives them surest first, and the JSON's tile numbers should not follow that."""
    if not found:
        return found
    height = float(np.median([f.height for f in found]))
    rows: list[list[Found]] = []
    for tile in sorted(found, key=lambda f: (f.box[1] + f.box[3]) / 2):
        centre = (tile.box[1] + tile.box[3]) / 2
        if rows and abs(centre - np.mean([(t.box[1] + t.box[3]) / 2 for t in rows[-1]])) < height / 2:
            rows[-1].append(tile)
        else:
            rows.append([tile])
    return [t for row in rows for t in sorted(row, key=lambda f: f.box[0])]


def scan_file(path: str | Path, classifier=None, situation: dict | None = None) -> Scan:
    return scan_photo(load_photo(path), classifier, situation)


def scan_bytes(data: bytes, classifier=None, situation: dict | None = None) -> Scan:
    return scan_photo(decode_photo(data), classifier, situation)
