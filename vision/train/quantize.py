"""The shipped models in 8-bit integers: onnxruntime's static quantization of the float export.

`python -m vision.train.quantize FLOAT.onnx [--out models/tile_classifier.onnx]`
`python -m vision.train.quantize --detector FLOAT.onnx [--out models/tile_detector.onnx]`

Integer convolutions name a crop in about two thirds of the float model's time on the CPU
(0.56 against 0.90 ms, the model card's run). Weights are stored per output channel in 7 bits
(`reduce_range`): on CPUs without VNNI (AVX2 only, like this project's machines) onnxruntime
multiplies 8-bit activations by 8-bit weights in 16-bit sums that saturate; with 8-bit weights
a trial named 88.8% of rendered crops right against the float model's 98.9%, with 7 bits 99.0%.
Activation ranges are calibrated on rendered crops of their own random stream, never on the
crops the card measures.

The detector (an ImageNet-pretrained EfficientNet-Lite0 under its pyramid) runs in about half
its float time (measured in `models/TILE_DETECTOR.md`); its ranges are calibrated on photos of
the training groups, rendered hands of their own seed and tile-free look-alikes, never on the
tuning or held-out photos, and its threshold is then chosen again on the 8-bit model
(`python -m vision.train.detector --evaluate-only --rechoose`).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from models import model_path

from ..classify import MODEL_NAME, prepare

CALIBRATION_CROPS = 600
CALIBRATION_STREAM = 333   # evaluate.rendered's random stream for calibration (the card's is 999)
BATCH = 50


class _Feeds:
    """onnxruntime's CalibrationDataReader protocol over the model's inputs, one run each."""

    def __init__(self, input_name: str, inputs) -> None:
        self._feeds = iter({input_name: x} for x in inputs)

    def get_next(self) -> dict | None:
        return next(self._feeds, None)


def calibration_batch(seed: int, count: int = CALIBRATION_CROPS) -> np.ndarray:
    from .evaluate import rendered
    crops, _ = rendered(count, seed, stream=CALIBRATION_STREAM)
    return prepare(crops)


def detector_calibration(seed: int, photos_count: int = 24, rendered: int = 12, empty: int = 6) -> list[np.ndarray]:
    """Letterboxed pictures the detector's ranges are calibrated on: training photos, rendered
    hands and look-alikes of their own seed (the checks use seeds 9001 and 9002)."""
    import cv2

    from ..detect import DETECT_SIDE, letterbox
    from . import photos
    from .detector import lookalike_check, riichi_check

    root = photos.shared_photos()
    if root is None:
        raise SystemExit("calibrating the detector needs the labelled photos (../shared/data/photos)")
    train = photos.load(root, photos.TRAIN)
    images = [cv2.imread(str(p.path), cv2.IMREAD_COLOR) for p in train[::max(1, len(train) // photos_count)]]
    images += [c.image for c in riichi_check(rendered, seed=seed)] + [c.image for c in lookalike_check(empty, seed=seed + 1)]
    return [letterbox(image, DETECT_SIDE)[0].transpose(2, 0, 1)[None].astype(np.float32) for image in images]


def quantize(float_path: Path, out: Path, batch: np.ndarray | list[np.ndarray], what: str = "rendered calibration crops") -> None:
    """Write the 8-bit model of `float_path` to `out`, keeping the float model's metadata (the
    class names; the detector's threshold and side). `batch`: one array of crops cut into batches,
    or a list of pictures (the detector's, each its own size) fed one at a time."""
    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    source = onnx.load(str(float_path))
    input_name = source.graph.input[0].name
    # the detector's pictures (each its own size) one at a time; the classifier's crops in batches
    reader = _Feeds(input_name, batch if isinstance(batch, list) else
                    (batch[i:i + BATCH] for i in range(0, len(batch), BATCH)))
    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        # the detector's free height and width defeat the symbolic shape pass: ONNX's own does
        quant_pre_process(str(float_path), str(prepared), skip_symbolic_shape=isinstance(batch, list))
        quantized = Path(work) / "quantized.onnx"
        quantize_static(str(prepared), str(quantized), reader,
                        quant_format=QuantFormat.QDQ, per_channel=True, reduce_range=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax)
        proto = onnx.load(str(quantized))
    del proto.metadata_props[:]
    proto.metadata_props.extend(source.metadata_props)
    entry = proto.metadata_props.add()
    entry.key, entry.value = "quantized", f"int8 QDQ, per-channel 7-bit weights, {len(batch)} {what}"
    proto.producer_name = source.producer_name
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(proto, str(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.quantize", description=__doc__.split("\n\n")[0])
    parser.add_argument("float_model", type=Path, help="the float ONNX export of `python -m vision.train`")
    parser.add_argument("--detector", action="store_true",
                        help="the model is the tile detector's (`python -m vision.train.detector`)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--seed", type=int, default=6, help="seed of the rendered calibration crops / hands")
    args = parser.parse_args(argv)
    try:
        import onnx  # noqa: F401
    except ImportError as exc:
        print(f"quantizing needs the train extra (pip install -e '.[train]'): {exc}", file=sys.stderr)
        return 2
    if args.detector:
        from ..detect import MODEL_NAME as DETECTOR
        args.out = args.out or model_path(DETECTOR)
        quantize(args.float_model, args.out, detector_calibration(args.seed),
                 "calibration pictures (training photos, rendered hands, look-alikes)")
    else:
        args.out = args.out or model_path(MODEL_NAME)
        quantize(args.float_model, args.out, calibration_batch(args.seed))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
