"""Two runs of the detector averaged weight by weight, as a float ONNX model to quantize.

Why: two runs that went on from the same weights (the shipped model, and a fine-tune of it on
the CPU) lie close in weight space (their convolutions about 4% apart), and an average of such
runs can keep what each learnt at no cost when the photo is read. The mix is written into the
second run's float export, so `python -m vision.train.quantize --detector` and
`python -m vision.train.detector --evaluate-only --rechoose` take it as they take any run.

    python -m vision.train.soup SHIPPED.onnx RUN_float.onnx --share 0.3 --out MIX_float.onnx
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from .from_onnx import onnx_convs


def averaged(first: Path, second: Path, share: float, out: Path) -> None:
    """Write `second` (a float export) to `out` with each convolution's weight and bias
    (1 - share) * first's + share * second's; `first` may be 8-bit (dequantized). Its settings
    say what was mixed."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"the share of the second run is {share}: it must lie in 0-1")
    theirs = {name: (weight, bias) for name, weight, bias in onnx_convs(first)}
    model = onnx.load(str(second))
    stored = {init.name: init for init in model.graph.initializer}
    convs = [node for node in model.graph.node if node.op_type == "Conv"]
    if sorted(node.name for node in convs) != sorted(theirs):
        raise ValueError(f"{first} and {second} are not the same network: their convolutions differ")
    for node in convs:
        for k, other in zip((1, 2), theirs[node.name]):
            if len(node.input) <= k or node.input[k] not in stored:
                raise ValueError(f"{second}: {node.name} is not a float export (its weights are not stored as they are)")
            init = stored[node.input[k]]
            mine = numpy_helper.to_array(init)
            if other is None or other.shape != mine.shape:
                raise ValueError(f"{first} and {second} differ at {node.name}")
            init.CopyFrom(numpy_helper.from_array((share * mine + (1 - share) * other).astype(np.float32), init.name))
    entry = next((e for e in model.metadata_props if e.key == "settings"), None)
    if entry is not None:
        mixed = {"first": Path(first).name, "second": Path(second).name, "share_of_second": share}
        entry.value = json.dumps({**json.loads(entry.value), "averaged": mixed})
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train.soup", description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="a detector ONNX model, float or 8-bit (the shipped one)")
    parser.add_argument("second", type=Path, help="a float export of the same network (`*_float.onnx` of a run)")
    parser.add_argument("--share", type=float, default=0.5, help="the second run's share of each weight")
    parser.add_argument("--out", type=Path, required=True, help="the averaged float model")
    args = parser.parse_args(argv)
    try:
        averaged(args.first, args.second, args.share, args.out)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
