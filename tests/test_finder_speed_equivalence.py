"""The finder's fast helpers give the very answers of the plain code they replaced.

Each fast helper (vectorised, counted from histograms or integral images, or batched) is
checked against a simple reference written here the way the finder first did it, on random
inputs, to the last bit where the answer is a float: a finder made faster must find the same
tiles (issue 6).
"""
import io
import math

import cv2
import numpy as np
import pytest

from vision.backs import free_edge_colour
from vision.find import _tighten, tighten_row
from vision.image_io import _read_at_most
from vision.masks import colourless, smooth_edge_share, tiles_fill_picture, whiteness
from vision.medians import at_least_percentile, median, median_colour, median_u8
from vision.patches import PAD, patches_of, to_photo
from vision.row_edges import BODY_SHADE, FACE_SHARE, MAX_BODY, MIN_BODY, face_bottom, face_levels
from vision.seams import _peaks, autocorrelation, cut_profile, period_candidates, traced_cuts, valley_depth, valleys

RNG_SEED = 20261122


def rng() -> np.random.Generator:
    return np.random.default_rng(RNG_SEED)


# --- the references: the finder's first, plain versions -------------------------------------

def reference_peaks(profile: np.ndarray, window: int) -> list[int]:
    if len(profile) < 3:
        return []
    padded = np.pad(profile, window, mode="edge")
    local_max = np.lib.stride_tricks.sliding_window_view(padded, 2 * window + 1).max(axis=1)
    keep = (profile >= local_max) & (profile > 0.1 * profile.max())
    keep[0] = keep[-1] = False
    peaks = np.flatnonzero(keep)
    return [int(p) for k, p in enumerate(peaks) if k == 0 or p - peaks[k - 1] > window]


def reference_cut_profile(profile: np.ndarray, step: float, low: float, high: float) -> list[int]:
    n = len(profile)
    if n <= high * step:
        return [0, n]
    smooth = np.convolve(profile, [0.25, 0.5, 0.25], "same")
    gain = (smooth / (smooth.max() + 1e-9)).tolist()
    points = [0] + reference_peaks(smooth, max(1, int(step / 6))) + [n]
    score = [-np.inf] * len(points)
    back, pieces = [0] * len(points), [1] * len(points)
    score[0] = 0.0
    lo, hi, sideways = low * step, high * step, 4 / 3 * step
    for i in range(1, len(points)):
        here = points[i]
        bonus = gain[here] if i < len(points) - 1 else 0.0
        for j in range(i - 1, -1, -1):
            length = here - points[j]
            if length > 3 * hi:
                break
            if length < lo or score[j] == -np.inf:
                continue
            count = max(1, round(length / step))
            each = length / count
            if each < lo or each > hi:
                continue
            misfit = min(abs(each - step), abs(each - sideways)) / step
            total = score[j] - 2.0 * misfit - 0.6 * (count - 1) + bonus
            if total > score[i]:
                score[i], back[i], pieces[i] = total, j, count
    if score[-1] == -np.inf:
        return [0, n]
    return traced_cuts(points, back, pieces)     # unchanged: only the search above was made faster


def reference_period_candidates(profile: np.ndarray, low: float, high: float) -> list[tuple[float, float]]:
    ac = autocorrelation(profile)     # unchanged: only the peak search below was vectorised
    if ac is None:
        return []
    lo, hi = max(2, int(low)), min(len(ac) - 2, int(high))
    return [(float(i), float(ac[i])) for i in range(lo, hi + 1)
            if ac[i] >= ac[i - 1] and ac[i] >= ac[i + 1] and ac[i] > 0.02]


def reference_valleys(gray: np.ndarray, axis: int, threshold: int) -> np.ndarray:
    size = gray.shape[axis]
    padded = np.pad(gray, [(4, 4) if a == axis else (0, 0) for a in range(gray.ndim)], mode="wrap").astype(np.int16)

    def shifted(offset: int) -> np.ndarray:
        return np.take(padded, np.arange(4 + offset, 4 + offset + size), axis=axis)

    deepest = np.zeros(gray.shape, np.int16)
    for d in range(1, 5):
        deepest = np.maximum(deepest, np.minimum(shifted(-d), shifted(d)) - gray.astype(np.int16))
    return deepest > threshold


def reference_smooth_edge_share(gray: np.ndarray, contrast: int) -> float:
    lines = reference_valleys(gray, 0, contrast) | reference_valleys(gray, 1, contrast)
    height, width = gray.shape
    band, length = max(2, min(height, width) // 25), max(8, min(height, width) // 4)
    pieces = []
    for strip in (lines[:band], lines[-band:], lines[:, :band].T, lines[:, -band:].T):
        whole = strip.shape[1] // length * length
        crossed = np.count_nonzero(strip[:, :whole], axis=0).reshape(-1, length).sum(axis=1)
        pieces.append(crossed / (strip.shape[0] * length))
    shares = np.concatenate(pieces)
    return float(np.mean(shares < 0.01)) if shares.size else 0.0


def reference_face_levels(region: np.ndarray, mask: np.ndarray) -> np.ndarray:
    level = np.zeros(region.shape[0])
    for r in range(region.shape[0]):
        face = np.sort(region[r][mask[r]])
        if face.size >= 0.2 * region.shape[1] and face.size:
            level[r] = face[int(FACE_SHARE * (face.size - 1))]
    return level


def reference_face_bottom(gray: np.ndarray, faces: np.ndarray, strip) -> int:
    x1, y1, x2, y2 = strip
    height = y2 - y1
    if height < 8:
        return y2
    level = reference_face_levels(gray[y1:y2, x1:x2], faces[y1:y2, x1:x2] > 0)
    face = float(np.median(level[height // 4: 2 * height // 3]))
    dark = level < BODY_SHADE * face
    row = next((r for r in range(height // 2, height - 1)
                if dark[r] and dark[r + 1] and np.median(level[r:]) < BODY_SHADE * face), height)
    band = height - row
    if band < max(2, MIN_BODY * height) or band > MAX_BODY * height:
        return y2
    return y1 + row + 1


def reference_to_photo(box, back: np.ndarray):
    x1, y1, x2, y2 = box
    corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64)
    mapped = corners @ back.T
    return (int(mapped[:, 0].min()), int(mapped[:, 1].min()),
            int(np.ceil(mapped[:, 0].max())), int(np.ceil(mapped[:, 1].max())))


def reference_patches(faces: np.ndarray, min_area: int):
    count, labels, stats, _ = cv2.connectedComponentsWithStats(faces, connectivity=8)
    patches = []
    for i in sorted(range(1, count), key=lambda i: -stats[i, 4]):
        if stats[i, 4] < min_area:
            continue
        x1, y1, w, h = (int(v) for v in stats[i, :4])
        component = np.zeros(faces.shape, np.uint8)
        component[max(0, y1 - PAD):y1 + h + PAD, max(0, x1 - PAD):x1 + w + PAD] = \
            labels[max(0, y1 - PAD):y1 + h + PAD, max(0, x1 - PAD):x1 + w + PAD] == i
        patches.append((component, (x1, y1, x1 + w, y1 + h)))
    return patches


def reference_free_edge_colour(lab: np.ndarray, occupied: np.ndarray):
    edge = np.zeros(occupied.shape, bool)
    band = max(2, min(occupied.shape) // 30)
    edge[:band, :] = edge[-band:, :] = edge[:, :band] = edge[:, -band:] = True
    free = edge & ~occupied
    if free.sum() < 0.2 * edge.sum():
        return None
    return np.median(lab[free].reshape(-1, 3).astype(float), axis=0)


# --- the checks ------------------------------------------------------------------------------

def random_profile(r: np.random.Generator) -> np.ndarray:
    n = int(r.integers(5, 500))
    profile = r.random(n) * (r.random(n) < 0.3) * 100
    if r.random() < 0.5:   # whole-number seam counts, as the finder's are: ties happen
        profile = np.round(profile)
    if r.random() < 0.3:   # a clean repeat, as a row of tiles gives
        profile[:: max(2, int(r.integers(8, 60)))] += 200
    return profile


def test_cut_profile_cuts_where_the_plain_loop_did():
    r = rng()
    for _ in range(600):
        profile, step = random_profile(r), float(r.uniform(6, 80))
        low, high = ((0.6, 1.55), (0.7, 1.35))[int(r.integers(0, 2))]
        assert cut_profile(profile, step, low, high) == reference_cut_profile(profile, step, low, high)
        window = int(r.integers(1, 12))
        assert _peaks(profile, window) == reference_peaks(profile, window)


def test_period_candidates_are_the_plain_loops():
    r = rng()
    for _ in range(600):
        profile = random_profile(r)
        low, high = float(r.uniform(0, 60)), float(r.uniform(0, 400))
        assert period_candidates(profile, low, high) == reference_period_candidates(profile, low, high)


@pytest.mark.parametrize("axis", [0, 1])
def test_valleys_and_their_depth_match_a_plain_int16_version(axis):
    r = rng()
    for _ in range(200):
        gray = r.integers(0, 256, (int(r.integers(1, 40)), int(r.integers(1, 40)))).astype(np.uint8)
        if r.random() < 0.3:
            gray = np.asfortranarray(gray)   # a view as OpenCV may hand back
        depth = valley_depth(gray, axis)
        for threshold in (0, 6, 20):
            expected = reference_valleys(gray, axis, threshold)
            assert np.array_equal(valleys(gray, axis, threshold), expected)
            assert np.array_equal(depth > threshold, expected)


def test_edge_shares_and_filled_picture_match_the_whole_photo_version():
    r = rng()
    for _ in range(60):
        gray = r.integers(0, 256, (int(r.integers(10, 90)), int(r.integers(10, 90)))).astype(np.uint8)
        if r.random() < 0.5:
            gray = (np.round(gray / 80) * 80).astype(np.uint8)   # plainer, so some pieces are smooth
        for contrast in (6, 20):
            assert smooth_edge_share(gray, contrast) == reference_smooth_edge_share(gray, contrast)
        assert tiles_fill_picture(gray) == (reference_smooth_edge_share(gray, 6) < 0.45
                                            and reference_smooth_edge_share(gray, 20) < 0.7)


def test_tighten_row_is_tighten_of_each_box():
    r = rng()
    for _ in range(400):
        height, width = int(r.integers(1, 50)), int(r.integers(1, 120))
        faces = (r.random((height, width)) < r.random()).astype(np.uint8)
        top = int(r.integers(0, height))
        bottom = int(r.integers(top, height + 1))
        cuts = sorted(set(r.integers(0, width + 1, int(r.integers(2, 9))).tolist()))
        spans = list(zip(cuts, cuts[1:]))
        share = float(r.choice([0.2, 0.4]))
        expected = [_tighten(faces, (a, top, b, bottom), share) for a, b in spans]
        assert tighten_row(faces, top, bottom, spans, share) == expected


def test_boxes_back_in_the_photo_are_the_corner_by_corner_ones():
    r = rng()
    for _ in range(400):
        height, width = (int(v) for v in r.integers(20, 300, 2))
        turn = cv2.getRotationMatrix2D((width / 2, height / 2), float(r.uniform(-30, 30)), 1.0)
        back = np.array([[1, 0, r.integers(0, 400)], [0, 1, r.integers(0, 400)]], np.float64) \
            @ np.vstack([cv2.invertAffineTransform(turn), [0, 0, 1]])
        corners = r.integers(0, width, (int(r.integers(1, 12)), 4))
        boxes = [(int(a), int(b), int(a + w), int(b + h)) for a, b, w, h in corners]
        assert to_photo(boxes, back) == [reference_to_photo(box, back) for box in boxes]
    assert to_photo([], np.eye(2, 3)) == []


def test_face_levels_match_a_sort_of_each_rows_face_pixels():
    r = rng()
    for _ in range(300):
        height, width = int(r.integers(1, 30)), int(r.integers(1, 80))
        region = r.integers(0, 256, (height, width)).astype(np.uint8)
        region[r.random((height, width)) < 0.2] = 255   # real 255s among the face pixels
        mask = r.random((height, width)) < r.random()
        assert np.array_equal(face_levels(region, mask), reference_face_levels(region, mask))


def test_face_bottom_is_found_where_the_whole_strip_version_found_it():
    r = rng()
    for _ in range(300):
        height, width = int(r.integers(4, 40)), int(r.integers(4, 60))
        gray = np.full((height, width), int(r.integers(150, 250)), np.uint8)
        body = int(r.integers(0, height // 2 + 1))   # a darker band at the bottom, or none
        gray[height - body:] = (gray[height - body:] * r.uniform(0.6, 1.0)).astype(np.uint8)
        gray = np.clip(gray.astype(int) + r.integers(-30, 30, (height, width)), 0, 255).astype(np.uint8)
        faces = (r.random((height, width)) < r.uniform(0.5, 1.0)).astype(np.uint8)
        x1, y1 = int(r.integers(0, width // 2)), int(r.integers(0, height // 3))
        strip = (x1, y1, int(r.integers(x1 + 1, width + 1)), int(r.integers(y1 + 1, height + 1)))
        assert face_bottom(gray, faces, strip) == reference_face_bottom(gray, faces, strip)


def test_colourless_is_hsv_saturation_below_the_limit_for_every_colour():
    blue, green, red = np.meshgrid(*(np.arange(256, dtype=np.uint8),) * 3, indexing="ij")
    colours = np.stack([blue, green, red], axis=-1).reshape(4096, 4096, 3)
    saturation = cv2.cvtColor(colours, cv2.COLOR_BGR2HSV)[..., 1]
    for limit in (70, 1, 200):
        assert np.array_equal(colourless(colours, limit), (saturation < limit).astype(np.uint8))


def test_medians_and_percentile_are_numpys():
    r = rng()
    for _ in range(2000):
        n = int(r.integers(1, 80))
        floats, ints = r.normal(size=n) * 10, r.integers(-50, 50, n)
        assert median(floats) == float(np.median(floats))
        assert median(ints) == float(np.median(ints)) == median(ints.tolist())
        values = r.integers(int(r.integers(0, 250)), 256, int(r.integers(1, 3000))).astype(np.uint8)
        assert median_u8(values) == float(np.median(values))
        q = float(r.choice([95.0, 50.0, 0.0, 100.0, float(r.uniform(0, 100))]))
        assert np.array_equal(at_least_percentile(values, q), values >= np.percentile(values, q))
    assert math.isnan(median(np.array([1.0, np.nan, 3.0])))
    for n in (1, 2, 21, 41, 1999, 2000, 2001, 6001):   # (n - 1) * 0.95 whole, and either side of it
        values = r.integers(0, 256, n).astype(np.uint8)
        assert np.array_equal(at_least_percentile(values, 95), values >= np.percentile(values, 95))
        pixels = r.integers(0, 256, (n, 3)).astype(np.uint8)
        assert np.array_equal(median_colour(pixels), np.median(pixels.astype(float), axis=0))


def test_whiteness_matches_int16_arithmetic():
    r = rng()
    lab = r.integers(0, 256, (200, 300, 3)).astype(np.uint8)
    lab[:100, :, 1:] = r.integers(110, 146, (100, 300, 2))   # nearly colourless, as faces are
    light = lab[..., 0].astype(np.int16)
    chroma = np.abs(lab[..., 1].astype(np.int16) - 128) + np.abs(lab[..., 2].astype(np.int16) - 128)
    assert np.array_equal(whiteness(lab), np.clip(light - 2 * chroma, 0, 255).astype(np.uint8))


def test_patches_match_opencvs_component_statistics():
    r = rng()
    for _ in range(60):
        noise = r.random((int(r.integers(20, 120)), int(r.integers(20, 120))))
        faces = (cv2.GaussianBlur(noise, (0, 0), 3) > 0.5).astype(np.uint8)   # blobs, some touching
        min_area = int(r.integers(1, 60))
        got, expected = patches_of(faces, min_area), reference_patches(faces, min_area)
        assert [box for _, box in got] == [box for _, box in expected]
        assert all(np.array_equal(a, b) for (a, _), (b, _) in zip(got, expected))


def test_free_edge_colour_matches_the_whole_photo_mask():
    r = rng()
    for _ in range(300):
        height, width = int(r.integers(1, 100)), int(r.integers(1, 100))
        lab = r.integers(0, 256, (height, width, 3)).astype(np.uint8)
        occupied = np.zeros((height, width), bool)
        for x, y, w, h in r.integers(0, 60, (int(r.integers(0, 6)), 4)):
            occupied[y:y + h, x:x + w] = True
        got, expected = free_edge_colour(lab, occupied), reference_free_edge_colour(lab, occupied)
        assert (got is None and expected is None) or np.array_equal(got, expected)


def test_reading_a_photo_file_gives_the_same_bytes(tmp_path):
    data = bytes(np.random.default_rng(1).integers(0, 256, 70_000, dtype=np.uint8))
    path = tmp_path / "photo.jpg"
    path.write_bytes(data)
    for limit in (1, 1000, len(data), len(data) + 1, 10 * len(data)):
        with path.open("rb") as handle:
            assert _read_at_most(handle, limit) == data[:limit]
    assert _read_at_most(io.BufferedReader(io.FileIO(path, "rb")), 5) == data[:5]
