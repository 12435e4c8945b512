"""Random winning hands, as a scene shows them: the concealed tiles, the winning tile, the
called melds and who they were called from, and where the red fives are."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scorer.reading import is_complete
from scorer.tiles import KINDS, Tile, format_tiles, kind_of

SIDES = ("left", "across", "right")


@dataclass
class Meld:
    kind: str                 # chi pon minkan ankan kakan
    tiles: list[Tile]
    called: int | None        # index in `tiles` of the called tile (None for ankan)
    source: str | None        # left / across / right


@dataclass
class Hand:
    concealed: list[Tile]     # including the winning tile
    win_tile: Tile
    melds: list[Meld] = field(default_factory=list)
    dora_indicators: list[Tile] = field(default_factory=list)

    def request(self) -> dict:
        """The hand as a scoring request (shared/spec/hand-json.md), as far as a photo shows it."""
        out: dict = {
            "rules": "riichi",
            "concealed": format_tiles(self.concealed),
            "win_tile": str(self.win_tile),
            "melds": [{"kind": m.kind, "tiles": format_tiles(m.tiles), **({"from": m.source} if m.source else {})}
                      for m in self.melds],
        }
        if self.dora_indicators:
            out["dora_indicators"] = format_tiles(self.dora_indicators)
        return out


def random_hand(rng: np.random.Generator, melds: int | None = None, dora: int | None = None) -> Hand:
    """A complete hand of four sets and a pair (now and then seven pairs), `melds` of them called."""
    if melds is None:
        melds = int(rng.choice(5, p=[0.35, 0.3, 0.2, 0.1, 0.05]))
    for _ in range(200):
        hand = _attempt(rng, melds)
        if hand is not None:
            break
    else:  # pragma: no cover - 200 failures in a row would mean a bug
        raise RuntimeError("could not build a hand")
    n_dora = int(rng.choice(3, p=[0.4, 0.45, 0.15])) if dora is None else dora
    used = np.bincount([t.kind for t in _all(hand)], minlength=KINDS)
    for _ in range(n_dora):
        free = [k for k in range(KINDS) if used[k] < 4]
        k = int(rng.choice(free))
        used[k] += 1
        hand.dora_indicators.append(Tile(k))
    _redden(hand, rng)
    return hand


def _attempt(rng: np.random.Generator, n_melds: int) -> Hand | None:
    counts = np.zeros(KINDS, int)
    if n_melds == 0 and rng.random() < 0.08:
        kinds = rng.choice(KINDS, 7, replace=False)
        concealed = [Tile(int(k)) for k in kinds for _ in range(2)]
        win = concealed[int(rng.integers(len(concealed)))]
        return Hand(concealed, win)
    groups: list[tuple[str, int]] = []
    for _ in range(4):
        if rng.random() < 0.6:
            suit = int(rng.integers(3))
            first = suit * 9 + int(rng.integers(7))
            groups.append(("seq", first))
            counts[first:first + 3] += 1
        else:
            k = int(rng.integers(KINDS))
            groups.append(("triplet", k))
            counts[k] += 3
    pair = int(rng.integers(KINDS))
    counts[pair] += 2
    if counts.max() > 4:
        return None
    melds: list[Meld] = []
    concealed: list[Tile] = [Tile(pair), Tile(pair)]
    order = rng.permutation(4)
    for i, gi in enumerate(order):
        kind, k = groups[gi]
        tiles = [Tile(k + j) for j in range(3)] if kind == "seq" else [Tile(k)] * 3
        if i >= n_melds:
            concealed += tiles
            continue
        if kind == "seq":
            called = int(rng.integers(3))
            melds.append(Meld("chi", tiles, called, "left"))
            continue
        if counts[k] == 3 and rng.random() < 0.3:
            counts[k] += 1
            kan = str(rng.choice(["minkan", "ankan", "kakan"], p=[0.35, 0.4, 0.25]))
            tiles = [Tile(k)] * 4
            if kan == "ankan":
                melds.append(Meld(kan, tiles, None, None))
            else:
                melds.append(Meld(kan, tiles, int(rng.integers(3)), SIDES[int(rng.integers(3))]))
            continue
        melds.append(Meld("pon", tiles, int(rng.integers(3)), SIDES[int(rng.integers(3))]))
    win = concealed[int(rng.integers(len(concealed)))]
    if not is_complete(np.bincount([t.kind for t in concealed], minlength=KINDS).tolist()):
        return None
    return Hand(concealed, win, melds)


def _all(hand: Hand) -> list[Tile]:
    return hand.concealed + [t for m in hand.melds for t in m.tiles] + hand.dora_indicators


def _redden(hand: Hand, rng: np.random.Generator) -> None:
    """Make at most one five of each suit red (a standard set has one red five per suit)."""
    places: dict[int, list[tuple[list[Tile], int]]] = {}
    for group in [hand.concealed, hand.dora_indicators] + [m.tiles for m in hand.melds]:
        for i, t in enumerate(group):
            if t.kind < 27 and t.kind % 9 == 4:
                places.setdefault(t.kind, []).append((group, i))
    for kind, spots in places.items():
        if rng.random() < 0.5:
            continue
        group, i = spots[int(rng.integers(len(spots)))]
        group[i] = Tile(kind, True)
        if group is hand.concealed and hand.win_tile.kind == kind and not hand.win_tile.red and rng.random() < 0.3:
            hand.win_tile = Tile(kind, True)
    # the winning tile must be one of the concealed tiles, red flag included
    if hand.win_tile not in hand.concealed:
        hand.win_tile = next(t for t in hand.concealed if t.kind == hand.win_tile.kind)


def white_dragons_and_kan(rng: np.random.Generator) -> Hand:
    """A riichi hand with three white dragons (a blank or framed face, as the set draws it) among
    the concealed tiles and a concealed kan, whose two ends lie face down: the tiles the shipped
    detector missed most on real standing rows. A run, a second run, a pair of honours, won on
    the pair."""
    suits = list("mps")
    rng.shuffle(suits)
    run, kan_suit, other = suits
    start = int(rng.integers(1, 8))
    second = int(rng.integers(1, 8))
    honour = int(rng.choice([1, 2, 3, 4, 6, 7]))
    white = Tile(kind_of(5, "z"))
    pair = Tile(kind_of(honour, "z"))
    kan = Tile(kind_of(int(rng.integers(1, 10)), kan_suit))
    concealed = ([white] * 3 + [Tile(kind_of(start + i, run)) for i in range(3)]
                 + [Tile(kind_of(second + i, other)) for i in range(3)] + [pair, pair])
    return Hand(concealed, pair, [Meld("ankan", [kan] * 4, None, None)])

