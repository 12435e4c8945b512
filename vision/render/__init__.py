"""Synthetic photos of tiles for training and testing: whole hands (`render_scene`) and
single-tile crops (`render_crop`, `render_crops`)."""
from .crops import render_crop, render_crops
from .hands import Hand, Meld, random_hand
from .scene import Scene, SceneTile, render_scene
from .tilesets import TileSet, available_arts, random_set

__all__ = ["render_scene", "Scene", "SceneTile", "render_crop", "render_crops", "random_hand", "Hand", "Meld",
           "TileSet", "random_set", "available_arts"]
