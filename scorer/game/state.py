"""The state of a game, as a replay of its events computes it, and the per-hand log."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..tiles import WIND_LETTERS, WIND_NAMES

RIICHI_STICK = 1000


@dataclass(frozen=True)
class HandRecord:
    """One finished hand (or a correction) for the log and the chart."""
    number: int                     # 1, 2, ... in the game
    round_wind: str                 # "E", "S", ...
    hand: int                       # 1..players within the round ("East 3")
    dealer: int
    honba: int
    kind: str                       # win, draw, abortive_draw, chombo, correction
    riichi: tuple[int, ...]         # seats that declared riichi in this hand
    deltas: tuple[int, ...]         # each seat's change over the hand, riichi deposits included
    scores: tuple[int, ...]         # after the hand
    transfers: tuple[dict, ...]     # {"from": seat | "pot", "to": seat, "points"}
    detail: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        """"East 1", and after a repeat or a draw "East 1, 1 honba": hands of one round apart."""
        honba = f", {self.honba} honba" if self.honba else ""
        return f"{WIND_NAMES[self.round_wind]} {self.hand}{honba}"

    def to_json(self) -> dict:
        return {"number": self.number, "label": self.label, "round_wind": self.round_wind, "hand": self.hand,
                "dealer": self.dealer, "honba": self.honba, "kind": self.kind, "riichi": list(self.riichi),
                "deltas": list(self.deltas), "scores": list(self.scores),
                "transfers": [dict(t) for t in self.transfers], "detail": self.detail}


@dataclass(frozen=True)
class GameState:
    scores: tuple[int, ...]
    round_wind: int = 0                 # 0 East, 1 South, ... (the prevailing wind)
    hand: int = 0                       # 0-based hand of the round; the dealer's seat
    honba: int = 0
    riichi_sticks: int = 0              # the pot: riichi sticks on the table
    riichi: tuple[bool, ...] = ()       # who is in riichi this hand
    late_pons: tuple[int, ...] = ()     # seats fined for a late pon this hand, in order
    pool: int = 0                       # Fundamentals: the draw pool
    chips: tuple[int, ...] = ()
    penalties: tuple[int, ...] = ()     # points off the final score (chombo as a penalty)
    hand_start: tuple[int, ...] = ()    # scores when this hand began
    finished: bool = False
    end_reason: str = ""
    hands: tuple[HandRecord, ...] = ()
    events: int = 0

    @classmethod
    def start(cls, players: int, points: int) -> "GameState":
        zeros = (0,) * players
        scores = (points,) * players
        return cls(scores=scores, riichi=(False,) * players, chips=zeros, penalties=zeros, hand_start=scores)

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def dealer(self) -> int:
        return self.hand

    @property
    def seat_winds(self) -> tuple[str, ...]:
        """Each seat's wind this hand: the dealer is East, then counter-clockwise."""
        return tuple(WIND_LETTERS[(seat - self.dealer) % self.players] for seat in range(self.players))

    def seat_of(self, wind: str) -> int:
        return (self.dealer + WIND_LETTERS.index(wind)) % self.players

    @property
    def round_label(self) -> str:
        return f"{WIND_NAMES[WIND_LETTERS[self.round_wind % 4]]} {self.hand + 1}"

    @property
    def pot_points(self) -> int:
        return self.riichi_sticks * RIICHI_STICK + self.pool

    @property
    def total(self) -> int:
        """Points in play plus the pot: only riichi deposits move points between the two."""
        return sum(self.scores) + self.pot_points

    def placement(self) -> tuple[int, ...]:
        """Seats from first place to last; ties go to the seat nearer the first dealer."""
        return tuple(sorted(range(self.players), key=lambda s: (-self.scores[s], s)))

    def to_json(self) -> dict:
        return {"scores": list(self.scores), "round_wind": WIND_LETTERS[self.round_wind % 4],
                "round": self.round_label, "hand": self.hand + 1, "dealer": self.dealer,
                "seat_winds": list(self.seat_winds), "honba": self.honba,
                "riichi_sticks": self.riichi_sticks, "riichi": list(self.riichi), "pool": self.pool,
                "chips": list(self.chips), "penalties": list(self.penalties),
                "finished": self.finished, "end_reason": self.end_reason,
                "placement": list(self.placement()), "events": self.events,
                "hands": [h.to_json() for h in self.hands]}
