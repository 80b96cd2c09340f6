"""A board's proportions: how wide its bar and the points of each half are.

Real boards are not proportioned like the canonical board of :mod:`companion.geometry` (points
40 mm wide, a bar of 50 mm): tournament boards have a bar of 30-37 mm and points of 41-42 mm,
and the two halves are not always alike. The vision code measures each board's proportions at
calibration (``companion.vision.proportions``); to test that on rendered frames, the simulator
draws boards of any proportions with :class:`BoardShape`.

A board's plane is the canonical one with its halves moved: ``x`` runs from the frame at the
outer half's first point (0) to the frame past the home half's last point (:attr:`width`),
``y`` is unchanged (the points are as long and the board as deep as ever). Everything placed
on the board (points, stacks, the bar's checkers, the dice's halves, the trays beside the
playing area) follows the shape. The canonical shape gives the very numbers of
:mod:`companion.geometry`, so a canonical scene draws exactly as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from companion import geometry as g
from companion.errors import CompanionError

POINT_WIDTHS = (37.0, 50.0)
"""Point widths (mm) a board may have: a checker (36 mm) must fit on its point."""
BAR_WIDTHS = (20.0, 80.0)
"""Bar widths (mm) a board may have: the hinge needs room, and a bar is not a third half."""
VARIED_BAR = (28.0, 50.0)
"""Bar widths :func:`random_shape` draws: the real boards' 30-37 mm and a little beyond."""
VARIED_POINTS = (38.0, 43.0)
"""Point widths :func:`random_shape` draws for each half."""


class ImpossibleShape(CompanionError, ValueError):
    """A board no one could build or play on: points narrower than a checker, no bar."""


@dataclass(frozen=True, slots=True)
class ShapedPoint:
    """One triangular point of a shaped board: its base's middle, its tip, its width."""

    number: int
    base_x: float
    base_y: float
    tip_y: float
    width: float

    @property
    def direction(self) -> float:
        """+1 when the point grows downward from the top edge, -1 when upward from the bottom."""
        return 1.0 if self.base_y == 0.0 else -1.0

    def triangle(self) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
        half = self.width / 2
        return (
            (self.base_x - half, self.base_y),
            (self.base_x + half, self.base_y),
            (self.base_x, self.tip_y),
        )


@dataclass(frozen=True, slots=True)
class BoardShape:
    """How wide a board's bar and the points of each half are, in mm.

    The *outer* half holds points 7-18, the *home* half points 1-6 and 19-24 (both home
    boards), as :mod:`companion.geometry` names them.
    """

    bar_width: float = g.BAR_WIDTH
    outer_point_width: float = g.POINT_WIDTH
    home_point_width: float = g.POINT_WIDTH

    def __post_init__(self) -> None:
        problems = []
        low, high = POINT_WIDTHS
        for name, width in (
            ("outer", self.outer_point_width),
            ("home", self.home_point_width),
        ):
            if not low <= width <= high:
                problems.append(
                    f"the {name} half's points are {width:g} mm wide: a point is "
                    f"{low:g}-{high:g} mm wide (a checker is {g.CHECKER_DIAMETER:g} mm across)"
                )
        low, high = BAR_WIDTHS
        if not low <= self.bar_width <= high:
            problems.append(
                f"the bar is {self.bar_width:g} mm wide: a bar is {low:g}-{high:g} mm wide"
            )
        if problems:
            raise ImpossibleShape("; ".join(problems))

    # -- the halves -----------------------------------------------------------------------

    @property
    def bar_left(self) -> float:
        return 6 * self.outer_point_width

    @property
    def bar_right(self) -> float:
        return self.bar_left + self.bar_width

    @property
    def width(self) -> float:
        """The playing area's width: both halves and the bar, frame to frame."""
        return self.bar_right + 6 * self.home_point_width

    @property
    def outer(self) -> tuple[float, float]:
        """The outer half's ends: at the frame, at the bar (as vision's ``Layout`` has them)."""
        return (0.0, self.bar_left)

    @property
    def home(self) -> tuple[float, float]:
        """The home half's ends: at the bar, at the frame."""
        return (self.bar_right, self.width)

    @property
    def is_canonical(self) -> bool:
        return self == CANONICAL_SHAPE

    def on_corners_plane(self) -> dict[str, list[float]]:
        """The halves' ends on the plane the playing area's corners map to (the canonical
        plane, :data:`companion.geometry.PLAY_WIDTH` wide): where calibration should measure
        them (``companion.vision.plane.Layout``)."""
        scale = g.PLAY_WIDTH / self.width
        return {
            "outer": [round(x * scale, 3) for x in self.outer],
            "home": [round(x * scale, 3) for x in self.home],
        }

    def to_json(self) -> dict[str, object]:
        return {
            "bar_mm": self.bar_width,
            "outer_point_mm": self.outer_point_width,
            "home_point_mm": self.home_point_width,
            "width_mm": self.width,
            "outer": list(self.outer),
            "home": list(self.home),
            "on_corners_plane": self.on_corners_plane(),
        }

    # -- what lies where (the shaped forms of companion.geometry's functions) --------------

    def point(self, number: int) -> ShapedPoint:
        """White's point ``number`` (1-24) on this board."""
        if not 1 <= number <= 24:
            raise ValueError(f"point {number} does not exist: points are numbered 1-24")
        if number <= 6:
            width = self.home_point_width
            x = self.width - (number - 0.5) * width
        elif number <= 12:
            width = self.outer_point_width
            x = self.bar_left - (number - 6 - 0.5) * width
        elif number <= 18:
            width = self.outer_point_width
            x = (number - 12 - 0.5) * width
        else:
            width = self.home_point_width
            x = self.bar_right + (number - 18 - 0.5) * width
        if number <= 12:
            return ShapedPoint(number, x, g.PLAY_HEIGHT, g.PLAY_HEIGHT - g.POINT_LENGTH, width)
        return ShapedPoint(number, x, 0.0, g.POINT_LENGTH, width)

    def stack_centres(
        self, number: int, count: int, style: g.StackStyle = "line"
    ) -> list[tuple[float, float, int]]:
        """``geometry.stack_centres`` on this board: the stack on the point's own axis."""
        axis = self.point(number).base_x
        return [(axis, y, layer) for _, y, layer in g.stack_centres(number, count, style)]

    def bar_centres(
        self, colour: Literal["white", "black"], count: int
    ) -> list[tuple[float, float, int]]:
        """``geometry.bar_centres`` on this board: centred on the bar however narrow it is (a
        checker wider than the bar overhangs it, as on real boards)."""
        x = self.bar_left + self.bar_width / 2
        return [(x, y, layer) for _, y, layer in g.bar_centres(colour, count)]

    def bar_rect(self) -> g.Rect:
        return (self.bar_left, 0.0, self.bar_right, g.PLAY_HEIGHT)

    def tray_rect(self, colour: Literal["white", "black"]) -> g.Rect:
        """The borne-off tray of each colour, beside the playing area as on every board."""
        shift = self.width - g.PLAY_WIDTH
        x0, y0, x1, y1 = g.tray_rect(colour)
        return (x0 + shift, y0, x1 + shift, y1)

    def tray_slots(self, colour: Literal["white", "black"], count: int) -> list[g.Rect]:
        shift = self.width - g.PLAY_WIDTH
        return [(x0 + shift, y0, x1 + shift, y1) for x0, y0, x1, y1 in g.tray_slots(colour, count)]

    def half_of(self, x: float, y: float) -> g.Half:
        """Which part of this board a spot belongs to (``geometry.half_of`` on this board)."""
        if not (0.0 <= x <= self.width and 0.0 <= y <= g.PLAY_HEIGHT):
            return "outside"
        if x < self.bar_left:
            return "outer"
        if x > self.bar_right:
            return "home"
        return "bar"


CANONICAL_SHAPE = BoardShape()


def random_shape(rng: np.random.Generator) -> BoardShape:
    """A board as real ones come: bar 28-50 mm, each half's points 38-43 mm (rounded to
    tenths of a millimetre, as a maker's drawing would give them)."""
    bar = round(float(rng.uniform(*VARIED_BAR)), 1)
    outer = round(float(rng.uniform(*VARIED_POINTS)), 1)
    home = round(float(rng.uniform(*VARIED_POINTS)), 1)
    return BoardShape(bar, outer, home)
