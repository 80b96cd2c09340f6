"""Boards of other proportions in the simulator: how wide their bar and each half's points are.

Real boards are not proportioned like the canonical board of :mod:`companion.geometry` (points
40 mm wide, a bar of 50 mm): tournament boards have a bar of 30-37 mm and points of 41-42 mm,
and the two halves are not always alike. The vision code measures each board's proportions at
calibration (``companion.vision.proportions``); to test that on rendered frames, the simulator
draws boards of any proportions with :class:`companion.geometry.BoardShape` (re-exported
here).

Everything placed on the board (points, stacks, the bar's checkers, the dice's halves, the
trays beside the playing area) follows the shape. The canonical shape gives the very numbers
of :mod:`companion.geometry`, so a canonical scene draws exactly as it always did.
"""

from __future__ import annotations

import numpy as np

from companion.geometry import (
    BAR_WIDTHS,
    CANONICAL_SHAPE,
    POINT_WIDTHS,
    BoardShape,
    ImpossibleShape,
)

__all__ = [
    "BAR_WIDTHS",
    "CANONICAL_SHAPE",
    "POINT_WIDTHS",
    "VARIED_BAR",
    "VARIED_POINTS",
    "BoardShape",
    "ImpossibleShape",
    "random_shape",
]

VARIED_BAR = (28.0, 50.0)
"""Bar widths :func:`random_shape` draws: the real boards' 30-37 mm and a little beyond."""
VARIED_POINTS = (38.0, 43.0)
"""Point widths :func:`random_shape` draws for each half."""


def random_shape(rng: np.random.Generator) -> BoardShape:
    """A board as real ones come: bar 28-50 mm, each half's points 38-43 mm (rounded to
    tenths of a millimetre, as a maker's drawing would give them)."""
    bar = round(float(rng.uniform(*VARIED_BAR)), 1)
    outer = round(float(rng.uniform(*VARIED_POINTS)), 1)
    home = round(float(rng.uniform(*VARIED_POINTS)), 1)
    return BoardShape(bar, outer, home)
