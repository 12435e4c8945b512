"""Loading a photo safely: JPEG, PNG or WebP, checked before OpenCV decodes it.

The header is read by hand first, so an empty file, a file that is not a photo, a photo cut
short, or a "decompression bomb" (a tiny file that claims a gigantic picture) is refused with
a message a player understands before any memory is spent on it. Big photos are decoded at a
reduced scale (JPEG can do that almost for free), because the tiles need far fewer pixels
than a phone camera takes; a picture that can only be decoded whole (PNG, WebP, a progressive
JPEG) is refused above what a phone photo holds, since its few compressed bytes may stand for
hundreds of megabytes once decoded.
"""
from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np

# A 48-megapixel phone photo is about the largest honest input; refuse anything beyond that.
MAX_PIXELS = 50_000_000
# Pixels a picture may have when it must be decoded whole. A baseline JPEG is decoded at 1/2 to
# 1/8 scale and costs little at any size; OpenCV decodes PNG and WebP at full size before any
# shrinking (3 bytes a pixel), and a progressive JPEG keeps all its coefficients (about as much)
# even when its output is reduced: a 143 kB PNG of 49 megapixels cost 150 MB. A phone photo is
# 12 megapixels.
MAX_WHOLE_PIXELS = 16_000_000
# A hand is a row of tiles, about 10 times as wide as high when cropped tight; a picture much
# narrower than that cannot show one (and a 4000x1 one shrank to no pixels at all).
MAX_ASPECT = 16
MAX_BYTES = 64 * 1024 * 1024
# The recogniser never needs more than this many pixels on the long side.
WORKING_SIDE = 1024


def shrunk(image: np.ndarray, factor: float) -> np.ndarray:
    """The image scaled down by `factor` (< 1). Area averaging is needed only below half
    size, where bilinear sampling would skip pixels; above it, OpenCV's area averaging takes
    a slow general path (12-14 ms against 2 ms for a 1 MP photo, measured)."""
    interpolation = cv2.INTER_AREA if factor <= 0.5 else cv2.INTER_LINEAR
    height, width = image.shape[:2]
    if round(width * factor) < 1 or round(height * factor) < 1:
        # OpenCV would round the short side to no pixels and fail: keep one
        size = (max(1, round(width * factor)), max(1, round(height * factor)))
        return cv2.resize(image, size, interpolation=interpolation)
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=interpolation)


class PhotoError(ValueError):
    """A photo we cannot use, with a message for the player and a short code for programs."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Header:
    format: str   # "jpeg", "png" or "webp"
    width: int
    height: int
    progressive: bool = False   # a JPEG that is not baseline: decoded whole even when reduced

    @property
    def decoded_whole(self) -> bool:
        """Whether decoding holds the whole picture in memory, whatever the output scale."""
        return self.format != "jpeg" or self.progressive


def read_header(data: bytes) -> Header:
    """The format and pixel size a photo claims, read without decoding it."""
    if not data:
        raise PhotoError("empty", "the file is empty: there is no photo in it")
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg_header(data)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return _png_header(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_header(data)
    raise PhotoError("not_an_image", "this file is not a photo Tenbou can read (use a JPEG, PNG or WebP picture)")


def _truncated() -> PhotoError:
    return PhotoError("truncated", "the photo file is cut short (an incomplete download or copy?); take or copy it again")


def _jpeg_header(data: bytes) -> Header:
    pos, size, progressive = 2, None, False
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise PhotoError("not_an_image", "this JPEG file is damaged and cannot be read")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2:pos + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if pos + 9 > len(data):
                raise _truncated()
            height, width = struct.unpack(">HH", data[pos + 5:pos + 9])
            size = (width, height)
            progressive = marker not in (0xC0, 0xC1)   # baseline and extended sequential stream
        if marker == 0xDA:  # start of scan: the picture data follows, up to the end marker
            if size is None:
                raise PhotoError("not_an_image", "this JPEG file is damaged: it has no picture size")
            if data.rfind(b"\xff\xd9") < pos:
                raise _truncated()
            return Header("jpeg", *size, progressive=progressive)
        pos += 2 + length
    raise _truncated()


def _png_header(data: bytes) -> Header:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise _truncated()
    width, height = struct.unpack(">II", data[16:24])
    if b"IEND" not in data[-1024:]:  # the end chunk (a few stray bytes may follow it)
        raise _truncated()
    return Header("png", width, height)


def _webp_header(data: bytes) -> Header:
    (riff_size,) = struct.unpack("<I", data[4:8])
    if len(data) < 30 or len(data) < riff_size + 8:
        raise _truncated()
    chunk = data[12:16]
    if chunk == b"VP8X":
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
    elif chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        width, height = width & 0x3FFF, height & 0x3FFF
    elif chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        width, height = 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    else:
        raise PhotoError("not_an_image", "this WebP file is damaged and cannot be read")
    return Header("webp", width, height)


def check_size(header: Header, max_pixels: int = MAX_PIXELS, max_whole_pixels: int = MAX_WHOLE_PIXELS) -> None:
    """Refuse, in words, a picture too big to decode safely or too narrow to show a hand."""
    width, height = header.width, header.height
    if width <= 0 or height <= 0:
        raise PhotoError("not_an_image", "this photo claims to have no pixels; it is damaged")
    megapixels = width * height / 1e6
    if width * height > max_pixels:
        raise PhotoError("too_large", f"this photo is {width}x{height} ({megapixels:,.0f} megapixels); "
                                      f"Tenbou takes photos up to {max_pixels / 1e6:.0f} megapixels — use a smaller one")
    if header.decoded_whole and width * height > max_whole_pixels:
        kind = "progressive JPEG" if header.format == "jpeg" else header.format.upper()
        raise PhotoError("too_large", f"this {kind} picture is {width}x{height} ({megapixels:,.0f} megapixels); "
                                      f"Tenbou reads PNG, WebP and progressive JPEG pictures up to "
                                      f"{max_whole_pixels / 1e6:.0f} megapixels, which a phone photo fits — "
                                      f"send a smaller picture, or the camera's own JPEG")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise PhotoError("bad_shape", f"this picture is {width}x{height} pixels, too narrow to show a hand: "
                                      f"Tenbou reads pictures at most {MAX_ASPECT} times as long as they are wide")


def _reduced_flag(header: Header, working_side: int) -> tuple[int, int]:
    """The OpenCV flag that decodes a JPEG at 1/2, 1/4 or 1/8 scale, and that factor (a progressive
    JPEG too: its output is smaller, even if its coefficients are kept whole)."""
    if header.format != "jpeg":
        return cv2.IMREAD_COLOR, 1
    long_side = max(header.width, header.height)
    for factor, flag in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2)):
        if long_side / factor >= 0.75 * working_side:
            return flag, factor
    return cv2.IMREAD_COLOR, 1


@dataclass(frozen=True)
class Photo:
    """A decoded photo, at most `working_side` on its long side, and how it maps to the file."""
    image: np.ndarray   # BGR, uint8
    scale: float        # working pixels per pixel of the original file
    width: int          # of the original file
    height: int


def decode_photo(data: bytes, working_side: int = WORKING_SIDE, max_pixels: int = MAX_PIXELS) -> Photo:
    """Check and decode a photo from its bytes; raises PhotoError in the player's words."""
    if len(data) > MAX_BYTES:
        raise PhotoError("too_large", f"this file is {len(data) / 2**20:.0f} MB; Tenbou takes photos up to {MAX_BYTES // 2**20} MB")
    header = read_header(data)
    check_size(header, max_pixels)
    flag, factor = _reduced_flag(header, working_side)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if image is None or image.size == 0:
        raise PhotoError("not_an_image", "this photo is damaged and cannot be read")
    # OpenCV turns the picture by its EXIF orientation, so sides may have swapped.
    width, height = header.width, header.height
    if (image.shape[1] > image.shape[0]) != (width > height) and width != height:
        width, height = height, width
    long_side = max(image.shape[:2])
    scale = long_side / max(width, height)
    if long_side > working_side:
        shrink = working_side / long_side
        image = shrunk(image, shrink)
        scale *= shrink
    return Photo(image, scale, width, height)


def load_photo(path: str | Path, working_side: int = WORKING_SIDE, max_pixels: int = MAX_PIXELS) -> Photo:
    path = Path(path)
    try:
        if path.is_dir():
            raise PhotoError("not_an_image", f"{path} is a folder, not a photo")
        with path.open("rb") as handle:
            data = _read_at_most(handle, MAX_BYTES + 1)
    except FileNotFoundError:
        raise PhotoError("not_found", f"there is no file {path}") from None
    except PermissionError:
        raise PhotoError("unreadable", f"Tenbou may not read {path} (permission denied)") from None
    except OSError as error:
        raise PhotoError("unreadable", f"could not read {path}: {error.strerror or error}") from None
    return decode_photo(data, working_side, max_pixels)


def _read_at_most(handle: BinaryIO, limit: int) -> bytes:
    """Up to `limit` bytes of an open file. Asked for `limit` at once, Python sets aside that
    much (64 MB) and then gives back what the photo did not fill, about a millisecond for a
    phone photo; a file that says its size is read at that size (and on, should it have grown)."""
    size = os.fstat(handle.fileno()).st_size
    if not 0 < size < limit:
        return handle.read(limit)
    data = handle.read(size + 1)
    if len(data) > size:   # it grew since: read on to the limit, as before
        data += handle.read(limit - len(data))
    return data


def photo_from_frame(frame: np.ndarray, working_side: int = WORKING_SIDE) -> Photo:
    """A camera frame (BGR) as a Photo, shrunk to the working size."""
    height, width = frame.shape[:2]
    scale = min(1.0, working_side / max(height, width))
    image = shrunk(frame, scale) if scale < 1 else frame
    return Photo(image, scale, width, height)
