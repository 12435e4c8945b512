"""All-last conditions (オーラス条件): in the last hand of a riichi game, what each player needs
to move up a place.

For every seat and every place above it, `conditions` works out:

- ron off each other player: the smallest hand that does it, or None when even a yakuman does
  not (a ron takes from one player only, so off the player just above counts double);
- tsumo: the smallest hand, paid by everyone (the dealer's share doubled);
- what an exhaustive draw does: every way the players can be ready (tenpai) or not, with the
  noten payments, and for each seat the ways that move it up.

"Smallest" is the hand paying least (with its payment beside it), named the way players say
it where several pay alike (2 han 40 fu rather than 1 han 80 fu; mangan, haneman, baiman,
sanbaiman, yakuman above), among the hands that exist (`scorer.riichi.han_fu.impossible` rules out e.g. 1 han 20 fu). Payments are the
scorer's own (`scorer.riichi.payments.transfers`): dealer or not, honba, the riichi sticks on
the table going to the winner, three players with their tsumo rules, kiriage mangan where the
rules have it. A draw is played by the ledger itself (`scorer.game.apply`), so the game's
table rules decide whether it ends there and who takes the sticks left on the table.

Places are as the settlement counts them: by points, a tie going to the seat nearer the first
dealer; uma and oka change the results, not the order. A condition says where the players
stand after the hand. It does not say whether the game ends there: a dealer who wins or is
ready plays on (unless agari-yame or tenpai-yame ends it in the lead), and where nobody reaches
the return points the game may go on to sudden death; the draw outcomes carry `ends`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from .game.config import GameConfig
from .game.errors import LedgerError
from .game.replay import apply
from .game.state import GameState
from .riichi import payments
from .riichi.han_fu import FU_VALUES, impossible
from .riichi.limits import base_points
from .riichi.rules import Rules

# Limit hands by their han (a counted 13 han is a kazoe yakuman or sanbaiman, as the rules say);
# a yakuman is offered as itself, the largest hand tried.
LIMIT_HAN = (5, 6, 8, 11)
LIMIT_NAMES = {"mangan": "mangan", "kiriage_mangan": "mangan", "haneman": "haneman", "baiman": "baiman",
               "sanbaiman": "sanbaiman", "kazoe_yakuman": "yakuman", "yakuman": "yakuman"}


@dataclass(frozen=True)
class Hand:
    """A winning hand's value as a condition names it."""
    han: int
    fu: int                     # 0 at mangan and above
    yakuman: int
    base: int                   # base points: what the payments are made from
    limit: str | None

    @property
    def label(self) -> str:
        if self.yakuman:
            return "yakuman"
        if self.limit:
            return LIMIT_NAMES.get(self.limit, self.limit)
        return f"{self.han} han {self.fu} fu"

    def event(self) -> dict:
        """The ledger's numbers for this hand (a win event's han/fu or yakuman)."""
        return {"yakuman": self.yakuman} if self.yakuman else {"han": self.han, "fu": self.fu}

    def to_json(self) -> dict:
        return {"han": self.han, "fu": self.fu, "yakuman": self.yakuman, "limit": self.limit, "label": self.label}


@dataclass(frozen=True)
class Need:
    """What moves a seat up to `place` (or better) in this hand."""
    place: int
    ron: tuple[tuple[int, Hand | None], ...]     # (the seat dealing in, the smallest hand), each other seat
    ron_points: tuple[tuple[int, int | None], ...]   # what that ron pays, before honba and sticks
    tsumo: Hand | None
    tsumo_points: int | None                     # all the tsumo's payments together, before honba

    def ron_off(self, seat: int) -> Hand | None:
        return dict(self.ron)[seat]

    def to_json(self) -> dict:
        return {"place": self.place,
                "ron": [{"from": s, "hand": h.to_json() if h else None, "points": p}
                        for (s, h), (_, p) in zip(self.ron, self.ron_points)],
                "tsumo": self.tsumo.to_json() if self.tsumo else None, "tsumo_points": self.tsumo_points}


@dataclass(frozen=True)
class DrawOutcome:
    """An exhaustive draw with these seats ready (tenpai): the scores after the noten payments
    (and after the sticks left on the table, where the game ends and the rules give them to first
    place), each seat's place, and whether the game ends."""
    tenpai: tuple[int, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]     # by seat, 1 = first
    ends: bool

    def to_json(self) -> dict:
        return {"tenpai": list(self.tenpai), "scores": list(self.scores), "places": list(self.places),
                "ends": self.ends}


@dataclass(frozen=True)
class SeatConditions:
    seat: int
    place: int
    score: int
    needs: tuple[Need, ...]                     # one per place above, the next place first; none in first
    draw_up: tuple[tuple[int, ...], ...]        # the tenpai sets of a draw that move this seat up

    @property
    def next_place(self) -> Need | None:
        return self.needs[0] if self.needs else None

    def to_json(self) -> dict:
        return {"seat": self.seat, "place": self.place, "score": self.score,
                "needs": [n.to_json() for n in self.needs], "draw_up": [list(t) for t in self.draw_up]}


@dataclass(frozen=True)
class Conditions:
    seats: tuple[SeatConditions, ...]
    draws: tuple[DrawOutcome, ...]

    def to_json(self) -> dict:
        return {"seats": [s.to_json() for s in self.seats], "draws": [d.to_json() for d in self.draws]}


def is_all_last(config: GameConfig, state: GameState) -> bool:
    """Whether the hand being played is the game's last by the length (or in its extension)."""
    if config.rules != "riichi" or state.finished:
        return False
    last_round = config.rounds - 1
    return state.round_wind > last_round or (state.round_wind == last_round and state.hand == config.n - 1)


def places_of(scores: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's place (1 = first): by points, a tie to the seat nearer the first dealer."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    places = [0] * len(scores)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return tuple(places)


def conditions(config: GameConfig, state: GameState) -> Conditions:
    """Every seat's conditions in the hand `state` is at (any hand; meant for the last)."""
    if config.rules != "riichi":
        raise ValueError("all-last conditions are worked out for riichi games")
    rules = config.riichi_rules()
    n = config.n
    places = places_of(state.scores)
    draws = draw_outcomes(config, state)
    seats = []
    for seat in range(n):
        needs = tuple(_need(state, rules, seat, target) for target in range(places[seat] - 1, 0, -1))
        draw_up = tuple(d.tenpai for d in draws if d.places[seat] < places[seat])
        seats.append(SeatConditions(seat, places[seat], state.scores[seat], needs, draw_up))
    return Conditions(tuple(seats), draws)


def _need(state: GameState, rules: Rules, seat: int, target: int) -> Need:
    ron, ron_points = [], []
    for discarder in range(state.players):
        if discarder == seat:
            continue
        hand = smallest_hand(state, rules, seat, discarder, target)
        ron.append((discarder, hand))
        ron_points.append((discarder, _value(state, rules, seat, False, hand)))
    tsumo = smallest_hand(state, rules, seat, None, target)
    return Need(target, tuple(ron), tuple(ron_points), tsumo, _value(state, rules, seat, True, tsumo))


def _value(state: GameState, rules: Rules, seat: int, tsumo: bool, hand: Hand | None) -> int | None:
    if hand is None:
        return None
    return payments.hand_value(hand.base, state.seat_winds[seat], tsumo, state.players, rules)


def smallest_hand(state: GameState, rules: Rules, winner: int, discarder: int | None, target: int) -> Hand | None:
    """The least-paying hand with which `winner` (ron off `discarder`, or tsumo when None)
    finishes at `target` or better; None when no hand does."""
    for hand in candidate_hands(rules, discarder is None):
        if places_of(scores_after_win(state, rules, winner, discarder, hand))[winner] <= target:
            return hand
    return None


def scores_after_win(state: GameState, rules: Rules, winner: int, discarder: int | None, hand: Hand) -> tuple[int, ...]:
    """The scores once `winner` is paid for `hand`, with the honba and the riichi sticks."""
    winds = state.seat_winds
    paid = payments.transfers(base=hand.base, winner=winds[winner], tsumo=discarder is None,
                              discarder=winds[discarder] if discarder is not None else "", players=state.players,
                              honba=state.honba, riichi_sticks=state.riichi_sticks, rules=rules)
    scores = list(state.scores)
    for t in paid:
        if t["from"] != "pot":
            scores[state.seat_of(t["from"])] -= t["points"]
        scores[state.seat_of(t["to"])] += t["points"]
    return tuple(scores)


@lru_cache(maxsize=64)
def candidate_hands(rules: Rules, tsumo: bool) -> tuple[Hand, ...]:
    """Every payment a hand can make, smallest first: one Hand per base points, named the
    plainest way (`_plainer`), up to a single yakuman."""
    by_base: dict[int, Hand] = {}
    named = [(han, fu) for han in range(1, 5) for fu in FU_VALUES] + [(han, 0) for han in LIMIT_HAN]
    for han, fu in named:
        if impossible(han, fu, tsumo, rules):
            continue
        base, limit = base_points(han, fu, 0, rules)
        known = by_base.get(base)
        if known is None or _plainer((han, fu), (known.han, known.fu)):
            # below 5 han the fu stay, so the ledger can be told the hand (3 han 70 fu is a mangan)
            by_base[base] = Hand(han, fu if han < 5 else 0, 0, base, limit)
    yakuman_base, name = base_points(0, 0, 1, rules)
    by_base[yakuman_base] = Hand(13, 0, 1, yakuman_base, name)
    return tuple(by_base[base] for base in sorted(by_base))


def _plainer(one: tuple[int, int], other: tuple[int, int]) -> bool:
    """Of two (han, fu) that pay alike, the one a player would rather hear: 30 fu or more before
    20 (pinfu tsumo) and 25 (seven pairs), then the fewest fu, then the fewest han (2 han 40 fu,
    not 1 han 80 fu; 4 han 30 fu, not 3 han 60 fu); limits by their fewest han."""
    def key(hand: tuple[int, int]) -> tuple:
        han, fu = hand
        return (fu == 0, fu < 30, fu, han)
    return key(one) < key(other)


def draw_outcomes(config: GameConfig, state: GameState) -> tuple[DrawOutcome, ...]:
    """Each way an exhaustive draw can find the players ready, played through the ledger: a
    player in riichi is always ready. Fewest ready first."""
    n = config.n
    riichi = {s for s in range(n) if state.riichi and state.riichi[s]}
    found = []
    for size in range(n + 1):
        for tenpai in combinations(range(n), size):
            if not riichi <= set(tenpai):
                continue
            try:
                after = apply(config, replace(state, finished=False), {"type": "draw", "tenpai": list(tenpai)})
            except LedgerError:
                continue
            found.append(DrawOutcome(tenpai, after.scores, places_of(after.scores), after.finished))
    return tuple(found)
