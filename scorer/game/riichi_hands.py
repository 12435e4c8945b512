"""The riichi ledger's events: riichi, wins (single, double, triple ron, pao, chips),
exhaustive draws (noten payments, nagashi mangan), abortive draws and chombo."""
from __future__ import annotations

from dataclasses import replace

from ..errors import HandError
from ..limits import MOST_CHIPS, MOST_FU, MOST_HAN, MOST_YAKUMAN
from ..riichi import payments
from .config import GameConfig
from .errors import LedgerError, shown
from .hands import by_seat, pay, record, seat, seats
from .riichi_end import after_hand
from .state import RIICHI_STICK, GameState

YAKUMAN_BASE = 8000
MANGAN_BASE = 2000
VALID_FU = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
ABORTIVE_REASONS = ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")


def declare_riichi(config: GameConfig, state: GameState, event: dict) -> GameState:
    who = seat(config, event.get("seat"), "seat")
    name = config.players[who]
    if state.riichi[who]:
        raise LedgerError("already_in_riichi", f"{name} is already in riichi this hand")
    if config.table.riichi_needs_1000 and state.scores[who] < RIICHI_STICK:
        raise LedgerError("riichi_refused", f"{name} has {state.scores[who]} points; riichi needs "
                                            f"1000 to put on the table")
    scores = list(state.scores)
    scores[who] -= RIICHI_STICK
    riichi = tuple(r or s == who for s, r in enumerate(state.riichi))
    return replace(state, scores=tuple(scores), riichi=riichi, riichi_sticks=state.riichi_sticks + 1)


def late_pon(config: GameConfig, state: GameState, event: dict) -> GameState:
    """A pon declared only when the caller's own turn came round (the book: "you'll have to pay
    1,000 points to the pot for not paying attention!"). The points go on the table as riichi
    sticks do, for the next winner; mid-hand, like a riichi: the hand's log entry names the seat (`detail["late_pon"]`)."""
    penalty = config.table.late_pon_penalty
    if not penalty:
        raise LedgerError("bad_event", f"the {config.preset} rules have no penalty for a late pon; "
                                       "set the table option late_pon_penalty to play one")
    who = seat(config, event.get("seat"), "seat")
    if state.riichi[who]:
        raise LedgerError("bad_event", f"{config.players[who]} is in riichi, so calls no pon, late or not")
    scores = list(state.scores)
    scores[who] -= penalty
    return replace(state, scores=tuple(scores), riichi_sticks=state.riichi_sticks + penalty // RIICHI_STICK,
                   late_pons=state.late_pons + (who,))


def win(config: GameConfig, state: GameState, event: dict) -> GameState:
    entries = event["winners"] if "winners" in event else [event]
    if not isinstance(entries, list) or not entries:
        raise LedgerError("bad_event", "winners is a list of wins, like [{\"winner\": 1, \"han\": 2, \"fu\": 30}]")
    discarder = event.get("discarder")
    if discarder is not None:
        discarder = seat(config, discarder, "discarder")
    wins = [_read_win(config, state, e, discarder) for e in entries]
    winners = [w["winner"] for w in wins]
    if len(set(winners)) != len(winners):
        raise LedgerError("bad_event", "the same player is named as a winner twice")
    if len(wins) > 1 and discarder is None:
        raise LedgerError("bad_event", "only a discard can be won by several players at once; name the discarder")
    if len(wins) >= config.n:
        raise LedgerError("bad_event", "the discarder cannot be among the winners")
    wins.sort(key=lambda w: (w["winner"] - (discarder or 0)) % config.n)   # first in turn from the discarder
    note = ""
    if len(wins) == 3:
        if config.table.triple_ron == "abort":
            return abortive(config, state, {"reason": "triple_ron"})
        if config.table.triple_ron == "head_bump":
            wins, note = wins[:1], "head bump: only the first in turn from the discarder wins"
    if len(wins) == 2 and not config.table.double_ron:
        wins, note = wins[:1], "head bump: only the first in turn from the discarder wins"
    rules = config.riichi_rules()
    winds = state.seat_winds
    transfers, details, chips = [], [], [0] * config.n
    for i, w in enumerate(wins):
        base, limit = payments.base_points(w["han"], w["fu"], w["yakuman"], rules)
        try:
            paid = payments.transfers(
                base=base, winner=winds[w["winner"]], tsumo=discarder is None,
                discarder=winds[discarder] if discarder is not None else "", players=config.n,
                honba=state.honba, riichi_sticks=state.riichi_sticks, takes_pot=i == 0,
                pao=winds[w["pao"]] if w["pao"] is not None else "",
                pao_base=YAKUMAN_BASE * w["pao_yakuman"], rules=rules)
        except HandError as error:
            raise LedgerError(error.code, error.message) from None
        paid = by_seat(state, paid)
        transfers += paid
        details.append({"winner": w["winner"], "han": w["han"], "fu": w["fu"], "yakuman": w["yakuman"],
                        "limit": limit, "points": payments.hand_value(base, winds[w["winner"]],
                                                                      discarder is None, config.n, rules),
                        "pao": w["pao"], "chips": w["chips"]})
        _chip_payments(chips, w, discarder, config.n)
    state = pay(state, transfers)
    state = replace(state, chips=tuple(a + b for a, b in zip(state.chips, chips)))
    detail = {"discarder": discarder, "tsumo": discarder is None, "wins": details}
    if note:
        detail["note"] = note
    state = record(state, "win", transfers, detail)
    dealer_keeps = state.dealer in [w["winner"] for w in wins]
    return after_hand(config, state, "win", dealer_keeps, state.honba + 1 if dealer_keeps else 0)


def _read_win(config: GameConfig, state: GameState, e: dict, discarder: int | None) -> dict:
    if not isinstance(e, dict):
        raise LedgerError("bad_event", "each win is an object with winner and han/fu, yakuman or result")
    winner = seat(config, e.get("winner"), "winner")
    if winner == discarder:
        raise LedgerError("bad_event", f"{config.players[winner]} cannot win on their own discard; "
                                       f"leave out the discarder for a tsumo")
    result = e.get("result")
    source = result if isinstance(result, dict) else e
    if result is not None and (not isinstance(result, dict) or not result.get("ok", True)):
        raise LedgerError("bad_event", "result must be the scorer's response for a valid hand")
    han, fu, yakuman = source.get("han", 0), source.get("fu", 0), source.get("yakuman", 0)
    for name, value, most in (("han", han, MOST_HAN), ("fu", fu, MOST_FU), ("yakuman", yakuman, MOST_YAKUMAN)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
            raise LedgerError("bad_event", f"{name} is a whole number from 0 to {most}, not {shown(value)}")
    if yakuman == 0 and han == 0:
        raise LedgerError("bad_event", "a win needs its han (and fu below mangan), its yakuman, or the scored result")
    if yakuman == 0 and han < 5 and fu not in VALID_FU:
        raise LedgerError("bad_event", f"{han} han needs fu: 20, 25, 30, ... 110, not {shown(fu)}")
    pao = e.get("pao")
    if pao is not None:
        pao = seat(config, pao, "pao")
        if pao == winner:
            raise LedgerError("bad_event", "the winner cannot be liable (pao) for their own hand")
        if yakuman == 0:
            raise LedgerError("bad_event", "pao covers a yakuman (big three dragons, big four winds); "
                                           "this hand has none")
    pao_yakuman = e.get("pao_yakuman", 1 if pao is not None else 0)
    if isinstance(pao_yakuman, bool) or not isinstance(pao_yakuman, int) or not 0 <= pao_yakuman <= max(yakuman, 1):
        raise LedgerError("bad_event", f"pao_yakuman is how many of the hand's yakuman the liability covers, "
                                       f"not {shown(pao_yakuman)}")
    return {"winner": winner, "han": han, "fu": fu, "yakuman": yakuman, "pao": pao,
            "pao_yakuman": pao_yakuman, "chips": _chip_count(config, e, result)}


def _chip_count(config: GameConfig, e: dict, result: dict | None) -> int:
    if config.chips is None:
        return 0
    if "chips" in e:
        count = e["chips"]
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MOST_CHIPS:
            raise LedgerError("bad_event", f"chips is a whole number from 0 to {MOST_CHIPS:,}, not {shown(count)}")
        return count
    if not result:
        return 0
    return chips_of_result(config, result)


def chips_of_result(config: GameConfig, result: dict) -> int:
    """The chips a scored riichi hand earns: ippatsu, each ura dora and red five, each yakuman."""
    listed = result.get("yaku", [])
    if not isinstance(listed, list) or not all(
            isinstance(y, dict) and isinstance(y.get("id"), str) and _count(y.get("han", 0)) for y in listed) \
            or not _count(result.get("yakuman", 0)):
        raise LedgerError("bad_event", "result must be the scorer's response for a valid hand")
    yaku = {y["id"]: y.get("han", 0) for y in listed}
    c = config.chips
    if c is None:
        return 0
    return int(c.ippatsu * ("ippatsu" in yaku) + c.ura * yaku.get("ura_dora", 0)
               + c.aka * yaku.get("aka_dora", 0) + c.yakuman * result.get("yakuman", 0))


def _count(value) -> bool:
    """Whether `value` is a count a scored hand can hold (0 to a few hundred han)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 1_000


def _chip_payments(chips: list[int], w: dict, discarder: int | None, n: int) -> None:
    payers = [discarder] if discarder is not None else [s for s in range(n) if s != w["winner"]]
    for p in payers:
        chips[p] -= w["chips"]
        chips[w["winner"]] += w["chips"]


def draw(config: GameConfig, state: GameState, event: dict) -> GameState:
    tenpai = seats(config, event.get("tenpai", []), "tenpai")
    nagashi = seats(config, event.get("nagashi_mangan", []), "nagashi_mangan")
    for s, in_riichi in enumerate(state.riichi):
        if in_riichi and s not in tenpai:
            raise LedgerError("bad_event", f"{config.players[s]} declared riichi, so is ready (tenpai) at the "
                                           f"draw; a riichi that was not ready is a chombo")
    rules = config.riichi_rules()
    if nagashi and not rules.nagashi_mangan:
        raise LedgerError("bad_event", f"the {config.preset} rules have no nagashi mangan")
    if nagashi:
        # Paid as a mangan tsumo each, without honba or sticks; no noten payments.
        transfers = []
        for s in nagashi:
            transfers += by_seat(state, payments.transfers(
                base=MANGAN_BASE, winner=state.seat_winds[s], tsumo=True, players=config.n,
                takes_pot=False, rules=rules))
    else:
        transfers = noten_payments(config, tenpai)
    state = pay(state, transfers)
    state = record(state, "draw", transfers, {"tenpai": list(tenpai), "nagashi_mangan": list(nagashi)})
    return after_hand(config, state, "draw", state.dealer in tenpai, state.honba + 1)


def noten_payments(config: GameConfig, tenpai: tuple[int, ...]) -> list[dict]:
    """The noten payments: 3000 (2000 with three players) from those not ready to those
    ready, each not-ready player paying each ready one an equal share."""
    total = config.table.noten_total or (3000 if config.n == 4 else 2000)
    noten = [s for s in range(config.n) if s not in tenpai]
    if not tenpai or not noten:
        return []
    share = total // (len(tenpai) * len(noten))
    return [{"from": loser, "to": ready, "points": share} for loser in noten for ready in tenpai]


def abortive(config: GameConfig, state: GameState, event: dict) -> GameState:
    reason = event.get("reason")
    if reason not in ABORTIVE_REASONS:
        raise LedgerError("bad_event", f"an abortive draw's reason is one of {', '.join(ABORTIVE_REASONS)}, "
                                       f"not {shown(reason)}")
    if reason != "triple_ron" and not config.table.abortive_draws:
        raise LedgerError("no_abortive_draws", f"the {config.preset} rules have no abortive draws; play the hand on")
    if reason == "four_riichi" and not (config.n == 4 and all(state.riichi)):
        raise LedgerError("bad_event", "four riichi needs all four players in riichi; record their riichi first")
    state = record(state, "abortive_draw", [], {"reason": reason})
    return after_hand(config, state, "abortive_draw", True, state.honba + 1)


def chombo(config: GameConfig, state: GameState, event: dict) -> GameState:
    """A chombo voids the hand: riichi deposits of this hand go back, the same dealer deals
    again with the same honba; the offender pays a reverse mangan or takes the penalty."""
    who = seat(config, event.get("seat"), "seat")
    refunds = [{"from": "pot", "to": s, "points": RIICHI_STICK} for s, r in enumerate(state.riichi) if r]
    if config.table.chombo == "reverse_mangan":
        dealer = state.dealer
        fines = [{"from": who, "to": s, "points": 4000 if dealer in (who, s) else 2000}
                 for s in range(config.n) if s != who]
    else:
        fines = []
    state = pay(state, refunds + fines)
    if config.table.chombo == "penalty":
        penalties = list(state.penalties)
        penalties[who] += config.table.chombo_penalty
        state = replace(state, penalties=tuple(penalties))
    state = record(state, "chombo", refunds + fines, {"seat": who, "penalty": config.table.chombo == "penalty"})
    return after_hand(config, state, "chombo", True, state.honba)
