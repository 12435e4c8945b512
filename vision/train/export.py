"""ONNX export with the class names stored in the model's metadata."""
from __future__ import annotations

from pathlib import Path

import torch

from ..classify import INPUT_H, INPUT_W
from ..labels import LABELS


def export(model: torch.nn.Module, path: Path) -> None:
    import onnx

    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, INPUT_H, INPUT_W), str(path), input_names=["crops"],
                      output_names=["logits"], dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)
    proto = onnx.load(str(path))
    entry = proto.metadata_props.add()
    entry.key, entry.value = "labels", ",".join(LABELS)
    proto.producer_name = "tenbou vision.train"
    onnx.save(proto, str(path))
