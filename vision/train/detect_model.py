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

STRIDE = 4
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
