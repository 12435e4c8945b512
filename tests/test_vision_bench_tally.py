"""`bench.vision`'s tally of a photo: false tiles, and the backs among them said apart (the
hk-roboflow labels box no face-down tile, so a back found there may be a wall's real tile)."""
from pathlib import Path

from bench.vision import Labelled, Tally, merged, score_photo


def _photo() -> Labelled:
    return Labelled(Path("p.jpg"), "p", [([0, 0, 10, 14], "1m"), ([20, 0, 30, 14], "2m")], complete=True)


def test_false_tiles_count_the_backs_among_them_apart():
    tally = Tally("tenbou")
    read = [([0, 0, 10, 14], "1m"), ([20, 0, 30, 14], "2m"), ([50, 0, 60, 14], "back"), ([70, 0, 80, 14], "5z")]
    score_photo(tally, _photo(), read, 0.01, 0.01)
    assert (tally.found, tally.right, tally.false, tally.false_backs, tally.exact) == (2, 2, 2, 1, 0)
    assert "2.00 (2, 1 back)" in tally.row()
    again = Tally("tenbou")
    score_photo(again, _photo(), read[:2], 0.01, 0.01)       # every tile right, nothing false
    assert (again.false, again.false_backs, again.exact) == (0, 0, 1) and "0.00 (0)" in again.row()
    both = merged("tenbou", [tally, again, tally])
    assert (both.false, both.false_backs) == (4, 2) and "1.33 (4, 2 backs)" in both.row()
