"""Going on from the shipped detector: its 8-bit ONNX weights back in the float network."""
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra is not installed")
pytest.importorskip("onnx", reason="the train extra is not installed")


def _maps(model, image):
    from vision.detect import letterbox
    boxed, factor = letterbox(image)
    with torch.no_grad():
        return model(torch.from_numpy(np.ascontiguousarray(boxed.transpose(2, 0, 1)[None], np.float32)))[0].numpy(), factor


def test_the_shipped_detector_comes_back_as_a_float_network_that_finds_what_it_finds():
    from vision.detect import TileFinder, decode
    from vision.render import render_scene
    from vision.train.detect_model import build
    from vision.train.from_onnx import freeze_norms, load_onnx_weights
    from models import model_path

    finder = TileFinder(closer=False)
    model = build(finder.settings.get("backbone", "plain"), pretrained=False)
    load_onnx_weights(model, model_path("tile_detector.onnx"), torch.zeros(1, 3, 128, 128))
    model.eval()
    rng = np.random.default_rng(3)
    for _ in range(2):
        scene = render_scene(rng, max_side=1200)
        maps, factor = _maps(model, scene.image)
        shipped, _ = finder.raw(scene.image)
        heat = 1 / (1 + np.exp(-maps[:2])) - 1 / (1 + np.exp(-shipped[:2]))
        assert np.abs(heat).max() < 0.1   # the 8-bit model also rounds its activations
        ours, theirs = (decode(m, finder.threshold, factor, scene.image.shape[:2]) for m in (maps, shipped))
        assert len(ours) == len(theirs) == len(scene.tiles)
        apart = np.abs(np.array([t.box for t in ours])[:, None] - np.array([t.box for t in theirs])[None]).max(axis=2)
        assert apart.min(axis=1).max() <= 3   # each tile's box within 3 pixels of one the shipped model gives
    # the batch norms' statistics were folded away: training must not learn them again
    freeze_norms(model)
    model.train()
    norms = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert norms and not any(m.training for m in norms) and model.head.training


def test_a_model_of_another_build_is_refused(tmp_path):
    from vision.train.detect_model import build
    from vision.train.from_onnx import load_onnx_weights
    from models import model_path

    with pytest.raises(ValueError, match="convolutions"):
        load_onnx_weights(build("plain", pretrained=False), model_path("tile_detector.onnx"), torch.zeros(1, 3, 128, 128))
