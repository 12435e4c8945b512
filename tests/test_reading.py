from scorer.reading import is_complete, shanten, splits, waits
from scorer.tiles import counts, kind_str, parse_tiles


def hand(text):
    return counts(parse_tiles(text))


def test_nine_gates_waits_on_all_nine():
    assert [kind_str(k) for k in waits(hand("1112345678999m"))] == [f"{n}m" for n in range(1, 10)]


def test_every_split_is_found():
    # 11223344556677m reads three ways (and as seven pairs, which splits() leaves to the scorer)
    assert len(splits(hand("11223344556677m"))) == 3


def test_seven_pairs_and_orphans_are_complete():
    assert is_complete(hand("1133557799m1122z"))
    assert is_complete(hand("19m19p19s12345677z"))
    assert not is_complete(hand("19m19p19s12345678m"[:-2] + "1m"))


def test_shanten():
    assert shanten(hand("123m456p789s11222z")) == -1
    assert shanten(hand("123m456p789s1122z")) == 0
    assert shanten(hand("19m19p19s1234567z")) == 0
    assert shanten(hand("13579m2468p1357s")) == 4
    assert shanten(hand("1133557799m1123z")) == 0


def test_fifth_copy_is_not_a_wait():
    # 1111m + 3m reads as 111m + 13m waiting on 2m; a fifth 1m does not exist
    found = waits(hand("1111m3m456p789s55z"))
    assert 1 in found and 0 not in found
