"""Photos at a phone camera's full size (issue 25): a 16-megapixel progressive JPEG of a hand is
read as well as the small photo it was made from, and eight of them at once leave the server
holding little more than before (bench/photo_memory.py measures the same, with the figures in
docs/web.md). Nothing is timed; memory is read from /proc."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench.photo_memory import big_hand_photo, run


@pytest.fixture(scope="module")
def classifier():
    from vision.classify import ModelMissing
    from vision.scan import pipeline_classifier
    try:
        return pipeline_classifier()
    except (ModelMissing, ImportError) as missing:
        pytest.skip(f"the tile model cannot be loaded here: {missing}")


@pytest.fixture(scope="module")
def big_photo(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("photos") / "hand-16mp.jpg"
    big_hand_photo(path)
    return path


def test_a_hand_photographed_at_16_megapixels_reads_as_the_small_photo(classifier, big_photo):
    import cv2
    import numpy as np

    from vision.image_io import read_header
    from vision.render.scene import render_scene
    from vision.scan import scan_bytes

    data = big_photo.read_bytes()
    header = read_header(data)
    assert header.progressive and 15_000_000 < header.width * header.height <= 16_000_000
    scene = render_scene(np.random.default_rng(5), melds=0, dora=0, tilt=10, art="drawn", face_px=70)
    small = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    read_small = scan_bytes(small, classifier, {"rules": "riichi"}).to_json()
    read_big = scan_bytes(data, classifier, {"rules": "riichi"}).to_json()
    assert read_big["hand"] is not None and read_big["hand"] == read_small["hand"]
    assert read_big["hand"]["concealed"] == scene.hand["concealed"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and glibc's allocator")
def test_eight_big_photos_at_once_leave_little_memory_held(classifier, big_photo):
    found = run("server", big_photo, rounds=3, uploads=8)
    assert found["answers"] == [200]
    # glibc's defaults held 450 MB after such rounds, and peaked near 480 MB (docs/web.md); two
    # arenas and a trim after each photo hold about 60 MB and peak near 175 MB
    assert found["held_mb"] < 150, found
    assert found["peak_mb"] < 330, found
