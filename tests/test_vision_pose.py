"""A tile the finder takes for sideways is named three ways (turned either way and as it lies);
the names settle its pose: a tile only set askew is upright after all, a called tile stays turned.

The probabilities below are the classifier's own on rendered hands (development seeds 1000,
2000 and 3000): askew tiles named far surer as they lie than turned, called tiles the other way.
"""
import numpy as np

from vision.detect import SIDEWAYS, UPRIGHT, Found
from vision.scan import name_tiles


class Rankings:
    """A classifier that names the crops of one sideways tile: turned one way, the other, as it lies."""

    def __init__(self, turned: tuple[str, float], other_turn: tuple[str, float], as_lying: tuple[str, float]):
        self._rankings = [[turned, ("9p", 0.01)], [other_turn, ("9p", 0.01)], [as_lying, ("9p", 0.01)]]

    def classify(self, crops):
        assert len(crops) == 3
        return self._rankings


def _named(classifier):
    image = np.full((200, 300, 3), 200, np.uint8)
    (detection,) = name_tiles(image, [Found((40, 60, 140, 130), SIDEWAYS)], classifier)
    return detection.pose, detection.label


def test_a_tile_set_askew_is_upright_when_named_far_surer_as_it_lies():
    # Two 3m at the end of a row, photographed askew: 0.77 as they lay, 0.16 turned at best.
    assert _named(Rankings(("2f", 0.16), ("8f", 0.10), ("3m", 0.77))) == (UPRIGHT, "3m")


def test_a_called_tile_stays_turned_when_its_turned_name_is_sure():
    assert _named(Rankings(("9s", 0.95), ("9s", 0.30), ("9p", 0.90))) == (SIDEWAYS, "9s")


def test_a_doubtful_called_tile_stays_turned_unless_lying_is_far_surer():
    # A called 6p named 0.38 turned and 0.64 as it lies (as another tile): too close to call
    # it upright.
    assert _named(Rankings(("1m", 0.38), ("6p", 0.20), ("2p", 0.64))) == (SIDEWAYS, "1m")


def test_a_tile_named_unsurely_every_way_keeps_the_finders_pose():
    assert _named(Rankings(("4f", 0.29), ("8p", 0.20), ("4f", 0.56))) == (SIDEWAYS, "4f")
