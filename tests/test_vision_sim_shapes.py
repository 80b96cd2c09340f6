"""A rendered tournament board (bar 32 mm, points 41.5 mm): calibration measures its
proportions and the reader reads it through them.

The simulator draws the board with exact truth (``board_shape``); the corners of its playing
area come from the truth, as in ``test_vision_sim`` (the board finder is tested apart).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.rules import position_id
from companion.sim import Checkers, DieSpec, random_scene, render
from companion.sim.shape import BoardShape
from companion.vision.reader import read_frame
from tests.sim_helpers import sure_points
from tests.test_vision_sim import SEED, profile_for
from tests.test_vision_sim import SETUP as STANDARD_SETUP

TOURNAMENT = BoardShape(bar_width=32.0, outer_point_width=41.5, home_point_width=41.5)
TILT = 10.0
SETUP: dict[str, Any] = {**STANDARD_SETUP, "tilt": TILT, "shape": TOURNAMENT}
MIDGAME = Checkers.of(position_id.decode("hWfhgBLg+SNgQA").to_absolute("white"))
"""Seven checkers on one point, a checker on the bar, stacks beside the bar in both halves."""


def test_calibration_measures_the_drawn_proportions() -> None:
    profile = profile_for(SEED, TILT, shape=TOURNAMENT)
    drawn = TOURNAMENT.on_corners_plane()
    assert not profile.layout.is_canonical
    measured = np.array([*profile.layout.outer, *profile.layout.home])
    expected = np.array([*drawn["outer"], *drawn["home"]])
    assert np.abs(measured - expected).max() < 1.5, (measured, expected)


def test_a_midgame_frame_is_read_through_them() -> None:
    profile = profile_for(SEED, TILT, shape=TOURNAMENT)
    scene = random_scene(SEED, MIDGAME, on_roll="white", dice=(DieSpec(3), DieSpec(1)), **SETUP)
    frame = render(scene)
    reading = read_frame(frame.image, profile)
    truth_points = frame.truth["points"]
    sure = sure_points(reading)
    assert len(sure) >= 20
    assert all(reading.points[n] == truth_points[n] for n in sure), (  # type: ignore[index]
        reading.points,
        truth_points,
    )
    assert reading.bar.to_json() == frame.truth["bar"]
