"""Boards with strips of field, found with no corners given and calibrated from what was found.

The playing area is the whole field inside the frame, strips included (the truth's
``board_corners_px``). A board proven on its points alone stops at the points' bases and the
ends of its rows; :func:`~companion.vision.board.grow_to_field` grows it over the strips, and
:func:`~companion.vision.board._framed` refuses a board with something other than the frame
past an end (a board a point along its rows, its end on a tray). Development seeds only, drawn
as the benchmark draws them (``varied_shape=True, margins="style"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion import geometry as g
from companion.sim import random_scene, render
from companion.vision import board
from companion.vision.board import BoardNotFound, find_board
from companion.vision.calibrate import calibrate
from tests.sim_helpers import SIMULATOR_TOLERANCE_PX, corner_error, on_frame, truth_corners
from tests.test_vision_board import OPENING


def _opening(seed: int) -> Any:
    """A rendered opening on a board of its own proportions with its style's strips."""
    return render(random_scene(seed, OPENING, varied_shape=True, margins="style"))


W, H = g.PLAY_WIDTH, g.PLAY_HEIGHT


class TestGrowToField:
    def test_the_points_region_grows_over_the_strips_to_the_whole_field(self) -> None:
        # green-felt: 12 mm strips at the ends and 10 mm along the rows; the points' region
        # (where a board proven on the points stops) grows back to the truth's corners
        frame = _opening(5001)
        drawn = frame.truth["field_margins"]
        assert drawn["frame"] > 5.0 and drawn["edge"] > 5.0
        end, edge = drawn["on_corners_plane"]["outer"][0], drawn["edge"]
        inset = on_frame(
            frame, [(end, edge), (W - end, edge), (W - end, H - edge), (end, H - edge)]
        )
        truth = frame.truth["board_corners_px"]
        before = corner_error(inset, truth)
        grown = board.grow_to_field(frame.image, inset, board.SHAPES[0])
        after = corner_error(grown, truth)
        assert before > SIMULATOR_TOLERANCE_PX
        assert after < SIMULATOR_TOLERANCE_PX / 2

    @pytest.mark.parametrize("seed", [5007, 5010])  # black-red, tournament-red: no edge strips
    def test_a_board_at_its_frame_does_not_grow(self, seed: int) -> None:
        frame = _opening(seed)
        truth = np.array(frame.truth["board_corners_px"], dtype=float)
        grown = board.grow_to_field(frame.image, truth, board.SHAPES[0])
        # the short strips of a tournament board's ends are no wider than the finder's error
        assert corner_error(grown, truth) < SIMULATOR_TOLERANCE_PX / 2


class TestFramed:
    def test_the_frame_lies_round_the_true_playing_area(self) -> None:
        frame = _opening(5002)
        assert board._framed(frame.image, np.array(frame.truth["board_corners_px"], dtype=float))

    def test_a_board_a_point_along_its_rows_has_a_tray_past_one_end(self) -> None:
        # tournament-cream, 10 mm strips at the ends: the board one point along, its right end
        # on the tray's border, as the finder once reported it
        frame = _opening(5002)
        shifted = on_frame(frame, [(47.0, 0.0), (559.0, 0.0), (559.0, H), (47.0, H)])
        assert not board._framed(frame.image, shifted)


@pytest.mark.parametrize("seed", [5001, 5014])  # green-felt: 12 mm strips at the ends, 10 along
def test_found_within_tolerance_and_calibrated_without_corners(seed: int) -> None:
    frame = _opening(seed)
    profile = calibrate(frame.image)
    given = calibrate(frame.image, corners=frame.truth["board_corners_px"])
    assert corner_error(profile.corners_px, truth_corners(frame)) < SIMULATOR_TOLERANCE_PX
    assert profile.white_home == given.white_home
    # the strip along the rows is measured from the found corners as from the truth's
    assert profile.layout.edge == pytest.approx(frame.truth["field_margins"]["edge"], abs=3.0)


@pytest.mark.parametrize("seed", [5002, 5024])  # tournament-cream: a point along, onto the tray
def test_refuses_a_board_it_would_report_a_point_along(seed: int) -> None:
    frame = _opening(seed)
    with pytest.raises(BoardNotFound, match="--corners"):
        find_board(frame.image)
