"""The shipped model in 8-bit integers: onnxruntime's static quantization of the float export.

`python -m vision.train.quantize FLOAT.onnx [--out models/tile_classifier.onnx]`

Integer convolutions name a crop in about two thirds of the float model's time on the CPU
(0.56 against 0.90 ms, the model card's run). Weights are stored per output channel in 7 bits
(`reduce_range`): on CPUs without VNNI (AVX2 only, like this project's machines) onnxruntime
multiplies 8-bit activations by 8-bit weights in 16-bit sums that saturate; with 8-bit weights
a trial named 88.8% of rendered crops right against the float model's 98.9%, with 7 bits 99.0%.
Activation ranges are calibrated on rendered crops of their own random stream, never on the
crops the card measures.
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


class _Batches:
    """onnxruntime's CalibrationDataReader protocol over one prepared array."""

    def __init__(self, input_name: str, batch: np.ndarray) -> None:
        self._feeds = iter({input_name: batch[i:i + BATCH]} for i in range(0, len(batch), BATCH))

    def get_next(self) -> dict | None:
        return next(self._feeds, None)


def calibration_batch(seed: int, count: int = CALIBRATION_CROPS) -> np.ndarray:
    from .evaluate import rendered
    crops, _ = rendered(count, seed, stream=CALIBRATION_STREAM)
    return prepare(crops)


def quantize(float_path: Path, out: Path, batch: np.ndarray) -> None:
    """Write the 8-bit model of `float_path` to `out`, keeping the float model's metadata
    (the class names)."""
    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    source = onnx.load(str(float_path))
    input_name = source.graph.input[0].name
    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        quant_pre_process(str(float_path), str(prepared))
        quantized = Path(work) / "quantized.onnx"
        quantize_static(str(prepared), str(quantized), _Batches(input_name, batch),
                        quant_format=QuantFormat.QDQ, per_channel=True, reduce_range=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        calibrate_method=CalibrationMethod.MinMax)
        proto = onnx.load(str(quantized))
    del proto.metadata_props[:]
    proto.metadata_props.extend(source.metadata_props)
    entry = proto.metadata_props.add()
    entry.key, entry.value = "quantized", f"int8 QDQ, per-channel 7-bit weights, {len(batch)} rendered calibration crops"
    proto.producer_name = source.producer_name
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(proto, str(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.quantize", description=__doc__.split("\n\n")[0])
    parser.add_argument("float_model", type=Path, help="the float ONNX export of `python -m vision.train`")
    parser.add_argument("--out", type=Path, default=model_path(MODEL_NAME))
    parser.add_argument("--seed", type=int, default=6, help="seed of the rendered calibration crops")
    args = parser.parse_args(argv)
    try:
        import onnx  # noqa: F401
    except ImportError as exc:
        print(f"quantizing needs the train extra (pip install -e '.[train]'): {exc}", file=sys.stderr)
        return 2
    quantize(args.float_model, args.out, calibration_batch(args.seed))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
