"""Calibration: one frame in, a :class:`~companion.vision.profile.Profile` out.

From a frame of the opening position everything is learned: the playing area (found, or given
as corners), the orientation (the opening's checkers sit on eight points whose places and
colours differ for each of the four ways a board can stand) and the colours (the lighter
checkers are white). From any other frame the caller names ``white_home`` and the colours are
learned from whatever checkers are present.

Pure: an image array in, a profile out; errors say what was seen and what to do.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.errors import CompanionError
from companion.vision import reference as ref
from companion.vision.board import find_board
from companion.vision.checkers import RegionReading
from companion.vision.dice import find_dice
from companion.vision.maps import to_lab
from companion.vision.markers import find_marker_corners
from companion.vision.plane import (
    CANONICAL_LAYOUT,
    WHITE_HOMES,
    Corners,
    Image,
    Layout,
    WhiteHome,
    homography,
    order_clockwise,
    to_image,
    view_homography,
    warp,
)
from companion.vision.profile import VIEW_SCALE, Colours, Lab, Profile
from companion.vision.proportions import measure_edge, measure_layout
from companion.vision.reader import could_rest_there

OPENING: dict[int, int] = {24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5}
"""The opening position in white's numbering (+ white, - black)."""
_FLIPS: dict[WhiteHome, tuple[bool, bool]] = {
    "bottom-right": (False, False),
    "top-left": (True, True),
    "bottom-left": (True, False),
    "top-right": (False, True),
}


class CalibrationError(CompanionError, ValueError):
    """The frame cannot be calibrated from: no board, not the opening, one colour only."""


def flip_point(number: int, white_home: WhiteHome) -> int:
    """The point at the place where the provisional (bottom-right) view shows ``number``."""
    flip_x, flip_y = _FLIPS[white_home]
    shape = g.point_shape(number)
    x = g.PLAY_WIDTH - shape.base_x if flip_x else shape.base_x
    top = shape.direction > 0
    if flip_y:
        top = not top
    for candidate in range(1, 25):
        other = g.point_shape(candidate)
        if abs(other.base_x - x) < 1.0 and (other.direction > 0) == top:
            return candidate
    raise AssertionError("every flip of a point is a point")


def _lightness(colour: Lab) -> float:
    return colour[0]


MIN_OPENING_CONTRAST = 1.3
"""The opening's eight points must show rims this many times stronger (geometric mean) than
the other sixteen."""
PLAIN_STACK = 1.5
"""Rims this many times the other places' median show a stack plainly."""
MIN_PLAIN_STACKS = 3
"""And at least this many of the eight must show their stack plainly: the mean is carried by
a few strong stacks where two of another position's fall on opening places (such a position
showed 2), while black checkers on dark points in dim light show weakly, but never all of
them (openings rendered in every look showed 4 or more)."""


def _orientation_from_opening(survey: ref.BoardSurvey) -> WhiteHome:
    """Which of the four setups shows the opening as the survey saw it.

    Each setup puts the opening's eight stacks on eight places of the provisional view; the
    right one has the strongest checker rims there, and lighter checkers where white's are.
    """
    logs = {n: math.log(max(v, 0.5)) for n, v in survey.rim_scores.items()}
    ranked = []
    for white_home in WHITE_HOMES:
        expected = {flip_point(n, white_home): count for n, count in OPENING.items()}
        inside = [logs[n] for n in expected]
        outside = [logs[n] for n in logs if n not in expected]
        contrast = math.exp(sum(inside) / len(inside) - sum(outside) / len(outside))
        whites = [_lightness(survey.checker_colours[n]) for n, c in expected.items() if c > 0]
        blacks = [_lightness(survey.checker_colours[n]) for n, c in expected.items() if c < 0]
        lighter = sum(whites) / len(whites) - sum(blacks) / len(blacks)
        # the lighter checkers where white's go, and enough of the opening's stacks plainly
        median = statistics.median(outside)
        plain = sum(1 for value in inside if value - median >= math.log(PLAIN_STACK))
        fits = lighter > 0 and plain >= MIN_PLAIN_STACKS
        ranked.append((contrast if fits else 0.0, white_home))
    contrast, best = max(ranked)
    if contrast < MIN_OPENING_CONTRAST:
        typical = statistics.median(logs.values())
        seen = sum(1 for value in logs.values() if value > typical + 1.0)
        raise CalibrationError(
            "this does not look like the opening position: no way of setting up the board puts "
            "the opening's 2, 5, 3 and 5 checkers of each colour where checkers are seen "
            f"(stacks show plainly on {seen} places; the opening has 8). Set up the opening "
            "and calibrate again, or name the orientation with --white-home (bottom-right, "
            "bottom-left, top-right or top-left) to calibrate from this position"
        )
    return best


def _as_lab(values: npt.NDArray[np.float64]) -> Lab:
    return (float(values[0]), float(values[1]), float(values[2]))


def _split_colours(survey: ref.BoardSurvey, opening: bool) -> tuple[Lab, Lab]:
    """The white and black checker colours.

    From the opening the colour of each occupied point is known; otherwise the occupied
    points fall into two groups of colour (two-means) and the lighter group is white.
    """
    if opening:
        whites = [survey.checker_colours[n] for n, c in OPENING.items() if c > 0]
        blacks = [survey.checker_colours[n] for n, c in OPENING.items() if c < 0]
        return _as_lab(np.median(whites, axis=0)), _as_lab(np.median(blacks, axis=0))
    colours = np.array([survey.checker_colours[n] for n in survey.occupied], dtype=np.float64)
    if len(colours) < 2:
        raise CalibrationError(
            "calibration needs checkers of both colours on the board; set up the opening "
            "position and calibrate again"
        )
    lightness = colours[:, 0]
    centres = np.array([colours[np.argmin(lightness)], colours[np.argmax(lightness)]])
    for _ in range(10):
        nearest = np.argmin(
            np.linalg.norm(colours[:, None, :] - centres[None, :, :], axis=2), axis=1
        )
        if nearest.min() == nearest.max():
            break
        centres = np.array([np.median(colours[nearest == k], axis=0) for k in (0, 1)])
    if nearest.min() == nearest.max() or np.linalg.norm(centres[0] - centres[1]) < 15.0:
        raise CalibrationError(
            "the checkers on the board all look alike; calibration needs both colours in view "
            "(set up the opening position)"
        )
    dark, light = sorted(centres, key=lambda c: float(c[0]))
    return _as_lab(light), _as_lab(dark)


def _dice_colours(image: Image, image_to_plane: npt.NDArray[np.float64]) -> tuple[Lab, ...]:
    """Body colours of the dice lying on the calibration frame (the opening roll), if any.

    Kept for people and tools reading the profile; the readers find dice by their pips and
    need no colour. Only the opening is used: its stacks are known, so spots between touching
    checkers are not taken for dice.
    """
    colours = []
    lab = to_lab(image)
    stacks = [RegionReading(OPENING.get(n, 0), 1.0) for n in range(1, 25)]
    for die in find_dice(image, image_to_plane):
        if not could_rest_there(die, stacks):
            continue
        x, y = die.reading.center_px
        # the face's middle third: mostly bare face, whatever the value
        plane_x, plane_y = die.centre_mm
        corner = to_image(image_to_plane, (plane_x + g.DIE_SIZE / 3, plane_y + g.DIE_SIZE / 3))
        half = max(2, round(max(abs(corner[0] - x), abs(corner[1] - y))))
        box = lab[
            max(round(y) - half, 0) : round(y) + half + 1,
            max(round(x) - half, 0) : round(x) + half + 1,
        ]
        if box.size:
            colours.append(_as_lab(np.median(box.reshape(-1, 3), axis=0)))
    return tuple(colours)


def calibrate(
    image: Image,
    corners: Sequence[tuple[float, float]] | None = None,
    white_home: WhiteHome | None = None,
    source: str = "",
) -> Profile:
    """Learns a profile from one frame (the opening, unless ``white_home`` is given).

    Raises :class:`CalibrationError` when the board cannot be found or the frame is not the
    opening position when one was expected, and
    :class:`~companion.vision.board.BoardNotFound` when no playing area is visible.
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise CalibrationError("calibration needs a colour image (3 channels)")
    notes = []
    marked = find_marker_corners(image) if corners is None else None
    if marked is not None:
        corner_tuple: Corners = marked
        notes.append("corners from the four ArUco markers")
    elif corners is None:
        found = find_board(image)
        corner_tuple = found.corners_px
        notes.append(f"board found automatically (score {found.score:.2f})")
    else:
        if len(corners) != 4:
            raise CalibrationError(f"--corners needs four x,y pairs, got {len(corners)}")
        corner_tuple = order_clockwise(corners)
        notes.append("corners given by the user")
    size = (image.shape[1], image.shape[0])
    # a strip of field between the frame and the points' bases moves every checker inward:
    # measured first (the same whichever way the board is turned), so that even the survey
    # that learns the orientation reads the stacks where they lie
    upright = homography(corner_tuple, "bottom-right")
    upright_board = to_lab(warp(image, upright, VIEW_SCALE))
    edge = measure_edge(upright_board, VIEW_SCALE)
    provisional = warp(image, view_homography(upright, size), VIEW_SCALE, Layout(edge=edge))
    seen = ref.survey(to_lab(provisional), VIEW_SCALE, frozenset())
    opening = white_home is None
    if white_home is None:
        white_home = _orientation_from_opening(seen)
        notes.append(f"orientation learned from the opening: white's home is {white_home}")
    else:
        notes.append(f"orientation given by the user: white's home is {white_home}")
    image_to_plane = homography(corner_tuple, white_home)
    board = (
        upright_board
        if white_home == "bottom-right"
        else to_lab(warp(image, image_to_plane, VIEW_SCALE))
    )
    layout = measure_layout(board, seen.field, VIEW_SCALE)
    notes.append(_layout_note(layout))
    if edge:
        notes.append(
            f"a strip of {edge:.0f} mm lies between the frame and the points' bases; the "
            "reader follows it"
        )
    layout = replace(layout or CANONICAL_LAYOUT, edge=edge)
    view = to_lab(warp(image, view_homography(image_to_plane, size), VIEW_SCALE, layout))
    final = ref.survey(view, VIEW_SCALE, frozenset(OPENING) if opening else None)
    white, black = _split_colours(final, opening)
    counts = OPENING if opening else None  # the final view is in white's numbering
    empty = ref.empty_board(view, final.occupied, final.point_colours, VIEW_SCALE, counts)
    empty = ref.paint_out_small_things(empty, final.field, VIEW_SCALE)
    bar_hidden = not opening and ref.checkers_on_bar(view, white, black, VIEW_SCALE)
    if bar_hidden:
        notes.append(
            "checkers lie on the bar: the bar will be read as unsure; calibrate on a frame "
            "with an empty bar to read it"
        )
    colours = Colours(
        white=white,
        black=black,
        field=final.field,
        point_a=final.point_colours[1],
        point_b=final.point_colours[2],
        dice=_dice_colours(image, image_to_plane) if opening else (),
    )
    height, width = image.shape[:2]
    return Profile(
        image_size=(width, height),
        corners_px=corner_tuple,
        white_home=white_home,
        colours=colours,
        source=source,
        notes=tuple(notes),
        reference=ref.encode_reference(empty),
        bar_hidden=bar_hidden,
        layout=layout,
    )


def _layout_note(layout: Layout | None) -> str:
    if layout is None:
        return "the points did not show plainly enough to measure the board: read as canonical"
    if layout.has_canonical_halves:
        return "the board's points lie where a standard board's do"
    outer, home = layout.point_widths
    return (
        f"this board's points measured {outer:.1f} mm wide in the outer half and "
        f"{home:.1f} mm in the home half, its bar {layout.bar_width:.0f} mm (a standard "
        f"board's: {g.POINT_WIDTH:.0f} and {g.BAR_WIDTH:.0f} mm); the reader follows them"
    )
