"""Loading photos: formats, and every kind of bad file refused in the player's words."""
import struct
import time

import cv2
import numpy as np
import pytest

from vision.image_io import PhotoError, decode_photo, load_photo, read_header


def encoded(ext: str, width: int = 64, height: int = 48) -> bytes:
    image = np.zeros((height, width, 3), np.uint8)
    image[:, : width // 2] = (200, 220, 230)
    ok, data = cv2.imencode(ext, image)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("ext,fmt", [(".jpg", "jpeg"), (".png", "png"), (".webp", "webp")])
def test_header_and_decode_of_each_format(ext, fmt):
    data = encoded(ext, 64, 48)
    header = read_header(data)
    assert (header.format, header.width, header.height) == (fmt, 64, 48)
    photo = decode_photo(data)
    assert photo.image.shape == (48, 64, 3) and photo.scale == 1.0


def test_lossless_webp_header():
    ok, data = cv2.imencode(".webp", np.full((30, 50, 3), 128, np.uint8), [cv2.IMWRITE_WEBP_QUALITY, 101])
    header = read_header(data.tobytes())
    assert (header.width, header.height) == (50, 30)


def test_big_photo_is_decoded_small():
    photo = decode_photo(encoded(".jpg", 3000, 2000), working_side=1000)
    assert max(photo.image.shape[:2]) <= 1000
    assert photo.width == 3000 and photo.height == 2000
    assert photo.scale == pytest.approx(photo.image.shape[1] / 3000)


@pytest.mark.parametrize("data,code,words", [
    (b"", "empty", "empty"),
    (b"hello, this is a text file\n", "not_an_image", "not a photo"),
    (b"GIF89a" + bytes(40), "not_an_image", "JPEG, PNG or WebP"),
])
def test_not_a_photo(data, code, words):
    with pytest.raises(PhotoError) as error:
        decode_photo(data)
    assert error.value.code == code and words in error.value.message


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp"])
def test_truncated_photo(ext):
    data = encoded(ext, 200, 150)
    with pytest.raises(PhotoError) as error:
        decode_photo(data[: len(data) // 2])
    assert error.value.code == "truncated" and "cut short" in error.value.message


def test_png_bomb_refused_before_decoding():
    data = bytearray(encoded(".png", 8, 8))
    data[16:24] = struct.pack(">II", 100_000, 100_000)  # claims 10 gigapixels
    start = time.perf_counter()
    with pytest.raises(PhotoError) as error:
        decode_photo(bytes(data))
    assert error.value.code == "too_large" and "megapixels" in error.value.message
    assert time.perf_counter() - start < 1.0


def test_jpeg_bomb_refused_before_decoding():
    data = bytearray(encoded(".jpg", 8, 8))
    sof = data.find(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
    with pytest.raises(PhotoError) as error:
        decode_photo(bytes(data))
    assert error.value.code == "too_large"


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(PhotoError) as error:
        load_photo(tmp_path / "nope.jpg")
    assert error.value.code == "not_found"
    with pytest.raises(PhotoError) as error:
        load_photo(tmp_path)
    assert "folder" in error.value.message


def test_real_photos_load_small(shared):
    folder = shared / "data" / "photos" / "camerash" / "images"
    for path in sorted(folder.iterdir())[:3]:
        photo = load_photo(path)
        assert max(photo.image.shape[:2]) <= 1024
        assert photo.scale <= 1.0


def png_claiming(width: int, height: int) -> bytes:
    """A small PNG whose header claims `width` x `height` (the header is all the check reads)."""
    data = bytearray(encoded(".png", 8, 8))
    data[16:24] = struct.pack(">II", width, height)
    return bytes(data)


def test_a_49_megapixel_png_is_refused_though_the_file_is_small():
    # decoded whole, it would hold 147 MB: more than any phone photo needs
    with pytest.raises(PhotoError) as error:
        decode_photo(png_claiming(7000, 7000))
    assert error.value.code == "too_large"
    assert "PNG" in error.value.message and "16 megapixels" in error.value.message


def test_a_big_baseline_jpeg_is_allowed_but_a_progressive_one_is_not():
    baseline = read_header(encoded(".jpg", 64, 48))
    assert not baseline.progressive and not baseline.decoded_whole
    ok, data = cv2.imencode(".jpg", np.zeros((48, 64, 3), np.uint8), [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    progressive = read_header(data.tobytes())
    assert progressive.progressive and progressive.decoded_whole
    from vision.image_io import Header, check_size
    check_size(Header("jpeg", 8000, 6000))          # a 48 MP phone photo, decoded at 1/8 scale
    with pytest.raises(PhotoError) as error:
        check_size(Header("jpeg", 8000, 6000, progressive=True))
    assert error.value.code == "too_large" and "progressive JPEG" in error.value.message


@pytest.mark.parametrize("width,height", [(4000, 1), (1, 4000), (4000, 40)])
def test_a_picture_too_narrow_for_a_hand_is_refused_in_words(width, height):
    ok, data = cv2.imencode(".png", np.full((height, width, 3), 128, np.uint8))
    with pytest.raises(PhotoError) as error:
        decode_photo(data.tobytes())
    assert error.value.code == "bad_shape"
    assert f"{width}x{height}" in error.value.message and "too narrow to show a hand" in error.value.message


def test_a_row_of_tiles_cropped_tight_is_still_read():
    photo = decode_photo(encoded(".png", 1400, 140))     # 10:1, a hand of 14 tiles
    assert photo.image.shape[1] == 1024 and photo.image.shape[0] >= 100


def test_shrinking_never_leaves_a_side_with_no_pixels():
    from vision.image_io import shrunk
    small = shrunk(np.zeros((1, 4000, 3), np.uint8), 0.25)
    assert small.shape[:2] == (1, 1000)
