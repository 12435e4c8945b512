"""A scored hand explained for the people at the table: tiles, yaku, fu, value, who pays whom.

Takes a hand JSON request and its response (the contract of `shared/spec/hand-json.md`) and
returns lines of text; the `tenbou score` command prints them, the web app may show them.
"""
from __future__ import annotations

from collections import defaultdict

from scorer.tiles import WIND_NAMES, format_tiles, parse_tiles
from webui.words.yaku_names import LIMIT_NAMES, YAKU_NAMES


FU_WORDS = {
    "base": "base", "closed_ron": "closed ron", "tsumo": "tsumo", "open_pinfu": "open hand with no other fu",
    "pair_dragon": "dragon pair", "pair_seat_wind": "seat wind pair", "pair_round_wind": "round wind pair",
    "pair_double_wind": "double wind pair", "wait_kanchan": "middle wait (kanchan)",
    "wait_penchan": "edge wait (penchan)", "wait_tanki": "pair wait (tanki)", "chiitoitsu": "seven pairs",
}
SET_WORDS = {"honor": "honours", "terminal": "terminals", "simple": "simples"}

MELD_WORDS = {"chi": "chi", "pon": "pon", "minkan": "open kan", "ankan": "concealed kan", "kakan": "added kan"}
POT_WORDS = {"riichi": "the riichi sticks on the table", "fundamentals": "the draw pool"}


def explain(request: dict, response: dict) -> list[str]:
    """The lines `tenbou score` prints for a scored hand (the response must be ok)."""
    lines = hand_lines(request)
    if "chinese" in response:
        lines += chinese_lines(response["chinese"])
    elif "han" in response:
        lines += yaku_lines(response)
        if response.get("fu_breakdown"):
            lines.append(fu_line(response))
        lines.append(value_line(response))
    else:
        lines.append(f"Value     {response['points']} points")
    lines += payment_lines(request, response)
    return lines


def chinese_lines(chinese: dict) -> list[str]:
    """Classical Chinese: the scoring items, the doubles, and base x 2^doubles."""
    def named(item: dict, amount: str) -> str:
        return f"{item['reason'].replace('_', ' ')}{' ' + item['tile'] if item.get('tile') else ''} {amount}"

    items = ", ".join(named(item, str(item["points"])) for item in chinese.get("items", []))
    lines = [f"Scores    {items} = {chinese['base']}"]
    doubles = chinese.get("doubles_items", [])
    if doubles:
        lines.append("Doubles   " + ", ".join(named(item, f"x{2 ** item['doubles']}") for item in doubles))
    value = f"{chinese['base']} x {2 ** chinese['doubles']} = {chinese['score']}"
    if chinese.get("limit_hand"):
        value = f"limit hand, {chinese['score']}"
    if chinese.get("capped"):
        value += f", capped at the limit of {chinese['limit']}"
    return lines + [f"Value     {value} points"]


def hand_lines(request: dict) -> list[str]:
    concealed = spaced(request.get("concealed", ""))
    melds = [f"{MELD_WORDS[m['kind']]} {format_tiles(parse_tiles(m['tiles']))}"
             + (f" from {m['from']}" if m.get("from") else "") for m in request.get("melds") or []]
    seat = request.get("seat_wind") or "E"
    how = "tsumo" if request.get("tsumo") else f"ron off {WIND_NAMES[request['discarder']]}"
    lines = [f"Hand      {concealed}" + "".join(f" + {m}" for m in melds),
             f"Win       {request['win_tile']} by {how}",
             f"Seat      {WIND_NAMES[seat]}{' (dealer)' if seat == 'E' else ''}, "
             f"{WIND_NAMES[request.get('round_wind') or 'E']} round"]
    if request.get("flowers"):
        lines.append(f"Flowers   {spaced(request['flowers'])}")
    indicators = request.get("dora_indicators") or ""
    ura = request.get("ura_indicators") or ""
    if indicators or ura:
        lines.append(f"Dora      indicators {indicators or '-'}" + (f", ura indicators {ura}" if ura else ""))
    return lines


def yaku_lines(response: dict) -> list[str]:
    yaku = response.get("yaku") or []
    width = max((len(yaku_name(y["id"])) for y in yaku), default=0)
    lines = []
    for number, entry in enumerate(yaku):
        label = "Yaku      " if number == 0 else " " * 10
        lines.append(f"{label}{yaku_name(entry['id']).ljust(width)}  {entry['han']} han")
    return lines


def fu_line(response: dict) -> str:
    items = response["fu_breakdown"]
    parts = ", ".join(f"{fu_words(item['reason'])} {item['fu']}" for item in items)
    total = sum(item["fu"] for item in items)
    if total == response["fu"]:
        return f"Fu        {parts} = {total}"
    return f"Fu        {parts} = {total}, rounded up to {response['fu']}"


def value_line(response: dict) -> str:
    limit = response.get("limit")
    if response.get("yakuman"):
        count = response["yakuman"]
        what = "yakuman" if count == 1 else f"{count} yakuman"
    else:
        what = f"{response['han']} han {response['fu']} fu" if response.get("fu") else f"{response['han']} han"
    if limit:
        what += f", {LIMIT_NAMES[limit][0].lower() if limit in LIMIT_NAMES else limit.replace('_', ' ')}"
    return f"Value     {what}: {response['points']} points"


def payment_lines(request: dict, response: dict) -> list[str]:
    """"South pays East 5200" per payer (hand and honba together); the riichi sticks last."""
    owed: dict[tuple[str, str], list[int]] = defaultdict(list)
    for transfer in response.get("transfers") or []:
        owed[(transfer["from"], transfer["to"])].append(transfer["points"])
    honba = request.get("honba") or 0
    pot = POT_WORDS.get(request.get("rules", "riichi"), "the pot")
    lines = []
    for (payer, taker), parts in owed.items():
        if payer == "pot":
            lines.append(f"{WIND_NAMES[taker]} takes {pot}: {sum(parts)}")
            continue
        line = f"{WIND_NAMES[payer]} pays {WIND_NAMES[taker]} {sum(parts)}"
        if len(parts) == 2 and honba:
            # The engine lists the hand's payment and the honba apart.
            line += f" ({parts[0]} + {parts[1]} for {honba} honba)"
        lines.append(line)
    return [("Payments  " if n == 0 else " " * 10) + line for n, line in enumerate(lines)]


def yaku_name(yaku_id: str) -> str:
    """The English name the web app shows too (webui/words/yaku_names.py)."""
    return YAKU_NAMES[yaku_id][0] if yaku_id in YAKU_NAMES else yaku_id.replace("_", " ")


def spaced(text: str) -> str:
    """MPSZ grouped by suit with a space between suits: "234m 406p 33678s"."""
    grouped = format_tiles(parse_tiles(text))
    out = []
    for char in grouped:
        out.append(char)
        if char in "mpszf":
            out.append(" ")
    return "".join(out).strip()


def fu_words(reason: str) -> str:
    """"closed_pon_honor" -> "closed pon of honours"; the engine's reason ids in words."""
    if reason in FU_WORDS:
        return FU_WORDS[reason]
    parts = reason.split("_")
    if len(parts) == 3 and parts[2] in SET_WORDS:
        return f"{parts[0]} {parts[1]} of {SET_WORDS[parts[2]]}"
    return reason.replace("_", " ")
