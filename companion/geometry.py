"""The canonical board plane: where every point, the bar, the trays and the halves lie, in mm.

Both the simulator (which draws boards) and the vision code (which reads them after warping a
camera frame onto this plane) use these numbers, so a checker drawn on the 13-point is looked
for on the 13-point.

Conventions of the plane:

* Seen from above with white seated at the bottom edge; ``x`` grows to the right, ``y`` grows
  toward white (down). The origin is the top-left corner of the *playing area*: both halves and
  the bar, without the frame and the trays.
* White's home board (points 1-6) is the bottom-right quadrant; white's points 7-12 run
  bottom-right to bottom-left, 13-18 top-left to top-right, 19-24 (black's home) top-right.
  Points are numbered as white numbers them (``DESIGN.md``).
* The right half (``x > BAR_RIGHT``) holds both home boards: the *home* half. The left half is
  the *outer* half.
* A real board may be set up the other way round (home boards on the left as white sees
  them); the calibration profile then mirrors the image onto this plane and records
  ``mirrored = True``, which changes which half is each player's right-hand side.

Checker stacks start at the edge (the wide end of the point) and grow toward the centre; from
the sixth checker on, a stack either continues in line (``"line"``) or starts a second layer
offset by half a checker over the first (``"layers"``), as players do on real boards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from companion.errors import CompanionError

POINT_WIDTH = 40.0
"""Width of a point's base; six make a home or outer board."""
HALF_WIDTH = 6 * POINT_WIDTH
BAR_WIDTH = 50.0
PLAY_WIDTH = 2 * HALF_WIDTH + BAR_WIDTH
PLAY_HEIGHT = 440.0
POINT_LENGTH = 180.0
CHECKER_DIAMETER = 36.0
CHECKER_PITCH = POINT_LENGTH / 5
"""Centre-to-centre step along a stack: five checkers exactly fill a point."""
FRAME_WIDTH = 25.0
TRAY_WIDTH = 50.0
TRAY_GAP = FRAME_WIDTH
"""Frame between the playing area's right edge and the trays."""
BAR_LEFT = HALF_WIDTH
BAR_RIGHT = HALF_WIDTH + BAR_WIDTH
DIE_SIZE = 16.0
"""Edge of a standard 5/8-inch die, in mm."""

Half = Literal["home", "outer", "bar", "outside"]
StackStyle = Literal["line", "layers"]
Rect = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` with ``x0 < x1`` and ``y0 < y1``."""


@dataclass(frozen=True, slots=True)
class PointShape:
    """One triangular point: the middle of its base edge, its tip, and which way it grows."""

    number: int
    base_x: float
    base_y: float
    tip_y: float
    width: float = POINT_WIDTH
    """The base's width: the canonical board's, or the half's on a board of other proportions."""

    @property
    def direction(self) -> float:
        """+1 when the point grows downward from the top edge, -1 when upward from the bottom
        (told by its tip, so that a point drawn in from the edge by a strip of field grows the
        same way as on the canonical plane)."""
        return 1.0 if self.tip_y > self.base_y else -1.0

    def triangle(self) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
        half = self.width / 2
        return (
            (self.base_x - half, self.base_y),
            (self.base_x + half, self.base_y),
            (self.base_x, self.tip_y),
        )

    def region(self) -> Rect:
        """The rectangle a stack on this point may cover (base to the board's centre line)."""
        half = self.width / 2
        if self.direction > 0:
            return (self.base_x - half, 0.0, self.base_x + half, PLAY_HEIGHT / 2)
        return (self.base_x - half, PLAY_HEIGHT / 2, self.base_x + half, PLAY_HEIGHT)


def point_shape(number: int) -> PointShape:
    """The shape of white's point ``number`` (1-24) on the canonical plane."""
    return CANONICAL_SHAPE.point(number)


def stack_centres(
    number: int, count: int, style: StackStyle = "line", edge: float = 0.0
) -> list[tuple[float, float, int]]:
    """Centres ``(x, y, layer)`` of ``count`` checkers stacked on point ``number``.

    ``"line"`` keeps every checker on the table, continuing toward the centre line: six fit
    side by side; a longer stack overlaps like shingles so that it never crosses the middle of
    the board. ``"layers"`` puts checkers 6-10 on a second layer resting in the gaps of the
    first, and 11-15 on a third straight over the first.

    ``edge`` (mm) is a strip of field between the frame's long side and the points' bases, as
    some boards have (the simulator draws them): the stack starts at the point's base past
    the strip, and a line that no longer fits the room left overlaps sooner.
    """
    shape = point_shape(number)
    pitch = CHECKER_PITCH
    room = PLAY_HEIGHT / 2 - edge - 2.0 - CHECKER_DIAMETER
    if style == "line" and count > 1 and (count - 1) * pitch > room:
        pitch = room / (count - 1)  # without a strip: from the seventh checker on
    step = shape.direction * pitch
    first = shape.base_y + shape.direction * edge + shape.direction * CHECKER_DIAMETER / 2
    centres: list[tuple[float, float, int]] = []
    for index in range(count):
        if style == "line":
            centres.append((shape.base_x, first + index * step, 0))
        else:
            layer, slot = divmod(index, 5)
            offset = layer * 0.5 if layer % 2 else 0.0
            centres.append((shape.base_x, first + (slot + offset) * step, layer))
    return centres


def bar_centres(colour: Literal["white", "black"], count: int) -> list[tuple[float, float, int]]:
    """Where hit checkers wait on the bar: white's in the lower half, black's in the upper.

    Each colour stacks from the board's centre line toward its own edge, so the two colours
    never mix; the vision code counts them by colour anywhere on the bar.
    """
    x = BAR_LEFT + BAR_WIDTH / 2
    direction = 1.0 if colour == "white" else -1.0
    start = PLAY_HEIGHT / 2 + direction * (CHECKER_DIAMETER / 2 + 4.0)
    return [(x, start + direction * index * CHECKER_PITCH, 0) for index in range(count)]


def bar_rect() -> Rect:
    return CANONICAL_SHAPE.bar_rect()


def tray_rect(colour: Literal["white", "black"]) -> Rect:
    """The borne-off tray of each colour, right of the playing area: white's near white."""
    x0 = PLAY_WIDTH + TRAY_GAP
    x1 = x0 + TRAY_WIDTH
    if colour == "white":
        return (x0, PLAY_HEIGHT / 2 + 5.0, x1, PLAY_HEIGHT)
    return (x0, 0.0, x1, PLAY_HEIGHT / 2 - 5.0)


TRAY_SLOT = (PLAY_HEIGHT / 2 - 5.0) / 15
"""Borne-off checkers stand on edge in the tray; each takes this much of its length."""


def tray_slots(colour: Literal["white", "black"], count: int) -> list[Rect]:
    """Rectangles of borne-off checkers standing on edge, filling the tray from its far end."""
    x0, y0, x1, y1 = tray_rect(colour)
    slots = []
    for index in range(count):
        if colour == "white":
            top = y1 - (index + 1) * TRAY_SLOT
        else:
            top = y0 + index * TRAY_SLOT
        slots.append((x0 + 4.0, top + 0.5, x1 - 4.0, top + TRAY_SLOT - 0.5))
    return slots


def half_of(x: float, y: float) -> Half:
    """Which part of the board a spot on the plane belongs to (for judging where dice rest)."""
    return CANONICAL_SHAPE.half_of(x, y)


Stretch = tuple[float, float, float, float]
"""``(x0, x1, slope, offset)``: canonical ``x`` in ``[x0, x1)`` lies at ``slope * x + offset``
on a board of other proportions."""


def stretches(outer: tuple[float, float], home: tuple[float, float]) -> tuple[Stretch, ...]:
    """The stretches of the canonical plane, left to right, for a board whose halves end at
    ``outer`` and ``home`` (at the frame and at the bar, mm on its own plane).

    Real boards have their own proportions (a narrower bar, wider points, halves unlike each
    other). Each half and the bar are stretched on their own onto the canonical ones, so a
    point's triangle lands exactly on the canonical point; beyond the playing area (the frame,
    the trays) only the nearest end moves. The vision code reads a measured board through
    these and the simulator paints boards of any proportions with them, so both agree to the
    bit.
    """
    (a, b), (c, d) = outer, home
    outer_slope = (b - a) / HALF_WIDTH
    bar_slope = (c - b) / BAR_WIDTH
    home_slope = (d - c) / HALF_WIDTH
    return (
        (-math.inf, 0.0, 1.0, a),
        (0.0, BAR_LEFT, outer_slope, a),
        (BAR_LEFT, BAR_RIGHT, bar_slope, b - bar_slope * BAR_LEFT),
        (BAR_RIGHT, PLAY_WIDTH, home_slope, c - home_slope * BAR_RIGHT),
        (PLAY_WIDTH, math.inf, 1.0, d - PLAY_WIDTH),
    )


def canonical_xs(
    xs: npt.NDArray[np.float64], outer: tuple[float, float], home: tuple[float, float]
) -> npt.NDArray[np.float64]:
    """Where each ``x`` of a board whose halves end at ``outer`` and ``home`` lies on this
    canonical plane (``y`` is the same on both): :func:`stretches` undone."""
    return undo_stretches(xs, stretches(outer, home))


def undo_stretches(
    values: npt.NDArray[np.float64], parts: tuple[Stretch, ...]
) -> npt.NDArray[np.float64]:
    """Where each value of a board's plane lies on the canonical one, for ``parts`` that cover
    a line left to right (or top to bottom) with slopes above zero, as :func:`stretches`."""
    # where each stretch begins on this board, the first reaching minus infinity
    starts = np.array([-math.inf] + [slope * x0 + offset for x0, _, slope, offset in parts[1:]])
    which = np.searchsorted(starts, values, side="right") - 1
    slopes = np.array([slope for _, _, slope, _ in parts])
    offsets = np.array([offset for _, _, _, offset in parts])
    return np.asarray((values - offsets[which]) / slopes[which], dtype=np.float64)


def right_hand_half(roller: Literal["white", "black"], mirrored: bool = False) -> Half:
    """The half the roller must roll into: the right-hand side as seen from the roller's seat.

    White sits at the bottom edge of the plane, so its right is the plane's right half (the
    home half) unless the real board is mirrored; black sits opposite, so its right is the other
    half.
    """
    white_right: Half = "outer" if mirrored else "home"
    if roller == "white":
        return white_right
    return "home" if white_right == "outer" else "outer"


# -- boards of other proportions ------------------------------------------------------------
#
# Real boards are not proportioned like the canonical one (points 40 mm wide, a bar of 50 mm):
# tournament boards have a bar of 30-37 mm and points of 41-42 mm, and the two halves are not
# always alike. A board's plane is the canonical one with its halves moved: ``x`` runs from the
# frame at the outer half's first point (0) to the frame past the home half's last point
# (``BoardShape.width``); ``y`` is unchanged (the points are as long and the board as deep as
# ever). The canonical shape gives the very numbers above: they are its answers.

POINT_WIDTHS = (37.0, 50.0)
"""Point widths (mm) a board may have: a checker (36 mm) must fit on its point."""
BAR_WIDTHS = (20.0, 80.0)
"""Bar widths (mm) a board may have: the hinge needs room, and a bar is not a third half."""


class ImpossibleShape(CompanionError, ValueError):
    """A board no one could build or play on: points narrower than a checker, no bar."""


@dataclass(frozen=True, slots=True)
class BoardShape:
    """How wide a board's bar and the points of each half are, in mm.

    The *outer* half holds points 7-18, the *home* half points 1-6 and 19-24 (both home
    boards). The simulator draws boards of any proportions with it (``companion.sim.shape``
    draws them as real ones come); the vision code measures them at calibration
    (``companion.vision.proportions``).
    """

    bar_width: float = BAR_WIDTH
    outer_point_width: float = POINT_WIDTH
    home_point_width: float = POINT_WIDTH

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
                    f"{low:g}-{high:g} mm wide (a checker is {CHECKER_DIAMETER:g} mm across)"
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

    def middle(self, half: Literal["outer", "bar", "home"]) -> float:
        """The ``x`` halfway across a half or the bar (where a hand reaches into it, where
        the hinge runs)."""
        ends = {"outer": self.outer, "bar": (self.bar_left, self.bar_right), "home": self.home}
        a, b = ends[half]
        return (a + b) / 2

    @property
    def is_canonical(self) -> bool:
        return self == CANONICAL_SHAPE

    def on_corners_plane(self) -> dict[str, list[float]]:
        """The halves' ends on the plane the playing area's corners map to (the canonical
        plane, :data:`PLAY_WIDTH` wide): where calibration should measure
        them (``companion.vision.plane.Layout``)."""
        scale = PLAY_WIDTH / self.width
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

    # -- what lies where (the module's functions give the canonical shape's answers) -------

    def point(self, number: int) -> PointShape:
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
            return PointShape(number, x, PLAY_HEIGHT, PLAY_HEIGHT - POINT_LENGTH, width)
        return PointShape(number, x, 0.0, POINT_LENGTH, width)

    def stack_centres(
        self, number: int, count: int, style: StackStyle = "line"
    ) -> list[tuple[float, float, int]]:
        """:func:`stack_centres` on this board: the stack on the point's own axis."""
        axis = self.point(number).base_x
        return [(axis, y, layer) for _, y, layer in stack_centres(number, count, style)]

    def bar_centres(
        self, colour: Literal["white", "black"], count: int
    ) -> list[tuple[float, float, int]]:
        """:func:`bar_centres` on this board: centred on the bar however narrow it is (a
        checker wider than the bar overhangs it, as on real boards)."""
        x = self.bar_left + self.bar_width / 2
        return [(x, y, layer) for _, y, layer in bar_centres(colour, count)]

    def bar_rect(self) -> Rect:
        return (self.bar_left, 0.0, self.bar_right, PLAY_HEIGHT)

    def tray_rect(self, colour: Literal["white", "black"]) -> Rect:
        """The borne-off tray of each colour, beside the playing area as on every board."""
        shift = self.width - PLAY_WIDTH
        x0, y0, x1, y1 = tray_rect(colour)
        return (x0 + shift, y0, x1 + shift, y1)

    def tray_slots(self, colour: Literal["white", "black"], count: int) -> list[Rect]:
        shift = self.width - PLAY_WIDTH
        return [(x0 + shift, y0, x1 + shift, y1) for x0, y0, x1, y1 in tray_slots(colour, count)]

    def half_of(self, x: float, y: float) -> Half:
        """Which part of this board a spot belongs to (for judging where dice rest)."""
        if not (0.0 <= x <= self.width and 0.0 <= y <= PLAY_HEIGHT):
            return "outside"
        if x < self.bar_left:
            return "outer"
        if x > self.bar_right:
            return "home"
        return "bar"


CANONICAL_SHAPE = BoardShape()


@dataclass(frozen=True, slots=True)
class Margins:
    """Strips of field (mm) between the frame (or the bar) and the points, as a board's maker
    left them: the playing area is the whole field inside the frame, strips included. The
    simulator draws them (``companion.sim.shape``); the board finder looks for them."""

    frame: float = 0.0
    """Between the frame's short side and the outermost point of each half."""
    bar: float = 0.0
    """Between the bar and the points beside it."""
    edge: float = 0.0
    """Between the frame's long sides and the points' bases."""

    def __post_init__(self) -> None:
        if min(self.frame, self.bar, self.edge) < 0:
            raise ImpossibleShape(f"a board's margins cannot be negative: {self}")

    def to_json(self) -> dict[str, float]:
        return {
            "frame": round(self.frame, 2),
            "bar": round(self.bar, 2),
            "edge": round(self.edge, 2),
        }


NO_MARGINS = Margins()
