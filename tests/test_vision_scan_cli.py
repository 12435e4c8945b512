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

from vision_scenes import TILE_H, TILE_W, compose

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


def test_too_few_tiles_in_view(tmp_path):
    path = tmp_path / "five.png"
    cv2.imwrite(str(path), compose([list("uuuuu")]).image)
    check_refused(tenbou("scan", path), 1, "only 5 tiles found")


def test_too_many_tiles_in_view(tmp_path):
    path = tmp_path / "crowd.png"
    cv2.imwrite(str(path), compose([list("u" * 15)] * 3).image)
    check_refused(tenbou("scan", path), 1, "45 tiles in view")


def test_whole_hand_read_and_scored(tmp_path, monkeypatch, capsys):
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


def test_too_many_tiles_for_a_hand_after_naming(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(vision.classify, "TileClassifier", ColourClassifier)
    path = hand_photo(tmp_path, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z 1m 5z".split())
    status = main(["scan", str(path)])
    captured = capsys.readouterr()
    assert status == 1
    assert "too many tiles for a hand" in captured.err
    assert "15 tiles found" in captured.out


def test_name_tiles_tries_both_turns_of_a_sideways_tile():
    scene = compose([list("uus")], crops=[face("1m"), face("2m"), face("3m")])
    from vision.find import find_tiles
    found = find_tiles(scene.image)
    named = name_tiles(scene.image, found, ColourClassifier())
    assert [d.label for d in named] == ["1m", "2m", "3m"]


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
