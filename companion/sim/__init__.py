"""The scene simulator: photo-like camera frames of any position, with exact ground truth.

``render(Scene(...))`` draws one frame; ``random_scene(seed, board)`` picks the look, camera
and light from a seed; ``render_game(seed)`` records a whole game as a camera would;
``render_demo_game(seed)`` records the scripted demo game (every episode a referee handles).
``Scene.vary`` (any of them: ``vary=True``) jitters the look around each style for honest
evaluation sets (:mod:`companion.sim.variety`). ``shape=BoardShape(...)`` (or
``varied_shape=True``) draws a board of other proportions (:mod:`companion.sim.shape`).
Checkers come with patterns on their tops (``checker_look``) and boards with strips of field
between the frame and the points (``margins``, :class:`Margins`); ``PLAIN_LOOK`` draws a seed
as it was drawn before either existed.
"""

from companion.sim.camera import CameraSpec
from companion.sim.cube import CubeSpec
from companion.sim.demo import render_demo_game
from companion.sim.layout import DieSpec
from companion.sim.scene import (
    PLAIN_LOOK,
    Checkers,
    Frame,
    InvalidScene,
    Scene,
    random_scene,
    render,
)
from companion.sim.sequences import GameFrame, render_game
from companion.sim.shape import NO_MARGINS, BoardShape, ImpossibleShape, Margins

__all__ = [
    "NO_MARGINS",
    "PLAIN_LOOK",
    "BoardShape",
    "CameraSpec",
    "Checkers",
    "CubeSpec",
    "DieSpec",
    "Frame",
    "GameFrame",
    "ImpossibleShape",
    "InvalidScene",
    "Margins",
    "Scene",
    "random_scene",
    "render",
    "render_demo_game",
    "render_game",
]
