"""Camouflage: a checker on a point of its own colour shows only by its rim.

An empty point of a checker's colour is doubted (a checker could hide there) unless this
frame shows that checkers of that colour show their rims where colour cannot show them.
"""

from __future__ import annotations

import numpy as np

from companion.vision.checkers import AXIS_LENGTH, RegionReading, rims_showing


def evidence(
    stacks: dict[int, tuple[int, float, bool]],
) -> tuple[list[RegionReading], np.ndarray, np.ndarray]:
    """Readings, rim profiles and camouflage profiles (white's, black's) for stacks given as
    point: (signed count, rim evidence along the stack, whether the point has the checkers'
    own colour; when not, it has the other checkers' colour)."""
    readings = [RegionReading(0, 1.0) for _ in range(24)]
    rings = np.zeros((24, AXIS_LENGTH))
    camouflage = np.zeros((2, 24, AXIS_LENGTH))
    for point, (count, rim, own_colour) in stacks.items():
        readings[point - 1] = RegionReading(count, 1.0)
        rings[point - 1] = rim
        own = 0 if count > 0 else 1
        camouflage[own if own_colour else 1 - own, point - 1] = 1.0
    return readings, rings, camouflage


def test_rims_plain_on_every_stack_of_a_colour_on_its_own_colour_count() -> None:
    readings, rings, camouflage = evidence({6: (-3, 0.95, True), 24: (-2, 0.7, True)})
    assert rims_showing(readings, rings, camouflage) == (False, True)


def test_one_stack_without_a_plain_rim_leaves_the_doubt() -> None:
    readings, rings, camouflage = evidence(
        {6: (-3, 0.95, True), 24: (-2, 0.3, True), 13: (-5, 0.9, True)}
    )
    assert rims_showing(readings, rings, camouflage) == (False, False)


def test_one_stack_is_no_proof() -> None:
    readings, rings, camouflage = evidence({6: (-3, 0.95, True), 8: (2, 0.9, True)})
    assert rims_showing(readings, rings, camouflage) == (False, False)


def test_an_outline_against_another_colour_is_no_rim() -> None:
    """White checkers on dark points, where black checkers would blend in, show their
    outline, not a rim of their own: a white checker on a white point could still hide."""
    readings, rings, camouflage = evidence({8: (2, 1.0, False), 16: (2, 1.0, False)})
    assert rims_showing(readings, rings, camouflage) == (False, False)
