"""The classifier's augmentation: coloured light tints a face but never blacks it out, and never
lights a plain tile (a blank white dragon, a back) that would then be any coloured back; faces
out of focus; faces over-exposed, but never a back."""
from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs the train extra (torch)")

from vision.train import fit  # noqa: E402


def test_coloured_light_keeps_one_channel_and_dims_the_others_on_a_share_of_crops(monkeypatch):
    white = np.full((64, 48, 48, 3), 240, np.uint8)
    x = fit.to_tensor(white)
    faces = torch.full((64,), fit.INDEX["3p"])
    monkeypatch.setattr(fit, "TINTED", 1.0)
    lit = fit.tint(x, faces, torch.Generator().manual_seed(0)) * fit.SCALE + fit.MEAN   # back to 0..1
    per_channel = lit.mean(dim=(2, 3))
    assert torch.allclose(per_channel.max(dim=1).values, torch.full((64,), 240 / 255), atol=1e-5)
    assert (per_channel.min(dim=1).values >= 0.55 * 240 / 255 - 1e-5).all()
    assert (per_channel.min(dim=1).values < 0.9 * 240 / 255).float().mean() > 0.5

    plain = torch.tensor([fit.INDEX["5z"], fit.INDEX["back"]] * 32)
    assert torch.equal(fit.tint(x, plain, torch.Generator().manual_seed(0)), x)

    monkeypatch.setattr(fit, "TINTED", 0.0)
    assert torch.equal(fit.tint(x, faces, torch.Generator().manual_seed(0)), x)


def test_a_share_of_crops_comes_out_of_focus_each_by_its_own_width(monkeypatch):
    dots = torch.zeros(40, 3, 64, 48)
    dots[:, :, 32, 24] = 1.0   # a point of ink in the middle of each crop
    monkeypatch.setattr(fit, "DEFOCUSED", 1.0)
    soft = fit.defocus(dots, torch.Generator().manual_seed(0))
    assert torch.allclose(soft.sum(dim=(2, 3)), dots.sum(dim=(2, 3)), atol=1e-4)   # no ink made or lost
    peaks = soft[:, 0, 32, 24]
    low, high = fit.DEFOCUS_SIGMA
    # a Gaussian's peak is 1 / (2 pi sigma^2): between the widest and the narrowest blur, and varied
    assert (peaks <= 1 / (2 * np.pi * low ** 2) + 1e-4).all() and (peaks >= 1 / (2 * np.pi * high ** 2) - 1e-4).all()
    assert peaks.max() > 1.5 * peaks.min()
    monkeypatch.setattr(fit, "DEFOCUSED", 0.0)
    assert torch.equal(fit.defocus(dots, torch.Generator().manual_seed(0)), dots)


def test_over_exposure_clips_the_light_of_a_share_of_faces_but_never_a_back():
    grey = np.full((64, 48, 48, 3), 150, np.uint8)
    grey[:, 20:28, 20:28] = 40   # a stroke of ink
    x = fit.to_tensor(grey)
    faces = torch.full((64,), fit.INDEX["5z"])
    lit = fit.overexpose(x, faces, 1.0, torch.Generator().manual_seed(0)) * fit.SCALE + fit.MEAN   # back to 0..1
    paper, ink = lit[:, :, 0, 0].mean(dim=1), lit[:, :, 24, 24].mean(dim=1)
    low, high = fit.OVEREXPOSED_BY
    assert (lit <= 1.0 + 1e-6).all()
    assert (paper >= low * 150 / 255 - 1e-4).all() and (paper > 0.999).any()   # clipped at white, some of them
    assert ((ink >= low * 40 / 255 - 1e-4) & (ink <= high * 40 / 255 + 1e-4)).all()   # the ink is only brighter
    backs = torch.full((64,), fit.INDEX["back"])
    assert torch.equal(fit.overexpose(x, backs, 1.0, torch.Generator().manual_seed(0)), x)
    assert torch.equal(fit.overexpose(x, faces, 0.0, torch.Generator().manual_seed(0)), x)


def test_a_share_of_crops_is_streaked_by_a_moving_camera_each_its_own_way():
    dots = torch.zeros(40, 3, 64, 48)
    dots[:, :, 32, 24] = 1.0   # a point of ink in the middle of each crop
    streaked = fit.shake(dots, 1.0, torch.Generator().manual_seed(0))
    assert torch.allclose(streaked.sum(dim=(2, 3)), dots.sum(dim=(2, 3)), atol=1e-4)   # no ink made or lost
    low, high = fit.SHAKE_LENGTH
    for crop in streaked[:, 0]:
        points = torch.nonzero(crop > 0.01).float()
        spread = torch.linalg.eigvalsh(torch.cov(points.T))
        reach = float((points - points.mean(dim=0)).norm(dim=1).max())
        assert spread[1] > 2 * spread[0]                  # a streak: long one way, thin across
        assert low / 2 - 1 <= reach <= high / 2 + 1.5      # about as long as drawn
    directions = [torch.linalg.eigh(torch.cov(torch.nonzero(c > 0.01).float().T))[1][:, 1].abs() for c in streaked[:, 0]]
    assert max(float(d[0]) for d in directions) > 0.9 and max(float(d[1]) for d in directions) > 0.9   # down and across
    assert torch.equal(fit.shake(dots, 0.0, torch.Generator().manual_seed(0)), dots)
