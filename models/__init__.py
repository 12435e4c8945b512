"""The shipped ONNX model(s) and their model card, installed as package data."""
from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent


def model_path(name: str) -> Path:
    return MODELS_DIR / name
