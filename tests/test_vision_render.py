"""The renderer's ground truth: scenes show a real winning hand, laid out as players lay it,
and every tile's box, pose and name agree with that hand."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from scorer.reading import is_complete
from scorer.tiles import counts, parse_tiles
from vision.labels import BACK, LABELS, label_of
from vision.render import available_arts, random_hand, render_crops, render_scene


@pytest.fixture(scope="module")
def fluffy(shared, monkeypatch_module):
    monkeypatch_module.setenv("TENBOU_TILE_ART", str(shared / "data" / "tile-art" / "fluffystuff"))
    if "fluffy" not in available_arts():
        pytest.skip("the CC0 tile art is not readable here")
    return "fluffy"


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


@pytest.mark.parametrize("seed", range(60))
def test_random_hands_are_complete_and_possible(seed):
    hand = random_hand(np.random.default_rng(seed))
    request = hand.request()
    concealed = parse_tiles(request["concealed"])
    melded = [parse_tiles(m["tiles"]) for m in request["melds"]]
    assert len(concealed) + 3 * len(melded) == 14
    assert is_complete(counts(concealed))
    assert parse_tiles(request["win_tile"])[0] in concealed
    everything = concealed + [t for m in melded for t in m] + parse_tiles(request.get("dora_indicators", ""))
    assert max(Counter(t.kind for t in everything).values()) <= 4
    assert all(n <= 1 for n in Counter(t.suit for t in everything if t.red).values())
    for meld, tiles in zip(request["melds"], melded):
        kinds = sorted(t.kind for t in tiles)
        if meld["kind"] == "chi":
            assert kinds[0] < 27 and kinds == list(range(kinds[0], kinds[0] + 3)) and kinds[0] // 9 == kinds[2] // 9
            assert meld["from"] == "left"
        else:
            assert len(set(kinds)) == 1 and len(kinds) == (3 if meld["kind"] == "pon" else 4)
            assert ("from" in meld) == (meld["kind"] != "ankan")


@pytest.mark.parametrize("seed", range(8))
def test_scene_tiles_are_the_hand(fluffy, seed):
    rng = np.random.default_rng(seed)
    scene = render_scene(rng, art=fluffy, melds=seed % 5)
    hand = scene.hand
    h, w = scene.image.shape[:2]
    assert scene.image.dtype == np.uint8 and scene.image.ndim == 3
    # the tiles shown are exactly the hand's tiles, red fives included
    shown = Counter((t.tile, t.red) for t in scene.tiles)
    expected = Counter((str(t).replace("0", "5"), t.red) for t in parse_tiles(hand["concealed"])
                       + [t for m in hand["melds"] for t in parse_tiles(m["tiles"])]
                       + parse_tiles(hand.get("dora_indicators", "")))
    assert shown == expected
    groups = Counter(t.group for t in scene.tiles)
    assert groups["win"] == 1
    assert groups["concealed"] + 1 == len(parse_tiles(hand["concealed"]))
    win = next(t for t in scene.tiles if t.group == "win")
    assert label_of(win.tile, win.red) == hand["win_tile"] or (win.tile, win.red) == (hand["win_tile"], False)
    # poses follow the melds: one sideways tile per called meld (two for an added kan), two backs per concealed kan
    kinds = [m["kind"] for m in hand["melds"]]
    poses = Counter(t.pose for t in scene.tiles)
    assert poses["sideways"] == sum(k != "ankan" for k in kinds) + kinds.count("kakan")
    assert poses["face_down"] == 2 * kinds.count("ankan")
    for t in scene.tiles:
        assert t.label in LABELS
        assert (t.label == BACK) == (t.pose == "face_down")
        if t.label != BACK:
            assert t.label == label_of(t.tile, t.red)
        assert (t.meld is not None) == (t.group == "meld")
        x1, y1, x2, y2 = t.box
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h


def test_scene_boxes_do_not_overlap_and_sideways_are_wide(fluffy):
    rng = np.random.default_rng(11)
    scene = render_scene(rng, art=fluffy, melds=3, tilt=0.0, yaw=0.0, face_px=50)
    boxes = [t.box for t in scene.tiles]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
            iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
            assert ix * iy < 0.1 * (a[2] - a[0]) * (a[3] - a[1])
    for t in scene.tiles:
        width, height = t.box[2] - t.box[0], t.box[3] - t.box[1]
        assert (width > height) == (t.pose == "sideways")
        assert 40 < min(width, height) < 60


def test_scene_faces_are_lighter_than_backs(fluffy):
    rng = np.random.default_rng(3)
    from vision.render.hands import Hand, Meld
    from scorer.tiles import Tile
    hand = Hand([Tile(k) for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27)], Tile(27),
                [Meld("ankan", [Tile(31)] * 4, None, None)])
    scene = render_scene(rng, hand=hand, art=fluffy, tilt=0.0, degrade=False)
    def mean(t):
        x1, y1, x2, y2 = (int(v) for v in t.box)
        return scene.image[y1:y2, x1:x2].mean()
    faces = [mean(t) for t in scene.tiles if t.pose == "upright"]
    backs = [mean(t) for t in scene.tiles if t.pose == "face_down"]
    assert len(backs) == 2
    # the white dragon of this art is blank, so faces are bright; backs are one darker colour
    if scene.tileset.fluffy_variant == "Regular":
        assert min(faces) > max(backs)


def test_scenes_are_reproducible(fluffy):
    a = render_scene(np.random.default_rng(5), art=fluffy)
    b = render_scene(np.random.default_rng(5), art=fluffy)
    assert np.array_equal(a.image, b.image) and a.hand == b.hand


def test_crops_come_with_their_classes(fluffy):
    rng = np.random.default_rng(2)
    crops = render_crops(rng, ["1m", "0p", BACK, "7z"])
    assert [label for _, label in crops] == ["1m", "0p", BACK, "7z"]
    for crop, _ in crops:
        assert crop.ndim == 3 and crop.shape[0] >= 8 and crop.shape[1] >= 8


def test_fingers_come_in_from_an_edge_and_cover_what_their_mask_says():
    from vision.render.fingers import draw_fingers

    table = np.full((240, 320, 3), (40, 110, 40), np.uint8)
    for seed in range(8):
        out, cover = draw_fingers(table, np.random.default_rng(seed), 30)
        assert cover.shape == table.shape[:2] and cover.max() > 0.99
        edges = np.concatenate([cover[0], cover[-1], cover[:, 0], cover[:, -1]])
        assert edges.max() > 0.5                                  # a finger comes from outside the picture
        under = cover > 0.99
        # skin, not the green cloth, where a finger is: red above green as in every skin tone
        assert (out[under][:, 2].astype(int) - out[under][:, 1]).mean() > 10
        assert np.array_equal(out, draw_fingers(table, np.random.default_rng(seed), 30)[0])


def test_a_tile_mostly_under_a_finger_is_no_longer_taught_as_a_tile(monkeypatch):
    pytest.importorskip("torch", reason="the detector's training samples need the train extra (torch)")
    from vision.train import detect_data

    cover = np.zeros((100, 100), np.float32)
    cover[:, :50] = 1                                              # the left half is under a finger
    monkeypatch.setattr(detect_data, "draw_fingers", lambda image, rng, width: (image, cover))
    faces = np.array([[5, 5, 25, 35], [40, 5, 60, 35], [70, 5, 90, 35]], np.float32)   # hidden, half, clear
    _, keep = detect_data.fingers_over(np.zeros((100, 100, 3), np.uint8), faces, np.random.default_rng(0))
    assert keep.tolist() == [False, False, True]


def test_the_camera_sees_bare_cloth_past_the_canvas_not_mirrored_tiles():
    # a tilted or turned camera sees past the drawn canvas; mirrored there, the canvas showed
    # copies of the tiles that no label named
    from vision.render.compose import _warp_onto_cloth

    cloth = np.full((100, 100, 3), 40, np.uint8)
    canvas = cloth.copy()
    canvas[10:40, 60:90] = 250           # a "tile" near the canvas's right edge
    seen = _warp_onto_cloth(canvas, cloth, np.eye(3), (200, 100))   # the canvas and as much again
    assert (seen[:, :100] == canvas).all()
    assert seen[:, 100:].max() == 40      # mirrored, the tile would show again at x 110-140
