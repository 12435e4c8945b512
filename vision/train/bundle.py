"""Pack what a detector run needs onto another machine (a GPU one with torch but no wheel, no
`../shared` and no internet): `python -m vision.train.bundle FOLDER`.

The folder gets the hk-roboflow photos of the training and tuning groups (never the held-out
ones: they are only measured, here), re-encoded smaller, with their label files; the camerash
tuning sets; the FluffyStuff art; the Blender frames in the cache; the fonts the renderer draws
characters with, cut down to those characters (a bare machine has none, and without them the
drawn faces, book titles and pages of text are not drawn at all); and the EfficientNet-Lite0
ImageNet weights in half precision (the fine-tuning starts from them; the halves cost nothing
it can notice). It says which variables point the run at each. The folder is a working copy for
one run, never committed (`.gitignore` names `.devdata/`, the folder the README uses).
"""
from __future__ import annotations

import argparse
import json
import logging
import shutil
import string
from pathlib import Path

import cv2

from ..render import fluffy, glyphs
from . import photos
from .photoreal_frames import frames_root
from .sets import TUNING_SETS

JPEG_QUALITY = 80


def _photo(source: Path, target: Path, quality: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    image = cv2.imread(str(source), cv2.IMREAD_COLOR)
    cv2.imwrite(str(target), image, [cv2.IMWRITE_JPEG_QUALITY, quality])


def drawn_characters() -> str:
    """Every character the renderer can draw: the printable ASCII and whatever else its source
    spells (the CJK numerals, winds, dragons, flowers and book titles are all literals there)."""
    render = Path(fluffy.__file__).parent
    text = "".join(f.read_text(encoding="utf-8") for f in sorted(render.rglob("*.py")))
    return string.printable.strip() + " " + "".join(sorted({c for c in text if ord(c) > 127}))


def _fonts(dest: Path) -> None:
    from fontTools import subset

    logging.getLogger("fontTools").setLevel(logging.ERROR)   # it names each table it drops (bitmaps, Apple's)
    if not glyphs.cjk_fonts() or not glyphs.latin_fonts():
        # packing none would train the run on faces, spines and pages drawn without characters
        raise SystemExit("the renderer's fonts are not here: apt-get install fonts-dejavu-core fonts-wqy-zenhei "
                         "fonts-arphic-ukai fonts-arphic-uming fonts-arphic-bkai00mp fonts-arphic-gkai00mp")
    characters = drawn_characters()
    dest.mkdir(parents=True)
    for path in glyphs.cjk_fonts() + glyphs.latin_fonts():
        options = subset.Options()
        options.font_number = 0          # the first face of a collection (.ttc), which Pillow opens
        font = subset.load_font(str(path), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=characters)
        subsetter.subset(font)
        subset.save_font(font, str(dest / path.name), options)   # same name: `glyphs` looks fonts up by it


def pack(dest: Path, quality: int = JPEG_QUALITY) -> dict[str, str]:
    root = photos.shared_photos()
    art = fluffy.art_dir()
    if root is None or art is None:
        raise SystemExit("the shared photos and tile art are not there (../shared/data)")
    shutil.rmtree(dest, ignore_errors=True)
    hk = dest / "photos" / "hk-roboflow"
    hk.mkdir(parents=True)
    for name in ("labels.json", "augmented.json", "partial.json", "unnamed.json"):
        if (root / "hk-roboflow" / name).is_file():
            shutil.copy(root / "hk-roboflow" / name, hk / name)
    for part in (photos.TRAIN, photos.TUNE):
        for p in photos.load(root, part):
            _photo(p.path, hk / p.path.relative_to(root / "hk-roboflow"), quality)
    cam = dest / "photos" / "camerash"
    cam.mkdir(parents=True)
    for name in ("labels.json", "crops.json"):
        shutil.copy(root / "camerash" / name, cam / name)
    for p in photos.camerash(root, TUNING_SETS):
        target = cam / p.path.relative_to(root / "camerash")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(p.path, target)
    shutil.copytree(art / "Export", dest / "art" / "Export")
    frames = dest / "photoreal"
    for folder in sorted(frames_root().glob("seed-*")):
        if (folder / "labels.json").is_file():
            (frames / folder.name).mkdir(parents=True)
            for f in (folder / "labels.json", folder / "plan.json"):
                shutil.copy(f, frames / folder.name / f.name)
            for f in folder.glob("frame-*.jpg"):   # re-encoded as the photos are: 650 frames are 20 MB as rendered
                _photo(f, frames / folder.name / f.name, quality)
    _fonts(dest / "fonts")
    import torch

    from .effnet import weights_file
    state = torch.load(weights_file(), map_location="cpu", weights_only=True)
    torch.save({k: v.half() if v.is_floating_point() else v for k, v in state.items()}, dest / "lite0-half.pth")
    return {"TENBOU_PHOTOS_ROOT": str(dest / "photos"), "TENBOU_TILE_ART": str(dest / "art"),
            "TENBOU_PHOTOREAL": str(frames), "TENBOU_LITE0_WEIGHTS": str(dest / "lite0-half.pth"),
            "TENBOU_FONTS": str(dest / "fonts")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--quality", type=int, default=JPEG_QUALITY, help="JPEG quality of the re-encoded photos")
    args = parser.parse_args(argv)
    variables = pack(args.folder, args.quality)
    size = sum(f.stat().st_size for f in args.folder.rglob("*") if f.is_file())
    print(json.dumps(variables, indent=1))
    print(f"{size / 2**20:.1f} MiB in {args.folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
