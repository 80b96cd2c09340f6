"""The scene simulator: photo-like camera frames of any position, with exact ground truth.

``render(Scene(...))`` draws one frame; ``random_scene(seed, board)`` picks the look, camera
and light from a seed; ``render_game(seed)`` records a whole game as a camera would.
"""

from companion.sim.camera import CameraSpec
from companion.sim.cube import CubeSpec
from companion.sim.layout import DieSpec
from companion.sim.scene import Checkers, Frame, InvalidScene, Scene, random_scene, render
from companion.sim.sequences import GameFrame, render_game

__all__ = [
    "CameraSpec",
    "Checkers",
    "CubeSpec",
    "DieSpec",
    "Frame",
    "GameFrame",
    "InvalidScene",
    "Scene",
    "random_scene",
    "render",
    "render_game",
]
