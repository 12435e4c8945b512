"""A tile the finder takes for sideways is named three ways (turned either way and as it lies),
and so is one taken for upright but found wider than tall; the names settle its pose: a tile
only set askew is upright after all, a called tile stays turned, and a turned tile the finder
took for upright is sideways when named far surer turned.

The probabilities below are the classifier's own on rendered hands (development seeds 1000,
2000 and 3000): askew tiles named far surer as they lie than turned, called tiles the other way.
"""
import numpy as np

from vision.detect import SIDEWAYS, UPRIGHT, Found
from vision.scan import name_tiles


class Rankings:
    """A classifier that names one tile's crops, each its name and probability, in the order
    they come: a sideways tile's turned one way, the other, as it lies; a wide upright tile's as
    it lies, then turned one way and the other. The crops in the finder's pose come first, those
    in the other pose after, where they are named at all (`named`: how many were)."""

    def __init__(self, *names: tuple[str, float]):
        self._rankings = [[name, ("9p", 0.01)] for name in names]
        self.named = 0

    def classify(self, crops):
        rankings = self._rankings[self.named:self.named + len(crops)]
        assert len(rankings) == len(crops)
        self.named += len(crops)
        return rankings


def _named(classifier, pose=SIDEWAYS):
    """How a tile found in `pose`, its face 100 wide and 70 tall, is settled by `classifier`."""
    image = np.full((200, 300, 3), 200, np.uint8)
    (detection,) = name_tiles(image, [Found((40, 60, 140, 130), pose)], classifier)
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


def test_a_tile_named_surely_as_found_is_not_named_in_the_other_pose():
    # Named 0.85 turned, no name as it lies could be OTHER_POSE_MARGIN surer: those crops are
    # left unnamed (a hand photographed from the seat beside is mostly such tiles).
    sure = Rankings(("9s", 0.85), ("9s", 0.30), ("9p", 1.0))
    assert _named(sure) == (SIDEWAYS, "9s")
    assert sure.named == 2
    unsure = Rankings(("9s", 0.80), ("9s", 0.30), ("9p", 1.0))
    assert _named(unsure) == (UPRIGHT, "9p")
    assert unsure.named == 3


def test_a_tile_named_unsurely_every_way_keeps_the_finders_pose():
    assert _named(Rankings(("4f", 0.29), ("8p", 0.20), ("4f", 0.56))) == (SIDEWAYS, "4f")


def test_a_wide_tile_taken_for_upright_is_sideways_when_named_far_surer_turned():
    # A lying tile turned sideways in a call, its pose missed by the finder: 0.93 turned.
    assert _named(Rankings(("2f", 0.20), ("9s", 0.93), ("6s", 0.30)), UPRIGHT) == (SIDEWAYS, "9s")


def test_a_wide_tile_seen_at_a_low_angle_stays_upright_when_named_surely_as_it_lies():
    # A lying face seen from low down is wider than tall and still upright.
    assert _named(Rankings(("3m", 0.81), ("2f", 0.70), ("8f", 0.10)), UPRIGHT) == (UPRIGHT, "3m")


def test_a_tall_upright_tile_is_named_once():
    class One:
        def classify(self, crops):
            assert len(crops) == 1
            return [[("5p", 0.9)]]

    image = np.full((200, 300, 3), 200, np.uint8)
    (detection,) = name_tiles(image, [Found((40, 40, 100, 120), UPRIGHT)], One())
    assert (detection.pose, detection.label) == (UPRIGHT, "5p")
