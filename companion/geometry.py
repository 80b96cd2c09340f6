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

from dataclasses import dataclass
from typing import Literal

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

    @property
    def direction(self) -> float:
        """+1 when the point grows downward from the top edge, -1 when upward from the bottom."""
        return 1.0 if self.base_y == 0.0 else -1.0

    def triangle(self) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
        half = POINT_WIDTH / 2
        return (
            (self.base_x - half, self.base_y),
            (self.base_x + half, self.base_y),
            (self.base_x, self.tip_y),
        )

    def region(self) -> Rect:
        """The rectangle a stack on this point may cover (base to the board's centre line)."""
        half = POINT_WIDTH / 2
        if self.direction > 0:
            return (self.base_x - half, 0.0, self.base_x + half, PLAY_HEIGHT / 2)
        return (self.base_x - half, PLAY_HEIGHT / 2, self.base_x + half, PLAY_HEIGHT)


def point_shape(number: int) -> PointShape:
    """The shape of white's point ``number`` (1-24) on the canonical plane."""
    if not 1 <= number <= 24:
        raise ValueError(f"point {number} does not exist: points are numbered 1-24")
    if number <= 6:
        x = PLAY_WIDTH - (number - 0.5) * POINT_WIDTH
    elif number <= 12:
        x = HALF_WIDTH - (number - 6 - 0.5) * POINT_WIDTH
    elif number <= 18:
        x = (number - 12 - 0.5) * POINT_WIDTH
    else:
        x = BAR_RIGHT + (number - 18 - 0.5) * POINT_WIDTH
    if number <= 12:
        return PointShape(number, x, PLAY_HEIGHT, PLAY_HEIGHT - POINT_LENGTH)
    return PointShape(number, x, 0.0, POINT_LENGTH)


def stack_centres(
    number: int, count: int, style: StackStyle = "line"
) -> list[tuple[float, float, int]]:
    """Centres ``(x, y, layer)`` of ``count`` checkers stacked on point ``number``.

    ``"line"`` keeps every checker on the table, continuing toward the centre line: six fit
    side by side; a longer stack overlaps like shingles so that it never crosses the middle of
    the board. ``"layers"`` puts checkers 6-10 on a second layer resting in the gaps of the
    first, and 11-15 on a third straight over the first.
    """
    shape = point_shape(number)
    pitch = CHECKER_PITCH
    if style == "line" and count > 6:
        pitch = (PLAY_HEIGHT / 2 - 2.0 - CHECKER_DIAMETER) / (count - 1)
    step = shape.direction * pitch
    first = shape.base_y + shape.direction * CHECKER_DIAMETER / 2
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
    return (BAR_LEFT, 0.0, BAR_RIGHT, PLAY_HEIGHT)


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
    if not (0.0 <= x <= PLAY_WIDTH and 0.0 <= y <= PLAY_HEIGHT):
        return "outside"
    if x < BAR_LEFT:
        return "outer"
    if x > BAR_RIGHT:
        return "home"
    return "bar"


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
