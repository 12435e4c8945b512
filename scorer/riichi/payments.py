"""Who pays whom for a riichi win: ron and tsumo, dealer and non-dealer, honba, riichi
sticks, three players, pao.

Seats are named by seat wind ("E" is the dealer); the riichi sticks on the table pay
from "pot". Every payment is rounded up to 100 per payer. The game ledger calls
`base_points` and `transfers` directly; their signatures are stable.
"""
from __future__ import annotations

from typing import Final

from .limits import base_points
from .rules import Rules
from ..errors import HandError

__all__ = ["base_points", "hand_transfers", "hand_value", "round_up", "seats_in_play", "stick_transfers",
           "transfers"]

SEATS: Final = ("E", "S", "W", "N")
HONBA_RON: Final = 300          # a honba stick is worth 300 on a ron ...
HONBA_TSUMO: Final = 100        # ... and 100 from each payer on a tsumo
RIICHI_STICK: Final = 1000


def seats_in_play(players: int) -> tuple[str, ...]:
    """The seat winds at the table: three-player has no North seat."""
    return SEATS[:3] if players == 3 else SEATS


def round_up(points: int) -> int:
    """Up to the next 100, as every payer rounds."""
    return -(-points // 100) * 100


def _ron(base: int, winner: str) -> int:
    return -(-base * (6 if winner == "E" else 4) // 100) * 100


def _tsumo_shares(base: int, winner: str, players: int, rules: Rules) -> list[tuple[str, int]]:
    """Each payer's share of a tsumo: the dealer pays (or, winning, takes) double."""
    single, double = -(-base // 100) * 100, -(-2 * base // 100) * 100      # each rounded up to 100
    shares = [(seat, double if "E" in (seat, winner) else single) for seat in SEATS if seat != winner]
    if players == 3:
        missing = next(points for seat, points in shares if seat == "N")
        shares = [(seat, points) for seat, points in shares if seat != "N"]
        if not rules.tsumo_loss:
            # North bisection: the two payers each take half the absent seat's share.
            half = round_up(-(-missing // 2))
            shares = [(seat, points + half) for seat, points in shares]
    return shares


def hand_value(base: int, winner: str, tsumo: bool, players: int, rules: Rules) -> int:
    """What the hand is worth before honba and sticks: the ron payment, or the sum of the
    tsumo shares (less than a ron in three-player with tsumo loss)."""
    if not tsumo:
        return _ron(base, winner)
    return sum(points for _, points in _tsumo_shares(base, winner, players, rules))


def transfers(*, base: int, winner: str, tsumo: bool, discarder: str = "", players: int = 4,
              honba: int = 0, riichi_sticks: int = 0, takes_pot: bool = True,
              pao: str = "", pao_base: int = 0, rules: Rules) -> list[dict]:
    """Every payment of one win, as contract transfers `{"from", "to", "points"}`.

    - `base`: the hand's base points (`base_points`); `winner`, `discarder`, `pao`: seat winds.
    - Ron: the discarder pays 4x base (6x when the winner is the dealer), rounded up to 100,
      and 300 a honba. Tsumo: each other seat pays 1x base, the dealer (or everyone, when the
      dealer wins) 2x, each rounded up to 100, plus 100 a honba from each payer.
    - Three players: the North seat is absent; on tsumo its share is not paid (tsumo loss)
      unless `rules.tsumo_loss` is off, when the two payers split it (north bisection).
    - `takes_pot` false (a later winner of a double ron): no honba and no riichi sticks.
      Otherwise the sticks come `{"from": "pot"}`, 1000 each.
    - Pao (`pao` the liable seat, `pao_base` the base of the yakuman it covers, at most `base`):
      on tsumo the liable seat alone pays that yakuman as if dealt in, and all the honba;
      on ron the liable seat and the discarder pay half of it each and the liable seat pays
      the honba. The rest of the hand, if any, is paid the usual way.
    Hand payments come first, then honba, then the pot; entries for one pair may repeat
    (hand, honba) and readers sum them.
    """
    liable, hand = hand_transfers(base=base, winner=winner, tsumo=tsumo, discarder=discarder, players=players,
                                  pao=pao, pao_base=pao_base, rules=rules)
    sticks = stick_transfers(winner=winner, tsumo=tsumo, discarder=discarder, players=players, honba=honba,
                             riichi_sticks=riichi_sticks, takes_pot=takes_pot, liable=liable)
    return [{"from": payer, "to": winner, "points": points}
            for payer, points in hand + sticks if points]


def hand_transfers(*, base: int, winner: str, tsumo: bool, discarder: str, players: int, pao: str,
                   pao_base: int, rules: Rules) -> tuple[str, list[tuple[str, int]]]:
    """The liable seat ("" if none) and the payments for the hand itself, as (payer, points)
    (see `transfers`); they depend on a few small values only, so the engine remembers them."""
    if winner not in seats_in_play(players):
        raise HandError("bad_flag_combination", f"there is no {winner!r} seat at a {players}-player table; "
                                                "three players sit East, South and West")
    if not tsumo and discarder not in seats_in_play(players):
        raise HandError("missing_discarder", "a ron needs the seat wind of the player who dealt in")
    liable = pao if pao and pao != winner and pao_base > 0 else ""
    if liable and not tsumo and liable == discarder:
        liable = ""  # the liable player dealt in: an ordinary ron
    covered = min(pao_base, base) if liable else 0
    rest = base - covered

    if covered:
        value = _ron(covered, winner)
        hand = [(liable, value)] if tsumo else [(liable, value // 2), (discarder, value - value // 2)]
        if rest:
            hand += _tsumo_shares(rest, winner, players, rules) if tsumo else [(discarder, _ron(rest, winner))]
        return liable, _merge(hand)
    return liable, _tsumo_shares(base, winner, players, rules) if tsumo else [(discarder, _ron(base, winner))]


def stick_transfers(*, winner: str, tsumo: bool, discarder: str, players: int, honba: int, riichi_sticks: int,
                    takes_pot: bool, liable: str) -> list[tuple[str, int]]:
    """The honba and the riichi sticks on the table, as (payer, points) (see `transfers`)."""
    sticks: list[tuple[str, int]] = []
    if takes_pot and honba:
        if liable:
            sticks.append((liable, honba * HONBA_RON))
        elif tsumo:
            sticks += [(seat, honba * HONBA_TSUMO) for seat in seats_in_play(players) if seat != winner]
        else:
            sticks.append((discarder, honba * HONBA_RON))
    if takes_pot and riichi_sticks:
        sticks.append(("pot", riichi_sticks * RIICHI_STICK))
    return sticks


def _merge(payments: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """One hand payment per payer, in seat order."""
    total: dict[str, int] = {}
    for payer, points in payments:
        total[payer] = total.get(payer, 0) + points
    return sorted(total.items(), key=lambda item: SEATS.index(item[0]))
