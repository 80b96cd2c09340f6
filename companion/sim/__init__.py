"""The scene simulator: photo-like camera frames of any position, with exact ground truth.

``render(Scene(...))`` draws one frame; ``random_scene(seed, board)`` picks the look, camera
and light from a seed; ``render_game(seed)`` records a whole game as a camera would;
``render_demo_game(seed)`` records the scripted demo game (every episode a referee handles).
``Scene.vary`` (any of them: ``vary=True``) jitters the look around each style for honest
evaluation sets (:mod:`companion.sim.variety`). ``shape=BoardShape(...)`` (or
``varied_shape=True``) draws a board of other proportions (:mod:`companion.sim.shape`).
"""

from companion.sim.camera import CameraSpec
from companion.sim.cube import CubeSpec
from companion.sim.demo import render_demo_game
from companion.sim.layout import DieSpec
from companion.sim.scene import Checkers, Frame, InvalidScene, Scene, random_scene, render
from companion.sim.sequences import GameFrame, render_game
from companion.sim.shape import BoardShape, ImpossibleShape

__all__ = [
    "BoardShape",
    "CameraSpec",
    "Checkers",
    "CubeSpec",
    "DieSpec",
    "Frame",
    "GameFrame",
    "ImpossibleShape",
    "InvalidScene",
    "Scene",
    "random_scene",
    "render",
    "render_demo_game",
    "render_game",
]
