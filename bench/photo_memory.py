"""Memory of photo uploads: eight 16-megapixel progressive JPEGs at once, round after round.

    python -m bench.photo_memory [--rounds 15] [--uploads 8] [--keep]

A rendered hand photographed large (about 16 MP, progressive: the costliest JPEG taken, since
its coefficients are kept whole while it decodes) is sent `--uploads` times at once to
`POST /api/sessions/<id>/scan` of an app that reads it with the camera pipeline, `--rounds`
times. Each variant runs in a fresh process and prints its resident memory above the warm app
(one small photo read first): the peak (`VmHWM`) and what the process still holds after the
last round (`VmRSS`). The variants: `before` (glibc's defaults: an arena per thread that
allocates at once, nothing handed back), `trim only` (`malloc_trim` after each photo), and
`server` (what `tenbou serve` does: two arenas, `webui.play.photos.bound_allocator`, and the
trim). With `--keep` the photo is left in /tmp.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = r"""
import io, json, sys, threading
sys.path.insert(0, sys.argv[1])
from pathlib import Path
import webui.play.photos as photos
from webui import create_app
from tests.test_web_support import new_session

photo, rounds, uploads, variant = Path(sys.argv[2]).read_bytes(), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
if variant == "server":
    photos.bound_allocator()            # as `tenbou serve` does before its threads start
if variant == "before":
    photos.give_memory_back = lambda: None
app = create_app({"DATA_DIR": sys.argv[6], "SECRET_KEY": "bench", "TESTING": True, "PHOTO_DECODE_WAIT": 600})
session_id, code, _ = new_session(app.test_client())

def memory() -> dict:
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return {name: int(fields[name].split()[0]) // 1024 for name in ("VmRSS", "VmHWM")}

def send(data: bytes, answers: list) -> None:
    answers.append(app.test_client().post(f"/api/sessions/{session_id}/scan", headers={"X-Join-Code": code},
                   data={"photo": (io.BytesIO(data), "hand.jpg")}, content_type="multipart/form-data").status_code)

import cv2, numpy as np
warm = cv2.imencode(".jpg", cv2.resize(cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_REDUCED_COLOR_4),
                                       None, fx=0.5, fy=0.5))[1].tobytes()
answers = []
send(warm, answers)
photos.give_memory_back()
base = memory()
# the peak from here on: writing 5 to clear_refs resets VmHWM to the present size
Path("/proc/self/clear_refs").write_text("5")
after_round = []
for _ in range(rounds):
    threads = [threading.Thread(target=send, args=(photo, answers)) for _ in range(uploads)]
    for t in threads: t.start()
    for t in threads: t.join()
    after_round.append(memory()["VmRSS"] - base["VmRSS"])
end = memory()
print(json.dumps({"answers": sorted(set(answers)), "peak_mb": end["VmHWM"] - base["VmRSS"],
                  "held_mb": end["VmRSS"] - base["VmRSS"], "after_round_mb": after_round, "base_mb": base["VmRSS"]}))
"""


def big_hand_photo(path: Path) -> tuple[int, int]:
    """A rendered hand on a 4:3 picture (the table around it) scaled up to about 16 MP, with
    a sensor's grain, written as a progressive JPEG."""
    import cv2
    import numpy as np

    from vision.image_io import MAX_WHOLE_PIXELS
    from vision.render.scene import render_scene

    scene = render_scene(np.random.default_rng(5), melds=0, dora=0, tilt=10, art="drawn", face_px=70)
    height, width = scene.image.shape[:2]
    pad = max(0, width * 3 // 4 - height) // 2
    framed = cv2.copyMakeBorder(scene.image, pad, pad, 0, 0, cv2.BORDER_REPLICATE)
    height, width = framed.shape[:2]
    factor = (MAX_WHOLE_PIXELS * 0.99 / (width * height)) ** 0.5
    image = cv2.resize(framed, (int(width * factor), int(height * factor)), interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(1).normal(0, 4, image.shape)      # sensor grain: a photo's real size
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92, cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    return image.shape[1], image.shape[0]


def run(variant: str, photo: Path, rounds: int = 15, uploads: int = 8) -> dict:
    """One variant in a fresh process: its figures as the probe prints them."""
    with tempfile.TemporaryDirectory() as data:
        done = subprocess.run([sys.executable, "-c", PROBE, str(ROOT), str(photo), str(rounds), str(uploads),
                               variant, data],
                              cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{variant}: {done.stderr[-2000:]}")
    found = json.loads(done.stdout.splitlines()[-1])
    if any(status >= 500 for status in found["answers"]):
        raise SystemExit(f"{variant}: the server answered {found['answers']}: {done.stderr[-2000:]}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--uploads", type=int, default=8)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tenbou-photo-"))
    photo = folder / "hand-16mp-progressive.jpg"
    width, height = big_hand_photo(photo)
    print(f"{args.uploads} uploads at once, {args.rounds} rounds, of a {width}x{height} progressive JPEG "
          f"({photo.stat().st_size / 2**20:.1f} MB), read by the camera pipeline")
    for variant in ("before", "trim only", "server"):
        found = run(variant, photo, args.rounds, args.uploads)
        rounds = " ".join(str(m) for m in found["after_round_mb"])
        print(f"  {variant:<18} peak +{found['peak_mb']} MB, held after the last round +{found['held_mb']} MB "
              f"(warm app {found['base_mb']} MB; after each round: {rounds}; answers {found['answers']})", flush=True)
    if not args.keep:
        photo.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
