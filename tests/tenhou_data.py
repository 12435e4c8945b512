"""Recorded Tenhou wins (`../shared/data/tenhou/agari-dev.jsonl`) as hand JSON requests.

Each row of the data set becomes a `TenhouWin`: the request a player would send Tenbou for that
hand (through the public contract, `scorer.score`) and what Tenhou recorded for it. `compare`
lists how Tenbou's response differs; `report` groups the differences of many hands by cause.

Run `python -m tests.tenhou_data` from the checkout for a report over every recorded hand.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

WINDS = "ESWN"
RED_FIVE_IDS = (16, 52, 88)          # the red 5m, 5p, 5s among Tenhou's 136 tile ids
SUITS = "mpsz"

# Tenhou's yaku numbers -> contract ids (the table in shared/spec/hand-json.md).
YAKU_IDS = {
    0: "menzen_tsumo", 1: "riichi", 2: "ippatsu", 3: "chankan", 4: "rinshan", 5: "haitei",
    6: "houtei", 7: "pinfu", 8: "tanyao", 9: "iipeikou",
    10: "seat_wind", 11: "seat_wind", 12: "seat_wind", 13: "seat_wind",
    14: "round_wind", 15: "round_wind", 16: "round_wind", 17: "round_wind",
    18: "yakuhai_haku", 19: "yakuhai_hatsu", 20: "yakuhai_chun", 21: "double_riichi",
    22: "chiitoitsu", 23: "chanta", 24: "ittsu", 25: "sanshoku", 26: "sanshoku_doukou",
    27: "sankantsu", 28: "toitoi", 29: "sanankou", 30: "shousangen", 31: "honroutou",
    32: "ryanpeikou", 33: "junchan", 34: "honitsu", 35: "chinitsu", 36: "renhou", 37: "tenhou",
    38: "chiihou", 39: "daisangen", 40: "suuankou", 41: "suuankou_tanki", 42: "tsuuiisou",
    43: "ryuuiisou", 44: "chinroutou", 45: "chuuren", 46: "junsei_chuuren", 47: "kokushi",
    48: "kokushi_13", 49: "daisuushii", 50: "shousuushii", 51: "suukantsu", 52: "dora",
    53: "ura_dora", 54: "aka_dora",
}

# Yaku that depend on how the hand was won, not its tiles: the data set knows them only from
# the yaku list, so they become the request's flags.
SITUATION_FLAGS = {1: "riichi", 21: "double_riichi", 2: "ippatsu", 3: "chankan", 4: "rinshan",
                   5: "haitei", 6: "houtei", 36: "renhou", 37: "tenhou", 38: "chiihou"}

MELD_KINDS = {"chi": "chi", "pon": "pon", "daiminkan": "minkan", "shouminkan": "kakan",
              "ankan": "ankan"}
# Tenhou counts the seat a tile came from as 1 right, 2 across, 3 left of the caller.
SOURCES = {1: "right", 2: "across", 3: "left"}

# Rows from lobbies whose payments follow other rules than Tenhou's standard ones (FORMAT.md):
# scored with the option those lobbies use, so they are still checked rather than skipped.
SPECIAL_LOBBIES = (553, 1569)


def tile_str(tile_id: int, aka: bool) -> str:
    kind = tile_id // 4
    if aka and tile_id in RED_FIVE_IDS:
        return f"0{SUITS[kind // 9]}"
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def tiles_str(tile_ids: list[int], aka: bool) -> str:
    """MPSZ grouped by suit ("067m123p55z"), as a player or the tile picker writes a hand."""
    by_suit: dict[str, str] = {suit: "" for suit in SUITS}
    for tile in sorted(tile_ids):
        text = tile_str(tile, aka)
        by_suit[text[1]] += text[0]
    return "".join(digits + suit for suit, digits in by_suit.items() if digits)


def seat_wind_of(seat: int, dealer: int) -> str:
    return WINDS[(seat - dealer) % 4]


@dataclass(frozen=True)
class Expected:
    han: int
    fu: int
    points: int
    yakuman: bool
    yaku: dict[str, int]            # contract id -> han, the way the response lists them
    winner_change: int | None       # the winner's score change, honba and sticks included
                                    # (None where the lobby's payments follow other rules)


@dataclass(frozen=True)
class TenhouWin:
    line: int                       # 1-based line in agari-dev.jsonl
    row: dict
    request: dict
    expected: Expected
    note: str = ""                  # why this row is read differently, when it is


def expected_of(row: dict) -> Expected:
    yaku: dict[str, int] = {}
    if row["yakuman"]:
        for number in row["yakuman"]:
            yaku[YAKU_IDS[number]] = yaku.get(YAKU_IDS[number], 0) + 13
    else:
        for number, han in row["yaku"]:
            if han:             # ura dora is recorded with 0 han when the riichi winner has none
                yaku[YAKU_IDS[number]] = yaku.get(YAKU_IDS[number], 0) + han
    return Expected(han=row["han"], fu=row["fu"], points=row["points"], yakuman=bool(row["yakuman"]),
                    yaku=yaku, winner_change=row["sc"][2 * row["who"] + 1] * 100)


def request_of(row: dict) -> dict:
    aka = row["aka"]
    dealer = row["oya"]
    recorded = {number for number, _ in row["yaku"]} | set(row["yakuman"])
    melds = []
    nukidora = 0
    for meld in row["melds"]:
        if meld["type"] == "nuki":
            nukidora += 1
            continue
        entry = {"kind": MELD_KINDS[meld["type"]], "tiles": tiles_str(meld["tiles"], aka)}
        if meld["type"] != "ankan":
            entry["from"] = SOURCES[meld["from_rel"]]
        melds.append(entry)
    request = {
        "rules": "riichi",
        "preset": "tenhou",
        "options": {"aka": aka, "open_tanyao": row["kuitan"]},
        "players": row["num_players"],
        "concealed": tiles_str(row["hai"], aka),
        "win_tile": tile_str(row["machi"], aka),
        "melds": melds,
        "tsumo": row["is_tsumo"],
        "seat_wind": WINDS[row["seat_wind"]],
        "round_wind": WINDS[row["round_wind"]],
        "dora_indicators": tiles_str(row["dora_indicators"], aka),
        "honba": row["honba"],
        "riichi_sticks": row["riichi_sticks"],
        # In a double ron only the first winner in turn from the discarder takes the honba and
        # the sticks; the log lists that winner first.
        "takes_pot": row["agari_index_in_kyoku"] == 1,
        "nukidora": nukidora,
    }
    if not row["is_tsumo"]:
        request["discarder"] = seat_wind_of(row["from_who"], dealer)
    for number, flag in SITUATION_FLAGS.items():
        if number in recorded:
            request[flag] = True
    if request.get("riichi") or request.get("double_riichi"):
        request["ura_indicators"] = tiles_str(row["ura_indicators"], aka)
    if row["pao_who"] is not None:
        request["pao"] = seat_wind_of(row["pao_who"], dealer)
    return request


def special_lobby(row: dict, request: dict, expected: Expected) -> tuple[dict, Expected, str]:
    """Rows from special lobbies (FORMAT.md): read with the rule the recorded payment shows."""
    if row["go_type"] not in SPECIAL_LOBBIES:
        return request, expected, ""
    note = f"special lobby (GO type {row['go_type']}) with its own payment rules"
    if (row["han"], row["fu"]) in ((4, 30), (3, 60)) and expected.points in (8000, 12000):
        request = {**request, "options": {**request["options"], "kiriage": True}}
        note += ": the recorded payment is a kiriage mangan (4 han 30 fu paid as 8000/12000)"
    if row["go_type"] == 1569 and row["honba"]:
        # This lobby pays honba at its own rate (1,500 a honba on the one such ron recorded), which
        # no Tenhou option describes: the hand is checked, the winner's score change is not.
        expected = replace(expected, winner_change=None)
        note += ": honba paid at the lobby's own rate, score change not compared"
    return request, expected, note


def win_of(line: int, row: dict) -> TenhouWin:
    request, expected, note = special_lobby(row, request_of(row), expected_of(row))
    if len(row["sc"]) == 16:
        # Chip lobbies append chip counts and changes after the 8 score entries; the score
        # change of the winner is still at the same place.
        note = (note + "; " if note else "") + "chip lobby: 16-entry sc, chips ignored"
    return TenhouWin(line=line, row=row, request=request, expected=expected, note=note)


def load(path: Path) -> list[TenhouWin]:
    with path.open(encoding="utf-8") as handle:
        return [win_of(n, json.loads(text)) for n, text in enumerate(handle, start=1) if text.strip()]


def winner_change(response: dict, winner: str) -> int:
    change = 0
    for transfer in response["transfers"]:
        if transfer["to"] == winner:
            change += transfer["points"]
        if transfer["from"] == winner:
            change -= transfer["points"]
    return change


def compare(win: TenhouWin, response: dict) -> list[tuple[str, str]]:
    """The differences between a response and the record, as (cause, detail) pairs.

    The cause is short and shared by hands that differ the same way, so a report can group them.
    """
    if not response.get("ok"):
        error = response.get("error", {})
        return [(f"error {error.get('code')}", error.get("message", ""))]
    want = win.expected
    got_yaku = {entry["id"]: entry["han"] for entry in response["yaku"]}
    problems = []
    if got_yaku != want.yaku:
        missing = sorted(f"{k} {v}" for k, v in want.yaku.items() if got_yaku.get(k) != v)
        extra = sorted(f"{k} {v}" for k, v in got_yaku.items() if want.yaku.get(k) != v)
        problems.append((f"yaku: missing [{', '.join(missing)}] extra [{', '.join(extra)}]",
                         f"got {got_yaku}, Tenhou {want.yaku}"))
    if response["han"] != want.han:
        problems.append(("han", f"got {response['han']}, Tenhou {want.han}"))
    # Tenhou writes a fu count on yakuman hands (0 for thirteen orphans) that pays nothing;
    # the contract leaves it open, so only ordinary hands compare fu.
    if not want.yakuman and response["fu"] != want.fu:
        problems.append((f"fu {response['fu']} instead of {want.fu}", _fu_detail(response)))
    if response["points"] != want.points:
        problems.append(("points", f"got {response['points']}, Tenhou {want.points}"))
    change = winner_change(response, win.request["seat_wind"])
    if want.winner_change is not None and change != want.winner_change:
        problems.append(("winner's score change", f"got {change}, Tenhou {want.winner_change}"))
    return problems


def _fu_detail(response: dict) -> str:
    return ", ".join(f"{item['reason']} {item['fu']}" for item in response.get("fu_breakdown", []))


def report(results: list[tuple[TenhouWin, list[tuple[str, str]]]], examples: int = 3) -> str:
    """Mismatches grouped by cause, biggest group first, with a few example hands each."""
    groups: dict[str, list[tuple[TenhouWin, str]]] = defaultdict(list)
    for win, problems in results:
        for cause, detail in problems:
            groups[cause].append((win, detail))
    bad = sum(1 for _, problems in results if problems)
    lines = [f"{bad} of {len(results)} recorded hands differ"]
    for cause, items in sorted(groups.items(), key=lambda item: -len(item[1])):
        lines.append(f"\n[{len(items)}] {cause}")
        for win, detail in items[:examples]:
            lines.append(f"  line {win.line}: {detail}")
            lines.append(f"    request {json.dumps(win.request, separators=(',', ':'))}")
    return "\n".join(lines)


def check_all(path: Path) -> list[tuple[TenhouWin, list[tuple[str, str]]]]:
    from scorer import score
    return [(win, compare(win, score(win.request))) for win in load(path)]


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "shared/data/tenhou/agari-dev.jsonl"
    results = check_all(path)
    print(report(results, examples=int(argv[1]) if len(argv) > 1 else 3))
    return 1 if any(problems for _, problems in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
