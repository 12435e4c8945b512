"""Flowers and seasons drawn as makers print them: a big picture (the tile's own plant, or a
round blossom for plum and chrysanthemum), the number in a top corner, and conventions chosen
per set so no colour alone names a group."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from vision.render import plants
from vision.render.brush import Ink
from vision.render.bonus import BonusStyle, draw_bonus, random_style
from vision.render.faces import FACE_H, FACE_W, draw_face
from vision.render.tilesets import BLACKS, available_arts, random_set

INK = Ink(leaf=(60, 130, 30), bloom=(40, 40, 200), accent=(170, 80, 20), branch=(40, 60, 90),
                 face=(246, 248, 248), outline=False)
INKS = ((40, 40, 200), (170, 80, 20), (60, 130, 30))


def _blank() -> np.ndarray:
    img = np.empty((FACE_H, FACE_W, 3), np.uint8)
    img[:] = INK.face
    return img


def _inked(img: np.ndarray) -> np.ndarray:
    return np.abs(img.astype(int) - np.array(INK.face)).sum(axis=2) > 60


@pytest.mark.parametrize("outline", [False, True])
@pytest.mark.parametrize("draw", plants.FLOWERS + (plants.peony, plants.fruit))
def test_each_plant_fills_its_area_and_stays_inside(draw, outline):
    ink = Ink(**{**INK.__dict__, "outline": outline})
    for seed in range(6):
        img = _blank()
        area = (FACE_W * 0.06, FACE_H * 0.25, FACE_W * 0.94, FACE_H * 0.97)
        draw(img, area, ink, np.random.default_rng(seed))
        ys, xs = np.nonzero(_inked(img))
        assert len(ys) > 0.08 * FACE_W * FACE_H, "the picture should fill much of the face"
        assert ys.min() >= FACE_H * 0.25 - 6 and ys.max() <= FACE_H - 1
        # big: spans most of the area's height
        assert ys.max() - ys.min() > FACE_H * 0.45


def test_the_vessel_leaves_room_above_it():
    img = _blank()
    area = (6.0, 40.0, 114.0, 155.0)
    above = plants.vessel(img, area, INK, np.random.default_rng(3))
    assert area[1] < above[3] < area[3]
    assert _inked(img)[int(above[3]):].any() and not _inked(img)[: int(area[1])].any()


def test_flowers_differ_from_one_another():
    pictures = []
    for n in range(1, 5):
        img = _blank()
        draw_bonus(img, n, BonusStyle(name="none", seed=1), INK, None, None, np.random.default_rng(0))
        pictures.append(_inked(img))
    for i in range(4):
        for j in range(i + 1, 4):
            overlap = (pictures[i] & pictures[j]).sum() / max(1, (pictures[i] | pictures[j]).sum())
            assert overlap < 0.5


def test_a_set_draws_the_same_tile_the_same_way():
    style = BonusStyle(picture="vessel", seed=42)
    a, b = _blank(), _blank()
    draw_bonus(a, 6, style, INK, None, None, np.random.default_rng(1))
    draw_bonus(b, 6, style, INK, None, None, np.random.default_rng(2))
    below_corners = slice(int(FACE_H * 0.3), FACE_H)
    assert np.array_equal(a[below_corners], b[below_corners])


def test_conventions_are_chosen_per_group_and_never_fixed():
    rng = np.random.default_rng(0)
    flowers = [random_style(rng, False, INKS, BLACKS) for _ in range(300)]
    seasons = [random_style(rng, True, INKS, BLACKS) for _ in range(300)]
    for group in (flowers, seasons):
        assert {s.script for s in group} == {"arabic", "chinese"}
        colours = Counter(s.number_colour for s in group)
        assert colours[INKS[0]] > 30 and colours[INKS[1]] > 30
        assert {"cjk", "none"} <= {s.name for s in group}
    assert all(s.name != "latin" for s in flowers)
    assert Counter(s.picture for s in flowers)["blossom"] > 60   # plum and chrysanthemum as a round blossom
    assert {s.picture for s in flowers} == {"own", "blossom"}
    assert {s.picture for s in seasons} == {"generic", "vessel", "own"}
    assert "latin" in {s.name for s in seasons}


def test_drawn_sets_print_numbers_and_names():
    if "drawn" not in available_arts():
        pytest.skip("CJK fonts are not installed here")
    rng = np.random.default_rng(5)
    for _ in range(10):
        ts = random_set(rng, "drawn")
        for n in range(1, 9):
            face = draw_face(f"{n}f", ts, rng)
            corners = np.abs(face[: int(FACE_H * 0.22)].astype(int) - np.array(ts.face)).sum(axis=2) > 60
            assert corners.sum() > 40, "the number must be printed in a top corner"


def test_a_season_never_shows_the_picture_of_the_flower_with_its_number():
    """Without printed names, spring 1 and plum 1 would be the same tile to the model."""
    from vision.render import plants

    for number, own in enumerate(plants.SEASONAL):
        assert plants.FLOWERS[number] not in own


def test_a_set_whose_flowers_and_seasons_share_a_blossom_tells_them_apart_by_print():
    """Unnamed groups both drawn as round blossoms differ in the numbers' colour or script:
    otherwise a crop could not say flower 1 from spring 1, and the model would learn a coin toss."""
    if "drawn" not in available_arts():
        pytest.skip("CJK fonts are not installed here")
    rng = np.random.default_rng(11)
    shared = 0
    for _ in range(600):
        ts = random_set(rng, "drawn")
        f, s = ts.flowers, ts.seasons
        if f.picture == "blossom" and s.picture != "vessel" and f.name == s.name == "none":
            shared += 1
            assert (f.script, f.number_colour) != (s.script, s.number_colour)
    assert shared > 3


def test_flowers_drawn_as_blossoms_keep_orchid_and_bamboo():
    own, blossom = BonusStyle(name="none", seed=3), BonusStyle(name="none", seed=3, picture="blossom")
    for n in range(1, 5):
        a, b = _blank(), _blank()
        draw_bonus(a, n, own, INK, None, None, np.random.default_rng(0))
        draw_bonus(b, n, blossom, INK, None, None, np.random.default_rng(0))
        assert np.array_equal(a, b) == (n in (2, 4))
