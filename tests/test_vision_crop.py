"""Cutting a found tile out for the classifier: the crop holds the whole face with a small margin."""
import numpy as np

from vision.detect import SIDEWAYS, UPRIGHT, Found
from vision.scan import crop_tile


def test_crop_holds_the_face_with_a_margin_on_every_side():
    # The model learnt crops cut from 4% inside to 10% outside a face's edges: a found face's
    # edge pixels must all be in the crop, with a little of what is around them.
    image = np.zeros((200, 200, 3), np.uint8)
    image[60:140, 40:100] = 255
    (crop,), other = crop_tile(image, Found((40, 60, 100, 140), UPRIGHT))
    assert other == []   # a face standing taller than wide is upright: no other pose to try
    assert crop.shape[0] > 80 and crop.shape[1] > 60
    assert (crop[0] == 0).all() and (crop[-1] == 0).all() and (crop[:, 0] == 0).all() and (crop[:, -1] == 0).all()
    assert (crop == 255).sum() == 80 * 60 * 3


def test_sideways_crops_are_turned_both_ways_and_kept_as_lying():
    image = np.zeros((200, 200, 3), np.uint8)
    turned, (lying,) = crop_tile(image, Found((40, 60, 140, 130), SIDEWAYS))
    assert len(turned) == 2
    assert turned[0].shape[:2] == turned[1].shape[:2] == lying.shape[1::-1]
    assert lying.shape[1] > lying.shape[0]


def test_a_wide_upright_face_is_also_cut_turned_both_ways():
    image = np.zeros((200, 200, 3), np.uint8)
    (lying,), turned = crop_tile(image, Found((40, 60, 140, 130), UPRIGHT))
    assert lying.shape[1] > lying.shape[0]
    assert len(turned) == 2 and turned[0].shape[:2] == turned[1].shape[:2] == lying.shape[1::-1]


def test_crop_at_the_photo_edge_stays_inside_it():
    image = np.zeros((100, 100, 3), np.uint8)
    (crop,), _ = crop_tile(image, Found((0, 0, 30, 40), UPRIGHT))
    assert 40 <= crop.shape[0] <= 42 and 30 <= crop.shape[1] <= 32  # a margin only where the photo goes on
