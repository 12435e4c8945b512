"""The tile classifier network: seven 3x3 convolutions at 64x48, small enough for the CPU
budget of the photo pipeline (tens of MFLOPs a crop), with a spatial head so that layouts
(6 dots against 9 dots) survive to the classifier."""
from __future__ import annotations

import torch
from torch import nn

from ..classify import INPUT_H, INPUT_W


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
