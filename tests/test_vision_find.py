"""Finding tiles: composed table scenes with known boxes, and the labelled real photos."""
import json

import cv2
import numpy as np
import pytest

from vision.find import FACE_DOWN, SIDEWAYS, UPRIGHT, find_tiles
from vision.seams import cut_profile, period
from vision.image_io import load_photo

from vision_scenes import compose, iou

HAND = list("uuuuuuuuuuu") + ["|"] + list("u") + ["|"] + list("suu")


def matches(scene, found) -> int:
    return sum(1 for box, pose in scene.tiles if any(iou(box, f.box) > 0.6 and f.pose == pose for f in found))


# Felt green, wood brown, red, black, purple, and tables as light as the tiles themselves.
@pytest.mark.parametrize("table", [(60, 110, 40), (90, 60, 40), (30, 30, 140), (40, 40, 40), (120, 90, 160),
                                   (225, 230, 235), (200, 200, 200), (180, 200, 230)])
@pytest.mark.parametrize("gap", [1, 5])
def test_hand_row_on_any_table(table, gap):
    scene = compose([HAND], table=table, gap=gap, seed=gap)
    found = find_tiles(scene.image)
    assert len(found) == len(scene.tiles)
    assert matches(scene, found) == len(scene.tiles)


def test_sideways_tile_is_told_from_upright():
    scene = compose([list("uuuuuuuuuuu") + ["|"] + list("usu") + ["|"] + list("uus")])
    poses = [f.pose for f in find_tiles(scene.image)]
    assert poses.count(SIDEWAYS) == 2 and poses.count(UPRIGHT) == 15


def test_concealed_kan_backs_are_found():
    scene = compose([list("uuuuuuuuuuu") + ["|"] + list("duud")], table=(90, 60, 40))
    found = find_tiles(scene.image)
    assert matches(scene, found) == len(scene.tiles)
    assert [f.pose for f in found].count(FACE_DOWN) == 2


def test_a_back_out_of_line_gets_its_own_box():
    # A row photographed askew: the face-down tile lies higher than the face beside it, and
    # its box must follow the back, not copy the face's.
    from vision.backs import find_backs
    from vision.find import Found
    image = np.full((200, 300, 3), (40, 110, 60), np.uint8)
    faces = [Found((40 + 42 * k, 80, 80 + 42 * k, 132), UPRIGHT) for k in range(3)]
    for x1, y1, x2, y2 in (f.box for f in faces):
        image[y1:y2, x1:x2] = (225, 235, 240)
    back = (166, 68, 206, 120)   # 12 pixels higher than the faces
    image[back[1]:back[3], back[0]:back[2]] = (150, 110, 220)
    found = find_backs(image, faces)
    assert len(found) == 1 and found[0].pose == FACE_DOWN
    assert iou(found[0].box, back) > 0.85


def test_dora_row_and_hand_row():
    scene = compose([list("uu"), HAND], seed=3)
    found = find_tiles(scene.image)
    assert matches(scene, found) == len(scene.tiles) == len(found)


def test_empty_table_has_no_tiles():
    table = np.full((300, 400, 3), (60, 110, 40), np.uint8)
    assert find_tiles(table) == []


def test_period_and_cuts_of_a_seam_profile():
    profile = np.zeros(300)
    profile[[30, 60, 90, 120, 150, 180, 210, 240, 270]] = 10
    profile[[45, 100, 200]] = 4  # strokes inside tiles
    step, clarity = period(profile, 10, 150)
    assert step == 30 and clarity > 0.5
    assert cut_profile(profile, 30, 0.6, 1.55) == list(range(0, 301, 30))


def test_real_photos_labelled_tiles_are_found(shared):
    folder = shared / "data" / "photos" / "camerash"
    labels = json.loads((folder / "labels.json").read_text())
    found_total, total = 0, 0
    for name, boxes in labels.items():
        photo = load_photo(folder / name)
        found = [[v / photo.scale for v in f.box] for f in find_tiles(photo.image)]
        for label in boxes:
            total += 1
            found_total += any(iou(label["box"], f) >= 0.5 for f in found)
    # Measured 270/281 (96%) when written; the rest are mostly cut off-phase in 1-2 and 1-6.
    assert found_total / total >= 0.93


def test_real_photo_full_set_is_counted(shared):
    # 12.jpg is a full Hong Kong set laid in a 12 x 12 grid: 144 tiles.
    photo = load_photo(shared / "data" / "photos" / "camerash" / "images" / "12.jpg")
    found = find_tiles(photo.image)
    assert len(found) == 144
    assert all(f.pose == UPRIGHT for f in found)


def test_composed_hand_from_real_crops(shared):
    folder = shared / "data" / "photos" / "camerash"
    names = sorted(json.loads((folder / "crops.json").read_text()))[:14]
    crops = [cv2.imread(str(folder / n)) for n in names]
    scene = compose([list("uuuuuuuuuuuuu") + ["|"] + ["u"]], crops=crops, table=(50, 80, 120))
    found = find_tiles(scene.image)
    assert matches(scene, found) >= 13


def test_rendered_hands_are_found(shared):
    # The scenes mix the CC0 art from ../shared with drawn faces; the figure below is for that mix.
    render = pytest.importorskip("vision.render")
    rng = np.random.default_rng(2)
    total = found_right = 0
    for _ in range(8):
        scene = render.render_scene(rng, tilt=float(rng.uniform(0, 30)), max_side=1000)
        boxes = [f.box for f in find_tiles(scene.image)]
        total += len(scene.tiles)
        found_right += sum(1 for t in scene.tiles if any(iou(t.box, b) >= 0.5 for b in boxes))
    # Measured 94% on these eight when written (pale tables and dark-faced sets are the misses).
    assert found_right / total >= 0.85
