"""The shipped classifier is the 8-bit model `vision/train/quantize.py` makes, and quantizing
keeps what the app relies on: the class names, and the float model's answers."""
from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from models import model_path
from vision.classify import INPUT_H, INPUT_W, MODEL_NAME, TileClassifier
from vision.labels import LABELS


def test_shipped_model_is_the_quantized_one_with_its_class_names():
    meta = ort.InferenceSession(str(model_path(MODEL_NAME)), providers=["CPUExecutionProvider"]).get_modelmeta()
    assert meta.custom_metadata_map["labels"] == ",".join(LABELS)
    assert meta.custom_metadata_map["quantized"].startswith("int8")


def _float_model(path, rng: np.random.Generator, labels=LABELS) -> None:
    """A small float network of the classifier's shape: conv, relu, pooling, linear; naming
    `labels`."""
    onnx = pytest.importorskip("onnx", reason="quantizing is a training step: it needs the train extra's onnx")
    from onnx import TensorProto, helper, numpy_helper

    weights = {
        "w1": rng.normal(0, 0.3, (8, 3, 3, 3)).astype(np.float32), "b1": np.zeros(8, np.float32),
        "w2": rng.normal(0, 0.5, (len(labels), 8)).astype(np.float32), "b2": np.zeros(len(labels), np.float32),
    }
    nodes = [
        helper.make_node("Conv", ["crops", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("GlobalAveragePool", ["r1"], ["p1"]),
        helper.make_node("Flatten", ["p1"], ["f1"]),
        helper.make_node("Gemm", ["f1", "w2", "b2"], ["logits"], transB=1),
    ]
    graph = helper.make_graph(
        nodes, "tiny", [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, INPUT_H, INPUT_W])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", len(labels)])],
        [numpy_helper.from_array(v, k) for k, v in weights.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    entry = model.metadata_props.add()
    entry.key, entry.value = "labels", ",".join(labels)
    onnx.save(model, str(path))


def test_quantizing_keeps_the_class_names_and_the_answers(tmp_path):
    from vision.train.quantize import quantize

    rng = np.random.default_rng(3)
    float_path, int8_path = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    _float_model(float_path, rng)
    batch = rng.normal(0, 1, (60, 3, INPUT_H, INPUT_W)).astype(np.float32)
    quantize(float_path, int8_path, batch)

    floats = ort.InferenceSession(str(float_path)).run(None, {"crops": batch})[0]
    int8 = ort.InferenceSession(str(int8_path)).run(None, {"crops": batch})[0]
    spread = floats.max() - floats.min()
    assert np.abs(int8 - floats).max() < 0.05 * spread
    TileClassifier(int8_path)   # refuses a model whose class names differ from the code's
    meta = ort.InferenceSession(str(int8_path)).get_modelmeta().custom_metadata_map
    assert meta["labels"] == ",".join(LABELS) and meta["quantized"].startswith("int8")


def test_a_model_from_before_none_was_a_class_still_names_tiles(tmp_path):
    # so that a model of an earlier run can be measured beside a new one (`bench.vision --classifier`)
    from vision.labels import NONE

    older = tuple(label for label in LABELS if label != NONE)
    _float_model(tmp_path / "older.onnx", np.random.default_rng(4), older)
    classifier = TileClassifier(tmp_path / "older.onnx")
    (ranking,) = classifier.classify([np.full((64, 48, 3), 200, np.uint8)])
    assert sorted(name for name, _ in ranking) == sorted(older)


def test_a_model_naming_classes_the_code_does_not_know_is_refused(tmp_path):
    from vision.classify import ModelMissing

    _float_model(tmp_path / "other.onnx", np.random.default_rng(5), LABELS[:-1] + ("joker",))
    with pytest.raises(ModelMissing, match="other classes"):
        TileClassifier(tmp_path / "other.onnx")
