"""A member's statistics over a season (or any set of games), each with its sample size.

Built from the games' summaries (scorer/club.py) without replaying anything, like the
standings. Every rate is a `Rate`, a count over what it is counted against, and every
average a `Mean`, a total over how many, so a page shows "12 of 80 (15%)" and never a bare
percentage of a handful:

| statistic | counted over |
| --- | --- |
| placement shares, average placement, average score and result, busted | games |
| win, deal-in and riichi rates | hands dealt while seated (wins, draws, abortive draws) |
| tsumo share, average win value | wins in games with hand detail |
| average deal-in value | deal-ins in games with hand detail (a double ron: both hands) |
| riichi success (riichi that won the hand) | riichi in games with hand detail |
| calls (wins made with an open hand) | wins whose calls are known: entered by tiles, or ticked open/closed |
| yaku frequencies | wins in games with hand detail (what share of wins had each yaku) |
| dora per win (dora, red fives, ura, north) | wins whose dora are known |
| best hands | the wins kept with the games (when the caller read them) |

"Busted" (tobi) is a game ended below zero points. A win's value is the hand's own (before
honba and riichi sticks); a deal-in's is the value of the hand dealt into. Tenbou records calls
only for hands that won, so the calls rate is the share of wins made with calls, not the
share of all hands opened. Games kept before the hand detail was (summary `detail` 0) count
for everything except the rows "in games with hand detail".
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .club import BEST_HANDS, DETAIL_VERSION, GameSummary, WinLine, count_seat, member_lines
from .club_detail import add_detail


@dataclass(frozen=True)
class Rate:
    count: int
    of: int

    @property
    def value(self) -> float | None:
        return self.count / self.of if self.of else None

    def to_json(self) -> dict:
        value = self.value
        return {"count": self.count, "of": self.of, "rate": None if value is None else round(value, 4)}


@dataclass(frozen=True)
class Mean:
    total: float
    of: int

    @property
    def value(self) -> float | None:
        return self.total / self.of if self.of else None

    def to_json(self) -> dict:
        value = self.value
        return {"total": self.total, "of": self.of, "mean": None if value is None else round(value, 3)}


@dataclass
class MemberStats:
    """One member's figures over the games given, under one rule set."""
    member: str
    name: str
    rules: str
    games: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    last: int = 0
    score_total: int = 0
    result_total: int = 0
    busted: int = 0
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    # counted in games with hand detail only
    detail_wins: int = 0
    detail_deal_ins: int = 0
    detail_riichi: int = 0
    tsumo_wins: int = 0
    win_points: int = 0
    deal_in_points: int = 0
    riichi_wins: int = 0
    open_wins: int = 0
    told_open: int = 0
    dora: int = 0
    told_dora: int = 0
    yaku: dict[str, int] = field(default_factory=dict)
    best: list[WinLine] = field(default_factory=list)

    # --- the figures, each with its sample ---
    def place_shares(self) -> list[Rate]:
        return [Rate(c, self.games) for c in self.places]

    @property
    def average_place(self) -> Mean:
        return Mean(sum((i + 1) * c for i, c in enumerate(self.places)), self.games)

    @property
    def average_score(self) -> Mean:
        return Mean(self.score_total, self.games)

    @property
    def average_result(self) -> Mean:
        return Mean(self.result_total, self.games)

    @property
    def bust_rate(self) -> Rate:
        return Rate(self.busted, self.games)

    @property
    def win_rate(self) -> Rate:
        return Rate(self.wins, self.hands)

    @property
    def tsumo_share(self) -> Rate:
        """Wins by tsumo; the rest of the same wins were by ron."""
        return Rate(self.tsumo_wins, self.detail_wins)

    @property
    def ron_share(self) -> Rate:
        return Rate(self.detail_wins - self.tsumo_wins, self.detail_wins)

    @property
    def average_win(self) -> Mean:
        return Mean(self.win_points, self.detail_wins)

    @property
    def deal_in_rate(self) -> Rate:
        return Rate(self.deal_ins, self.hands)

    @property
    def average_deal_in(self) -> Mean:
        return Mean(self.deal_in_points, self.detail_deal_ins)

    @property
    def riichi_rate(self) -> Rate:
        return Rate(self.riichi, self.hands)

    @property
    def riichi_success(self) -> Rate:
        return Rate(self.riichi_wins, self.detail_riichi)

    @property
    def calls_rate(self) -> Rate:
        return Rate(self.open_wins, self.told_open)

    @property
    def dora_per_win(self) -> Mean:
        return Mean(self.dora, self.told_dora)

    def yaku_rates(self) -> list[tuple[str, Rate]]:
        """Each yaku seen, most frequent first (then by id), over the wins with hand detail."""
        return [(name, Rate(count, self.detail_wins))
                for name, count in sorted(self.yaku.items(), key=lambda item: (-item[1], item[0]))]

    def to_json(self) -> dict:
        return {"member": self.member, "name": self.name, "rules": self.rules, "games": self.games,
                "places": [r.to_json() for r in self.place_shares()], "lasts": Rate(self.last, self.games).to_json(),
                "average_place": self.average_place.to_json(), "average_score": self.average_score.to_json(),
                "average_result": self.average_result.to_json(), "busted": self.bust_rate.to_json(),
                "hands": self.hands, "win_rate": self.win_rate.to_json(), "tsumo": self.tsumo_share.to_json(),
                "ron": self.ron_share.to_json(), "average_win": self.average_win.to_json(),
                "deal_in_rate": self.deal_in_rate.to_json(), "average_deal_in": self.average_deal_in.to_json(),
                "riichi_rate": self.riichi_rate.to_json(), "riichi_success": self.riichi_success.to_json(),
                "calls": self.calls_rate.to_json(), "dora_per_win": self.dora_per_win.to_json(),
                "yaku": [{"id": name, **rate.to_json()} for name, rate in self.yaku_rates()],
                "best": [w.to_json() for w in self.best]}


def member_stats(games: Iterable[tuple[GameSummary, Mapping[int, str]]], names: Mapping[str, str],
                 best: int = BEST_HANDS) -> dict[str, dict[str, MemberStats]]:
    """Each rule set's statistics, member id -> MemberStats, over `games`: (summary, seat ->
    member id) pairs as `scorer.club.standings` takes them (a guest's seat names nobody). Best
    hands come from the summaries' wins, where they were read."""
    table: dict[tuple[str, str], MemberStats] = {}
    for summary, line, member in member_lines(games):
        row = table.get((summary.rules, member))
        if row is None:
            row = table[(summary.rules, member)] = MemberStats(member, names.get(member, line.name), summary.rules)
        count_seat(row, summary, line)
        row.score_total += line.score
        row.result_total += line.result
        row.busted += line.score < 0
        if summary.detail >= DETAIL_VERSION:
            row.detail_wins += line.wins
            row.detail_deal_ins += line.deal_ins
            row.detail_riichi += line.riichi
            add_detail(row, line)
        if summary.wins:
            row.best.extend(w for w in summary.wins if w.seat == line.seat)
    by_rules: dict[str, dict[str, MemberStats]] = {}
    for (rules, member), row in table.items():
        row.best = heapq.nlargest(best, row.best, key=_rank)      # stable: the earlier of equal hands first
        by_rules.setdefault(rules, {})[member] = row
    return by_rules


def _rank(win: WinLine) -> tuple:
    return (win.yakuman, win.han, win.points, win.fu)
