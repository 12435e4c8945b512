"""The request reader's shortcuts (remembered tile groups and melds, the hand made in one step)
read exactly what the plain path reads, errors included."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from scorer.errors import HandError
from scorer.hand import Meld, WinningHand
from scorer.request import read_meld, read_request, read_tiles
from scorer.tiles import parse_tiles


def _read_or_error(read, *args):
    try:
        return read(*args)
    except HandError as error:
        return (error.code, error.message)


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.text(alphabet="0123456789mpszf x", max_size=16))
def test_remembered_groups_read_like_parse_tiles(text):
    plain = _read_or_error(lambda t: tuple(parse_tiles(t, field="concealed")), text)
    assert _read_or_error(read_tiles, text, "concealed") == plain
    assert _read_or_error(read_tiles, text, "concealed") == plain      # again, now remembered


def test_a_remembered_meld_is_the_same_meld_and_errors_still_name_their_meld():
    pon = {"kind": "pon", "tiles": "777z", "from": "across"}
    first = read_meld(1, pon)
    assert read_meld(3, dict(pon)) is first
    assert first == Meld("pon", tuple(parse_tiles("777z")), "across")
    with pytest.raises(HandError) as error:
        read_meld(2, {"kind": "pon", "tiles": "777z"})
    assert "needs \"from\"" in error.value.message
    with pytest.raises(HandError) as error:
        read_meld(4, {"kind": "chi", "tiles": ["1m"], "from": "left"})    # unhashable: read, not remembered
    assert error.value.code == "bad_tile"


def test_the_reader_builds_the_same_hand_as_the_constructor():
    request = {"concealed": "123m456p789s11z222z", "win_tile": "2z", "tsumo": True, "riichi": True,
               "melds": [], "dora_indicators": "1z", "pool": 3}
    hand = read_request(request).hand
    assert type(hand) is WinningHand
    assert hand == WinningHand(**hand._asdict())
    assert hand.extra == {"pool": 3} and hand.riichi and not hand.ippatsu and hand.honba == 0
    with pytest.raises(AttributeError):
        hand.tsumo = False
