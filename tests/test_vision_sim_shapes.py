"""A rendered tournament board (bar 32 mm, points 41.5 mm): calibration measures its
proportions and the reader reads it through them.

The simulator draws the board with exact truth (``board_shape``); the corners of its playing
area come from the truth, as in ``test_vision_sim`` (the board finder is tested apart).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from companion.rules import position_id
from companion.rules.position import Position
from companion.sim import Checkers, DieSpec, random_scene, render
from companion.sim.shape import BoardShape
from companion.vision.calibrate import calibrate
from companion.vision.profile import Profile
from companion.vision.reader import read_frame

TOURNAMENT = BoardShape(bar_width=32.0, outer_point_width=41.5, home_point_width=41.5)
SETUP: dict[str, Any] = {
    "style": "wood",
    "checker_set": "white-black",
    "lighting": "even",
    "k1": 0.0,
    "tilt": 10.0,
    "shape": TOURNAMENT,
}
SEED = 41
MIDGAME = Checkers.of(position_id.decode("hWfhgBLg+SNgQA").to_absolute("white"))
"""Seven checkers on one point, a checker on the bar, stacks beside the bar in both halves."""


@lru_cache(maxsize=1)
def calibrated() -> tuple[Profile, dict[str, Any]]:
    opening = render(random_scene(SEED, Position.opening().to_absolute("white"), **SETUP))
    profile = calibrate(opening.image, corners=opening.truth["board_corners_px"])  # type: ignore[arg-type]
    return profile, opening.truth


def test_calibration_measures_the_drawn_proportions() -> None:
    profile, truth = calibrated()
    drawn = truth["board_shape"]["on_corners_plane"]
    assert not profile.layout.is_canonical
    measured = np.array([*profile.layout.outer, *profile.layout.home])
    expected = np.array([*drawn["outer"], *drawn["home"]])
    assert np.abs(measured - expected).max() < 1.5, (measured, expected)


def test_a_midgame_frame_is_read_through_them() -> None:
    profile, _ = calibrated()
    scene = random_scene(SEED, MIDGAME, on_roll="white", dice=(DieSpec(3), DieSpec(1)), **SETUP)
    frame = render(scene)
    reading = read_frame(frame.image, profile)
    truth_points = frame.truth["points"]
    sure = [n for n in range(24) if reading.confidence[f"point {n + 1}"] >= 0.5]
    assert len(sure) >= 20
    assert all(reading.points[n] == truth_points[n] for n in sure), (  # type: ignore[index]
        reading.points,
        truth_points,
    )
    assert reading.bar.to_json() == frame.truth["bar"]
