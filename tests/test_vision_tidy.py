"""Tidying found boxes: a sideways tile cut in two is joined, tiles cut off by the edge are left out."""
from vision.tidy import drop_cut_at_edge, drop_scraps, join_halves

W, H = 46, 57   # a typical upright tile on the finder's copy


def row(count: int, x: int = 50, y: int = 130) -> list[tuple[int, int, int, int]]:
    return [(x + k * W, y, x + (k + 1) * W, y + H) for k in range(count)]


def test_sideways_tile_cut_in_two_is_joined():
    # Measured on a rendered minkan: the sideways tile came out as two low, narrow pieces.
    upright = row(4)
    pieces = [(234, 142, 265, 187), (265, 140, 301, 187)]
    joined = join_halves(upright + pieces)
    assert len(joined) == 5
    assert (234, 140, 301, 187) in joined and all(b in joined for b in upright)


def test_two_narrow_upright_tiles_are_not_joined():
    # Full-height narrow tiles (seen at a slant) are whole tiles, not pieces of one.
    boxes = row(5) + [(280, 130, 312, 187), (312, 130, 344, 187)]
    assert sorted(join_halves(boxes)) == sorted(boxes)


def test_pieces_far_apart_are_not_joined():
    boxes = row(5) + [(300, 142, 331, 187), (400, 140, 436, 187)]
    assert sorted(join_halves(boxes)) == sorted(boxes)


def test_tiles_cut_by_the_photo_edge_are_left_out():
    hand = row(6)
    cut_below = (400, 300 - 35, 446, 300)     # only 35 of 57 pixels in view, at the bottom edge
    cut_left = (0, 130, 28, 187)              # 28 of 46 pixels, at the left edge
    whole_at_edge = (454, 130, 500, 187)      # a whole tile just touching the right edge
    kept = drop_cut_at_edge(hand + [cut_below, cut_left, whole_at_edge], (300, 501))
    assert sorted(kept) == sorted(hand + [whole_at_edge])


def test_cut_tiles_stay_when_a_set_fills_the_picture():
    # A grid of tiles lines every edge: the part tiles at the edge are part of the set shown.
    grid = [(x, y, x + W, y + H) for y in range(0, 5 * H, H) for x in range(20, 20 + 6 * W, W)]
    cut = [(0, y, 20, y + H) for y in range(0, 5 * H, H)]
    shape = (5 * H, 20 + 6 * W)
    assert sorted(drop_cut_at_edge(grid + cut, shape)) == sorted(grid + cut)


def test_scraps_are_dropped():
    boxes = row(6) + [(400, 130, 410, 140)]
    assert drop_scraps(boxes) == row(6)
