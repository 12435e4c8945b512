"""A club's season: what each game left its players (`summarise`), and the standings of many
games (`standings`).

Pure: a game's summary is worked out once from its config, its replayed state and its event
bodies, and kept as JSON by whoever stores games; standings add summaries up without
replaying anything, so a season of thousands of games is quick to show.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from .club_detail import COUNTS, paid_winners, seat_details
from .game.config import GameConfig
from .game.state import GameState
from .settlement import game_sheet

# Hands that were dealt and played out: a correction deals nothing, and a chombo's hand is
# dealt again, so neither counts towards the rates.
DEALT = ("win", "draw", "abortive_draw")
# How many of a player's best hands their page shows.
BEST_HANDS = 5
# What a kept summary holds: 0, kept before the hands' detail was (tsumo wins, win and deal-in
# values, riichi that won, calls, dora, yaku: scorer/club_detail.py); 1 with it. Statistics
# count the detail only over games that have it, so old kept results are read, not misread.
DETAIL_VERSION = 1


@dataclass(frozen=True)
class SeatLine:
    """One seat of one game."""
    seat: int
    name: str
    score: int
    place: int              # 1 = first
    result: int             # the settlement's result (riichi: points with uma and oka)
    money: int              # cents
    wins: int
    deal_ins: int
    riichi: int
    # the hands' detail (DETAIL_VERSION 1; scorer/club_detail.py says what each counts)
    tsumo_wins: int = 0
    win_points: int = 0
    deal_in_points: int = 0
    riichi_wins: int = 0
    open_wins: int = 0
    told_open: int = 0
    dora: int = 0
    told_dora: int = 0
    yaku: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"seat": self.seat, "name": self.name, "score": self.score, "place": self.place,
                "result": self.result, "money": self.money, "wins": self.wins,
                "deal_ins": self.deal_ins, "riichi": self.riichi,
                **{name: getattr(self, name) for name in COUNTS}, "yaku": dict(self.yaku)}


@dataclass(frozen=True)
class WinLine:
    """One win, as a player's best hands list it: the tiles when the hand was entered by
    tiles, else the numbers the players gave."""
    seat: int
    hand: str                   # "East 3"
    points: int
    han: int = 0
    fu: int = 0
    yakuman: int = 0
    limit: str | None = None
    yaku: tuple[str, ...] = ()  # riichi yaku ids, or the classical Chinese limit hand or doubles
    tiles: dict | None = None   # the request's concealed, melds and win_tile
    tsumo: bool = False

    @property
    def rank(self) -> tuple:
        return (self.yakuman, self.han, self.points, self.fu)

    def to_json(self) -> dict:
        return {"seat": self.seat, "hand": self.hand, "points": self.points, "han": self.han,
                "fu": self.fu, "yakuman": self.yakuman, "limit": self.limit, "yaku": list(self.yaku),
                "tiles": self.tiles, "tsumo": self.tsumo}

    @classmethod
    def from_json(cls, data: dict) -> "WinLine":
        return cls(data["seat"], data["hand"], data["points"], data["han"], data["fu"], data["yakuman"],
                   data["limit"], tuple(data["yaku"]), data["tiles"], data["tsumo"])


@dataclass(frozen=True)
class GameSummary:
    rules: str
    finished: bool
    hands: int                          # dealt hands (DEALT)
    seats: tuple[SeatLine, ...]         # in seat order
    wins: tuple[WinLine, ...] = ()
    currency: str = ""
    detail: int = 0                     # DETAIL_VERSION of the seats' hand detail; 0: none kept

    def to_json(self) -> dict:
        return {"rules": self.rules, "finished": self.finished, "hands": self.hands,
                "seats": [s.to_json() for s in self.seats], "wins": [w.to_json() for w in self.wins],
                "currency": self.currency, "detail": self.detail}

    @classmethod
    def from_json(cls, data: dict) -> "GameSummary":
        return cls(data["rules"], data["finished"], data["hands"],
                   tuple(SeatLine(**s) for s in data["seats"]),
                   tuple(WinLine.from_json(w) for w in data.get("wins", ())), data.get("currency", ""),
                   data.get("detail", 0))


def summarise(config: GameConfig, state: GameState, bodies: list[dict]) -> GameSummary:
    """What one game left each seat: place, result and money as the settlement counts them,
    and the hands won, dealt in and riichi declared from its log."""
    n = config.n
    wins, deal_ins, riichi = [0] * n, [0] * n, [0] * n
    lines: list[WinLine] = []
    win_bodies = iter([b for b in bodies if b.get("type") == "win"])
    dealt = 0
    for hand in state.hands:
        if hand.kind in DEALT:
            dealt += 1
        for s in hand.riichi:
            riichi[s] += 1
        if hand.kind != "win":
            continue
        body = next(win_bodies, {})
        discarder = hand.detail.get("discarder")
        if discarder is not None and not hand.detail.get("tsumo"):
            deal_ins[discarder] += 1
        for paid in paid_winners(hand):
            wins[paid["winner"]] += 1
            lines.append(_win_line(hand, paid, _entry_of(body, paid["winner"])))
    sheet = game_sheet(config, state)
    by_seat = {st.seat: st for st in sheet.standings}
    details = seat_details(n, state, bodies)
    seats = tuple(SeatLine(s, config.players[s], by_seat[s].score, by_seat[s].place, by_seat[s].result,
                           by_seat[s].money, wins[s], deal_ins[s], riichi[s], **details[s]) for s in range(n))
    return GameSummary(config.rules, state.finished, dealt, seats, tuple(lines), config.currency,
                       DETAIL_VERSION)


def _entry_of(body: dict, winner: int) -> dict:
    """The part of a win event about one winner (a double ron lists each in `winners`)."""
    for entry in body.get("winners") or ():
        if entry.get("winner") == winner:
            return entry
    return body


def _win_line(hand, paid: dict, entry: dict) -> WinLine:
    result = _object(entry.get("result"))
    request = _object(entry.get("request"))
    tiles = _tiles(request)
    chinese = _object(result.get("chinese"))
    limit_hand = chinese.get("limit_hand")
    names = (_texts(result.get("yaku"), "id") or _texts([limit_hand] if isinstance(limit_hand, str) else limit_hand)
             or _texts(chinese.get("doubles_items"), "reason"))
    return WinLine(seat=paid["winner"], hand=hand.label, points=int(paid.get("points") or 0),
                   han=int(paid.get("han") or 0), fu=int(paid.get("fu") or 0),
                   yakuman=int(paid.get("yakuman") or 0), limit=paid.get("limit"), yaku=tuple(names),
                   tiles=tiles, tsumo=bool(hand.detail.get("tsumo")))


def _object(value) -> dict:
    return value if isinstance(value, dict) else {}


def _texts(values, key: str | None = None) -> list[str]:
    """The words of a kept result's list (yaku ids, limit hands, doubles): text only. Events kept
    before logs were checked (issue 25) may hold anything; what is not text is left out."""
    if not isinstance(values, (list, tuple)):
        return []
    found = [v.get(key) if key and isinstance(v, dict) else v for v in values]
    return [v for v in found if isinstance(v, str)]


def _tiles(request: dict) -> dict | None:
    """The hand's tiles to draw (concealed, melds, winning tile), where they are tile text."""
    concealed, melds = request.get("concealed"), request.get("melds", [])
    if not isinstance(concealed, str) or not isinstance(melds, list) or not all(
            isinstance(m, dict) and isinstance(m.get("tiles"), str) for m in melds):
        return None
    return {k: request[k] for k in ("concealed", "melds", "win_tile") if k in request}


# --- standings -----------------------------------------------------------------------------

@dataclass
class PlayerStanding:
    """One player's season under one rule set."""
    player: str                         # the member's id
    name: str
    rules: str
    games: int = 0
    result: int = 0
    money: int = 0                      # cents
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])   # firsts, seconds, ...
    last: int = 0                       # last places, whatever the number of players
    hands: int = 0                      # hands dealt while seated
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    best: list[WinLine] = field(default_factory=list)

    @property
    def average_place(self) -> float:
        return sum((i + 1) * c for i, c in enumerate(self.places)) / self.games if self.games else 0.0

    def rate(self, count: int) -> float | None:
        """A count per dealt hand; None where no hands were recorded (a game entered as totals)."""
        return count / self.hands if self.hands else None

    @property
    def win_rate(self) -> float | None:
        return self.rate(self.wins)

    @property
    def deal_in_rate(self) -> float | None:
        return self.rate(self.deal_ins)

    @property
    def riichi_rate(self) -> float | None:
        return self.rate(self.riichi) if self.rules == "riichi" else None

    def to_json(self) -> dict:
        return {"player": self.player, "name": self.name, "rules": self.rules, "games": self.games,
                "result": self.result, "money": self.money / 100, "average_place": round(self.average_place, 3),
                "firsts": self.places[0], "lasts": self.last, "places": list(self.places),
                "hands": self.hands, "wins": self.wins, "deal_ins": self.deal_ins, "riichi": self.riichi,
                "win_rate": _rounded(self.win_rate), "deal_in_rate": _rounded(self.deal_in_rate),
                "riichi_rate": _rounded(self.riichi_rate)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


# What standings can be sorted by, and which way is best: higher first unless said.
SORTS = {"result": True, "money": True, "games": True, "average_place": False, "firsts": True,
         "lasts": False, "win_rate": True, "deal_in_rate": False, "riichi_rate": True}


def member_lines(games: Iterable[tuple[GameSummary, Mapping[int, str]]]
                 ) -> Iterator[tuple[GameSummary, SeatLine, str]]:
    """Each seat of `games` ((summary, seat -> member id) pairs) that a member sat in, as
    (summary, seat line, member id): a guest's seat names nobody and is left out."""
    for summary, members in games:
        for line in summary.seats:
            member = members.get(line.seat)
            if member is not None:
                yield summary, line, member


def count_seat(row, summary: GameSummary, line: SeatLine) -> None:
    """What the standings and a member's statistics both count of one seat in one game: the
    game, its place (and whether it was last), the hands dealt, wins, deal-ins and riichi."""
    row.games += 1
    row.places[min(line.place, 4) - 1] += 1
    row.last += line.place == len(summary.seats)
    row.hands += summary.hands
    row.wins += line.wins
    row.deal_ins += line.deal_ins
    row.riichi += line.riichi


def standings(games: Iterable[tuple[GameSummary, Mapping[int, str]]], names: Mapping[str, str],
              sort: str = "result") -> dict[str, list[PlayerStanding]]:
    """Each rule set's standings over `games`: (summary, seat -> member id) pairs, where a
    guest's seat has no member. `names` gives each member's name now."""
    table: dict[tuple[str, str], PlayerStanding] = {}
    for summary, line, member in member_lines(games):
        row = table.get((summary.rules, member))
        if row is None:
            row = table[(summary.rules, member)] = PlayerStanding(member, names.get(member, line.name), summary.rules)
        count_seat(row, summary, line)
        row.result += line.result
        row.money += line.money
        row.best.extend(w for w in summary.wins if w.seat == line.seat)
    by_rules: dict[str, list[PlayerStanding]] = {}
    for row in table.values():
        row.best = sorted(row.best, key=lambda w: w.rank, reverse=True)[:BEST_HANDS]
        by_rules.setdefault(row.rules, []).append(row)
    return {rules: sort_standings(rows, sort) for rules, rows in by_rules.items()}


def sort_standings(rows: list[PlayerStanding], sort: str = "result") -> list[PlayerStanding]:
    """Best first by `sort` (one of SORTS), then by result, then by name."""
    descending = SORTS.get(sort, True)
    key = sort if sort in SORTS else "result"

    def value(row: PlayerStanding) -> float:
        found = row.to_json()[key]
        if found is None:                       # no hands recorded: after everyone who has
            return float("-inf")
        return found if descending else -found
    return sorted(rows, key=lambda r: (-value(r), -r.result, r.name.casefold()))
