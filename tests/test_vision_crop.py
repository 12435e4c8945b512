"""Cutting a found tile out for the classifier: the crop holds the whole face, rim included."""
import numpy as np

from vision.find import SIDEWAYS, UPRIGHT, Found
from vision.scan import crop_tile


def test_crop_takes_in_the_rim_above_the_found_box():
    # The face mask leaves out a face's darker rim, so the found box starts below it; the
    # model learnt crops that hold it.
    image = np.zeros((200, 200, 3), np.uint8)
    image[55, 40:100] = (0, 0, 255)                     # the rim, five pixels above the box
    crop, = crop_tile(image, Found((40, 60, 100, 140), UPRIGHT))
    assert crop.shape[0] > 80 and crop.shape[1] > 60
    assert (crop[:6, :, 2] == 255).any()


def test_sideways_crops_are_turned_both_ways_and_kept_as_lying():
    image = np.zeros((200, 200, 3), np.uint8)
    crops = crop_tile(image, Found((40, 60, 140, 130), SIDEWAYS))
    assert len(crops) == 3
    assert crops[0].shape[:2] == crops[1].shape[:2] == crops[2].shape[1::-1]
    assert crops[2].shape[1] > crops[2].shape[0]


def test_crop_at_the_photo_edge_stays_inside_it():
    image = np.zeros((100, 100, 3), np.uint8)
    crop, = crop_tile(image, Found((0, 0, 30, 40), UPRIGHT))
    assert 40 <= crop.shape[0] <= 42 and 30 <= crop.shape[1] <= 32
