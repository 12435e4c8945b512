"""Reading the hand from where the tiles lie: pure code, no pixels.

Players lay a finished hand in a row: the concealed tiles, the winning tile set a little
apart at the end, then the called melds, each with one tile turned sideways toward the
player it was called from (left tile: the player on the left; middle: across; right: the
player on the right). A concealed kan shows its two end tiles face down. Dora indicators,
when in the photo, lie apart in a row of their own.

`arrange` reads that geometry from boxes and poses only; `build_request` then names the
tiles of each group and writes a hand request (see the hand JSON spec).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .detect import FACE_DOWN, SIDEWAYS, UPRIGHT
from .labels import BACK

CONCEALED, WIN, MELD, DORA = "concealed", "win", "meld", "dora"
# A row apart from the hand holds dora indicators in riichi (at most five) or the flowers and
# seasons in classical Chinese (at most eight, a set's four of each): more are no such row. The
# rules decide later which they are (`hand_request._apart`).
MAX_APART = 8
# A tile apart from the hand named less surely than this is not read (as a dora indicator or a flower):
# on rendered webcam frames (development seeds), what the finder took for tiles among the books
# on a shelf was named at 0.10-0.36; the least sure real indicator seen, at 0.41 (seed 6).
APART_SURE = 0.4
# Tiles lie apart when their gap exceeds the row's usual gap (taken within USUAL_GAP tiles)
# by APART of a tile; see _split_by_gaps.
APART, USUAL_GAP = 0.22, (-0.25, 0.05)
NEAR_GAPS = 3


@dataclass(frozen=True)
class Detection:
    """A found tile: box (x1, y1, x2, y2), pose, and its names with probabilities, best first."""
    box: tuple[int, int, int, int]
    pose: str
    candidates: tuple[tuple[str, float], ...] = ()
    outline: tuple[int, int, int, int] | None = None   # the whole tile, face and body, when known

    @property
    def label(self) -> str:
        return self.candidates[0][0] if self.candidates else "back"

    @property
    def confidence(self) -> float:
        return self.candidates[0][1] if self.candidates else 1.0


@dataclass(frozen=True)
class Group:
    """Tiles read together, as indices into the detections, left to right."""
    role: str                       # concealed, win, meld or dora
    members: tuple[int, ...]
    called: int | None = None       # the sideways tile of an open meld
    added: int | None = None        # the second sideways tile of an added kan (kakan)


@dataclass
class Arrangement:
    groups: list[Group] = field(default_factory=list)
    doubts: list[str] = field(default_factory=list)
    # Groups of the hand row with a tile found sideways or face down that do not cut into
    # melds, read as concealed tiles. Only a doubt when the hand then does not come out whole
    # (`repair` says so): a tile set askew, or a white dragon's blank face taken for a back,
    # in a plain row reads as a turned tile, and the hand itself shows it was none.
    unread_melds: list[tuple[int, ...]] = field(default_factory=list)
    # Tiles found face up that end a concealed kan read here (named a back, `_kan_pose`): the
    # pipeline turns them face down before the hand is named (`face_down`).
    face_down: list[int] = field(default_factory=list)

    def of(self, role: str) -> list[Group]:
        return [g for g in self.groups if g.role == role]


def _unit(detections: list[Detection]) -> float:
    """A tile's short side, typical for the photo."""
    return float(np.median([min(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in detections]))


def _rows(detections: list[Detection], skip: set[int]) -> list[list[int]]:
    """Rows of tiles, each left to right. Players line tiles up along the edge nearest them
    (a sideways tile is shorter but shares that edge), so touching tiles whose bottom edges
    meet make runs; a run then joins the row it continues, judged by where that row's bottom
    edge, extended, would be (a row photographed askew slopes, and a meld or winning tile set
    apart lies on that slope, not level with the row's last tile)."""
    order = sorted((i for i in range(len(detections)) if i not in skip), key=lambda i: detections[i].box[0])
    unit = _unit(detections)
    runs = _runs(detections, order, unit)
    rows: list[list[int]] = []
    for run in sorted(runs, key=lambda r: detections[r[0]].box[0]):
        first = detections[run[0]].box
        best, best_gap = None, None
        for row in rows:
            last = detections[row[-1]].box
            gap = first[0] - last[2]
            if gap > 3 * unit or first[0] < last[0] + 0.3 * (last[2] - last[0]):
                continue
            slope = _slope(detections, row) if len(row) > 1 else _slope(detections, run) if len(run) > 1 else None
            if slope is None:   # two lone tiles: allow a row up to about 10 degrees askew
                fits = abs(first[3] - last[3]) <= 0.45 * unit + 0.15 * max(0, gap)
            else:
                predicted = last[3] + slope * ((first[0] + first[2]) - (last[0] + last[2])) / 2
                fits = abs(first[3] - predicted) <= 0.45 * unit
            if fits and (best_gap is None or gap < best_gap):
                best, best_gap = row, gap
        if best is None:
            rows.append(list(run))
        else:
            best += run
    return rows


def _runs(detections: list[Detection], order: list[int], unit: float) -> list[list[int]]:
    """Tiles that touch, bottom edges level, chained left to right."""
    runs: list[list[int]] = []
    end_of: dict[int, list[int]] = {}
    for i in order:
        box = detections[i].box
        best, best_gap = None, None
        for j, run in end_of.items():
            other = detections[j].box
            gap = box[0] - other[2]
            if gap > 0.5 * unit or box[0] < other[0] + 0.3 * (other[2] - other[0]):
                continue
            if abs(box[3] - other[3]) <= 0.45 * unit and (best_gap is None or gap < best_gap):
                best, best_gap = j, gap
        if best is None:
            run = [i]
            runs.append(run)
        else:
            run = end_of.pop(best)
            run.append(i)
        end_of[i] = run
    return runs


def _slope(detections: list[Detection], row: list[int]) -> float:
    """How far a row's bottom edge drops per pixel to the right."""
    xs = np.array([(detections[i].box[0] + detections[i].box[2]) / 2 for i in row], float)
    ys = np.array([detections[i].box[3] for i in row], float)
    dx = xs - xs.mean()
    spread = float(dx @ dx)
    return float(dx @ (ys - ys.mean()) / spread) if spread > 0 else 0.0


def _added_tiles(detections: list[Detection]) -> dict[int, int]:
    """Sideways tiles lying on top of another sideways tile (an added kan, kakan): for each
    tile on the table (the one nearer the player, lower in the photo), the one added on it.
    The added tile may have been found upright, its face seen end-on past the one below: it
    counts when its box is wider than tall and about as wide as the tile below (a tile lying
    upright beyond a meld is a short side wide, about three quarters of a turned one)."""
    sideways = [i for i, d in enumerate(detections) if d.pose == SIDEWAYS]
    wide = [i for i, d in enumerate(detections)
            if d.pose == UPRIGHT and d.box[2] - d.box[0] > d.box[3] - d.box[1]]
    added: dict[int, int] = {}
    for i in sideways:
        for j in sideways + wide:
            a, b = detections[i].box, detections[j].box
            height = a[3] - a[1]
            as_wide = j in sideways or b[2] - b[0] >= 0.85 * (a[2] - a[0])
            if i != j and as_wide and overlap_x(a, b) > 0.5 and abs(b[3] - a[1]) < 0.4 * height and j not in added:
                added[i] = j   # j lies just above i
    return added


def overlap_x(a, b) -> float:
    """How much two boxes share across, as a share of the narrower one's width."""
    inter = min(a[2], b[2]) - max(a[0], b[0])
    return max(0, inter) / max(1, min(a[2] - a[0], b[2] - b[0]))


def _split_by_gaps(detections: list[Detection], row: list[int]) -> list[list[int]]:
    """A row cut where tiles lie apart: a gap clearly wider than the row's usual one there.
    The usual gap is not zero: boxes of a row seen at an angle overlap, and of tiles laid
    loosely, part (rendered hands: gaps between concealed tiles at most 0.16 of a tile over
    the row's usual one, the winning tile's gap at least 0.21 over it, where a fixed 0.3 of
    a tile missed a quarter of the winning tiles). Nor is it the same all along: a row going
    away from the camera overlaps at one end and parts at the other, so each gap is weighed
    against the gaps around it (`NEAR_GAPS` on each side)."""
    widths = [min(detections[i].box[2] - detections[i].box[0], detections[i].box[3] - detections[i].box[1]) for i in row]
    unit = float(np.median(widths)) if widths else 1.0
    gaps = [detections[cur].box[0] - detections[prev].box[2] for prev, cur in zip(row, row[1:])]
    groups = [[row[0]]] if row else []
    for k, (cur, gap) in enumerate(zip(row[1:], gaps)):
        near = gaps[max(0, k - NEAR_GAPS):k] + gaps[k + 1:k + 1 + NEAR_GAPS]
        # A short row's median gap may be the gap that parts it: never take more than a sliver.
        usual = min(USUAL_GAP[1] * unit, max(USUAL_GAP[0] * unit, float(np.median(near)))) if near else 0.0
        if gap - usual > APART * unit:
            groups.append([cur])
        else:
            groups[-1].append(cur)
    return groups


def _meld_cuts(poses: list[str]) -> list[list[int]]:
    """Every way to cut a run of meld tiles into melds of 3 or 4, each with exactly one
    sideways tile, or concealed kans (face down, up, up, face down), or a concealed kan with
    one end unseen (face down, up, up, or up, up, face down: `_partial_kan`)."""
    n = len(poses)
    if n == 0:
        return [[]]
    cuts = []
    if n >= 4 and poses[0] == poses[3] == FACE_DOWN and poses[1] == poses[2] == UPRIGHT:
        cuts += [[4] + rest for rest in _meld_cuts(poses[4:])]
    elif n >= 3 and _partial_kan(poses[:3]):
        cuts += [[3] + rest for rest in _meld_cuts(poses[3:])]
    for size in (3, 4):
        if n >= size and poses[:size].count(SIDEWAYS) == 1 and FACE_DOWN not in poses[:size]:
            cuts += [[size] + rest for rest in _meld_cuts(poses[size:])]
    return cuts


def _partial_kan(poses: list[str]) -> bool:
    """A concealed kan one of whose face-down ends the finder missed (a plain back on a cloth
    of its colour): three tiles, face down at one end, two face up. Read as a kan only when
    the two faces are the same tile (`_meld_sizes`), and said so (`_read_melds`)."""
    return poses in ([FACE_DOWN, UPRIGHT, UPRIGHT], [UPRIGHT, UPRIGHT, FACE_DOWN])


def _kan_pose(detection: Detection) -> str:
    """The pose a meld run is cut by: a tile found face up but named a back first, less surely
    than the pipeline turns it face down (`scan.BACK_SURE`, kept high so that a white dragon's
    blank face stays face up), is one here. Only a cut can use it: where it ends a concealed
    kan (face down, up, up, then it), the other end found face down says what it is."""
    return FACE_DOWN if detection.candidates and detection.label == BACK else detection.pose


def _looks_like_set(names: list[str]) -> bool:
    """Whether first-read names make a run or a set of one tile (red fives count as fives)."""
    kinds = sorted((name[1], 5 if name[0] == "0" else int(name[0])) for name in names if len(name) == 2 and name[0].isdigit())
    if len(kinds) != len(names) or any(suit == "f" for suit, _ in kinds):
        return False
    if len(set(kinds)) == 1:
        return True
    return (len(kinds) == 3 and kinds[0][0] == kinds[2][0] != "z"
            and [n for _, n in kinds] == [kinds[0][1], kinds[0][1] + 1, kinds[0][1] + 2])


def _meld_sizes(detections: list[Detection], group: list[int]) -> list[int] | None:
    """The cut of a meld run whose melds read most like sets by their first-read names (the
    turned tiles alone may allow more than one cut); None when no cut fits. A concealed kan
    with an end unseen must show two faces of one tile."""
    poses = [_kan_pose(detections[i]) for i in group]

    def faces(start: int, size: int) -> list[str]:
        return [detections[i].label for i, pose in zip(group[start:start + size], poses[start:start + size])
                if pose != FACE_DOWN]

    def parts(cut: list[int]) -> list[tuple[int, int]]:
        starts = [sum(cut[:k]) for k in range(len(cut))]
        return list(zip(starts, cut))

    def is_kan(start: int, size: int) -> bool:   # melds are 3 or 4 tiles: two faces, the rest backs
        shown = faces(start, size)
        return len(shown) == 2 and _looks_like_set(shown)

    cuts = [cut for cut in _meld_cuts(poses)
            if all(is_kan(start, size) for start, size in parts(cut) if _partial_kan(poses[start:start + size]))]
    if not cuts:
        return None

    def sets(cut: list[int]) -> int:
        return sum(_looks_like_set(faces(start, size)) or is_kan(start, size) for start, size in parts(cut))
    return max(cuts, key=sets)


def _is_meld_run(detections: list[Detection], group: list[int]) -> bool:
    poses = [detections[i].pose for i in group]
    return SIDEWAYS in poses or FACE_DOWN in poses


def _plain(detections: list[Detection], row: list[int]) -> int:
    """How many tiles of a row lie in groups with no sideways or face-down tile."""
    return sum(len(g) for g in _split_by_gaps(detections, row) if not _is_meld_run(detections, g))


def _joined(detections: list[Detection], groups: list[list[int]],
            kept: frozenset[int] = frozenset()) -> list[list[int]]:
    """The groups of a row, a meld run that does not cut into melds joined to the group after
    it, or else to the plain group before it, where the two then cut: a tile laid a little
    loose (or a called tile turned wide) parts a meld as much as a gap between two melds does.
    The groups at `kept` (the hand row's concealed part and winning tile) are never joined."""
    def cuts(group: list[int]) -> bool:
        return _meld_sizes(detections, group) is not None

    out: list[list[int]] = []
    joinable: list[bool] = []
    i = 0
    while i < len(groups):
        group = groups[i]
        if i not in kept and _is_meld_run(detections, group) and not cuts(group):
            if i + 1 < len(groups) and i + 1 not in kept and cuts(group + groups[i + 1]):
                out.append(group + groups[i + 1])
                joinable.append(False)
                i += 2
                continue
            if out and joinable[-1] and len(out[-1]) >= 2 and cuts(out[-1] + group):
                out[-1] = out[-1] + group
                joinable[-1] = False
                i += 1
                continue
        out.append(group)
        joinable.append(i not in kept and not _is_meld_run(detections, group))
        i += 1
    return out


def _read_melds(detections: list[Detection], group: list[int], added: dict[int, int],
                arrangement: Arrangement) -> bool:
    """Add a run of meld tiles as melds; False when it does not cut into melds."""
    sizes = _meld_sizes(detections, group)
    if sizes is None:
        return False
    start = 0
    for size in sizes:
        members = tuple(group[start:start + size])
        start += size
        called = next((i for i in members if detections[i].pose == SIDEWAYS), None)
        arrangement.groups.append(Group(MELD, members, called, added.get(called) if called is not None else None))
        if called is None:   # a concealed kan
            arrangement.face_down += [i for i in (members[0], members[-1]) if detections[i].pose != FACE_DOWN
                                      and _kan_pose(detections[i]) == FACE_DOWN]
            if size == 3:
                arrangement.doubts.append("a concealed kan shows one face-down tile: its other end was not seen")
    return True


def _unturned_kans(detections: list[Detection], arrangement: Arrangement, concealed: list[int],
                    apart: list[list[int]]) -> list[int]:
    """Too many concealed tiles, and four alike set apart at the right: a kan whose called tile
    was not turned (or not seen turned). A kan is four tiles but counts as a set of three,
    so only a kan shows in the count. Taken as called from the left, and said so."""
    extra = len(concealed) + len(arrangement.of(WIN)) - (14 - 3 * len(arrangement.of(MELD)))
    for group in reversed(apart):
        if extra < 1 or len(group) != 4:
            break
        concealed = [i for i in concealed if i not in group]
        arrangement.groups.append(Group(MELD, tuple(group), called=group[0]))
        arrangement.doubts.append("four tiles set apart at the right read as a kan, but none is turned sideways "
                                  "or face down: taken as called from the left")
        extra -= 1
    return concealed


def _read_hand_row(detections: list[Detection], row: list[int], added: dict[int, int],
                   arrangement: Arrangement) -> tuple[list[int], list[list[int]]]:
    """The concealed tiles of the hand row (melds and the winning tile go to `arrangement`),
    and the plain groups set apart to the right of the first."""
    concealed: list[int] = []
    apart: list[list[int]] = []
    groups = _split_by_gaps(detections, row)
    # the concealed part, and the first lone tile after it: the winning tile (below)
    kept = frozenset({0, next((i for i, g in enumerate(groups) if i > 0 and len(g) == 1), 0)})
    for position, group in enumerate(_joined(detections, groups, kept)):
        lone = len(group) == 1 and position > 0 and not arrangement.of(WIN)
        if lone and detections[group[0]].pose == SIDEWAYS and group[0] not in added:
            # A lone tile set apart after the concealed tiles is the winning tile, even when
            # it looked turned (set askew, or seen steeply): one turned tile is no meld.
            arrangement.groups.append(Group(WIN, tuple(group)))
            arrangement.doubts.append("the winning tile set apart looks turned sideways: read as the winning tile")
        elif not _is_meld_run(detections, group):
            # A lone upright tile set apart after the concealed tiles is the winning tile.
            if lone:
                arrangement.groups.append(Group(WIN, tuple(group)))
            else:
                concealed += group
                if position > 0:
                    apart.append(group)
        elif not _read_melds(detections, group, added, arrangement):
            arrangement.unread_melds.append(tuple(group))
            concealed += group
    return concealed, apart


def _read_other_row(detections: list[Detection], row: list[int], added: dict[int, int],
                    arrangement: Arrangement) -> None:
    """A row apart from the hand: melds laid on a line of their own, or dora indicators (flowers
    where the rules play them)."""
    groups = _joined(detections, _split_by_gaps(detections, row))
    if not any(_is_meld_run(detections, g) for g in groups):
        _read_apart(detections, row, arrangement, "lie in a second row that is not melds, dora indicators or flowers")
        return
    for group in groups:
        if _read_melds(detections, group, added, arrangement):
            continue
        shown = [i for i in group if detections[i].pose == UPRIGHT]
        if SIDEWAYS not in [detections[i].pose for i in group] and shown:
            # Dora indicators, perhaps beside face-down tiles of the dead wall.
            _read_apart(detections, shown, arrangement, "beside the melds do not read as a meld")
        else:
            arrangement.doubts.append("a tile beside the melds does not read as a meld; it was left out" if len(group) == 1
                                      else f"{len(group)} tiles beside the melds do not read as a meld; they were left out")


def _read_apart(detections: list[Detection], tiles: list[int], arrangement: Arrangement, too_many: str) -> None:
    """Tiles apart from the hand (dora indicators or flowers, as the rules take them): those
    named surely (`APART_SURE`), at most MAX_APART of them."""
    unsure = [i for i in tiles if detections[i].confidence < APART_SURE]
    if unsure:
        arrangement.doubts.append("a tile apart from the hand was not named surely enough to be read; it was left out"
                                  if len(unsure) == 1 else
                                  f"{len(unsure)} tiles apart from the hand were not named surely enough to be read; "
                                  "they were left out")
    sure = [i for i in tiles if i not in unsure]
    if len(sure) > MAX_APART:
        arrangement.doubts.append(f"{len(sure)} tiles {too_many}; they were left out")
    elif sure:
        arrangement.groups.append(Group(DORA, tuple(sure)))


def face_down(detections: list[Detection], arrangement: Arrangement) -> list[Detection]:
    """The tiles, those the arrangement read as a concealed kan's face-down ends turned face
    down: named no more, as any tile found face down."""
    return [replace(d, pose=FACE_DOWN, candidates=()) if i in arrangement.face_down else d
            for i, d in enumerate(detections)]


def arrange(detections: list[Detection]) -> Arrangement:
    """Group the tiles: the hand row (the row with the most tiles outside melds; the nearer
    on a tie) with its concealed part, winning tile and melds; melds laid on a line of their
    own; dora indicators in another short row."""
    arrangement = Arrangement()
    if not detections:
        return arrangement
    added = _added_tiles(detections)
    rows = _rows(detections, skip=set(added.values()))
    hand_row = max(rows, key=lambda r: (_plain(detections, r), len(r), max(detections[i].box[3] for i in r)))
    concealed, apart = _read_hand_row(detections, hand_row, added, arrangement)
    for row in rows:
        if row is not hand_row:
            _read_other_row(detections, row, added, arrangement)
    concealed = _unturned_kans(detections, arrangement, concealed, apart)
    # A win tile that was really the only concealed group (a single tile, all else melded).
    if not concealed:
        win = arrangement.of(WIN)
        if win:
            arrangement.groups.remove(win[0])
            concealed = list(win[0].members)
    if not arrangement.of(WIN):
        arrangement.doubts.append("the winning tile is not set apart: the last tile of the row is taken as the winning tile")
    # Called melds are laid from the right edge inwards: the rightmost was called first.
    melds = arrangement.of(MELD)[::-1]
    arrangement.groups = [Group(CONCEALED, tuple(concealed))] + arrangement.of(WIN) + melds + arrangement.of(DORA)
    return arrangement
