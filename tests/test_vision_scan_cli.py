"""`tenbou scan`: every kind of bad input (exit status and message), and a whole hand read
end to end with a stand-in classifier (the real model is tested by its own tests)."""
import json
import struct
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.classify
from vision.scan import name_tiles
from webui.cli import main
from webui.commands.camera import Steadiness

import vision.scan
from vision_scenes import TILE_H, TILE_W, compose, find_toy_tiles

ROOT = Path(__file__).resolve().parents[1]

# Each test tile carries a block of one colour; the stand-in classifier names it by colour.
PALETTE = {"1m": (0, 0, 255), "2m": (0, 128, 255), "3m": (0, 255, 255), "4p": (0, 255, 0), "5p": (255, 255, 0),
           "6p": (255, 0, 0), "7s": (255, 0, 255), "8s": (128, 0, 128), "9s": (0, 64, 128), "2z": (64, 64, 64),
           "5z": (128, 128, 0), "0p": (0, 128, 0)}


def face(label: str) -> np.ndarray:
    tile = np.full((TILE_H, TILE_W, 3), (222, 236, 240), np.uint8)
    cv2.rectangle(tile, (TILE_W // 4, TILE_H // 4), (3 * TILE_W // 4, 3 * TILE_H // 4), PALETTE[label], cv2.FILLED)
    return tile


class ColourClassifier:
    """Names a crop by the colour of its middle, with the next-nearest colours as runner-ups."""

    def __init__(self, *args, **kwargs):
        pass

    def classify(self, crops):
        out = []
        for crop in crops:
            h, w = crop.shape[:2]
            middle = np.median(crop[h // 3:2 * h // 3, w // 3:2 * w // 3].reshape(-1, 3), axis=0)
            distance = {k: float(np.linalg.norm(middle - np.array(v))) for k, v in PALETTE.items()}
            ranked = sorted(distance, key=distance.get)
            out.append([(ranked[0], 0.97), (ranked[1], 0.02), (ranked[2], 0.01)])
        return out


@pytest.fixture
def toy_finder(monkeypatch):
    """The composed test pictures' tiles found by colour instead of by the learned detector."""
    monkeypatch.setattr(vision.scan, "find_tiles", find_toy_tiles)


def hand_photo(tmp_path, labels: list[str], name="hand.png") -> Path:
    layout = ["u"] * (len(labels) - 1) + ["|", "u"]
    scene = compose([layout], crops=[face(label) for label in labels], table=(60, 110, 40))
    path = tmp_path / name
    cv2.imwrite(str(path), scene.image)
    return path


def tenbou(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webui.cli", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def check_refused(result, status: int, words: str):
    assert result.returncode == status, result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_not_an_image(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_text("a shopping list, not a photo")
    check_refused(tenbou("scan", path), 2, "not a photo Tenbou can read")


def test_empty_file(tmp_path):
    path = tmp_path / "empty.jpg"
    path.write_bytes(b"")
    check_refused(tenbou("scan", path), 2, "the file is empty")


def test_truncated_file(tmp_path):
    ok, data = cv2.imencode(".jpg", np.full((300, 400, 3), 128, np.uint8))
    path = tmp_path / "cut.jpg"
    path.write_bytes(data.tobytes()[: len(data) // 2])
    check_refused(tenbou("scan", path), 2, "cut short")


def test_huge_image_refused(tmp_path):
    ok, data = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))
    data = bytearray(data.tobytes())
    data[16:24] = struct.pack(">II", 200_000, 200_000)
    path = tmp_path / "bomb.png"
    path.write_bytes(bytes(data))
    check_refused(tenbou("scan", path), 2, "megapixels")


def test_missing_file(tmp_path):
    check_refused(tenbou("scan", tmp_path / "nothing.jpg"), 2, "there is no file")


def test_no_tiles_in_view(tmp_path):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((400, 600, 3), (60, 110, 40), np.uint8))
    check_refused(tenbou("scan", path), 1, "no tiles found")


def test_too_few_tiles_in_view(tmp_path, toy_finder, monkeypatch, capsys):
    monkeypatch.setattr(vision.classify, "TileClassifier", ColourClassifier)
    path = tmp_path / "five.png"
    cv2.imwrite(str(path), compose([list("uuuuu")]).image)
    assert main(["scan", str(path)]) == 1
    assert "only 5 tiles found" in capsys.readouterr().err


def test_too_few_tiles_for_a_hand_are_still_named(tmp_path, toy_finder):
    """A photo of the dora indicators, or a hand the finder missed a tile of: no hand, but the
    tiles seen come named with the refusal, for the player to complete."""
    from vision.image_io import load_photo
    from vision.scan import ScanError, scan_photo

    with pytest.raises(ScanError) as refused:
        scan_photo(load_photo(hand_photo(tmp_path, ["3m", "4p", "5z"])), ColourClassifier())
    assert refused.value.code == "too_few_tiles"
    named = refused.value.named.to_json()
    assert [t["tile"] for t in named["tiles"]] == ["3m", "4p", "5z"] and named["hand"] is None
    assert "only 3 tiles found" in named["doubts"][0]


def test_too_few_tiles_are_named_as_the_rules_play(tmp_path, toy_finder):
    """No hand to repair, so a tile named a season in riichi takes its likeliest riichi name."""
    from vision.image_io import load_photo
    from vision.scan import ScanError, scan_photo

    class SeasonSeer(ColourClassifier):
        def classify(self, crops):
            return [[("5f", 0.9), ("4p", 0.08), ("5p", 0.02)] if r[0][0] == "4p" else r for r in super().classify(crops)]

    photo = load_photo(hand_photo(tmp_path, ["3m", "4p"]))
    for rules, names in (("riichi", ["3m", "4p"]), ("chinese-classical", ["3m", "5f"])):
        with pytest.raises(ScanError) as refused:
            scan_photo(photo, SeasonSeer(), {"rules": rules})
        assert [t["tile"] for t in refused.value.named.to_json()["tiles"]] == names


def test_two_tiles_named_one_season_are_dealt_two_names(tmp_path, toy_finder, capsys, monkeypatch):
    """A set has one of each flower and season: two tiles both named spring first are read as
    spring and summer, the one renamed shown doubtful, and the doubts say why."""
    class TwinSeasons(ColourClassifier):
        def classify(self, crops):
            return [[("5f", 0.6), ("6f", 0.3), ("4p", 0.1)] if r[0][0] == "4p" else r for r in super().classify(crops)]

    monkeypatch.setattr(vision.classify, "TileClassifier", TwinSeasons)
    photo = hand_photo(tmp_path, ["3m", "4p", "4p"])
    assert main(["scan", str(photo), "--json", "--rules", "chinese-classical"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert sorted(t["tile"] for t in answer["tiles"][1:]) == ["5f", "6f"]
    assert [t["doubtful"] for t in answer["tiles"] if t["tile"] == "6f"] == [True]
    assert ("two tiles looked most like 5f (spring), and a set has one of each flower and season: the less sure "
            "one is read as 6f (summer)") in answer["doubts"]


def test_a_photo_read_without_rules_takes_them_from_its_flowers(tmp_path, toy_finder, monkeypatch, capsys):
    """No rules named: riichi, unless a tile is surely a flower or season (riichi plays none,
    and would rename it a suit tile); named rules are kept whatever the photo shows."""
    from vision.scan import FLOWER_RULES, rules_seen

    class SeasonSeer(ColourClassifier):
        def classify(self, crops):
            return [[("5f", 0.6), ("6f", 0.25), ("4p", 0.15)] if r[0][0] == "4p" else r for r in super().classify(crops)]

    monkeypatch.setattr(vision.classify, "TileClassifier", SeasonSeer)
    photo = hand_photo(tmp_path, ["3m", "4p"])
    assert main(["scan", str(photo), "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert [t["tile"] for t in answer["tiles"]] == ["3m", "5f"]
    assert main(["scan", str(photo), "--json", "--rules", "riichi"]) == 1
    assert [t["tile"] for t in json.loads(capsys.readouterr().out)["tiles"]] == ["3m", "4p"]
    seen = name_tiles(cv2.imread(str(photo)), find_toy_tiles(cv2.imread(str(photo))), SeasonSeer())
    assert rules_seen(seen) == FLOWER_RULES and rules_seen(seen[:1]) == "riichi"
    # one tile under FLOWER_SURE is no flower seen, two at FLOWERS_SEEN are
    weak = seen[1].__class__(seen[1].box, seen[1].pose, (("4p", 0.5), ("5f", 0.3), ("6f", 0.2)))
    assert rules_seen([seen[0], weak]) == "riichi" and rules_seen([weak, weak]) == FLOWER_RULES


def test_too_few_tiles_in_json_still_list_the_tiles_seen(tmp_path, toy_finder, monkeypatch, capsys):
    monkeypatch.setattr(vision.classify, "TileClassifier", ColourClassifier)
    assert main(["scan", str(hand_photo(tmp_path, ["3m", "5z"])), "--json"]) == 1
    out = capsys.readouterr()
    answer = json.loads(out.out)
    assert [t["tile"] for t in answer["tiles"]] == ["3m", "5z"] and answer["hand"] is None and answer["result"] is None
    assert "only 2 tiles found" in out.err


def test_too_many_tiles_in_view_are_still_named_in_json(tmp_path, toy_finder, monkeypatch, capsys):
    monkeypatch.setattr(vision.classify, "TileClassifier", ColourClassifier)
    path = tmp_path / "crowd.png"
    cv2.imwrite(str(path), compose([list("u" * 15)] * 3, crops=[face("3m")]).image)
    annotated = tmp_path / "seen.png"
    assert main(["scan", str(path), "--json", "--annotate", str(annotated)]) == 1
    out = capsys.readouterr()
    assert "45 tiles in view" in out.err
    answer = json.loads(out.out)
    assert len(answer["tiles"]) == 45 and {t["tile"] for t in answer["tiles"]} == {"3m"}
    assert answer["hand"] is None and answer["result"] is None and "45 tiles in view" in answer["doubts"][0]
    assert cv2.imread(str(annotated)) is not None  # what was seen is still drawn


def test_whole_hand_read_and_scored(tmp_path, toy_finder, monkeypatch, capsys):
    monkeypatch.setattr(vision.classify, "TileClassifier", ColourClassifier)
    path = hand_photo(tmp_path, "1m 2m 3m 4p 0p 6p 7s 8s 9s 2z 2z 5z 5z 5z".split())
    annotated = tmp_path / "out.png"
    status = main(["scan", str(path), "--json", "--annotate", str(annotated)])
    out = json.loads(capsys.readouterr().out)
    assert out["hand"]["concealed"] == "123m406p789s22555z"
    assert out["hand"]["win_tile"] == "5z" and out["hand"]["melds"] == []
    assert len(out["tiles"]) == 14
    red = [t for t in out["tiles"] if t["red"]]
    assert red and red[0]["tile"] == "5p"
    first = out["tiles"][0]
    assert first["pose"] == "upright" and len(first["box"]) == 4 and first["alternatives"]
    assert cv2.imread(str(annotated)) is not None
    if out["result"] is not None:  # the scorer is present: the hand has white dragons, so it scores
        assert out["result"]["ok"] and status == 0


def test_too_many_tiles_for_a_hand_after_naming(tmp_path, toy_finder, monkeypatch, capsys):
    monkeypatch.setattr(vision.classify, "TileClassifier", ColourClassifier)
    path = hand_photo(tmp_path, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z 1m 5z".split())
    status = main(["scan", str(path)])
    captured = capsys.readouterr()
    assert status == 1
    assert "too many tiles for a hand" in captured.err
    assert "15 tiles found" in captured.out


def test_name_tiles_tries_both_turns_of_a_sideways_tile():
    scene = compose([list("uus")], crops=[face("1m"), face("2m"), face("3m")])
    found = find_toy_tiles(scene.image)
    named = name_tiles(scene.image, found, ColourClassifier())
    assert [d.label for d in named] == ["1m", "2m", "3m"]


class UprightOnlyClassifier(ColourClassifier):
    """Sure of a crop only when it stands taller than wide, as a face seen upright does."""

    def classify(self, crops):
        return [[(name, 0.95 if crop.shape[0] > crop.shape[1] else 0.3) for name, _ in ranking]
                for crop, ranking in zip(crops, super().classify(crops))]


def test_a_tile_taken_for_sideways_but_named_surest_unturned_is_upright():
    from vision.detect import SIDEWAYS, UPRIGHT, Found
    scene = compose([list("uus")], crops=[face("1m"), face("2m"), face("3m")])
    (x1, y1, x2, y2), _ = scene.tiles[1]
    turned_box, _ = scene.tiles[2]
    # The middle tile is upright but was judged sideways (a tile set askew looks as wide).
    found = [Found((x1, y1, x2, y2), SIDEWAYS), Found(tuple(turned_box), SIDEWAYS)]
    named = name_tiles(scene.image, found, UprightOnlyClassifier())
    assert [(d.label, d.pose) for d in named] == [("2m", UPRIGHT), ("3m", SIDEWAYS)]


def test_camera_reports_a_reading_once_steady():
    steady = Steadiness(1.0)
    assert not steady.update(("a",), 0.0)
    assert not steady.update(("a",), 0.5)
    assert steady.update(("a",), 1.2)
    assert not steady.update(("a",), 2.0)        # already reported
    assert not steady.update(None, 2.1)          # nothing readable in view
    assert not steady.update(("b",), 2.2)
    assert steady.update(("b",), 3.3)


def test_camera_without_a_camera():
    check_refused(tenbou("camera", "--device", "9", "--once"), 2, "no camera found at device 9")


def test_real_set_photo_is_too_many_tiles(shared):
    check_refused(tenbou("scan", shared / "data" / "photos" / "camerash" / "images" / "12.jpg"), 1, "144 tiles in view")


class MisreadingClassifier(ColourClassifier):
    """Reads the 8 of bamboo as a 3 of bamboo at first, with 8s its runner-up."""

    def classify(self, crops):
        out = super().classify(crops)
        return [[("3s", 0.55), ("8s", 0.40), ("2s", 0.05)] if ranking[0][0] == "8s" else ranking for ranking in out]


def test_misread_tile_is_repaired_and_marked(tmp_path, toy_finder, monkeypatch, capsys):
    monkeypatch.setattr(vision.classify, "TileClassifier", MisreadingClassifier)
    path = hand_photo(tmp_path, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z 5z".split())
    main(["scan", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["hand"]["concealed"] == "123m456p789s22555z"
    eight = out["tiles"][7]
    assert eight["tile"] == "8s" and eight["doubtful"] and eight["first_read"] == {"tile": "3s", "red": False}
    assert any("looked most like 3s but is read as 8s" in d for d in out["doubts"])


@pytest.mark.parametrize("hand", ["1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z 5z",
                                  "2m 3m 4m 3p 4p 5p 6s 7s 8s 6z 6z 7z 7z 7z"])
def test_hand_of_real_held_out_tiles_is_read_and_scored(shared, hand):
    """Real tile photos (crops of the held-out sets, never trained on) laid as a hand on a
    table, read by the real model, repaired and scored."""
    from vision.classify import ModelMissing, TileClassifier
    from vision.image_io import photo_from_frame
    from vision.scan import scan_photo

    try:
        classifier = TileClassifier()
    except ModelMissing as error:
        pytest.skip(str(error))
    root = shared / "data" / "photos" / "camerash"
    # Crops numbered 375 and up come from the sets 10, 8 and 12, held out from training.
    pool: dict[str, list[str]] = {}
    for name, tile in json.loads((root / "crops.json").read_text()).items():
        if int(Path(name).stem) >= 375:
            pool.setdefault(tile, []).append(name)
    labels = hand.split()
    crops = [cv2.imread(str(root / pool[label][labels[:i].count(label) % len(pool[label])])) for i, label in enumerate(labels)]
    # each crop set on a tile's body, as a tile lying seen at an angle: a bare crop of a blank
    # white dragon pasted on the cloth is a pale square, not a tile, to a finder of real tiles
    scene = compose([["u"] * 13 + ["|", "u"]], crops=crops, table=(60, 110, 40), body=12)
    scan = scan_photo(photo_from_frame(scene.image), classifier, {"tsumo": True})
    from scorer.tiles import format_tiles, parse_tiles
    assert scan.hand["concealed"] == format_tiles(parse_tiles("".join(labels)))
    assert scan.hand["win_tile"] == labels[-1]
    from scorer import score
    assert scan.scorable and score(scan.hand)["ok"]


class FakeCapture:
    """A webcam that shows the same picture every frame."""

    def __init__(self, frame):
        self.frame, self.released = frame, False

    def isOpened(self):
        return True

    def read(self):
        return True, self.frame.copy()

    def release(self):
        self.released = True


def test_camera_reports_the_hand_in_view(tmp_path, toy_finder, monkeypatch, capsys):
    monkeypatch.setattr(vision.classify, "TileClassifier", ColourClassifier)
    frame = cv2.imread(str(hand_photo(tmp_path, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z 5z".split())))
    capture = FakeCapture(frame)
    monkeypatch.setattr(cv2, "VideoCapture", lambda device: capture)
    status = main(["camera", "--steady", "0", "--once", "--tsumo"])
    out = capsys.readouterr().out
    assert status == 0 and capture.released
    assert "hand: 123m456p789s22555z (winning tile 5z)" in out


class BackClassifier(ColourClassifier):
    def classify(self, crops):
        return [[("back", 0.96), ("1m", 0.03), ("2m", 0.01)] for _ in crops]


def test_a_face_taken_for_a_back_is_face_up_when_named_surely():
    # The detector takes a face for a back (its face-down heatmap peaks there); the
    # classifier, sure of a face, turns it face up, and a real back stays a back.
    from vision.detect import FACE_DOWN, UPRIGHT, Found
    scene = compose([list("uuu")], crops=[face("1m"), face("2m"), face("3m")])
    found = [Found(tuple(box), FACE_DOWN if k == 1 else UPRIGHT) for k, (box, _) in enumerate(scene.tiles)]
    named = name_tiles(scene.image, found, ColourClassifier())
    assert [(d.label, d.pose) for d in named] == [("1m", UPRIGHT), ("2m", UPRIGHT), ("3m", UPRIGHT)]
    backs = name_tiles(scene.image, found, BackClassifier())
    assert backs[1].pose == FACE_DOWN and backs[1].candidates == ()


def test_a_back_found_among_the_faces_is_face_down_when_named_surely():
    from vision.detect import FACE_DOWN, UPRIGHT, Found
    scene = compose([list("uuu")], crops=[face("1m"), face("2m"), face("3m")])
    found = [Found(tuple(box), UPRIGHT) for box, _ in scene.tiles]
    named = name_tiles(scene.image, found, BackClassifier())
    assert [(d.pose, d.candidates) for d in named] == [(FACE_DOWN, ())] * 3


def test_a_tile_named_under_90_percent_is_doubtful_with_or_without_a_hand():
    # Too few tiles for a hand: no repair step ran, and a tile named at 8% must still be doubtful.
    from vision.hand import Arrangement, Detection
    from vision.scan import Scan

    tiles = [Detection((0, 0, 10, 14), "upright", (("3m", 0.08), ("5z", 0.05))),
             Detection((12, 0, 22, 14), "upright", (("2p", 0.97),)),
             Detection((24, 0, 34, 14), "face_down", ())]
    scan = Scan(tiles, [t.box for t in tiles], Arrangement(), None, [])
    assert [t["doubtful"] for t in scan.to_json()["tiles"]] == [True, False, False]


def test_a_missing_tile_detector_is_said_in_words(tmp_path, monkeypatch, capsys):
    import vision.detect
    monkeypatch.setattr(vision.detect, "MODEL_NAME", "no_such_detector.onnx")
    monkeypatch.setattr(vision.detect, "_FINDER", None)
    assert main(["scan", str(hand_photo(tmp_path, ["3m", "5z"]))]) == 1
    err = capsys.readouterr().err
    assert "the tile detector" in err and "python -m vision.train.detector" in err and "Traceback" not in err


def test_next_guesses_are_names_the_rules_play():
    # A riichi photo's runner-ups never offer a flower or season, nor a back for a face-up
    # tile; a Chinese one keeps its flowers.
    from vision.hand import Arrangement, Detection
    from vision.scan import Scan

    tiles = [Detection((0, 0, 10, 14), "upright", (("5z", 0.6), ("3f", 0.2), ("back", 0.1), ("6z", 0.05), ("1z", 0.05)))]
    riichi = Scan(tiles, [t.box for t in tiles], Arrangement(), None, [], {"rules": "riichi"}).to_json()
    assert [a["tile"] for a in riichi["tiles"][0]["alternatives"]] == ["6z", "1z"]
    chinese = Scan(tiles, [t.box for t in tiles], Arrangement(), None, [], {"rules": "chinese-classical"}).to_json()
    assert [a["tile"] for a in chinese["tiles"][0]["alternatives"]] == ["3f", "6z", "1z"]


def test_annotate_names_tiles_touching_the_top_edge():
    # A tile whose box starts at the photo's top has no room for its name above it: the name
    # goes inside it, on its tag, and a neighbour's box drawn later does not cover it.
    from vision.annotate import SURE, draw_scan
    from vision.hand import Arrangement, Detection
    from vision.scan import Scan

    image = np.full((120, 200, 3), 90, np.uint8)
    tiles = [Detection((10, 0, 40, 40), "upright", (("1m", 0.99),)),
             Detection((42, 0, 72, 40), "upright", (("2m", 0.99),)),
             Detection((80, 60, 110, 100), "upright", (("3m", 0.99),))]
    out = draw_scan(image, Scan(tiles, [t.box for t in tiles], Arrangement(), None, []))
    for x1, y1, x2, _ in (t.box for t in tiles):
        region = out[max(0, y1 - 30):y1 + 30, x1:x2]
        tag = np.all(region == SURE, axis=2).sum()
        text = np.all(region > 200, axis=2).sum()      # the name, white on the tag
        assert tag > 40 and text > 5, (x1, y1, tag, text)


def test_rules_taken_from_the_photo_are_said():
    from vision.hand import Arrangement, Detection
    from vision.scan import Scan
    from webui.commands.scan import describe

    tiles = [Detection((0, 0, 10, 14), "upright", (("5f", 0.9),))]
    guessed = Scan(tiles, [t.box for t in tiles], Arrangement(), None, [], {"rules": "chinese-classical"}, True)
    assert any("read with chinese-classical rules: the photo shows a flower or season" in line
               for line in describe(guessed, None))
    named = Scan(tiles, [t.box for t in tiles], Arrangement(), None, [], {"rules": "chinese-classical"}, False)
    assert not any("read with" in line for line in describe(named, None))


def test_a_row_apart_is_named_as_the_rules_take_it():
    from vision.hand import DORA, Arrangement, Detection, Group
    from vision.scan import Scan
    from webui.commands.scan import describe

    tiles = [Detection((0, 0, 10, 14), "upright", (("3m", 0.9),))]
    arrangement = Arrangement(groups=[Group(DORA, (0,))])
    lines = {rules: describe(Scan(tiles, [t.box for t in tiles], arrangement, None, [], {"rules": rules}), None)
             for rules in ("riichi", "chinese-classical")}
    assert "  dora indicators: 3m" in lines["riichi"]
    assert "  apart from the hand: 3m" in lines["chinese-classical"]
