"""Two detector runs averaged weight by weight (`vision/train/soup.py`)."""
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra is not installed")
pytest.importorskip("onnx", reason="the train extra is not installed")


def _export(tmp_path, name: str, seed: int, backbone: str = "plain"):
    from vision.train.detect_model import build
    from vision.train.detector import export

    torch.manual_seed(seed)
    model = build(backbone, pretrained=False)
    with torch.no_grad():   # as after training: no two tensors alike (the export shares equal ones)
        for weight in model.parameters():
            weight.add_(torch.randn_like(weight) * 0.01)
    path = tmp_path / name
    export(model, path, {"threshold": 0.4, "seed": seed})
    return path


def test_each_weight_is_the_mix_and_the_settings_say_so(tmp_path):
    from vision.train.from_onnx import onnx_convs
    from vision.train.soup import averaged

    first, second = _export(tmp_path, "a.onnx", 1), _export(tmp_path, "b.onnx", 2)
    averaged(first, second, 0.25, tmp_path / "mix.onnx")
    a, b, mix = ({n: (w, bias) for n, w, bias in onnx_convs(p)} for p in (first, second, tmp_path / "mix.onnx"))
    assert a.keys() == mix.keys() and len(mix) > 10
    for name in mix:
        assert not np.allclose(a[name][0], b[name][0])
        assert np.allclose(mix[name][0], 0.75 * a[name][0] + 0.25 * b[name][0], atol=1e-6)
        assert np.allclose(mix[name][1], 0.75 * a[name][1] + 0.25 * b[name][1], atol=1e-6)
    import onnx
    settings = json.loads(next(e.value for e in onnx.load(str(tmp_path / "mix.onnx")).metadata_props
                               if e.key == "settings"))
    assert settings["seed"] == 2 and settings["averaged"] == {"first": "a.onnx", "second": "b.onnx",
                                                               "share_of_second": 0.25}


def test_other_networks_and_shares_out_of_range_are_refused(tmp_path):
    from vision.train.soup import main

    plain, other = _export(tmp_path, "a.onnx", 1), _export(tmp_path, "b.onnx", 2, "lite0")
    assert main([str(plain), str(other), "--out", str(tmp_path / "mix.onnx")]) == 2
    assert main([str(plain), str(plain), "--share", "1.5", "--out", str(tmp_path / "mix.onnx")]) == 2
    assert not (tmp_path / "mix.onnx").exists()
    assert main([str(plain), str(plain), "--out", str(tmp_path / "mix.onnx")]) == 0
