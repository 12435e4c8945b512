"""Things the finder takes for tiles that are none (dice beside the hand): the classifier names
them "none", and a thing named so surely is left out of the reading; named so less surely it
is a tile, its other names kept. Dice are drawn by the renderer for the models to learn them."""
import numpy as np
import pytest

from vision.detect import FACE_DOWN, SIDEWAYS, UPRIGHT, Found
from vision.labels import LABELS, NONE
from vision.render import render_crops, render_scene
from vision.render.clutter import dice
from vision.render.crops import FACE_LABELS
from vision.scan import NOT_A_TILE_SURE, name_tiles, named_view
from vision.image_io import decode_photo

import cv2


class ByCrop:
    """Names crops in the order they come, one ranking each (the last one again past the end)."""

    def __init__(self, *rankings):
        self._rankings = [list(r) for r in rankings]
        self.named = 0

    def classify(self, crops):
        out = [self._rankings[min(self.named + i, len(self._rankings) - 1)] for i in range(len(crops))]
        self.named += len(crops)
        return out


def _photo():
    ok, data = cv2.imencode(".png", np.full((200, 400, 3), 90, np.uint8))
    return decode_photo(data.tobytes())


def test_a_thing_named_none_surely_is_left_out():
    photo = _photo()
    found = [Found((20, 40, 80, 120), UPRIGHT), Found((100, 40, 160, 120), UPRIGHT),
             Found((200, 60, 240, 100), UPRIGHT)]
    classifier = ByCrop([("3p", 0.97), (NONE, 0.01)], [("4p", 0.95), (NONE, 0.02)],
                        [(NONE, NOT_A_TILE_SURE), ("4p", 0.15)])
    _, kept, detections = named_view(photo, found, classifier)
    assert kept == found[:2]
    assert [d.label for d in detections] == ["3p", "4p"]


def test_a_tile_named_none_unsurely_keeps_its_tile_names_without_none():
    image = np.full((200, 300, 3), 90, np.uint8)
    classifier = ByCrop([(NONE, NOT_A_TILE_SURE - 0.05), ("1s", 0.7), ("back", 0.1)])
    (detection,) = name_tiles(image, [Found((40, 40, 100, 120), UPRIGHT)], classifier)
    assert detection.candidates == (("1s", 0.7), ("back", 0.1))


def test_none_in_the_other_pose_never_turns_a_tile_nor_drops_it():
    # A sideways tile named 0.5 as 9s turned: its crop as it lies named "none" 0.95 (a turned
    # tile is no face upright) keeps it a sideways 9s.
    image = np.full((200, 300, 3), 90, np.uint8)
    classifier = ByCrop([("9s", 0.5), (NONE, 0.3)], [("9s", 0.4)], [(NONE, 0.95), ("9p", 0.04)])
    (detection,) = name_tiles(image, [Found((40, 60, 140, 130), SIDEWAYS)], classifier)
    assert (detection.pose, detection.label) == (SIDEWAYS, "9s")


def test_a_tile_named_no_tile_as_found_stays_when_named_surely_in_its_other_pose():
    image = np.full((200, 300, 3), 90, np.uint8)
    classifier = ByCrop([(NONE, 0.85)], [("6z", 0.9)], [("6z", 0.8)])
    (detection,) = name_tiles(image, [Found((40, 60, 140, 130), UPRIGHT)], classifier)
    assert detection.label == "6z"


def test_a_tile_found_face_down_is_never_dropped():
    image = np.full((200, 300, 3), 90, np.uint8)
    (detection,) = name_tiles(image, [Found((40, 40, 100, 120), FACE_DOWN)], ByCrop([(NONE, 0.99)]))
    assert detection.pose == FACE_DOWN


def test_none_is_a_class_and_no_face():
    assert LABELS[-1] == NONE and NONE not in FACE_LABELS


def test_rendered_dice_lie_clear_of_the_tiles():
    rng = np.random.default_rng(100)
    scene = render_scene(rng, dice=2)
    assert len(scene.dice) == 2
    for x1, y1, x2, y2 in scene.dice:
        assert 0 <= x1 < x2 <= scene.image.shape[1] and 0 <= y1 < y2 <= scene.image.shape[0]
        for tile in scene.tiles:
            tx1, ty1, tx2, ty2 = tile.whole or tile.box
            assert x2 <= tx1 or tx2 <= x1 or y2 <= ty1 or ty2 <= y1, "a die lies on a tile"
        top = scene.image[int(y1):int(y2), int(x1):int(x2)]
        assert top.mean() > 120   # ivory, as dice are: not the cloth


def test_a_scene_without_dice_draws_as_before():
    # no die asked, no random draw taken: the seeded scenes of the bench and tests are unchanged
    a = render_scene(np.random.default_rng(7))
    b = render_scene(np.random.default_rng(7), dice=0)
    assert np.array_equal(a.image, b.image) and not a.dice


def test_rows_of_crops_bring_dice_named_none():
    rng = np.random.default_rng(5)
    labels = [label for _ in range(60) for _, label in render_crops(rng)]
    share = labels.count(NONE) / len(labels)
    assert 0.01 < share < 0.08
    # rows asked for by name bring no dice (the red-five and calibration sets stay tiles)
    assert NONE not in [label for _ in range(30) for _, label in render_crops(rng, ["5m", "0m", "5p"])]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dice_drawn_among_clutter(seed):
    image = np.full((300, 400, 3), 60, np.uint8)
    dice(image, np.random.default_rng(seed))
    light = (image.min(axis=2) > 180).sum()
    assert light > 50   # at least one ivory die top


def test_dice_beside_rendered_hands_are_left_out():
    """Eight rendered hands with two dice beside each (15 in the frames), read by the shipped
    models as `tenbou scan` reads them: with the classifier before "none" was a class, 13 of the
    dice were read as tiles and 3 hands exactly; the classifier that learnt dice read 3 dice as
    tiles and 6 hands exactly when it shipped. The floors leave room for a retrained model."""
    from vision.hand_request import same_hand
    from vision.image_io import photo_from_frame
    from vision.scan import ScanError, scan_photo

    rng = np.random.default_rng(300)
    dice_seen = taken = exact = 0
    for _ in range(8):
        scene = render_scene(rng, dice=2, max_side=1600)
        try:
            scan = scan_photo(photo_from_frame(scene.image), situation={"rules": "riichi"})
        except ScanError as error:
            scan = error.named
        boxes = scan.boxes if scan is not None else []
        for x1, y1, x2, y2 in scene.dice:
            dice_seen += 1
            taken += any(x1 <= (b[0] + b[2]) / 2 <= x2 and y1 <= (b[1] + b[3]) / 2 <= y2 for b in boxes)
        exact += scan is not None and scan.hand is not None and same_hand(scan.hand, scene.hand)
    assert dice_seen == 15
    assert taken <= 5, f"{taken} of {dice_seen} dice read as tiles"
    assert exact >= 5, f"{exact} of 8 hands read exactly"
