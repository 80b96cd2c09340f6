"""A die lying where a stack ends hides whether the stack goes on under it.

Axis profiles are drawn from the counting model itself (three checkers in a line), with a die
hiding the stretch where a fourth would lie or a stretch inside the stack.
"""

from __future__ import annotations

import numpy as np

from companion.vision.checkers import (
    AXIS_LENGTH,
    HIDDEN_END_CONFIDENCE,
    _count_round_dice,
    _expected_occupancy,
    _expected_seams,
)


def profiles(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Occupancy and seams of ``count`` checkers in a line on all 24 points."""
    occupancy = np.tile(_expected_occupancy(count, "line"), (24, 1))
    seams = np.tile(_expected_seams(count, "line"), (24, 1))
    return occupancy, seams


def hidden_at(start: float, end: float) -> np.ndarray:
    """A die hiding the stretch ``start``-``end`` mm from the base of point 1 only."""
    hidden = np.zeros((24, AXIS_LENGTH), bool)
    hidden[0, int(start) : int(end)] = True
    return hidden


def test_a_die_over_the_end_of_a_stack_leaves_the_count_unsure() -> None:
    """The die covers the last checker's far rim and the board beyond it."""
    occupancy, seams = profiles(3)
    counts, _filled = _count_round_dice(occupancy, hidden_at(96.0, 126.0), seams, None)
    count, confidence, alternatives = counts[0]
    assert confidence <= HIDDEN_END_CONFIDENCE
    assert {count, *alternatives} >= {3, 4}  # both readings of the hidden stretch are kept
    assert counts[1][0] == 3 and counts[1][1] > HIDDEN_END_CONFIDENCE  # other points untouched


def test_a_die_on_top_of_the_stack_changes_nothing() -> None:
    """A die over the middle of a stack hides checker either way: the count stands."""
    occupancy, seams = profiles(3)
    counts, _filled = _count_round_dice(occupancy, hidden_at(40.0, 68.0), seams, None)
    assert counts[0][0] == 3 and counts[0][1] > HIDDEN_END_CONFIDENCE
