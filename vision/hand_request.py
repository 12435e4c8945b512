"""Naming an arranged hand: tile names per group -> a hand request, and what is wrong with it.

Pure code. `build_request` writes the request the scorer takes (shared/spec/hand-json.md);
`problems` lists every way a reading breaks what a real hand must be (a fifth copy, two red
fives of a suit, a meld that is no set, the wrong number of tiles, no winning shape), so the
repair step can try runner-up names until none is left.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from scorer.reading import is_complete
from scorer.tiles import KINDS, SUIT_NAMES, Tile, counts, format_tiles, parse_tiles

from .hand import CONCEALED, DORA, MELD, WIN, Arrangement, Detection, Group
from .detect import FACE_DOWN

BACK = "back"


def tile(label: str) -> Tile:
    return parse_tiles(label, field="camera reading")[0]


# Rule sets played without flowers and seasons (the scorer refuses them there): a tile read
# as one is a misread to repair, not a flower to set aside.
FLOWERLESS_RULES = frozenset({"riichi", "fundamentals"})


def is_bonus(label: str) -> bool:
    return label.endswith("f")


DEFAULT_RULES = "riichi"   # a situation that names no rules, as the scorer reads a request


def rules_of(situation: dict | None) -> str:
    return (situation or {}).get("rules", DEFAULT_RULES)


def plays_dora(situation: dict | None) -> bool:
    """Riichi alone has dora indicators; in the other rule sets tiles set apart from the hand
    are flowers and seasons (laid out as they are drawn) or no part of it."""
    return rules_of(situation) == "riichi"


MAX_DORA_INDICATORS = 5   # one, and one for each kan: the scorer refuses more


def _apart(arrangement: Arrangement, labels: list[str], situation: dict | None) -> tuple[list[int], list[int], list[int]]:
    """The named tiles set apart from the hand (`DORA` groups), as the rules take them: dora
    indicators, flowers and seasons, and those left out (all of them in riichi where there are
    more than a hand's dora indicators: such a row is something else)."""
    apart = [i for g in arrangement.of(DORA) for i in g.members if labels[i] != BACK]
    if plays_dora(situation):
        return (apart, [], []) if len(apart) <= MAX_DORA_INDICATORS else ([], [], apart)
    flowers = [i for i in apart if is_bonus(labels[i])] if takes_flowers(situation) else []
    return [], flowers, [i for i in apart if i not in flowers]


def takes_flowers(situation: dict | None) -> bool:
    return rules_of(situation) not in FLOWERLESS_RULES


@dataclass
class Reading:
    """A hand request built from one choice of names, with what is wrong with it."""
    request: dict
    problems: list[str] = field(default_factory=list)
    structural: list[str] = field(default_factory=list)   # wrong tile counts: names cannot fix
    left_out: list[int] = field(default_factory=list)     # tiles apart from the hand the rules give no place


def _meld_from(group: Group) -> str:
    position = group.members.index(group.called)
    if position == 0:
        return "left"
    if position == len(group.members) - 1:
        return "right"
    return "across"


def _read_meld(group: Group, detections: list[Detection], labels: list[str]) -> tuple[dict, list[str]]:
    shown = [labels[i] for i in group.members]
    faces = [labels[i] for i in group.members if detections[i].pose != FACE_DOWN]
    problems = []
    if group.called is None:  # a concealed kan: two backs around two faces
        up = [tile(l) for l in faces if l != BACK]
        if len(up) != 2 or up[0].kind != up[1].kind:
            problems.append(f"the concealed kan shows {' and '.join(faces)}, which are not the same tile")
        kind = up[0].kind if up else 0
        reds = sum(t.red for t in up)
        tiles = [Tile(kind, red=i < reds) for i in range(4)]
        return {"kind": "ankan", "tiles": format_tiles(tiles)}, problems
    if BACK in faces:
        problems.append("a face-down tile lies in an open meld")
    tiles = [tile(l) for l in faces if l != BACK]
    if group.added is not None:
        tiles.append(tile(labels[group.added]))
    kinds = sorted(t.kind for t in tiles)
    name = format_tiles(tiles)
    meld = {"tiles": name, "from": _meld_from(group)}
    if any(k >= 34 for k in kinds):
        problems.append(f"a flower or season ({name}) lies in a meld")
        meld["kind"] = "pon"
    elif len(tiles) == 4 and len(set(kinds)) == 1:
        meld["kind"] = "kakan" if group.added is not None else "minkan"
    elif len(tiles) == 3 and len(set(kinds)) == 1:
        meld["kind"] = "pon"
    elif len(tiles) == 3 and kinds[0] < 27 and kinds[2] // 9 == kinds[0] // 9 and kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]:
        meld["kind"] = "chi"
        if meld["from"] != "left":
            # A chi can only be called from the left; players often turn the middle tile.
            meld["from"] = "left"
    else:
        meld["kind"] = "pon"
        problems.append(f"the meld {name} ({' '.join(shown)}) is not a run or a set of one tile")
    return meld, problems


def build_request(arrangement: Arrangement, detections: list[Detection], labels: list[str],
                  situation: dict | None = None) -> Reading:
    """The hand request for these names (one per detection), and its problems."""
    problems: list[str] = []
    structural: list[str] = []
    flowers: list[Tile] = []
    concealed_group = arrangement.of(CONCEALED)[0] if arrangement.of(CONCEALED) else Group(CONCEALED, ())
    concealed_labels = [labels[i] for i in concealed_group.members]
    win_group = arrangement.of(WIN)
    win_labels = [labels[i] for i in win_group[0].members] if win_group else []
    hand: list[Tile] = []
    rules, with_flowers = rules_of(situation), takes_flowers(situation)
    misread = 0   # tiles named "back" though found face up, or flowers where none are played:
    for label in concealed_labels + win_labels:     # counted, so the search may rename them
        if label == BACK:
            misread += 1
            problems.append("a face-down tile lies among the concealed tiles")
        elif is_bonus(label) and with_flowers:
            flowers.append(tile(label))
        elif is_bonus(label):
            misread += 1
            problems.append(f"a concealed tile is read as {tile(label).name}, but {rules} is played without flowers and seasons")
        else:
            hand.append(tile(label))
    melds, meld_tiles = [], []
    for group in arrangement.of(MELD):
        meld, meld_problems = _read_meld(group, detections, labels)
        melds.append(meld)
        problems += meld_problems
        meld_tiles += parse_tiles(meld["tiles"])
    dora_members = [i for g in arrangement.of(DORA) for i in g.members]
    dora_shown, flowers_apart, left_out = _apart(arrangement, labels, situation)
    dora = [tile(labels[i]) for i in dora_shown]
    flowers += [tile(labels[i]) for i in flowers_apart]
    if not with_flowers and any(t.kind >= KINDS for t in dora):
        problems.append(f"a dora indicator is read as a flower or season, but {rules} is played without them")
    if any(labels[i] == BACK and detections[i].pose != FACE_DOWN for i in dora_members):
        # The dead wall's other tiles lie face down beside the indicator, but a tile found
        # face up and named "back" is a blank face (a white dragon) or a doubtful read.
        problems.append("a dora indicator found face up is named as a tile's back")
    if win_labels and not is_bonus(win_labels[0]) and win_labels[0] != BACK:
        win = tile(win_labels[0])
    else:
        win = hand[-1] if hand else None
    request = {"rules": DEFAULT_RULES, "concealed": format_tiles(hand), "win_tile": str(win) if win else "",
               "melds": melds, "dora_indicators": format_tiles(dora), "flowers": format_tiles(flowers)}
    request.update(situation or {})
    expected = 14 - 3 * len(melds)
    held = len(hand) + misread
    if held != expected:
        word = "few" if held < expected else "many"
        structural.append(f"too {word} tiles for a hand: {held} concealed tiles with {len(melds)} "
                          f"meld{'s' if len(melds) != 1 else ''} (a winning hand has {expected})")
    problems += _count_problems(hand + meld_tiles + dora + flowers)
    if not structural and not is_complete(counts(hand)):
        problems.append(f"{format_tiles(hand)} is not a winning shape")
    return Reading(request, problems + structural, structural, left_out)


def shown_order(arrangement: Arrangement, detections: list[Detection], labels: list[str],
                situation: dict | None = None) -> list[int]:
    """The detections in the order the hand shows its tiles to the player (the request's
    order, as the record page and `tenbou scan` lay it out): the concealed tiles sorted, the
    winning tile last, then the melds (each sorted), the dora indicators and the flowers;
    tiles the hand leaves out (backs, misreads) follow in photo order. A doubt's "tile N" is
    the Nth tile seen there, not the Nth found in the photo."""
    def key(i: int) -> tuple[int, bool]:
        t = tile(labels[i])
        return t.kind, not t.red

    def plain(i: int) -> bool:
        return labels[i] != BACK and not is_bonus(labels[i])

    with_flowers = takes_flowers(situation)
    held = [i for g in arrangement.of(CONCEALED) + arrangement.of(WIN) for i in g.members]
    hand = sorted((i for i in held if plain(i)), key=key)
    wins = [i for g in arrangement.of(WIN) for i in g.members if plain(i)]
    last = wins[0] if wins else next((i for i in reversed(held) if plain(i)), None)
    if last is not None:
        hand = [i for i in hand if i != last] + [last]
    melds: list[int] = []
    for group in arrangement.of(MELD):
        if group.called is None:        # a concealed kan shows as it lies
            melds += list(group.members)
            continue
        faces = [i for i in group.members if detections[i].pose != FACE_DOWN and labels[i] != BACK]
        melds += sorted(faces + ([group.added] if group.added is not None else []), key=key)
    dora_shown, flowers_apart, _ = _apart(arrangement, labels, situation)
    dora = sorted(dora_shown, key=key)
    flowers = sorted([i for i in held if with_flowers and is_bonus(labels[i])] + flowers_apart, key=key)
    order = hand + melds + dora + flowers
    placed = set(order)
    return order + [i for i in range(len(detections)) if i not in placed]


def _count_problems(tiles: list[Tile]) -> list[str]:
    problems = []
    for kind, count in enumerate(counts(tiles)):
        if count > 4:
            problems.append(f"{count} copies of {Tile(kind).name} (a set has four)")
    bonus = Counter(t.kind for t in tiles if t.kind >= KINDS)
    for kind, count in sorted(bonus.items()):
        if count > 1:
            problems.append(f"{count} copies of {Tile(kind).name} (a set has one of each flower and season)")
    for suit in "mps":
        reds = sum(1 for t in tiles if t.red and t.suit == suit)
        if reds > 1:
            problems.append(f"{reds} red fives of {SUIT_NAMES[suit]} (a set has one)")
    return problems


def same_hand(got: dict, want: dict) -> bool:
    """Two hand requests name the same hand: tiles, winning tile, melds (kind, tiles, from),
    dora indicators — however their tile strings are ordered."""
    def key(hand: dict):
        melds = sorted((m["kind"], format_tiles(parse_tiles(m["tiles"])), m.get("from", "")) for m in hand.get("melds", []))
        return (format_tiles(parse_tiles(hand["concealed"])), hand["win_tile"], melds,
                format_tiles(parse_tiles(hand.get("dora_indicators", ""))))
    return key(got) == key(want)
