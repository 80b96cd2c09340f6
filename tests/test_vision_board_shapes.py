"""Boards of other proportions found with no markers, calibrated and read.

Real boards differ from the canonical one in the bar's width, the points' length and how the
two halves share the width. The finder fits each board's own shape (``board.fit_shape``,
``board.fit_along``) instead of choosing between two; these boards are the simulator's drawn
as real ones come (``varied_shape=True``: bar 28-50 mm, each half's points 38-43 mm), on
development seeds, with the truth's corners to judge by.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion import geometry as g
from companion.rules.position import Position
from companion.sim import Checkers, DieSpec, random_scene, render
from companion.vision import board
from companion.vision.board import BoardNotFound, find_board
from companion.vision.calibrate import calibrate
from companion.vision.reader import read_frame
from tests.sim_helpers import (
    SIMULATOR_TOLERANCE_PX,
    at_working_size,
    corner_error,
    sure_points,
    truth_corners,
)

OPENING = Position.opening().to_absolute("white")


def _opening(seed: int) -> Any:
    return render(random_scene(seed, OPENING, varied_shape=True))


def _drawn(frame: Any) -> tuple[float, float]:
    """The drawn board's bar as a share of its width, and how far the bar's middle lies right
    of the playing area's middle (a share of the width), as the truth's corners show them
    (white's home at the bottom right: the outer half on the left)."""
    shape = frame.truth["board_shape"]
    width = shape["width_mm"]
    return shape["bar_mm"] / width, (shape["outer"][1] + shape["bar_mm"] / 2) / width - 0.5


class TestShapeFit:
    """The fits, from the true corners, on a board with a narrow bar and unlike halves."""

    SEED = 5003
    """Bar 46 mm, outer points 42.6 mm, home points 38.2 mm: the bar 3% of the width off the
    middle."""

    def test_the_bar_and_the_halves_are_fitted_where_they_are_drawn(self) -> None:
        frame = _opening(self.SEED)
        gradient, truth = at_working_size(frame)
        bar, lean = _drawn(frame)
        assert abs(lean) > 0.02, "the seed's halves must differ for this test to mean much"
        fitted = board.fit_shape(gradient, truth, board.MODELS[0]).shape
        assert fitted.bar == pytest.approx(bar, abs=0.005)
        assert fitted.lean == pytest.approx(lean, abs=0.005)
        drawn_length = g.POINT_LENGTH / g.PLAY_HEIGHT
        assert fitted.point_length == pytest.approx(drawn_length, abs=0.015)

    def test_the_canonical_shape_fits_worse(self) -> None:
        frame = _opening(self.SEED)
        gradient, truth = at_working_size(frame)
        fitted = board.fit_shape(gradient, truth, board.MODELS[0])
        assert board.triangle_score(gradient, truth, fitted) > 1.5 * board.triangle_score(
            gradient, truth, board.MODELS[0]
        )

    def test_ends_a_few_millimetres_off_are_found_along_the_rows(self) -> None:
        frame = _opening(self.SEED)
        gradient, truth = at_working_size(frame)
        # both ends 8 mm inside the playing area, the canonical shape
        to_image = board._homographies(truth[None])[0]
        inside = board._PLANE_RECT + np.array([[8.0, 0], [-8.0, 0], [-8.0, 0], [8.0, 0]])
        off = board._project(to_image, inside)
        model, corners = board.fit_along(gradient, off, board.MODELS[0])
        assert np.abs(corners - truth).max() < 2.0
        bar, lean = _drawn(frame)
        assert model.shape.bar == pytest.approx(bar, abs=0.006)
        assert model.shape.lean == pytest.approx(lean, abs=0.006)


@pytest.mark.parametrize(
    "seed",
    [
        5015,  # bar 39.2 mm, points 38.1 / 39.9 mm: refused with the two fixed shapes
        5017,  # bar 39.4 mm, points 41.3 / 40.8 mm: refused with them too
        5028,  # bar 29.9 mm: found 6 px off with them
    ],
)
def test_boards_of_other_proportions_are_found(seed: int) -> None:
    frame = _opening(seed)
    found = find_board(frame.image)
    assert corner_error(found.corners_px, truth_corners(frame)) < SIMULATOR_TOLERANCE_PX
    assert found.contrast >= board.MIN_CONTRAST


def test_a_board_of_other_proportions_is_calibrated_without_corners_and_read() -> None:
    seed = 5004  # bar 40.5 mm, points 38.1 / 39.4 mm: refused before the shape was fitted
    rng = np.random.default_rng(seed)
    profile = calibrate(_opening(seed).image)
    assert any("found automatically" in note for note in profile.notes)
    dice = (DieSpec(int(rng.integers(1, 7))), DieSpec(int(rng.integers(1, 7))))
    scene = random_scene(seed, Checkers.random(rng), dice=dice, on_roll="white", varied_shape=True)
    frame = render(scene)
    reading = read_frame(frame.image, profile, "white")
    sure = sure_points(reading)
    # with the true corners as many points read surely (19 of 24 when this was written)
    assert len(sure) >= 16
    assert all(reading.points[n] == frame.truth["points"][n] for n in sure)  # type: ignore[index]


def test_a_board_cut_by_the_frame_s_edge_is_still_refused() -> None:
    """Fitting the shape freely must not let part of a board pass for a whole one."""
    frame = _opening(5002)
    corners = np.array(frame.truth["board_corners_px"])
    xs = np.sort(corners[:, 0])
    # the frame cut through the board, 30% of its width from its left end
    cut = int((xs[0] + xs[1]) / 2 + 0.3 * (xs[2] - xs[0]))
    with pytest.raises(BoardNotFound, match="--corners"):
        find_board(np.ascontiguousarray(frame.image[:, cut:]))
