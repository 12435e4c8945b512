"""A hand photographed from another seat than the winner's: read as from the winner's own."""
import cv2
import numpy as np
import pytest

from vision.scan import TURNED_SAID, UNTURN, turned_box

TURNS = (cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE)


@pytest.mark.parametrize("turn", TURNS)
def test_a_box_turns_with_its_picture_and_back(turn):
    picture = np.zeros((60, 100), np.uint8)
    picture[10:20, 30:70] = 255          # a box x 30-70, y 10-20
    turned = cv2.rotate(picture, turn)
    ys, xs = np.nonzero(turned)
    box = turned_box((30, 10, 70, 20), picture.shape, turn)
    assert box == (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
    assert turned_box(box, turned.shape, UNTURN[turn]) == (30, 10, 70, 20)


def _iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


@pytest.mark.parametrize("seed", [300, 302, 303])
def test_a_hand_photographed_from_another_seat_is_read_as_from_its_own(seed):
    """Rendered hands (none, two and no melds) upside down, as from across the table, and
    turned a quarter each way, as from the seats beside: each read as the hand it is, the
    turn said, and every tile's box in the photo as it was taken. Read as they lay, no hand
    turned a quarter came out right, and upside down the winning tile was the row's first
    tile and the melds were called from the wrong seats."""
    from vision.hand_request import same_hand
    from vision.image_io import photo_from_frame
    from vision.scan import scan_photo

    scene = render_scene_for(seed)
    upright = scan_photo(photo_from_frame(scene.image), situation={"rules": "riichi"})
    assert same_hand(upright.hand, scene.hand)
    assert not set(upright.doubts) & set(TURNED_SAID.values())    # a hand seen from its seat stays so
    for turn in TURNS:
        image = cv2.rotate(scene.image, turn)
        scan = scan_photo(photo_from_frame(image), situation={"rules": "riichi"})
        assert same_hand(scan.hand, scene.hand), (turn, scan.hand, scan.doubts)
        assert TURNED_SAID[UNTURN[turn]] in scan.doubts   # read turned back the way it was turned
        truth = [turned_box(t.whole or t.box, scene.image.shape, turn) for t in scene.tiles]
        assert all(max(_iou(box, true) for true in truth) >= 0.5 for box in scan.boxes)


def test_a_hand_upside_down_with_a_tile_missed_is_found_again_the_right_way_up():
    """From across the table the finder may miss a tile: thirteen tiles make no hand, and their
    boxes alone cannot say which way is up. One tile short of a hand, the photo is searched
    again upside down, and the fourteen tiles found there read as the hand."""
    from vision.detect import TileFinder
    from vision.hand_request import same_hand
    from vision.image_io import photo_from_frame
    from vision.scan import ScanError, pipeline_classifier, read_found, reading_order

    scene = render_scene_for(303)   # no melds, no dora indicator: fourteen tiles
    photo = photo_from_frame(cv2.rotate(scene.image, cv2.ROTATE_180))
    finder = TileFinder()
    found = reading_order(finder.find(photo.image))
    assert len(found) == len(scene.tiles) == 14
    missed = found[:6] + found[7:]   # a tile of the concealed row not seen
    scan = read_found(photo, missed, pipeline_classifier(), {"rules": "riichi"}, finder)
    assert same_hand(scan.hand, scene.hand), (scan.hand, scan.doubts)
    assert TURNED_SAID[cv2.ROTATE_180] in scan.doubts
    with pytest.raises(ScanError):   # found again the way it lies, it is still one short
        read_found(photo, missed, pipeline_classifier(), {"rules": "riichi"}, _Missing(finder, 6))


class _Missing:
    """A finder that misses the `index`-th tile (in reading order) of whatever it searches."""

    def __init__(self, finder, index: int):
        self.finder, self.index = finder, index

    def find(self, image):
        from vision.scan import reading_order
        found = reading_order(self.finder.find(image))
        return found[:self.index] + found[self.index + 1:]


def render_scene_for(seed: int):
    from vision.render import render_scene
    return render_scene(np.random.default_rng(seed), melds=seed % 3, tilt=20.0, max_side=1400)
