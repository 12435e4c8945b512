"""The tile detector's network: a small CenterNet-style model, one pass over the whole photo.

A plain strided backbone (stride 32, so a face filling a sixth of the frame is still seen whole)
and a light feature pyramid back up to stride 4, where a tile of ten pixels still has its own
centre cell. At each cell the head says how surely a face-up or face-down tile is centred there
(two heatmaps), the face's size and the centre's offset within the cell, whether the tile lies
sideways, and how far the tile's body shows beyond its face on each side (so the whole tile's
box can be given while the face alone is cut out for naming). The output layout is documented
in `vision/detect.py`, which decodes it.
"""
from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

OUTPUTS = 11  # heat face-up, heat face-down, sideways, log w, log h, dx, dy, ext left/top/right/bottom
HEATS = 2


def conv(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class TileDetector(nn.Module):
    """uint8-range BGR in (N, 3, H, W), H and W multiples of 32; raw outputs (N, 11, H/4, W/4)."""

    def __init__(self, width: int = 48):
        super().__init__()
        c1, c2, c3, c4, c5 = width // 2, width, width * 2, width * 3, width * 4
        self.stem = conv(3, c1, 2)
        self.s4 = nn.Sequential(conv(c1, c2, 2), conv(c2, c2))
        self.s8 = nn.Sequential(conv(c2, c3, 2), conv(c3, c3))
        self.s16 = nn.Sequential(conv(c3, c4, 2), conv(c4, c4))
        self.s32 = nn.Sequential(conv(c4, c5, 2), conv(c5, c5))
        p = width * 2
        self.lat32, self.lat16, self.lat8 = conv(c5, p, k=1), conv(c4, p, k=1), conv(c3, p, k=1)
        self.lat4 = conv(c2, width, k=1)
        self.smooth16, self.smooth8 = conv(p, p), conv(p, p)
        self.down8 = conv(p, width, k=1)
        self.head = nn.Sequential(conv(width, width), nn.Conv2d(width, OUTPUTS, 1))
        nn.init.constant_(self.head[-1].bias, 0.0)
        with torch.no_grad():  # the heatmaps start near 1% everywhere, as CenterNet's do
            self.head[-1].bias[:HEATS] = -4.6

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x / 255.0 - 0.5) / 0.25
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p16 = self.smooth16(self.lat16(f16) + F.interpolate(self.lat32(f32), scale_factor=2.0, mode="nearest"))
        p8 = self.smooth8(self.lat8(f8) + F.interpolate(p16, scale_factor=2.0, mode="nearest"))
        p4 = self.lat4(f4) + F.interpolate(self.down8(p8), scale_factor=2.0, mode="nearest")
        return self.head(p4)


class LiteDetector(nn.Module):
    """The same head and pyramid on EfficientNet-Lite0 (`effnet.py`), started from ImageNet
    weights: features that already know edges, text and objects from a million photos, fine-tuned
    here, where the plain backbone learns every feature from this project's few real tables."""

    def __init__(self, width: int = 48, pretrained: bool = True, frozen: int = 0):
        super().__init__()
        from .effnet import CHANNELS, LiteBackbone

        self.backbone = LiteBackbone()
        if pretrained:
            self.backbone.load_imagenet()
        # the stem and the first `frozen` blocks keep their ImageNet weights and statistics: the
        # edges and blobs they find are the world's, and on a CPU their backward pass at full
        # resolution is most of a training step's time
        self.frozen = [self.backbone._conv_stem, self.backbone._bn0, *self.backbone._blocks[:frozen]] if frozen else []
        for module in self.frozen:
            module.requires_grad_(False)
        p = width * 2
        self.lat32, self.lat16, self.lat8 = conv(CHANNELS[32], p, k=1), conv(CHANNELS[16], p, k=1), conv(CHANNELS[8], p, k=1)
        self.lat4 = conv(CHANNELS[4], width, k=1)
        self.smooth16, self.smooth8 = conv(p, p), conv(p, p)
        self.down8 = conv(p, width, k=1)
        self.head = nn.Sequential(conv(width, width), nn.Conv2d(width, OUTPUTS, 1))
        nn.init.constant_(self.head[-1].bias, 0.0)
        with torch.no_grad():
            self.head[-1].bias[:HEATS] = -4.6

    def train(self, mode: bool = True) -> "LiteDetector":
        super().train(mode)
        for module in self.frozen:
            module.eval()
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.backbone(x)
        p16 = self.smooth16(self.lat16(f[16]) + F.interpolate(self.lat32(f[32]), scale_factor=2.0, mode="nearest"))
        p8 = self.smooth8(self.lat8(f[8]) + F.interpolate(p16, scale_factor=2.0, mode="nearest"))
        p4 = self.lat4(f[4]) + F.interpolate(self.down8(p8), scale_factor=2.0, mode="nearest")
        return self.head(p4)


BACKBONES = ("plain", "lite0")


def build(backbone: str = "plain", width: int = 48, pretrained: bool = True, frozen: int = 0) -> nn.Module:
    """The detector network: `plain` (learnt from scratch) or `lite0` (EfficientNet-Lite0,
    ImageNet-pretrained, its stem and first `frozen` blocks kept as they are)."""
    if backbone == "lite0":
        return LiteDetector(width, pretrained, frozen)
    if backbone == "plain":
        return TileDetector(width)
    raise ValueError(f"unknown backbone {backbone!r}: one of {', '.join(BACKBONES)}")
