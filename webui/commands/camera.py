"""`tenbou camera [--device N]` — watch a webcam and report the hand once the reading is steady.

Each frame is read like a photo; a hand is reported when the same reading has held for
`--steady` seconds (so a hand still being laid out, or a passing arm, is not scored), and
again whenever a different hand has settled. Ctrl-C stops.
"""
from __future__ import annotations

import argparse
import sys
import time

from scorer import score
from webui.commands.options import camera_number
from webui.commands.scan import add_situation_arguments, describe, situation_of

NO_CAMERA = 2


def register(sub) -> None:
    parser = sub.add_parser("camera", help="watch a webcam and score the hand in view once it is steady",
                            description="Watch a webcam (OpenCV) and report the hand once the reading is steady.")
    parser.add_argument("--device", type=camera_number, default=0, help="camera number, 0-99 (default 0)")
    parser.add_argument("--steady", type=float, default=1.0, metavar="SECONDS",
                        help="how long a reading must hold before it is reported (default 1)")
    parser.add_argument("--once", action="store_true", help="stop after the first hand reported")
    add_situation_arguments(parser)
    parser.set_defaults(run=run)


def reading_key(scan) -> tuple | None:
    """What must stay the same between frames: the hand as read (None when there is none)."""
    if scan.repaired is None or scan.repaired.reading.structural:
        return None
    hand = scan.hand
    return hand["concealed"], hand["win_tile"], repr(hand["melds"]), hand["dora_indicators"]


class Steadiness:
    """Reports a reading once it has been the same for `seconds`; a change starts the clock again."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.key = None
        self.since = 0.0
        self.reported = None

    def update(self, key, now: float) -> bool:
        if key != self.key:
            self.key, self.since = key, now
            return False
        if key is None or key == self.reported or now - self.since < self.seconds:
            return False
        self.reported = key
        return True


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.classify import ModelMissing
    from vision.image_io import photo_from_frame
    from vision.scan import ScanError, pipeline_classifier, scan_photo, use_pipeline_threads

    _quiet_opencv(cv2)
    use_pipeline_threads()
    capture = cv2.VideoCapture(args.device)
    if not capture.isOpened():
        print(f"tenbou camera: no camera found at device {args.device} "
              "(is one plugged in, and free? try --device 1)", file=sys.stderr)
        return NO_CAMERA
    try:
        classifier = pipeline_classifier()
    except ModelMissing as error:
        capture.release()
        print(f"tenbou camera: {error}", file=sys.stderr)
        return 1
    situation = situation_of(args)
    steady = Steadiness(args.steady)
    failures = 0
    print(f"watching camera {args.device}: lay the hand out in view (Ctrl-C stops)", file=sys.stderr)
    try:
        while True:
            ok, frame = capture.read()
            if not ok or frame is None:
                failures += 1
                if failures > 30:
                    print(f"tenbou camera: camera {args.device} stopped sending pictures", file=sys.stderr)
                    return NO_CAMERA
                time.sleep(0.05)
                continue
            failures = 0
            try:
                scan = scan_photo(photo_from_frame(frame), classifier, situation)
            except ScanError:
                steady.update(None, time.monotonic())
                continue
            except ModelMissing as error:   # the detector, first loaded on the first frame
                print(f"tenbou camera: {error}", file=sys.stderr)
                return 1
            if steady.update(reading_key(scan), time.monotonic()):
                print("\n".join(describe(scan, score(scan.hand) if scan.scorable else None)), flush=True)
                if args.once:
                    return 0
    finally:
        capture.release()


def _quiet_opencv(cv2) -> None:
    """OpenCV's own warnings about a missing device would bury the message that matters."""
    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    except AttributeError:
        pass
