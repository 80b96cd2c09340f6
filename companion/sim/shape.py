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

from dataclasses import dataclass

import numpy as np

from companion.geometry import (
    BAR_WIDTHS,
    CANONICAL_SHAPE,
    NO_MARGINS,
    PLAY_HEIGHT,
    PLAY_WIDTH,
    POINT_LENGTH,
    POINT_WIDTHS,
    BoardShape,
    ImpossibleShape,
    Margins,
    PointShape,
    StackStyle,
    stack_centres,
)

__all__ = [
    "BAR_WIDTHS",
    "CANONICAL_FIELD",
    "CANONICAL_SHAPE",
    "NO_MARGINS",
    "POINT_WIDTHS",
    "VARIED_BAR",
    "VARIED_POINTS",
    "BoardShape",
    "Field",
    "ImpossibleShape",
    "Margins",
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


# -- the field's margins ------------------------------------------------------------------------
#
# Real boards show a strip of field colour between the frame and the points: beside the
# outermost point of each half, beside the bar, and between the frame's long sides and the
# points' bases (a few millimetres to 15 mm). The playing area (whose corners the truth gives)
# is still the whole field inside the frame; only the points and the stacks on them move in.

MIN_DRAWN_POINT = 37.0
"""Narrowest a point is drawn when margins squeeze it: a checker (36 mm) must still fit."""
MAX_EDGE = 20.0
"""Widest strip drawn between the frame's long side and the points' bases."""


@dataclass(frozen=True, slots=True)
class Field:
    """Where the points lie on a board of ``shape`` whose maker left ``asked`` margins.

    Margins that would leave a point narrower than :data:`MIN_DRAWN_POINT` are scaled down
    (both sides together) and the edge strip is kept under :data:`MAX_EDGE`: :attr:`margins`
    are the ones drawn, which the truth reports. Without margins every answer is the shape's.
    """

    shape: BoardShape = CANONICAL_SHAPE
    asked: Margins = NO_MARGINS

    @property
    def margins(self) -> Margins:
        sides = self.asked.frame + self.asked.bar
        scale = 1.0
        for width in (self.shape.outer_point_width, self.shape.home_point_width):
            room = max(0.0, 6 * (width - MIN_DRAWN_POINT))
            if sides > room:
                scale = min(scale, room / sides)
        return Margins(
            self.asked.frame * scale, self.asked.bar * scale, min(self.asked.edge, MAX_EDGE)
        )

    def points_span(self, half: str) -> tuple[float, float]:
        """``x`` from the first point's base to the last's in the ``"outer"`` or ``"home"`` half."""
        m = self.margins
        if half == "outer":
            return (m.frame, self.shape.bar_left - m.bar)
        return (self.shape.bar_right + m.bar, self.shape.width - m.frame)

    def point(self, number: int) -> PointShape:
        """White's point ``number`` (1-24) as drawn: the shape's own without margins (not a
        copy of its arithmetic, which would drift from it by rounding)."""
        if not 1 <= number <= 24:
            raise ValueError(f"point {number} does not exist: points are numbered 1-24")
        margins = self.margins
        if margins == NO_MARGINS:
            return self.shape.point(number)
        edge = margins.edge
        if 7 <= number <= 18:
            left, right = self.points_span("outer")
        else:
            left, right = self.points_span("home")
        width = (right - left) / 6
        if number <= 6:
            x = right - (number - 0.5) * width
        elif number <= 12:
            x = right - (number - 6 - 0.5) * width
        elif number <= 18:
            x = left + (number - 12 - 0.5) * width
        else:
            x = left + (number - 18 - 0.5) * width
        if number <= 12:
            base = PLAY_HEIGHT - edge
            return PointShape(number, x, base, base - POINT_LENGTH, width)
        return PointShape(number, x, edge, edge + POINT_LENGTH, width)

    def stack_centres(
        self, number: int, count: int, style: StackStyle = "line"
    ) -> list[tuple[float, float, int]]:
        """Centres ``(x, y, layer)`` of ``count`` checkers on point ``number``, from its base
        toward the centre, as ``companion.geometry.stack_centres`` stacks them past the edge
        strip (a line too long for the room it leaves overlaps like shingles)."""
        axis = self.point(number).base_x
        edge = self.margins.edge
        return [(axis, y, layer) for _, y, layer in stack_centres(number, count, style, edge)]

    def to_json(self) -> dict[str, object]:
        """The margins drawn and where the points lie, on the board's plane (mm, as
        ``board_shape``) and on the plane the playing area's corners map to."""
        scale = PLAY_WIDTH / self.shape.width
        spans = {half: self.points_span(half) for half in ("outer", "home")}
        edge = self.margins.edge
        return {
            **self.margins.to_json(),
            "points_x": {half: [round(x, 3) for x in span] for half, span in spans.items()},
            "bases_y": [round(edge, 3), round(PLAY_HEIGHT - edge, 3)],
            "on_corners_plane": {
                half: [round(x * scale, 3) for x in span] for half, span in spans.items()
            },
        }


CANONICAL_FIELD = Field()
"""The canonical board with its points touching the frame: every scene's field before margins."""
