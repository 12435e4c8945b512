"""Settling a game or a session: final scores, placement, return points and oka, uma,
chombo penalties, chips, money at a rate, and the shortest list of who pays whom.

Pure: takes configs and replayed states, returns a `Settlement`. Money is counted in
cents so that every sheet adds up exactly.
"""
from __future__ import annotations

from dataclasses import dataclass

from .game.config import GameConfig
from .game.state import GameState

HOUSE = "the table"     # balances a sheet that does not add up (riichi sticks lost at the end)


@dataclass(frozen=True)
class Standing:
    name: str
    seat: int
    score: int              # final points at the table
    place: int              # 1 = first; ties go to the seat nearer the first dealer
    uma: int
    oka: int
    penalty: int            # chombo penalty off the result (shared out among the others)
    result: int             # score - return points + uma + oka - penalty (+ share of others' penalties)
    chips: int
    chip_money: int         # cents the chips are worth, settled apart from the points
    money: int              # cents, points and chips together

    def to_json(self) -> dict:
        return {"name": self.name, "seat": self.seat, "score": self.score, "place": self.place,
                "uma": self.uma, "oka": self.oka, "penalty": self.penalty, "result": self.result,
                "chips": self.chips, "chip_money": self.chip_money / 100, "money": self.money / 100}


@dataclass(frozen=True)
class GameSheet:
    rules: str
    finished: bool
    end_reason: str
    standings: tuple[Standing, ...]     # in placement order

    def to_json(self) -> dict:
        return {"rules": self.rules, "finished": self.finished, "end_reason": self.end_reason,
                "standings": [s.to_json() for s in self.standings]}


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    cents: int

    def to_json(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": self.cents / 100}


@dataclass(frozen=True)
class Settlement:
    games: tuple[GameSheet, ...]
    totals: dict                      # name -> {"result", "chips", "money" (cents)}
    payments: tuple[Payment, ...]
    currency: str = ""

    def to_json(self) -> dict:
        return {"games": [g.to_json() for g in self.games],
                "totals": {name: {"result": t["result"], "chips": t["chips"], "money": t["money"] / 100}
                           for name, t in self.totals.items()},
                "payments": [p.to_json() for p in self.payments], "currency": self.currency}


def game_sheet(config: GameConfig, state: GameState) -> GameSheet:
    n = config.n
    places = state.placement()
    penalties = state.penalties or (0,) * n
    shared = _penalty_shares(penalties)
    standings = []
    for place, s in enumerate(places):
        oka = config.oka if place == 0 else 0
        result = state.scores[s] - config.return_points + config.uma[place] + oka - penalties[s] + shared[s]
        chips = state.chips[s] if state.chips else 0
        chip_money = _cents(chips * config.chips.value) if config.chips else 0
        money = _cents(result * config.rate / config.rate_per) + chip_money
        standings.append(Standing(config.players[s], s, state.scores[s], place + 1, config.uma[place],
                                  oka, penalties[s], result, chips, chip_money, money))
    standings = _round_to_zero(standings, config, sum(st.result for st in standings))
    return GameSheet(config.rules, state.finished, state.end_reason, tuple(standings))


def _penalty_shares(penalties: tuple[int, ...]) -> list[int]:
    """A chombo penalty is shared out among the other players (so the sheet adds up),
    any remainder to the seats nearest the first dealer."""
    n = len(penalties)
    shares = [0] * n
    for offender, penalty in enumerate(penalties):
        others = [s for s in range(n) if s != offender]
        for i, s in enumerate(others):
            shares[s] += penalty // len(others) + (1 if i < penalty % len(others) else 0)
    return shares


def _round_to_zero(standings: list[Standing], config: GameConfig, results: int) -> list[Standing]:
    """Rounding each player's money to the cent can leave a cent or two over: first place
    absorbs it, so the sheet adds up to what the results say (zero, unless sticks were lost)."""
    expected = _cents(results * config.rate / config.rate_per)
    expected += sum(st.chip_money for st in standings)
    diff = sum(st.money for st in standings) - expected
    if diff and standings:
        first = standings[0]
        standings[0] = Standing(**{**vars(first), "money": first.money - diff})
    return standings


def _cents(amount: float) -> int:
    return int(round(amount * 100))


def settle(config: GameConfig, games: list[GameState]) -> Settlement:
    """One game or a session of games with the same set-up."""
    return settle_session([(config, g) for g in games])


def settle_session(games: list[tuple[GameConfig, GameState]]) -> Settlement:
    """A session whose games may differ in set-up; players are matched by name."""
    sheets = tuple(game_sheet(c, s) for c, s in games)
    totals: dict[str, dict] = {}
    for sheet in sheets:
        for st in sheet.standings:
            t = totals.setdefault(st.name, {"result": 0, "chips": 0, "money": 0})
            t["result"] += st.result
            t["chips"] += st.chips
            t["money"] += st.money
    balances = {name: t["money"] for name, t in totals.items()}
    off = sum(balances.values())
    if off:
        balances[HOUSE] = -off
    currency = games[0][0].currency if games else ""
    return Settlement(sheets, totals, tuple(fewest_payments(balances)), currency)


def fewest_payments(balances: dict[str, int]) -> list[Payment]:
    """The fewest payments that settle the balances (positive: is owed). The fewest is the
    number of people owing or owed, less the most groups that settle among themselves;
    found exactly over subsets for up to 16 people, greedily above that."""
    people = [(name, amount) for name, amount in balances.items() if amount]
    if len(people) <= 16:
        groups = _zero_sum_groups([a for _, a in people])
    else:
        groups = [list(range(len(people)))]
    payments = []
    for group in groups:
        payments += _settle_group([people[i] for i in group])
    return payments


def _zero_sum_groups(amounts: list[int]) -> list[list[int]]:
    n = len(amounts)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + amounts[low]
    best = [0] * (1 << n)
    for mask in range(1, 1 << n):
        bits = [i for i in range(n) if mask >> i & 1]
        best[mask] = max(best[mask ^ (1 << i)] for i in bits) + (total[mask] == 0)
    order = []
    mask = full
    while mask:
        for i in range(n):
            if mask >> i & 1 and best[mask] == best[mask ^ (1 << i)] + (total[mask] == 0):
                order.append(i)
                mask ^= 1 << i
                break
    order.reverse()
    groups, current, running = [], [], 0
    for i in order:
        current.append(i)
        running += amounts[i]
        if running == 0:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def _settle_group(members: list[tuple[str, int]]) -> list[Payment]:
    """Largest debtor pays largest creditor until the group is square."""
    owed = dict(members)
    payments = []
    while True:
        creditors = sorted((a, n) for n, a in owed.items() if a > 0)
        debtors = sorted((a, n) for n, a in owed.items() if a < 0)
        if not creditors or not debtors:
            return payments
        credit, creditor = creditors[-1]
        debt, debtor = debtors[0]
        amount = min(credit, -debt)
        payments.append(Payment(debtor, creditor, amount))
        owed[creditor] -= amount
        owed[debtor] += amount
