import pytest

from scorer.errors import HandError
from scorer.tiles import Tile, counts, dora_from_indicator, format_tiles, kind_of, parse_tiles


def test_parse_groups_digits_and_keeps_red_fives():
    tiles = parse_tiles("123m406p11z")
    assert [str(t) for t in tiles] == ["1m", "2m", "3m", "4p", "0p", "6p", "1z", "1z"]
    assert tiles[4] == Tile(kind_of(5, "p"), red=True)


def test_flowers_and_seasons_are_tiles():
    assert [t.name for t in parse_tiles("18f")] == ["plum", "winter"]


@pytest.mark.parametrize("text, where", [
    ("12x3m", "'x' at position 3"),
    ("8z", "'8z' at position 1"),
    ("0z", "'0z' at position 1"),
    ("m", "'m' at position 1"),
    ("123m45", "'45' at position 5"),
    ("9f", "'9f' at position 1"),
])
def test_parse_errors_name_character_and_position(text, where):
    with pytest.raises(HandError) as err:
        parse_tiles(text)
    assert err.value.code == "bad_tile"
    assert where in err.value.message


def test_format_is_grouped_by_suit():
    assert format_tiles(parse_tiles("1z9s406p1m")) == "1m406p9s1z"


def test_counts_ignore_red_flag():
    assert counts(parse_tiles("505m"))[4] == 3


@pytest.mark.parametrize("indicator, dora", [("9m", "1m"), ("4z", "1z"), ("7z", "5z"), ("3z", "4z"), ("0p", "6p")])
def test_dora_wraps(indicator, dora):
    assert dora_from_indicator(parse_tiles(indicator)[0].kind) == parse_tiles(dora)[0].kind


def test_three_player_1m_points_at_9m():
    assert dora_from_indicator(0, three_player=True) == 8
