"""The training data's sources and how they are split and judged: the shared photo split (one
module below both the detector's photos and the classifier's crops), the corrected labels, the
stretch of frames both ways, the rendered webcam frames and shelves, and choosing by the worst
source."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest

from vision.render import render_scene
from vision.render.hands import white_dragons_and_kan
from vision.render.scene import webcam_frame
from vision.train import sets
from vision.train.detect_eval import Finding, worst

TRAIN = Path(__file__).resolve().parents[1] / "vision" / "train"


def _imports(name: str) -> set[str]:
    tree = ast.parse((TRAIN / name).read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            out.add(("." * node.level) + (node.module or ""))
            out.update(f"{'.' * node.level}{alias.name}" for alias in node.names if not node.module)
    return out


def test_photos_and_crops_share_the_split_from_below_without_importing_each_other():
    assert not {".real", ".photos"} & _imports("sets.py")
    assert ".real" not in _imports("photos.py")       # the crops read the photos, never the other way
    from vision.train import photos, real
    assert real.HELD_OUT_SETS is sets.HELD_OUT_SETS and photos.IMAGE_SETS is sets.IMAGE_SETS
    assert photos.part_of is sets.part_of and real.photos_dir is sets.photos_dir


@pytest.mark.parametrize("name, venue", [
    ("images/IMG_20231107_201530_jpg.rf.x.jpg", "phone evenings (IMG_date)"),
    ("images/IMG_1234_jpg.rf.x.jpg", "numbered camera shots (IMG_n)"),
    ("augmented/hand_042_jpg.rf.x.jpg", "hand runs (hand_n)"),
    ("images/367510082_1446416116203876_4782610030311571409_n_jpg.jpg", "uploads (numeric ids)"),
    ("augmented/2aGXQnBH5SHRuF2LqyrkpYxAIOY3vY_jpg.rf.x.jpg", "uploads (random ids)"),
    ("augmented/bamboo_3_jpg.rf.x.jpg", "named sets"),
])
def test_each_photo_has_a_venue(name, venue):
    assert sets.venue_of(name) == venue


def test_training_reads_the_corrected_labels(shared):
    from vision.train import photos

    root = shared / "data" / "photos"
    folder = root / "hk-roboflow"
    partial = set(json.loads((folder / "partial.json").read_text(encoding="utf-8")))
    unnamed = json.loads((folder / "unnamed.json").read_text(encoding="utf-8"))
    loaded = [p for part in (sets.TRAIN, sets.TUNE, sets.HELD_OUT) for p in photos.load(root, part)]
    keys = {p.key.removeprefix("hk-roboflow/") for p in loaded}
    assert keys and not keys & partial            # photos with tiles left unboxed are never used
    with_unnamed = {p.key.removeprefix("hk-roboflow/"): p.unnamed for p in loaded if p.unnamed}
    assert set(with_unnamed) == set(unnamed) & keys
    key = next(iter(with_unnamed))
    assert [list(b) for b in with_unnamed[key]] == [b["box"] for b in unnamed[key]]


def test_a_stretched_sample_keeps_its_boxes_on_its_tiles():
    pytest.importorskip("torch", reason="the detector's training samples need the train extra (torch)")
    from vision.train.detect_data import Sample, augment

    image = np.zeros((300, 300, 3), np.uint8)
    faces = np.array([[100, 80, 140, 140], [180, 150, 230, 220]], np.float32)
    for x1, y1, x2, y2 in faces.astype(int):
        image[y1:y2, x1:x2] = 255
    sample = Sample(image, faces, None, np.zeros(2, bool), None, False)
    aspects = []
    for seed in range(12):
        out = augment(sample, np.random.default_rng(seed), 256, False, stretch=1.4)
        grey = out.image.astype(np.float32).mean(axis=2)
        for (x1, y1, x2, y2), (f1, g1, f2, g2) in zip(out.faces, faces):
            xa, ya, xb, yb = int(np.ceil(x1)), int(np.ceil(y1)), int(x2), int(y2)
            if xa < 6 or ya < 6 or xb > 250 or yb > 250 or xb - xa < 8 or yb - ya < 8:
                continue   # cut by the square's edge: its ring is not all in view
            inside = grey[ya + 2:yb - 2, xa + 2:xb - 2].mean()
            ring = np.concatenate([grey[ya - 5:ya - 2, xa:xb].ravel(), grey[yb + 2:yb + 5, xa:xb].ravel(),
                                   grey[ya:yb, xa - 5:xa - 2].ravel(), grey[ya:yb, xb + 2:xb + 5].ravel()]).mean()
            assert inside > ring + 60, (seed, inside, ring)   # the box still holds its tile, and no more
            aspects.append((x2 - x1) / (y2 - y1) / ((f2 - f1) / (g2 - g1)))
    # stretched both ways, within the factor
    assert aspects and min(aspects) < 0.95 and max(aspects) > 1.05
    assert 1 / 1.45 < min(aspects) and max(aspects) < 1.45


def test_a_webcam_frame_is_wide_with_every_tile_boxed_inside_it():
    scene = webcam_frame(np.random.default_rng(4))
    h, w = scene.image.shape[:2]
    assert abs(w / h - 16 / 9) < 0.02
    tiles = scene.tiles
    assert len(tiles) >= 14
    for t in tiles:
        x1, y1, x2, y2 = t.box
        wx1, wy1, wx2, wy2 = t.whole
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        assert wx1 <= x1 + 0.5 and wy1 <= y1 + 0.5 and wx2 >= x2 - 0.5 and wy2 >= y2 - 0.5
    # the hand lies in a strip in the lower part of the frame, the room above it
    assert min(t.box[1] for t in tiles) > h * 0.3


def test_the_white_dragon_hand_is_a_winning_hand_with_a_concealed_kan():
    from scorer.reading import is_complete
    from scorer.tiles import counts, parse_tiles

    for seed in range(20):
        hand = white_dragons_and_kan(np.random.default_rng(seed)).request()
        assert parse_tiles(hand["concealed"]).count(parse_tiles("5z")[0]) == 3
        assert [m["kind"] for m in hand["melds"]] == ["ankan"]
        assert is_complete(counts(parse_tiles(hand["concealed"])))
        assert max(counts(parse_tiles(hand["concealed"]) + parse_tiles(hand["melds"][0]["tiles"]))) <= 4


def test_a_rendered_concealed_kan_shows_two_backs():
    scene = render_scene(np.random.default_rng(8), hand=white_dragons_and_kan(np.random.default_rng(8)),
                         standing=True, max_side=900)
    assert sum(t.pose == "face_down" for t in scene.tiles) == 2
    assert sum(t.label == "5z" for t in scene.tiles) == 3


def test_the_choice_goes_by_the_worst_source():
    good, bad = Finding(), Finding()
    good.add(np.array([[0, 0, 10, 10]], np.float32), np.array([[0, 0, 10, 10]], np.float32))
    bad.add(np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32), np.array([[0, 0, 10, 10]], np.float32))
    name, f1 = worst({"a table": good, "another table": bad})
    assert name == "another table" and f1 == pytest.approx(bad.f1) and f1 < good.f1


def test_the_photoreal_plan_comes_from_its_seed(tmp_path):
    from vision.render.photoreal.__main__ import plan

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, again = plan(3, 2, tmp_path / "a"), plan(3, 2, tmp_path / "b")
    assert first == again and plan(4, 2, tmp_path / "b") != first
    for frame in first["frames"]:
        faces = [t["face"] for t in frame["tiles"] + frame["table"] if t["face"]]
        assert len(frame["tiles"]) >= 14 and all((tmp_path / "a" / name).is_file() for name in faces)
        assert all(t["label"] == "back" and t["pose"] == "face_down" for t in frame["tiles"] + frame["table"]
                   if t["face"] is None)
        assert all(t["meld"] for t in frame["tiles"] if t["pose"] == "sideways")   # only a called tile is turned
    many = plan(5, 12, tmp_path / "b")["frames"]
    assert any(t["pose"] == "sideways" for f in many for t in f["tiles"])
    assert any(f["table"] for f in many) and any(f["wall"] for f in many) and any(f["props"] for f in many)
    # dice beside some hands, each its top's picture, from a stream of their own: the rest of a
    # frame is what the seed drew before dice were drawn
    assert any(f["dice"] for f in many) and not all(f["dice"] for f in many)
    assert all((tmp_path / "b" / d["top"]).is_file() and 0.01 < d["side"] < 0.025 for f in many for d in f["dice"])


def test_a_blender_frame_is_metered_on_its_faces_not_left_blown_out(tmp_path):
    # Blender's 16-bit frame with headroom: a cloth of middling light and one tile face four
    # times brighter than white would be at a fixed exposure
    import cv2

    from vision.render.photoreal.meter import TARGET, develop, to_linear, to_srgb

    linear = np.full((60, 80, 3), 0.25, np.float32)
    linear[20:40, 30:44] = 4.0
    headroom = 8.0                                   # 3 stops
    encoded = np.round(to_srgb(linear / headroom) * 65535).astype(np.uint16)
    cv2.imwrite(str(tmp_path / "frame-0.png"), encoded)
    develop(tmp_path / "frame-0.png", tmp_path / "frame-0.jpg", [[30, 20, 44, 40]], bias=0.0)
    out = cv2.imread(str(tmp_path / "frame-0.jpg"))
    assert not (tmp_path / "frame-0.png").exists()
    face = to_linear(out[22:38, 32:42].astype(np.float32) / 255).mean()
    assert face == pytest.approx(TARGET, abs=0.05)           # just under white, not clipped
    cloth = to_linear(out[2:12, 2:12].astype(np.float32) / 255).mean()
    assert cloth == pytest.approx(TARGET / 16, rel=0.25)     # the cloth keeps its light against the face
    brighter = tmp_path / "b.png"
    cv2.imwrite(str(brighter), encoded)
    develop(brighter, tmp_path / "b.jpg", [[30, 20, 44, 40]], bias=0.5)
    assert cv2.imread(str(tmp_path / "b.jpg"))[2:12, 2:12].mean() > out[2:12, 2:12].mean()   # a camera misjudging it


def test_the_held_out_frames_render_alone_as_in_the_whole_plan(tmp_path, monkeypatch):
    """`--held-out-only` renders the frames on the cloth no model trains on, and only those; the
    plan is drawn whole, so each is the frame a whole render makes."""
    import json
    import shutil

    from vision.render.photoreal.__main__ import held_out_only, main, plan
    from vision.train.photoreal_frames import HELD_OUT_CLOTH, photoreal_frames

    (tmp_path / "plan").mkdir()
    whole = plan(21, 6, tmp_path / "plan")
    held_out_only(whole)
    kept = [n for n, frame in enumerate(whole["frames"]) if not frame.pop("skip")]
    assert kept == [n for n, frame in enumerate(whole["frames"]) if tuple(frame["cloth"]) == HELD_OUT_CLOTH]
    assert 0 < len(kept) < 6 and whole == plan(21, 6, tmp_path / "plan")
    if shutil.which("blender") is None:
        pytest.skip("rendering needs Debian's blender (apt-get install blender)")
    monkeypatch.setenv("TENBOU_CACHE", str(tmp_path))
    assert main(["--count", "6", "--seed", "21", "--samples", "1", "--width", "64", "--held-out-only"]) == 0
    folder = tmp_path / "photoreal" / "seed-21"
    assert sorted(json.loads((folder / "labels.json").read_text())) == sorted(f"frame-{n}.jpg" for n in kept)
    frames = photoreal_frames(tmp_path / "photoreal")
    assert [f.path.name for f in frames] == [f"frame-{n}.jpg" for n in kept] and all(f.held_out for f in frames)
