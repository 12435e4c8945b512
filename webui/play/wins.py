"""A win from the record page or the JSON API, as the ledger's `win` event.

Every hand given by its tiles is scored again here, never trusting a client's result. Riichi
games may name several winners on one discard (double and triple ron: the ledger's table rules
decide who is paid) and a liable player (pao): a seat index for the ledger, the seat's wind for
the scorer request.
"""
from __future__ import annotations

from dataclasses import replace

from scorer import game as scorer_ledger
from scorer.riichi.han_fu import impossible
from scorer.riichi.yaku import PAO_YAKUMAN
from scorer.tiles import WIND_LETTERS, format_tiles, parse_tiles

from webui.play import ledger, named_yaku
from webui.storage import store
from webui.guard.errors import PlayerError
from webui.guard.forms import hand_counts, integer, parse_json, seat
from webui.guard.limits import MOST_CHINESE_POINTS, MOST_CHIPS, MOST_FU, MOST_HAN, MOST_YAKUMAN


def who(data, seats: int) -> tuple[int, int | None, bool]:
    """(winner, discarder, tsumo) from a form or JSON object."""
    winner = seat(data.get("winner"), "winner", seats)
    tsumo = _is_tsumo(data)
    discarder = None if tsumo else seat(data.get("discarder"), "discarder", seats)
    if discarder is not None and discarder == winner:
        raise PlayerError(400, "bad_field", "discarder: the winner cannot deal in to themselves")
    return winner, discarder, tsumo


def _is_tsumo(data) -> bool:
    return str(data.get("tsumo", "")).lower() in ("1", "true", "on", "tsumo")


def win_event(game_session: store.Session, data) -> dict:
    """One win, or several on one discard when `data` has `winners`."""
    current = ledger.load(game_session)
    entries = _winner_entries(data.get("winners"))
    if entries is not None:
        return _several(current, data, entries)
    winner, discarder, tsumo = who(data, current.config.n)
    return {"type": "win", "winner": winner, "discarder": discarder,
            **_one_win(current, data, winner, discarder, tsumo, takes_pot=True)}


def preview(current: ledger.Game, body: dict) -> tuple[dict, dict]:
    """Score a win for the record page without storing it: (request, the scorer's answer).
    A riichi win without `hand` is previewed from its han and fu, a classical Chinese one from
    its score and the losers' own counts; `takes_pot: false` previews a later winner of a
    double ron."""
    winner, discarder, tsumo = who(body, current.config.n)
    takes_pot = body.get("takes_pot", True) is not False
    hand = body.get("hand")
    if current.config.rules == "fundamentals":
        return _pool_preview(current, body, hand, winner, discarder, tsumo)
    if hand is None and current.config.rules in ("riichi", "chinese-classical"):
        return _numbers_preview(current, body, winner, discarder, takes_pot)
    if not isinstance(hand, dict):
        raise PlayerError(400, "bad_field", "hand: an object is needed")
    hand_counts(hand)
    pao = liable_seat(current, body, hand, winner)
    return ledger.score_hand(current, _with_pao(current, hand, pao), winner, discarder, tsumo, takes_pot)


def _pool_preview(current: ledger.Game, body: dict, hand, winner: int, discarder: int | None,
                  tsumo: bool) -> tuple[dict, dict]:
    """A Fundamentals win as the ledger pays it, the pool included (the scorer alone knows no
    pool): by tiles, the scorer's reading with the ledger's payments; without tiles, from the
    winner and how alone, as every win pays alike."""
    request, answer = {}, {"ok": True}
    if hand is not None:
        if not isinstance(hand, dict):
            raise PlayerError(400, "bad_field", "hand: an object is needed")
        hand_counts(hand)
        request, answer = ledger.score_hand(current, hand, winner, discarder, tsumo)
        if not answer.get("ok"):
            return request, answer
    event = {"type": "win", "winner": winner, "discarder": discarder,
             **_one_win(current, body, winner, discarder, tsumo, takes_pot=True)}
    try:
        after = scorer_ledger.apply(current.config, current.state, event)
    except scorer_ledger.LedgerError as err:
        return event, err.to_json()
    winds = current.state.seat_winds
    transfers = [{"from": t["from"] if t["from"] == "pot" else winds[t["from"]], "to": winds[t["to"]],
                  "points": t["points"]} for t in after.hands[-1].transfers]
    paid = sum(t["points"] for t in transfers if t["from"] != "pot")
    return request or event, {**answer, "ok": True, "points": answer.get("points", paid), "transfers": transfers}


def _numbers_preview(current: ledger.Game, body: dict, winner: int, discarder: int | None,
                     takes_pot: bool) -> tuple[dict, dict]:
    """A win by its numbers (riichi han and fu or yakuman; a classical Chinese score and the
    losers' counts) paid by the ledger itself on a copy of the table, so the preview moves what
    recording it will move; the answer has the scorer's shape."""
    try:
        numbers = _win_by_numbers(current.config, body, discarder is None)
        named = named_yaku.named(body, numbers) if current.config.rules == "riichi" else {}
    except PlayerError as err:
        if err.code not in ("impossible_han_fu", *named_yaku.REFUSALS):
            raise
        # a hand that cannot exist is a normal answer of the preview, said as the scorer says one
        return {}, {"ok": False, "error": {"code": err.code, "message": err.detail}}
    event = {"type": "win", "winner": winner, "discarder": discarder, **numbers}
    pao = liable_seat(current, body, {}, winner)
    if pao is not None:
        event.update(pao=pao, pao_yakuman=covered_by_numbers(body, event.get("yakuman", 0)))
    # a later winner of a double ron takes neither the honba nor the riichi sticks
    state = current.state if takes_pot else replace(current.state, honba=0, riichi_sticks=0)
    try:
        after = scorer_ledger.apply(current.config, state, event)
    except scorer_ledger.LedgerError as err:
        return event, err.to_json()
    winds = state.seat_winds

    def party(side: int | str) -> str:
        return side if side == "pot" else winds[side]
    transfers = [{"from": party(t["from"]), "to": party(t["to"]), "points": t["points"]}
                 for t in after.hands[-1].transfers]
    if current.config.rules == "chinese-classical":      # who paid what: the score less each own count
        detail = after.hands[-1].detail
        return event, {"ok": True, "points": detail["points"], "other_counts": detail.get("other_counts", {}),
                       "transfers": transfers}
    paid = after.hands[-1].detail["wins"][0]
    han, fu = (13 * paid["yakuman"], 0) if paid["yakuman"] else (paid["han"], paid["fu"])   # the scorer's way
    return event, {"ok": True, "han": han, "fu": fu, "yakuman": paid["yakuman"], "limit": paid["limit"],
                   "points": paid["points"], "yaku": named.get("result", {}).get("yaku", []), "transfers": transfers}


def _one_win(current: ledger.Game, data, winner: int, discarder: int | None, tsumo: bool,
             takes_pot: bool) -> dict:
    """The ledger's fields of one winner: the scored hand, or the numbers the player gave."""
    hand = _hand_of(data.get("hand"))
    pao = liable_seat(current, data, hand, winner)
    liability = {} if pao is None else {"pao": pao}
    if hand:
        request, result = ledger.score_hand(current, _with_pao(current, hand, pao), winner, discarder,
                                          tsumo, takes_pot)
        if not result.get("ok"):
            err = result.get("error", {})
            raise PlayerError(422, "bad_hand", err.get("message", ""), code=err.get("code", "bad_hand"))
        if pao is not None:
            liability["pao_yakuman"] = covered_yakuman(result)
        return {"result": result, "request": request, **liability}
    numbers = _win_by_numbers(current.config, data, tsumo)
    if current.config.rules == "riichi":
        numbers.update(named_yaku.named(data, numbers))     # the yaku picked, kept as a tiles win keeps them
    if pao is not None:
        liability["pao_yakuman"] = covered_by_numbers(data, numbers.get("yakuman", 0))
    return {**numbers, **liability}


def _several(current: ledger.Game, data, entries: list[dict]) -> dict:
    """Several players won on one discard: each hand scored on its own, the first in turn
    from the discarder taking the honba and the riichi sticks."""
    config = current.config
    if config.rules != "riichi":
        raise PlayerError(400, "bad_field", "winners: under these rules only one player wins a discard "
                                            "(the first in turn from the discarder)")
    if _is_tsumo(data):
        raise PlayerError(400, "bad_field", "winners: a tsumo has one winner; several winners need a ron")
    discarder = seat(data.get("discarder"), "discarder", config.n)
    if not 1 <= len(entries) < config.n:
        raise PlayerError(400, "bad_field", f"winners: 1 to {config.n - 1} players can win on one discard")
    winners = [seat(e.get("winner"), "winner", config.n) for e in entries]
    for w in winners:
        if w == discarder:
            raise PlayerError(400, "bad_field", f"winners: {config.players[w]} dealt in and cannot also win")
        if winners.count(w) > 1:
            raise PlayerError(400, "bad_field", f"winners: {config.players[w]} is named twice")
    first = min(winners, key=lambda w: (w - discarder) % config.n)
    wins = []
    for w, entry in zip(winners, entries):
        try:
            wins.append({"winner": w, **_one_win(current, entry, w, discarder, False, takes_pot=w == first)})
        except PlayerError as err:       # say whose hand it is
            raise PlayerError(err.status, err.key, f"{config.players[w]}: {err.detail}", err.code) from None
    _same_discard(config, wins)
    if len(wins) == 1:
        return {"type": "win", "discarder": discarder, **wins[0]}
    return {"type": "win", "discarder": discarder, "winners": wins}


def _same_discard(config, wins: list[dict]) -> None:
    """Everyone entered by tiles won on the one tile that was discarded (a red five is red for all)."""
    tiles = {w["winner"]: format_tiles(parse_tiles(w["request"]["win_tile"])) for w in wins if "request" in w}
    if len(set(tiles.values())) > 1:
        named = ", ".join(f"{config.players[w]} on {tile}" for w, tile in tiles.items())
        raise PlayerError(400, "bad_field", f"winners: all of them won on the one discarded tile, but the hands say "
                                            f"{named}")


def _winner_entries(value) -> list[dict] | None:
    """The `winners` of a form (a JSON string) or of a JSON event (a list); None when absent."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        value = parse_json(value, "winners")
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise PlayerError(400, "bad_field", "winners: a list of wins, like [{\"winner\": 1, \"han\": 2, \"fu\": 30}]")
    return value


def _hand_of(value) -> dict:
    """A hand's tiles and flags (an object, or its JSON in a form field); {} when not given."""
    if isinstance(value, str):
        if not value.strip():
            return {}
        value = parse_json(value, "hand")
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PlayerError(400, "bad_field", "hand: an object with the tiles is needed")
    return hand_counts(value)


def liable_seat(current: ledger.Game, data, hand: dict, winner: int) -> int | None:
    """The liable player (pao) as a seat index: `pao` of the win (a seat), or `pao` of the hand
    (a seat wind, as the scorer takes it); the two must agree."""
    config = current.config
    chosen = seat(data.get("pao"), "pao", config.n, optional=True)
    wind = hand.get("pao") if hand else None
    if wind not in (None, ""):
        if wind not in tuple(WIND_LETTERS[:config.n]):      # one letter: "SW" is in "ESWN", [1] no text
            raise PlayerError(400, "bad_field", f"hand pao: a seat wind ({', '.join(WIND_LETTERS[:config.n])})")
        from_wind = current.state.seat_of(wind)
        if chosen is not None and chosen != from_wind:
            raise PlayerError(400, "bad_field", "pao: the win and its hand name different liable players")
        chosen = from_wind
    if chosen is None:
        return None
    if config.rules != "riichi":
        raise PlayerError(400, "bad_field", "pao: a liable player is a riichi rule")
    if chosen == winner:
        raise PlayerError(400, "bad_field", "pao: the winner cannot be liable for their own hand")
    return chosen


def _with_pao(current: ledger.Game, hand: dict, pao: int | None) -> dict:
    without = {k: v for k, v in hand.items() if k != "pao"}
    return without if pao is None else {**without, "pao": current.state.seat_winds[pao]}


def covered_yakuman(result: dict) -> int:
    """How many of a scored hand's yakuman the liability covers (big three dragons, big four winds)."""
    return max(1, sum(y.get("han", 0) // 13 for y in result.get("yaku", []) if y.get("id") in PAO_YAKUMAN))


def covered_by_numbers(data, yakuman: int) -> int:
    """How many yakuman of a win entered by numbers the liable player covers: `pao_yakuman`,
    1 when not given (one big three dragons); 2 for big four winds paid as a double yakuman.
    Other yakuman in the hand are paid the usual way (docs/ledger.md)."""
    value = data.get("pao_yakuman")
    if value is None or (isinstance(value, str) and not value.strip()):
        return 1
    covered = integer(value, "pao_yakuman")
    if yakuman and not 1 <= covered <= yakuman:
        raise PlayerError(400, "bad_field", f"pao_yakuman: the liable player covers 1 to {yakuman} of this "
                                            f"hand's {yakuman} yakuman, not {str(covered)[:24]}", code="pao_yakuman")
    if not 1 <= covered <= MOST_YAKUMAN:
        raise PlayerError(400, "bad_field", f"pao_yakuman: the liable player covers 1 to {MOST_YAKUMAN} yakuman, "
                                            f"not {str(covered)[:24]}", code="pao_yakuman")
    return covered


def _win_by_numbers(config, data, tsumo: bool) -> dict:
    """A win entered without tiles: han and fu (riichi: refused in words when no hand is that;
    chips where the rules have them), the score and the losers' own counts (classical Chinese),
    or nothing more (Fundamentals pays the same for every win)."""
    if config.rules == "fundamentals":
        return {}
    if config.rules == "chinese-classical":
        body = {"points": integer(data.get("points"), "points", 1, MOST_CHINESE_POINTS)}
        counts = _losers_counts(data.get("other_counts"), config.n)
        return {**body, "other_counts": counts} if counts else body
    han = integer(data.get("han") or 0, "han", 0, MOST_HAN)
    fu = integer(data.get("fu") or 0, "fu", 0, MOST_FU)
    yakuman = integer(data.get("yakuman") or 0, "yakuman", 0, MOST_YAKUMAN)
    if han == 0 and not yakuman:
        raise PlayerError(400, "bad_field", "han: at least 1")
    if not yakuman:         # a yakuman's han and fu are not paid: nothing to check
        why = impossible(han, fu, tsumo, config.riichi_rules())
        if why:
            raise PlayerError(400, "bad_field", why, code="impossible_han_fu")
    body = {"han": han, "fu": fu}
    if yakuman:
        body["yakuman"] = yakuman
    chips = data.get("chips")
    if chips is not None and str(chips).strip() != "":
        if config.chips is None:
            raise PlayerError(400, "bad_field", "chips: this game plays no chips")
        body["chips"] = integer(chips, "chips", 0, MOST_CHIPS)
    return body


def _losers_counts(value, seats: int) -> dict[str, int]:
    """Each loser's own count by seat number, as the ledger takes them: from a form (JSON) or a
    JSON body, a seat left out or left empty counting 0."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return {}
    if isinstance(value, str):
        value = parse_json(value, "other_counts")
    if not isinstance(value, dict):
        raise PlayerError(400, "bad_field", "other_counts: each loser's own count by seat, like {\"1\": 8}")
    counts = {}
    for key, count in value.items():
        if count is None or (isinstance(count, str) and not count.strip()):
            continue
        counts[str(seat(key, "other_counts", seats))] = integer(count, "other_counts", 0, MOST_CHINESE_POINTS)
    return counts
