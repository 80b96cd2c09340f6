"""A die's top, measured pip by pip, says whether it may lean (:mod:`companion.vision.lean`).

Grids are built as the module's docstring says a camera sees them: a flat top's square grid
turned and scaled, a leaning top's changed by its lean, each cell step ``e`` becoming
``e + (e.d)((cos t - 1) d + sin t w)``; the figures a user relies on are whether a flat die
seen at a slant is told from every lean, and that no lean is ever taken for a die that cannot
lean.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision import lean
from companion.vision.pips import Axes

STEP = 4.32
"""A standard die's pip step (mm)."""


def square(turn: float = 0.3, step: float = STEP, mirrored: bool = False) -> Axes:
    c, s = math.cos(turn), math.sin(turn)
    second = (s * step, -c * step) if mirrored else (-s * step, c * step)
    return ((c * step, s * step), second)


def leaning(tilt: float, heading: float, slope: tuple[float, float], turn: float = 0.3) -> Axes:
    """A top turned ``turn``, leaning ``tilt`` degrees toward ``heading``, as a camera of
    ``slope`` sees it on the plane at the top's height."""
    d = np.array([math.cos(heading), math.sin(heading)])
    t = math.radians(tilt)
    g = (math.cos(t) - 1.0) * d + math.sin(t) * np.asarray(slope)
    change = np.eye(2) + np.outer(g, d)
    first, second = (change @ np.array(axis) for axis in square(turn))
    return (
        (float(first[0]), float(first[1])),
        (float(second[0]), float(second[1])),
    )


class TestFlatMisfit:
    def test_a_square_grid_turned_scaled_or_mirrored_fits_exactly(self) -> None:
        for grid in (square(), square(1.2, 3.0), square(-0.4, mirrored=True)):
            assert lean.flat_misfit(grid) == pytest.approx(0.0, abs=1e-9)

    def test_a_squashed_top_misfits_by_its_squash(self) -> None:
        (ax, ay), (bx, by) = square(0.0)
        squashed = ((ax, ay), (bx * 0.9, by * 0.9))
        # the difference (0.1 / sqrt 2 of a step) over the square grid's scale (0.95 of one)
        assert lean.flat_misfit(squashed) == pytest.approx(0.1 / math.sqrt(2) / 0.95)

    @pytest.mark.parametrize("seed", range(5))
    def test_it_is_the_grid_s_squareness_by_another_name(self, seed: int) -> None:
        """Squashed, stretched or sheared, a grid's misfit from square is
        ``sqrt 2 (1 - r) / (1 + r)``, ``r`` the ratio of its two stretches: the squareness
        the dice reader judges a top by (:data:`companion.vision.dice.MEASURED_SQUARE_FACE`)."""
        rng = np.random.default_rng(seed)
        for _ in range(50):
            grid = square(rng.uniform(-3, 3), STEP) if rng.uniform() < 0.1 else None
            a, b = rng.normal(STEP, 0.8, 2), rng.normal(0.0, 0.8, 2)
            axes = grid or ((float(a[0]), float(b[0])), (float(b[1]), float(a[1])))
            stretches = np.linalg.svd(np.array(axes).T, compute_uv=False)
            r = stretches[-1] / stretches[0]
            expected = math.sqrt(2.0) * (1 - r) / (1 + r)
            assert lean.flat_misfit(axes) == pytest.approx(expected, abs=1e-9)

    def test_no_grid_at_all_is_nothing_square(self) -> None:
        assert lean.flat_misfit(((0.0, 0.0), (0.0, 0.0))) == math.inf
        assert not lean.cannot_lean(((0.0, 0.0), (0.0, 0.0)), (0.6, 0.0))


class TestLeanMisfit:
    @pytest.mark.parametrize("tilt", [10.0, 25.0, 44.0])
    @pytest.mark.parametrize("heading", [0.3, 1.1, 2.5, 4.0])
    @pytest.mark.parametrize("slope", [(0.0, 0.0), (0.45, -0.2), (-0.1, 0.6)])
    def test_every_lean_fits_a_lean(
        self, tilt: float, heading: float, slope: tuple[float, float]
    ) -> None:
        grid = leaning(tilt, heading, slope)
        assert lean.lean_misfit(grid, slope) < 0.01
        assert not lean.cannot_lean(grid, slope)

    @pytest.mark.parametrize("heading", [0.0, 0.38, 1.6, 3.0, 4.4])
    def test_a_lean_seen_with_a_camera_model_a_little_off_is_still_a_lean(
        self, heading: float
    ) -> None:
        # the camera recovered from the board may sit a tenth lower than it is: the slope it
        # gives is a ninth too steep; the shallowest lean fits one tried at the hedged slope
        # as closely as at the true one (0.007 off without the hedge)
        slope = (0.5, 0.2)
        grid = leaning(10.0, heading, slope)
        believed = (slope[0] / lean.SLOPE_HEDGE, slope[1] / lean.SLOPE_HEDGE)
        assert lean.lean_misfit(grid, believed) < 0.002

    def test_a_camera_model_without_a_slope_rules_out_no_lean(self) -> None:
        assert not lean.cannot_lean(square(), (math.nan, 0.2))


class TestCannotLean:
    def test_a_flat_top_seen_at_a_slant_cannot_lean(self) -> None:
        assert lean.cannot_lean(square(), (0.6, 0.1))
        assert lean.cannot_lean(square(mirrored=True), (-0.4, -0.5))

    def test_a_lean_away_from_the_camera_may_look_square(self) -> None:
        # foreshortened by cos t, stretched by sin t times the slope: at a slope of
        # tan(t / 2) the two cancel, 0.36 for a 40-degree lean
        slope = (math.tan(math.radians(20.0)), 0.0)
        assert lean.flat_misfit(leaning(40.0, 0.0, slope, turn=0.0)) < 0.01
        assert not lean.cannot_lean(square(), slope)

    def test_straight_down_a_flat_top_may_hide_a_shallow_lean(self) -> None:
        # a 10-degree lean seen straight down is square within 1.5%: nothing can be ruled out
        assert not lean.cannot_lean(square(), (0.0, 0.0))
        assert not lean.cannot_lean(square(), (0.05, 0.05))

    def test_a_top_far_from_square_is_not_called_flat(self) -> None:
        (ax, ay), (bx, by) = square(0.0)
        assert not lean.cannot_lean(((ax, ay), (bx * 0.93, by * 0.93)), (0.6, 0.0))
