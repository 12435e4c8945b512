"""Hypothesis strategies for winning riichi hands as hand JSON requests.

A hand is drawn the way it is built at the table: four sets (runs or triplets, each concealed or
called as chi, pon or one of the three kans) and a pair, or seven pairs, thirteen orphans or nine
gates; never a fifth copy of a tile (dora indicators and north tiles set aside included), at most
one red five a suit; four or three players (no characters 2-8, no chi, no North seat, north tiles
set aside); then how it was won (tsumo or ron, riichi, ippatsu, last tile, after a kan, first
turn), the seats, the dora and ura indicators, honba, riichi sticks and the rule options. Tile
pools (one suit, simples, terminals, dragons, winds, green...) make flushes, all-simples and
yakuman hands common enough to test.
"""
from __future__ import annotations

import random

from dataclasses import dataclass, field

from hypothesis import strategies as st

from scorer.tiles import Tile, format_tiles, is_terminal_or_honor

WINDS = "ESWN"
HONOURS = list(range(27, 34))
FIVES = (4, 13, 22)
ORPHANS = [k for k in range(34) if is_terminal_or_honor(k)]
GREEN = [19, 20, 21, 23, 25, 32]          # 2 3 4 6 8 bamboo and the green dragon
NORTH = 30
MISSING_IN_THREE_PLAYER = range(1, 8)     # characters 2 to 8


def _coin(rng: random.Random) -> bool:
    return rng.random() < 0.5


class _Retry(Exception):
    """The tiles drawn so far leave no room for a set or a pair: draw the hand again."""


def _require(options: list) -> None:
    if not options:
        raise _Retry


def _suit(s: int) -> list[int]:
    return list(range(9 * s, 9 * s + 9))


POOLS = {
    "any": list(range(34)),
    "simples": [k for k in range(27) if k % 9 not in (0, 8)],
    "outside": ORPHANS + [k for k in range(27) if k % 9 in (1, 2, 6, 7)],
    "characters": _suit(0), "dots": _suit(1), "bamboo": _suit(2),
    "characters+honours": _suit(0) + HONOURS, "dots+honours": _suit(1) + HONOURS,
    "bamboo+honours": _suit(2) + HONOURS,
    "honours": HONOURS + [0, 8],
    "green": GREEN,
    "terminals": [0, 8, 9, 17, 18, 26],
    "dragons": HONOURS[4:] + _suit(1),
    "winds": HONOURS[:4] + _suit(2),
    "same numbers": [2, 11, 20, 6, 15, 24, 3, 12],
}
POOL_NAMES = ["any"] * 6 + list(POOLS)


@dataclass
class Build:
    """The tiles of a hand being drawn, as kinds, with the copies used so far."""
    counts: list[int] = field(default_factory=lambda: [0] * 34)
    concealed: list[int] = field(default_factory=list)
    melds: list[tuple[str, list[int]]] = field(default_factory=list)

    def room(self, kind: int, n: int) -> bool:
        return self.counts[kind] + n <= 4

    def add(self, kinds: list[int], meld: str | None = None) -> None:
        for k in kinds:
            self.counts[k] += 1
        if meld is None:
            self.concealed += kinds
        else:
            self.melds.append((meld, kinds))


def _runs(pool: list[int]) -> list[int]:
    return [k for k in pool if k < 27 and k % 9 <= 6 and k + 1 in pool and k + 2 in pool]


def standard_hand(rng: random.Random, pool: list[int], closed: bool, chi: bool = True) -> Build:
    build = Build()
    for _ in range(4):
        runs = [k for k in _runs(pool) if all(build.room(k + i, 1) for i in range(3))]
        triplets = [k for k in pool if build.room(k, 3)]
        shapes = [s for s, ok in (("run", runs), ("run", runs), ("triplet", triplets)) if ok]
        _require(shapes)
        if rng.choice(shapes) == "run":
            k = rng.choice(runs)
            call = "concealed" if closed or not chi else rng.choice(["concealed", "chi"])
            build.add([k, k + 1, k + 2], None if call == "concealed" else "chi")
        else:
            k = rng.choice(triplets)
            calls = ["concealed", "concealed", "ankan"] if closed else \
                ["concealed", "pon", "pon", "minkan", "ankan", "kakan"]
            if not build.room(k, 4):
                calls = [c for c in calls if c in ("concealed", "pon")]
            call = rng.choice(calls)
            if call == "concealed":
                build.add([k] * 3)
            else:
                build.add([k] * (3 if call == "pon" else 4), call)
    pairs = [k for k in pool if build.room(k, 2)]
    _require(pairs)
    build.add([rng.choice(pairs)] * 2)
    return build


def seven_pairs(rng: random.Random, pool: list[int]) -> Build:
    kinds = pool if len(pool) >= 7 else POOLS["any"]
    build = Build()
    for k in rng.sample(kinds, 7):
        build.add([k, k])
    return build


def nine_gates(rng: random.Random, players: int) -> Build:
    """1112345678999 of one suit and any tile of it: chuuren poutou."""
    first = 9 * rng.choice([1, 2] if players == 3 else [0, 1, 2])
    build = Build()
    build.add([first] * 3 + [first + n for n in range(1, 8)] + [first + 8] * 3 + [first + rng.randint(0, 8)])
    return build


def thirteen_orphans(rng: random.Random) -> Build:
    build = Build()
    build.add(ORPHANS + [rng.choice(ORPHANS)])
    return build


def winning_hands():
    """Hand JSON requests for complete hands (some lack a yaku), one per hypothesis example.

    Hypothesis draws a seed (fixed under `derandomize`); a plain `random.Random` builds the hand
    from it, which is many times faster than a hypothesis draw per tile.
    """
    return st.randoms(use_true_random=True).map(random_hand)


def random_hand(rng: random.Random) -> dict:
    while True:
        try:
            return _hand(rng)
        except _Retry:
            continue


def _hand(rng: random.Random) -> dict:
    players = rng.choice([4, 4, 4, 3])
    pool = POOLS[rng.choice(POOL_NAMES)]
    if players == 3:
        # Three-player sets have no characters 2 to 8, and nobody calls chi.
        pool = [k for k in pool if k not in MISSING_IN_THREE_PLAYER]
        pool = pool if len(pool) >= 7 else [k for k in range(34) if k not in MISSING_IN_THREE_PLAYER]
    shape = rng.choice(["standard"] * 12 + ["seven_pairs", "orphans", "nine_gates"])
    closed = shape != "standard" or _coin(rng)
    if shape == "standard":
        build = standard_hand(rng, pool, closed, chi=players == 4)
    elif shape == "nine_gates":
        build = nine_gates(rng, players)
    elif shape == "seven_pairs":
        build = seven_pairs(rng, pool)
    else:
        build = thirteen_orphans(rng)
    options = rule_options(rng)
    kans = sum(1 for kind, _ in build.melds if kind in ("minkan", "ankan", "kakan"))
    is_closed = all(kind == "ankan" for kind, _ in build.melds)
    situation = how_won(rng, is_closed, kans, bool(build.melds), options, players)
    if situation["tsumo"] and not is_closed:
        # `mahjong` drops the tsumo fu of an open all-runs hand when open_pinfu_fu is off
        # (KNOWN_DIFFERENCES): open tsumo hands are compared with the option on.
        options["open_pinfu_fu"] = True
    nukidora = 0
    if players == 3:
        nukidora = rng.randint(0, min(2, 4 - build.counts[NORTH]))
        build.counts[NORTH] += nukidora
    dora = indicators(rng, build, 1 + kans, players)
    ura = indicators(rng, build, len(dora), players) if situation.get("riichi") or situation.get("double_riichi") else []
    tiles = _with_red_fives(rng, build, dora, ura, options["aka"])
    concealed, melds, dora_tiles, ura_tiles = tiles
    win = rng.choice(concealed)
    request = {
        "rules": "riichi", "preset": "tenhou", "options": options, "players": players, "nukidora": nukidora,
        "concealed": format_tiles(concealed), "win_tile": str(win),
        "melds": [{"kind": kind, "tiles": format_tiles(meld_tiles),
                   **({} if kind == "ankan" else {"from": "left" if kind == "chi" else
                                                   rng.choice(["left", "across", "right"])})}
                  for (kind, _), meld_tiles in zip(build.melds, melds)],
        "dora_indicators": format_tiles(dora_tiles),
        # Three-player honba: a known difference (test_vs_mahjong), compared at 0.
        "honba": rng.randint(0, 3) if players == 4 else 0, "riichi_sticks": rng.randint(0, 3),
        **situation,
    }
    if ura_tiles:
        request["ura_indicators"] = format_tiles(ura_tiles)
    return request


def rule_options(rng: random.Random) -> dict:
    """The options both Tenbou and `mahjong` play (see KNOWN_DIFFERENCES in test_vs_mahjong)."""
    return {
        "aka": _coin(rng),
        "open_tanyao": _coin(rng),
        "double_yakuman": _coin(rng),
        "kazoe": rng.choice(["yakuman", "sanbaiman"]),
        "kiriage": _coin(rng),
        "pinfu_tsumo_fu": _coin(rng),
        "open_pinfu_fu": _coin(rng),
        "renhou": rng.choice(["mangan", "yakuman"]),
        "stacked_yakuman": True,
        "double_wind_pair_fu": 4,
    }


def how_won(rng: random.Random, closed: bool, kans: int, has_melds: bool, options: dict, players: int = 4) -> dict:
    seats = WINDS[:players]
    seat = rng.choice(seats)
    won = {"seat_wind": seat, "round_wind": rng.choice("EESSWN"), "tsumo": _coin(rng)}
    if not won["tsumo"]:
        won["discarder"] = rng.choice([w for w in seats if w != seat])
    if not has_melds and rng.randint(0, 15) == 0:
        # A win on one's very first turn: nothing else can have happened yet.
        if won["tsumo"]:
            won["tenhou" if seat == "E" else "chiihou"] = True
        elif seat != "E":
            won["renhou"] = True
        return won
    if closed:
        riichi = rng.choice(["none", "none", "riichi", "riichi", "double_riichi"])
        if riichi != "none":
            won[riichi] = True
            won["ippatsu"] = _coin(rng)
    special = rng.choice(["none"] * 8 + ["last", "kan"])
    if special == "last":
        won["haitei" if won["tsumo"] else "houtei"] = True
    elif special == "kan":
        if won["tsumo"] and kans:
            won["rinshan"] = True
        elif not won["tsumo"]:
            won["chankan"] = True
    return won


def indicators(rng: random.Random, build: Build, count: int, players: int = 4) -> list[int]:
    chosen = []
    for _ in range(min(count, 5)):
        free = [k for k in range(34) if build.counts[k] < 4
                and (players == 4 or k not in MISSING_IN_THREE_PLAYER)]
        k = rng.choice(free)
        build.counts[k] += 1
        chosen.append(k)
    return chosen


def _with_red_fives(rng: random.Random, build: Build, dora: list[int], ura: list[int], aka: bool):
    """Tiles with at most one red five a suit; a suit's four fives include its red one (with aka)."""
    groups = [build.concealed] + [kinds for _, kinds in build.melds] + [dora, ura]
    tiles = [[Tile(k) for k in group] for group in groups]
    for five in FIVES:
        places = [(g, i) for g, group in enumerate(groups) for i, k in enumerate(group) if k == five]
        if not places or not aka:
            continue
        if len(places) == 4 or _coin(rng):
            g, i = rng.choice(places)
            tiles[g][i] = Tile(five, red=True)
    concealed, *rest = tiles
    return concealed, rest[:-2], rest[-2], rest[-1]
