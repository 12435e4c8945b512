"""The tile classifier networks, both small enough for the CPU budget of the photo pipeline
(tens of MFLOPs a crop at 64x48) and both with a spatial head, so that layouts (6 dots against
9 dots) survive to the classifier: `TileNet`, seven 3x3 convolutions learnt from scratch, and
`LiteTileNet`, the first blocks of EfficientNet-Lite0 started from ImageNet."""
from __future__ import annotations

import torch
from torch import nn

from ..classify import INPUT_H, INPUT_W, MEAN, SCALE

BACKBONES = ("plain", "lite0")


def _block(cin: int, cout: int) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


class TileNet(nn.Module):
    def __init__(self, classes: int, width: int = 32) -> None:
        super().__init__()
        w = width
        self.features = nn.Sequential(
            *_block(3, w // 2), nn.MaxPool2d(2),            # 32x24
            *_block(w // 2, w), *_block(w, w), nn.MaxPool2d(2),      # 16x12
            *_block(w, 2 * w), *_block(2 * w, 2 * w), nn.MaxPool2d(2),  # 8x6
            *_block(2 * w, 4 * w), *_block(4 * w, 4 * w), nn.MaxPool2d(2),  # 4x3
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(4 * w * (INPUT_H // 16) * (INPUT_W // 16), classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class LiteTileNet(nn.Module):
    """EfficientNet-Lite0 up to stride 16 (11 blocks, 112 channels: a 4x3 map of a 64x48 crop)
    under the same dropout and linear head as `TileNet`. Features learnt on a million photos of
    the world, rather than on rendered tiles alone, were the hope for art styles never rendered;
    at this size they named fewer real tiles than `TileNet` (the model card's "Tried"). Its input is the classifier's usual one (`vision.classify.prepare`), turned back to 0-255
    inside, so the ONNX contract does not change with the network."""

    def __init__(self, classes: int, pretrained: bool = True) -> None:
        super().__init__()
        from .effnet import CHANNELS, TAPS, LiteBackbone
        self.trunk = LiteBackbone(blocks=TAPS[16] + 1)
        if pretrained:
            self.trunk.load_imagenet()
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3),
                                  nn.Linear(CHANNELS[16] * (INPUT_H // 16) * (INPUT_W // 16), classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.trunk((x * SCALE + MEAN) * 255.0)[16])


def build(backbone: str, classes: int, width: int = 32) -> nn.Module:
    """The network a training run's settings name."""
    if backbone == "lite0":
        return LiteTileNet(classes)
    if backbone == "plain":
        return TileNet(classes, width)
    raise ValueError(f"unknown classifier backbone {backbone!r}: one of {', '.join(BACKBONES)}")
