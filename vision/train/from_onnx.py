"""A float network again from a shipped ONNX model, so training can go on from where it stands.

Why: a run's float checkpoints live in the cache of the machine that trained it (a GPU lent for
an hour, or a temp folder), and the repo ships only the exported 8-bit model. Without this, a
session that was lent no GPU could not fine-tune the detector at all. The shipped model is made
by code in this repo, so going on from it is going on from this project's own run.

What the export left: each batch norm folded into the convolution before it (weights scaled,
a bias added), and with 8-bit quantization the weights stored as integers per output channel
with their scales (`DequantizeLinear`). Each convolution is found in the network by the module
path its node is named with, its shape checked; the batch norm that runs right after it becomes
the identity plus the folded bias. Its running statistics are gone with the folding,
so the batch norms must stay in eval mode while training (`freeze_norms`): the folded weights
already hold them.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn


def onnx_convs(path: Path) -> list[tuple[str, np.ndarray, np.ndarray | None]]:
    """Every convolution of the ONNX model at `path`, in graph order: node name, float weight
    (dequantized where stored as integers) and bias (or None)."""
    model = onnx.load(str(path))
    graph = model.graph
    stored = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    made_by = {out: node for node in graph.node for out in node.output}

    def value(name: str) -> np.ndarray:
        if name in stored:
            return stored[name]
        node = made_by.get(name)
        if node is None or node.op_type != "DequantizeLinear":
            raise ValueError(f"{path}: {name} is neither stored nor dequantized from stored integers")
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        q = value(node.input[0]).astype(np.float32)
        scale = value(node.input[1]).astype(np.float32)
        zero = value(node.input[2]).astype(np.float32) if len(node.input) > 2 and node.input[2] else np.zeros_like(scale)
        if scale.ndim == 1:   # per channel: along `axis`
            shape = [1] * q.ndim
            shape[axis] = -1
            scale, zero = scale.reshape(shape), zero.reshape(shape)
        return (q - zero) * scale

    return [(node.name, value(node.input[1]), value(node.input[2]) if len(node.input) > 2 else None)
            for node in graph.node if node.op_type == "Conv"]


def _run_order(model: nn.Module, sample: torch.Tensor) -> list[nn.Module]:
    """The network's convolutions and batch norms in the order a forward pass runs them."""
    order: list[nn.Module] = []
    hooks = [m.register_forward_hook(lambda m, i, o: order.append(m)) for m in model.modules()
             if isinstance(m, (nn.Conv2d, nn.BatchNorm2d))]
    try:
        with torch.no_grad():
            model.eval()(sample)
    finally:
        for hook in hooks:
            hook.remove()
    return order


def _module_named(model: nn.Module, node: str) -> nn.Module:
    """The module an exported node's name (`/backbone/_blocks.0/_project_conv/Conv`,
    `/head/head.0/head.0.0/Conv`) scopes it in: each part is a child's name, or its path from
    the part before."""
    module, path = model, ""
    for part in node.strip("/").split("/")[:-1]:
        local = part[len(path) + 1:] if path and part.startswith(path + ".") else part
        module = module.get_submodule(local)
        path = part if local != part else (f"{path}.{part}" if path else part)
    return module


def load_onnx_weights(model: nn.Module, path: Path, sample: torch.Tensor) -> None:
    """Set `model`'s weights to those of the ONNX model at `path`, exported from a network of
    the same build; `sample` is an input the network takes (to learn which batch norm follows
    which convolution)."""
    order = _run_order(model, sample)
    after = {id(m): order[i + 1] for i, m in enumerate(order[:-1]) if isinstance(order[i + 1], nn.BatchNorm2d)}
    stored = onnx_convs(path)
    convs = [m for m in model.modules() if isinstance(m, nn.Conv2d)]
    if len(stored) != len(convs):
        raise ValueError(f"{path} holds {len(stored)} convolutions, the network {len(convs)}: another build")
    with torch.no_grad():
        for name, weight, bias in stored:
            conv = _module_named(model, name)
            if not isinstance(conv, nn.Conv2d) or tuple(weight.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{path}: {name} {weight.shape} is not the network's {conv}")
            conv.weight.copy_(torch.from_numpy(weight))
            norm = after.get(id(conv))
            bias = torch.from_numpy(bias) if bias is not None else torch.zeros(weight.shape[0])
            if norm is None:
                if conv.bias is None:
                    raise ValueError(f"{path}: {name} has a bias the network's convolution cannot hold")
                conv.bias.copy_(bias)
                continue
            if conv.bias is not None:
                conv.bias.zero_()
            # the identity plus the folded bias: (x - 0) / sqrt(1 - eps + eps) * 1 + bias
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)


def freeze_norms(model: nn.Module) -> None:
    """Keep every batch norm of `model` in eval mode whatever `model.train()` says (their scale
    and shift still learn): statistics folded away by the export cannot be learnt again from a
    CPU's small batches."""
    norms = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    train = model.train

    def train_keeping_norms(mode: bool = True) -> nn.Module:
        train(mode)
        for norm in norms:
            norm.eval()
        return model

    model.train = train_keeping_norms   # type: ignore[method-assign]
