"""`python -m vision.train`: render, train, export the float model, quantize it to
`models/tile_classifier.onnx` (8-bit), measure, and write `models/MODEL_CARD.md`. Needs the
`train` extra (torch, onnx, pillow) and the CJK fonts."""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import fields
from pathlib import Path

from models import model_path

from ..classify import MODEL_NAME, TileClassifier
from ..render import glyphs
from ..render.tilesets import available_arts
from . import data, evaluate, quantize, real
from .photoreal_frames import described, face_crops, photoreal_frames

UNSEEN_CLOTH = "Blender frames on the blue felt (no model here trains on it), legible face boxes"


def main(argv: list[str] | None = None) -> int:
    try:
        import onnx  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        print(f"training needs the train extra (pip install -e '.[train]'): {exc}", file=sys.stderr)
        return 2
    from . import card
    from .fit import Settings, accuracy, train

    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__)
    defaults = Settings()
    for f in fields(Settings):
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(getattr(defaults, f.name)),
                            default=getattr(defaults, f.name))
    parser.add_argument("--workers", type=int, default=2, help="processes rendering the crops")
    parser.add_argument("--out", type=Path, default=model_path(MODEL_NAME))
    parser.add_argument("--no-real", action="store_true", help="train on rendered crops only")
    parser.add_argument("--no-photoreal", action="store_true",
                        help="leave out the faces of the Blender frames (`python -m vision.render.photoreal`)")
    parser.add_argument("--evaluate-only", action="store_true", help="measure the model at --out and rewrite the card")
    parser.add_argument("--float", type=Path, default=None, dest="float_model",
                        help="the float export: written here when training (default: in the cache folder), "
                             "measured beside the 8-bit model when given with --evaluate-only")
    args = parser.parse_args(argv)
    settings = Settings(**{f.name: getattr(args, f.name) for f in fields(Settings)})
    if not glyphs.available() or "fluffy" not in available_arts():
        print("training needs Pillow with CJK fonts (apt: fonts-arphic-ukai fonts-arphic-uming fonts-arphic-bkai00mp "
              "fonts-arphic-gkai00mp fonts-wqy-zenhei) and the FluffyStuff art (TENBOU_TILE_ART)", file=sys.stderr)
        return 2
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    root = real.photos_dir()
    tuning = (real.load(root, real.TUNING_SETS) * real.CAMERASH_WEIGHT if root else []) + real.hk_crops("train")
    tuning = [] if args.no_real else tuning
    frames = photoreal_frames()
    trained_frames = [] if args.no_photoreal else [f for f in frames if not f.held_out]
    photoreal = face_crops(trained_frames)
    log(f"{len(photoreal)} tiles of the Blender frames in the cache: {described(trained_frames)}")
    held_out = (real.load(root, real.HELD_OUT_SETS) if root else []) + real.hk_crops("held-out")
    unseen_cloth = face_crops([f for f in frames if f.held_out])
    minutes = 0.0
    if not args.evaluate_only:
        start = time.time()
        synth = data.synthetic(settings.synthetic, settings.seed, args.workers, log)
        val = data.synthetic(2000, settings.seed + 1000, args.workers, log)
        checks = {"rendered val": val}
        if tuning:
            checks["real tuning"] = real.as_arrays(tuning)
        model = train(settings, synth, tuning, checks, log, photoreal)
        from .export import export
        args.float_model = args.float_model or data.cache_dir() / "tile_classifier.float.onnx"
        export(model, args.float_model)
        quantize.quantize(args.float_model, args.out, quantize.calibration_batch(settings.seed))
        minutes = (time.time() - start) / 60
        log(f"wrote {args.out} after {minutes:.0f} min (final rendered val {accuracy(model, *val):.3f})")
    classifier = TileClassifier(args.out)
    crops, labels = evaluate.rendered(3000, settings.seed)
    synth_score = evaluate.score(classifier, crops, labels)
    float_classifier = (TileClassifier(args.float_model)
                        if args.float_model and args.float_model.is_file() else None)
    float_score = evaluate.score(float_classifier, crops, labels) if float_classifier else None
    red = evaluate.score(classifier, *evaluate.red_fives(600, settings.seed))
    real_scores = evaluate.real_by_set(classifier, held_out)
    if unseen_cloth:
        real_scores[UNSEEN_CLOTH] = evaluate.score(classifier, [c.image for c in unseen_cloth],
                                                   [c.label for c in unseen_cloth])
    latency = evaluate.latency_ms(classifier, crops)
    float_latency = evaluate.latency_ms(float_classifier, crops) if float_classifier else None
    log(f"rendered {synth_score.text()}; red fives {red.text()}; latency {latency:.2f} ms/crop")
    for name, s in real_scores.items():
        log(f"real {name}: {s.text()}  {evaluate.worst(s.confusions, 5)}")
    card_path = args.out.parent / "MODEL_CARD.md"
    if args.evaluate_only:
        minutes = card.previous_minutes(card_path)
    card.write(card_path, settings, synth_val=synth_score, float_val=float_score, red=red, real=real_scores,
               latency=latency, float_latency=float_latency, size_bytes=args.out.stat().st_size,
               train_minutes=minutes, tuning_used=len(tuning),
               photoreal_used=len(photoreal), photoreal_frames=described(trained_frames))
    return 0


if __name__ == "__main__":
    sys.exit(main())
