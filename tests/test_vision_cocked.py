"""What counts as evidence that a die is tilted: its top squashed, or a side's pips showing
farther out than a flat die's side could show them, but no spot beyond where any tilted die's
side pip can lie (a neighbouring checker's rim, the board's pattern)."""

from __future__ import annotations

import math

from companion import geometry as g
from companion.vision import dice

SQUARE = 1.0
NO_SIDE_SHOWS = [0.0, 0.0, 0.0, 0.0]


class TestTiltEvidence:
    def test_a_square_top_with_nothing_beside_it_is_flat(self) -> None:
        assert dice.tilt_evidence(SQUARE, [], NO_SIDE_SHOWS) < 0

    def test_a_squashed_top_is_cocked_by_itself(self) -> None:
        leaning_30 = math.cos(math.radians(30))
        assert dice.tilt_evidence(leaning_30, [], NO_SIDE_SHOWS) > dice.SIDE_MARGIN

    def test_a_side_pip_where_a_flat_die_shows_no_side_says_cocked(self) -> None:
        middle_pip_at_35 = 0.5 * g.DIE_SIZE * math.sin(math.radians(35))
        assert dice.tilt_evidence(SQUARE, [(2, middle_pip_at_35)], NO_SIDE_SHOWS) > 0

    def test_a_side_pip_within_the_side_a_flat_die_shows_is_its_own(self) -> None:
        camera_sees_side_2 = [0.0, 0.0, 6.0, 0.0]
        assert dice.tilt_evidence(SQUARE, [(2, 4.0)], camera_sees_side_2) < 0

    def test_the_farthest_pip_of_a_45_degree_die_still_counts(self) -> None:
        farthest = 0.77 * g.DIE_SIZE * math.sin(math.radians(45))
        assert dice.tilt_evidence(SQUARE, [(0, farthest)], NO_SIDE_SHOWS) > dice.SIDE_MARGIN

    def test_a_spot_beyond_any_tilted_die_s_side_is_no_evidence(self) -> None:
        too_far = dice.FARTHEST_SIDE_PIP + 1.0
        assert dice.tilt_evidence(SQUARE, [(1, too_far)], NO_SIDE_SHOWS) < 0

    def test_the_reach_is_counted_from_the_side_a_flat_die_shows(self) -> None:
        camera_sees_side_1 = [0.0, 5.0, 0.0, 0.0]
        beyond_flat_side = 5.0 + dice.FARTHEST_SIDE_PIP - 1.0
        assert dice.tilt_evidence(SQUARE, [(1, beyond_flat_side)], camera_sees_side_1) > 0
