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

from dataclasses import dataclass, field

import numpy as np

from .find import FACE_DOWN, SIDEWAYS, UPRIGHT

CONCEALED, WIN, MELD, DORA = "concealed", "win", "meld", "dora"
MAX_DORA_INDICATORS = 5


@dataclass(frozen=True)
class Detection:
    """A found tile: box (x1, y1, x2, y2), pose, and its names with probabilities, best first."""
    box: tuple[int, int, int, int]
    pose: str
    candidates: tuple[tuple[str, float], ...] = ()

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

    def of(self, role: str) -> list[Group]:
        return [g for g in self.groups if g.role == role]


def _rows(detections: list[Detection], skip: set[int]) -> list[list[int]]:
    """Tiles whose vertical middles fall within each other's height share a row."""
    order = sorted((i for i in range(len(detections)) if i not in skip),
                   key=lambda i: (detections[i].box[1] + detections[i].box[3]) / 2)
    rows: list[list[int]] = []
    for i in order:
        x1, y1, x2, y2 = detections[i].box
        middle = (y1 + y2) / 2
        for row in rows:
            top = min(detections[j].box[1] for j in row)
            bottom = max(detections[j].box[3] for j in row)
            if top <= middle <= bottom:
                row.append(i)
                break
        else:
            rows.append([i])
    return [sorted(row, key=lambda i: detections[i].box[0]) for row in rows]


def _added_tiles(detections: list[Detection]) -> dict[int, int]:
    """Sideways tiles lying on top of another sideways tile (an added kan, kakan): for each
    tile on the table (the one nearer the player, lower in the photo), the one added on it."""
    sideways = [i for i, d in enumerate(detections) if d.pose == SIDEWAYS]
    added: dict[int, int] = {}
    for i in sideways:
        for j in sideways:
            a, b = detections[i].box, detections[j].box
            height = a[3] - a[1]
            if i != j and _overlap_x(a, b) > 0.5 and abs(b[3] - a[1]) < 0.4 * height and j not in added:
                added[i] = j   # j lies just above i
    return added


def _overlap_x(a, b) -> float:
    inter = min(a[2], b[2]) - max(a[0], b[0])
    return max(0, inter) / max(1, min(a[2] - a[0], b[2] - b[0]))


def _split_by_gaps(detections: list[Detection], row: list[int]) -> list[list[int]]:
    widths = [min(detections[i].box[2] - detections[i].box[0], detections[i].box[3] - detections[i].box[1]) for i in row]
    unit = float(np.median(widths)) if widths else 1.0
    groups = [[row[0]]] if row else []
    for prev, cur in zip(row, row[1:]):
        gap = detections[cur].box[0] - detections[prev].box[2]
        if gap > 0.3 * unit:
            groups.append([cur])
        else:
            groups[-1].append(cur)
    return groups


def _meld_sizes(poses: list[str]) -> list[int] | None:
    """Cut a run of meld tiles into melds of 3 or 4, each with exactly one sideways tile, or a
    concealed kan (face down, up, up, face down). None when no cut fits."""
    n = len(poses)
    if n == 0:
        return []
    if n >= 4 and poses[0] == FACE_DOWN and poses[3] == FACE_DOWN:
        rest = _meld_sizes(poses[4:])
        return None if rest is None else [4] + rest
    for size in (3, 4):
        if n >= size and poses[:size].count(SIDEWAYS) == 1 and FACE_DOWN not in poses[:size]:
            rest = _meld_sizes(poses[size:])
            if rest is not None:
                return [size] + rest
    return None


def _is_meld_run(detections: list[Detection], group: list[int]) -> bool:
    poses = [detections[i].pose for i in group]
    return SIDEWAYS in poses or FACE_DOWN in poses


def arrange(detections: list[Detection]) -> Arrangement:
    """Group the tiles: the hand row (the longest row; the nearer on a tie), its concealed
    part, winning tile and melds; dora indicators in another short row."""
    arrangement = Arrangement()
    if not detections:
        return arrangement
    added = _added_tiles(detections)
    on_top = set(added.values())
    rows = _rows(detections, skip=on_top)
    hand_row = max(rows, key=lambda r: (len(r), max(detections[i].box[3] for i in r)))
    for row in rows:
        if row is hand_row:
            continue
        if len(row) <= MAX_DORA_INDICATORS and all(detections[i].pose == UPRIGHT for i in row):
            arrangement.groups.append(Group(DORA, tuple(row)))
        else:
            arrangement.doubts.append(f"{len(row)} tiles lie in a second row that is not a hand or dora indicators; they were left out")
    groups = _split_by_gaps(detections, hand_row)
    concealed: list[int] = []
    for position, group in enumerate(groups):
        if not _is_meld_run(detections, group):
            # A lone upright tile set apart after the concealed tiles is the winning tile.
            if len(group) == 1 and position > 0 and not arrangement.of(WIN):
                arrangement.groups.append(Group(WIN, tuple(group)))
            else:
                concealed += group
            continue
        sizes = _meld_sizes([detections[i].pose for i in group])
        if sizes is None:
            arrangement.doubts.append(f"a group of {len(group)} tiles with sideways or face-down tiles does not read as melds")
            concealed += group
            continue
        start = 0
        for size in sizes:
            members = tuple(group[start:start + size])
            start += size
            called = next((i for i in members if detections[i].pose == SIDEWAYS), None)
            arrangement.groups.append(Group(MELD, members, called, added.get(called) if called is not None else None))
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
