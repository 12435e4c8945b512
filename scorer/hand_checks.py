"""Checks of a read hand as a whole: what no real table can produce is an error a player reads.

Called by the contract after every field has been read (`scorer/request.py`). The order matters:
the first error a player sees is the one closest to what they typed wrong (a bad tile before a
wrong count, a wrong count before a flag).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable, Final

from .errors import HandError
from .hand import Meld, WinningHand
from .request import MELD_NAMES, WIND_NAMES
from .tally import Tally, tally_tiles
from .tiles import FIRST_BONUS, NORTH, SUIT_NAMES, Tile, counts, format_tiles

NUMBER_WORDS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                       "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen")


def check_hand(hand: WinningHand, rules: str, tally: Tally | None = None, reds_per_suit: int = 1) -> None:
    """Raise the HandError a player should see first, if any. `tally`: the hand's tiles
    counted (`tally_tiles`), when the caller has them for the scoring too. `reds_per_suit`:
    the red fives of one suit in the set (`scorer.riichi.rules.red_fives_per_suit`)."""
    if tally is None:
        tally = tally_tiles(hand)
    seen, reds = tally.every, tally.reds    # every tile on the table this hand shows, by kind,
    if hand.dora_indicators or hand.ura_indicators:     # and the kinds of the red fives among them
        seen, reds = list(seen), list(reds)     # the tally is shared with the scoring: a copy
        for tile in hand.dora_indicators + hand.ura_indicators:
            seen[tile.kind] += 1
            if tile.red:
                reds.append(tile.kind)
    if hand.flowers or any(seen[FIRST_BONUS:]):
        _check_bonus_tiles(hand, rules)
    _check_three_player(hand, rules)
    _check_copies(hand, seen, reds, reds_per_suit)
    _check_tile_count(hand)
    _check_win_tile(hand, tally)
    _check_discarder(hand)
    _check_flags(hand)
    _check_indicators(hand)


def words(count: int) -> str:
    return NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)


def plural(tile: Tile, count: int) -> str:
    """"3 dots" stays "3 dots"; honours take an s: "four Norths", "five Reds"."""
    name = Tile(tile.kind).name
    return name + "s" if count != 1 and tile.kind >= 27 else name


def meld_words(meld: Meld) -> str:
    return f"the {MELD_NAMES[meld.kind]} {format_tiles(meld.tiles)}"


def _check_bonus_tiles(hand: WinningHand, rules: str) -> None:
    for field, tiles in (("concealed", hand.concealed), ("win_tile", (hand.win_tile,)),
                         ("dora_indicators", hand.dora_indicators), ("ura_indicators", hand.ura_indicators)):
        bonus = next((t for t in tiles if t.kind >= FIRST_BONUS), None)
        if bonus is not None:
            raise HandError("bad_tile", f"{bonus} ({bonus.name}) in {field} is a flower or season: "
                                        "those are set aside and listed under flowers")
    if not hand.flowers:
        return
    odd = next((t for t in hand.flowers if t.kind < FIRST_BONUS), None)
    if odd is not None:
        raise HandError("bad_tile", f"flowers lists {odd} ({odd.name}), which is not a flower or season (1f-8f)")
    repeated = [t for t, n in Counter(hand.flowers).items() if n > 1]
    if repeated:
        raise HandError("too_many_copies", f"flowers lists the {repeated[0].name} twice: a set has one of each")
    if rules == "riichi":
        raise HandError("bad_tile", "riichi mahjong is played without flowers and seasons: leave flowers empty")


def _check_three_player(hand: WinningHand, rules: str) -> None:
    if hand.players == 4:
        if hand.nukidora:
            raise HandError("bad_flag_combination", "north tiles are set aside (nukidora) only in "
                                                    "three-player: set players to 3 or nukidora to 0")
        return
    for name in ("seat_wind", "discarder", "pao"):
        if getattr(hand, name) == "N":
            raise HandError("bad_request", f"{name} is North, but three-player has no North seat")
    if rules != "riichi":
        return
    # Three-player riichi removes the characters 2 to 8 from the set, and with them every chi.
    missing = next((t for t in hand.all_tiles + hand.dora_indicators + hand.ura_indicators
                    if 1 <= t.kind <= 7), None)     # the kinds of 2m to 8m
    if missing is not None:
        raise HandError("bad_tile", f"{missing.name} is not in a three-player set: only the 1 and "
                                    "9 of characters are played")
    chi = next((m for m in hand.melds if m.kind == "chi"), None)
    if chi is not None:
        raise HandError("bad_meld", f"{meld_words(chi)} cannot be called: three-player has no chi")


def _check_copies(hand: WinningHand, seen: list[int], reds: list[int], reds_per_suit: int) -> None:
    north_ok = not hand.nukidora or seen[NORTH] + hand.nukidora <= 4
    if north_ok and len(set(reds)) == len(reds) and _at_most_four(seen):
        return      # the common case, decided without copying the counts
    seen = seen[:FIRST_BONUS]
    seen[NORTH] += hand.nukidora
    if max(seen) > 4:
        in_hand = counts(hand.all_tiles)
        kind = next(k for k, n in enumerate(seen) if n > 4)
        extra = "" if in_hand[kind] > 4 else " (counting the dora indicators and north tiles set aside)"
        raise HandError("too_many_copies", f"There are {words(seen[kind])} {plural(Tile(kind), seen[kind])}"
                                           f"{extra}: a set has only four of each tile.")
    if len(set(reds)) < len(reds):      # two red fives of one suit
        by_suit = Counter(t.suit for t in hand.all_tiles + hand.dora_indicators + hand.ura_indicators if t.red)
        suit, count = by_suit.most_common(1)[0]
        if count > reds_per_suit:
            held = "one red five of each suit" if reds_per_suit == 1 else \
                f"at most {words(reds_per_suit)} red fives of a suit"
            raise HandError("too_many_copies", f"There are {words(count)} red 5 {SUIT_NAMES[suit]}: a set has "
                                               f"{held}.")


def _at_most_four(counts: list[int]) -> bool:
    # A loop, not max(): compiled (setup.py), it compares machine integers.
    for count in counts:
        if count > 4:
            return False
    return True


def _check_tile_count(hand: WinningHand) -> None:
    expected = 14 - 3 * len(hand.melds)
    total = len(hand.concealed) + 3 * len(hand.melds)
    if len(hand.concealed) != expected:
        melds = f"with {words(len(hand.melds))} meld{'s' if len(hand.melds) != 1 else ''}" if hand.melds else "with no melds"
        raise HandError("wrong_tile_count",
                        f"The hand has {total} tiles, not 14: {melds} the concealed part holds "
                        f"{expected} tiles, winning tile included (it holds {len(hand.concealed)}).")


def _check_win_tile(hand: WinningHand, tally: Tally) -> None:
    win = hand.win_tile
    # Counted, not searched: a search compares Tiles with their __eq__, Python code.
    red = tally.reds[:tally.concealed_reds].count(win.kind)     # concealed red fives of its kind
    if not (red if win.red else tally.concealed[win.kind] - red):
        same_kind = any(t.kind == hand.win_tile.kind for t in hand.concealed)
        hint = ""
        if same_kind:
            hint = " (the hand has the plain five, not the red one)" if hand.win_tile.red else \
                   " (the hand has only the red five: write the winning tile as 0)"
        raise HandError("win_tile_not_in_hand",
                        f"The winning tile {hand.win_tile} ({hand.win_tile.name}) is not among the concealed "
                        f"tiles{hint}: list it in concealed too.")


def _check_discarder(hand: WinningHand) -> None:
    winner = WIND_NAMES[hand.seat_wind]
    if hand.tsumo:
        if hand.discarder:
            raise HandError("bad_flag_combination", f"On a tsumo nobody deals in, but discarder is "
                                                    f"{WIND_NAMES[hand.discarder]}: leave discarder out.")
        return
    if not hand.discarder:
        raise HandError("missing_discarder", "A ron needs the discarder: who dealt in (E, S, W or N)? "
                                             "For a self-drawn win set tsumo to true.")
    if hand.discarder == hand.seat_wind:
        raise HandError("bad_flag_combination", f"The winner ({winner}) cannot deal in to themself: "
                                                "the discarder is another seat, or the win is a tsumo.")


def _check_flags(hand: WinningHand) -> None:
    riichi = hand.riichi or hand.double_riichi
    start = hand.tenhou or hand.chiihou or hand.renhou
    if not (start or hand.ippatsu or hand.rinshan or hand.chankan or hand.haitei or hand.houtei
            or hand.pao):
        if not (riichi and hand.melds):
            return      # the common hand, riichi or not: nothing that could clash
    opened = not hand.is_closed
    first = next((name for name in ("tenhou", "chiihou", "renhou") if getattr(hand, name)), "")
    clashes: list[tuple[object, str | Callable[[], str]]] = [
        (riichi and opened, lambda: "Riichi needs a closed hand, but "
                                    f"{meld_words(next(m for m in hand.melds if m.opened))} is called."),
        (hand.ippatsu and not riichi, "Ippatsu is only for a player in riichi: set riichi too, or drop ippatsu."),
        (hand.rinshan and not hand.tsumo, "Rinshan (winning on the tile after a kan) is always a tsumo."),
        (hand.rinshan and not any(m.is_kan for m in hand.melds),
         "Rinshan is a win on the tile drawn after a kan, but the hand has no kan."),
        (hand.chankan and hand.tsumo, "Chankan (robbing a kan) is always a ron, not a tsumo."),
        (hand.haitei and not hand.tsumo, "Haitei is a tsumo on the last tile of the wall; a ron on the last "
                                         "discard is houtei."),
        (hand.houtei and hand.tsumo, "Houtei is a ron on the last discard; a tsumo on the last tile is haitei."),
        (hand.haitei and hand.rinshan, "A win on the tile after a kan is rinshan, not haitei: the last tile of "
                                       "the wall is never a replacement tile."),
        (hand.chankan and hand.houtei, "Robbing a kan (chankan) is not a win on the last discard (houtei)."),
        (hand.tenhou + hand.chiihou + hand.renhou > 1,
         lambda: " and ".join(n for n in ("tenhou", "chiihou", "renhou") if getattr(hand, n))
         + " cannot happen in the same hand."),
        (hand.tenhou and not hand.is_dealer, "Tenhou is the dealer's win on the first draw; for another seat "
                                             "it is chiihou."),
        (hand.tenhou and not hand.tsumo, "Tenhou is a win on the dealer's first draw, so it is a tsumo."),
        (hand.chiihou and hand.is_dealer, "Chiihou is for a player other than the dealer; the dealer's "
                                          "first-draw win is tenhou."),
        (hand.chiihou and not hand.tsumo, "Chiihou is a win on one's first draw, so it is a tsumo; a ron before "
                                          "one's first draw is renhou."),
        (hand.renhou and hand.tsumo, "Renhou is a ron before one's first draw; a first-draw tsumo is chiihou."),
        (hand.renhou and hand.is_dealer, "Renhou is for a player other than the dealer, who has no turn before "
                                         "their first discard."),
        (start and bool(hand.melds), lambda: f"{first} comes before any call or kan, but the hand has melds."),
        (start and riichi, lambda: f"{first} comes before any discard, so there is no riichi yet."),
        (hand.pao != "" and hand.pao == hand.seat_wind, "The winner cannot be liable (pao) for their own hand."),
    ]
    for broken, message in clashes:
        if broken:
            raise HandError("bad_flag_combination", message() if callable(message) else message)


def _check_indicators(hand: WinningHand) -> None:
    if len(hand.dora_indicators) > 5:
        raise HandError("bad_flag_combination", f"There are {len(hand.dora_indicators)} dora indicators; "
                                                "a hand has at most five (one, and one for each kan).")
    if hand.ura_indicators and not (hand.riichi or hand.double_riichi):
        raise HandError("bad_flag_combination", "Ura dora count only for a winner in riichi: set riichi, "
                                                "or leave ura_indicators empty.")
    if len(hand.ura_indicators) > max(1, len(hand.dora_indicators)):
        raise HandError("bad_flag_combination", f"There are {len(hand.ura_indicators)} ura indicators but "
                                                f"{len(hand.dora_indicators)} dora indicators: each ura "
                                                "indicator lies under a dora indicator.")

