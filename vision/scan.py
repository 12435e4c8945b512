"""Photo -> tiles -> hand -> score: the camera pipeline in one call.

Data flows one way: the photo is checked and decoded (`image_io`), tiles are found
(`find`), named (`classify`), grouped into the hand as players lay it (`hand`), repaired
with what a hand must be (`repair`), and scored by the scorer's contract entry point.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .find import FACE_DOWN, SIDEWAYS, Found, find_tiles
from .hand import Arrangement, Detection, arrange
from .image_io import Photo, PhotoError, decode_photo, load_photo
from .repair import Repaired, repair

MIN_TILES = 14  # a winning hand, all called melds included
MAX_TILES = 40  # a hand with four kans, dora indicators and flowers stays well below this


class ScanError(PhotoError):
    """The photo was read but holds no hand Tenbou can use."""


@dataclass
class Scan:
    """What the camera saw: tiles (in the photo's own pixels), the hand request, the score."""
    detections: list[Detection]
    boxes: list[tuple[int, int, int, int]]          # in the pixels of the original photo
    arrangement: Arrangement
    repaired: Repaired | None
    result: dict | None
    doubts: list[str] = field(default_factory=list)

    @property
    def hand(self) -> dict | None:
        return self.repaired.reading.request if self.repaired else None

    @property
    def labels(self) -> list[str]:
        return self.repaired.labels if self.repaired else [d.label for d in self.detections]

    def to_json(self) -> dict:
        tiles = []
        for i, (detection, box) in enumerate(zip(self.detections, self.boxes)):
            label = self.labels[i]
            tiles.append({"tile": _name(label)[0], "red": _name(label)[1], "box": list(box), "pose": detection.pose,
                          "confidence": round(_probability(detection, label), 4),
                          "alternatives": [{"tile": _name(n)[0], "red": _name(n)[1], "confidence": round(p, 4)}
                                           for n, p in detection.candidates[:4] if n != label][:3]})
        return {"tiles": tiles, "hand": self.hand, "result": self.result, "doubts": self.doubts}


def _name(label: str) -> tuple[str | None, bool]:
    """`0p` -> ("5p", True); a back has no name."""
    if label == "back":
        return None, False
    if label[0] == "0":
        return f"5{label[1]}", True
    return label, False


def _probability(detection: Detection, label: str) -> float:
    if detection.pose == FACE_DOWN:
        return 1.0
    return next((p for n, p in detection.candidates if n == label), 0.0)


def crop_tile(image: np.ndarray, found: Found) -> list[np.ndarray]:
    """The tile's face, upright. A sideways tile may have been turned either way, so both
    turns are returned; the classifier keeps the one it is surer of."""
    x1, y1, x2, y2 = found.box
    crop = image[max(0, y1):y2, max(0, x1):x2]
    if found.pose == SIDEWAYS:
        return [cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE), cv2.rotate(crop, cv2.ROTATE_90_COUNTERCLOCKWISE)]
    return [crop]


def name_tiles(image: np.ndarray, found: list[Found], classifier) -> list[Detection]:
    """Detections with the classifier's names (best first); face-down tiles get none."""
    crops, owners = [], []
    for index, tile in enumerate(found):
        if tile.pose == FACE_DOWN:
            continue
        for crop in crop_tile(image, tile):
            if crop.shape[0] >= 2 and crop.shape[1] >= 2:
                crops.append(crop)
                owners.append(index)
    named: dict[int, list[tuple[str, float]]] = {}
    for owner, ranking in zip(owners, classifier.classify(crops) if crops else []):
        if owner not in named or ranking[0][1] > named[owner][0][1]:
            named[owner] = ranking
    return [Detection(tile.box, tile.pose, tuple(named.get(i, ()))) for i, tile in enumerate(found)]


def score_request(request: dict) -> dict | None:
    """The scorer's answer, or None while the scorer has no contract entry point."""
    try:
        import scorer
        score = getattr(scorer, "score", None)
        if score is None:
            from scorer.contract import score
    except ImportError:
        return None
    return score(request)


def scan_photo(photo: Photo, classifier=None, situation: dict | None = None) -> Scan:
    """Read a decoded photo. Raises ScanError when there is no hand to read."""
    found = find_tiles(photo.image)
    if not found:
        raise ScanError("no_tiles", "no tiles found in the photo: put the whole hand in view, face up, in good light")
    if len(found) < MIN_TILES:
        raise ScanError("too_few_tiles", f"only {len(found)} tiles found; a winning hand has at least {MIN_TILES}: "
                                         "put the whole hand in view, melds and winning tile included")
    if len(found) > MAX_TILES:
        raise ScanError("too_many_tiles", f"{len(found)} tiles in view; a hand has at most 18 plus dora indicators: "
                                          "photograph just the one hand")
    if classifier is None:
        from .classify import TileClassifier
        classifier = TileClassifier()
    detections = name_tiles(photo.image, found, classifier)
    arrangement = arrange(detections)
    repaired = repair(arrangement, detections, situation)
    result = None
    if not repaired.reading.structural:
        result = score_request(repaired.reading.request)
    boxes = [tuple(int(round(v / photo.scale)) for v in d.box) for d in detections]
    return Scan(detections, boxes, arrangement, repaired, result, repaired.doubts)


def scan_file(path: str | Path, classifier=None, situation: dict | None = None) -> Scan:
    return scan_photo(load_photo(path), classifier, situation)


def scan_bytes(data: bytes, classifier=None, situation: dict | None = None) -> Scan:
    return scan_photo(decode_photo(data), classifier, situation)
