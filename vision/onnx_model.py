"""Opening a shipped ONNX model with onnxruntime on the CPU, as the detector and the classifier do."""
from __future__ import annotations

from pathlib import Path


class ModelMissing(RuntimeError):
    """A model file is absent or unreadable; the message says how to build it."""


def open_session(path: Path, threads: int, what: str, build: str):
    """An onnxruntime session for the model at `path`, run on `threads` threads. `what` names the
    model to the player ("the tile detector"); `build` is the command that makes it."""
    import onnxruntime as ort

    if not path.is_file():
        raise ModelMissing(f"{what} {path} is missing: run `{build}` to build it")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # errors only: onnxruntime warns on stderr about graph clean-ups of its own (an 8-bit
    # model's folded constants), nothing a player or a log reader can act on
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors for corrupt files
        raise ModelMissing(f"{what} {path} cannot be loaded: {exc}") from exc
