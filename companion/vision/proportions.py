"""Measuring where a real board's points lie, so that the reader samples each point's own axis.

Boards differ from the canonical one: the tournament boards in the real photos have a bar 30-37
mm wide instead of 50 and points 41-42 mm wide instead of 40, so the point beside the bar lies
7-11 mm from its canonical axis. A point's triangle shows on the empty board's colour as a
ridge, darkest or brightest on its axis, whatever the colours; a stack on it is centred there
too. Across the rows between the points' bases and tips, the colour distance from the field
therefore peaks on every point's axis. Six such axes, evenly spaced, make a half.

Measured on the board plane (height 0), not the plane view (which shows the tops of checkers
and so sees the board shifted by the camera's tilt).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.vision.maps import FloatImage, colour_distance
from companion.vision.plane import CANONICAL_LAYOUT, VIEW_LEFT, Layout, view_column, view_row
from companion.vision.profile import Lab

ROWS_MM = (40.0, 150.0)
"""Distance from the frame of the rows whose colour profile shows the points: past the
checkers' rims at the base, short of the tips (where a point is a few pixels wide)."""
PEAK_SHARE = 0.5
"""Share of a peak's height (over its window's lowest value) whose centroid is its axis."""
MOST_RESIDUAL_MM = 1.5
"""How far an inner axis may lie from the line through a half's inner axes."""
PITCH_RANGE = (0.9 * g.POINT_WIDTH, 1.15 * g.POINT_WIDTH)
"""Point widths (on the plane of the corners) a measured half may show."""
LEAST_RIDGE = 6.0
"""Colour distance by which the axes must stand above the gaps between the points."""
SNAP_MM = 2.5
"""A board whose every point's axis lies within this of the canonical one is read as the
canonical board. Standard simulated boards measure within 2.7 mm (39 of 40 within this); a
board 3-6 mm off, read as the canonical one, lent its points' empty look from siblings a few
millimetres off and read stacks one checker long by the strips along its frame and bar."""

EDGE_ROWS_MM = (24.0, 34.0)
"""Rows (mm from the frame) inside the points' bases on any board (edge strips are at most
20 mm): how far the points differ from the field there is the level the bases rise to."""
LEAST_EDGE = 3.0
"""An edge strip narrower than this is read as none (labelled or found corners are a pixel or
two off, and a frame's shadow lies along it)."""
MOST_EDGE = 25.0
"""Widest edge strip measured; a wider one is a board unlike any the reader knows."""
EDGE_PERCENTILE = 80
"""Percentile over the columns of a row that judges it: a fifth of the columns showing a
point's colour (bare triangles, dark checkers) make the row part of the points."""
HALVES_COLUMNS = ((20.0, g.BAR_LEFT - 20.0), (g.BAR_RIGHT + 20.0, g.PLAY_WIDTH - 20.0))
"""Columns (mm) over which the edge is measured: each half, clear of the frame and the bar
(whose own strips are the halves' ends, measured apart)."""

_CANONICAL_AXES = np.array([g.point_shape(number).base_x for number in range(13, 25)])
"""The canonical board's point axes left to right (the top row): the outer half's six, then
the home half's."""


def _profile(board_lab: FloatImage, field: Lab, scale: float) -> npt.NDArray[np.float64]:
    """Mean colour distance from the field of each column, over both rows of points."""
    distance = colour_distance(board_lab, field)
    near, far = ROWS_MM
    top = distance[view_row(near, scale) : view_row(far, scale)]
    bottom = distance[view_row(g.PLAY_HEIGHT - far, scale) : view_row(g.PLAY_HEIGHT - near, scale)]
    return np.asarray((top.mean(axis=0) + bottom.mean(axis=0)) / 2, dtype=np.float64)


def _axes(
    profile: npt.NDArray[np.float64], guesses: npt.NDArray[np.float64], scale: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each point's axis near its guess (the centroid of its peak's upper part), and how far
    the peak stands above its window's lowest value. (The outermost two axes are not fitted,
    :func:`_line`, but their ridges count toward the half's.)"""
    xs = (np.arange(len(profile)) + 0.5) / scale + VIEW_LEFT
    axes, ridges = [], []
    for guess in guesses:
        window = (xs > guess - g.POINT_WIDTH / 2) & (xs < guess + g.POINT_WIDTH / 2)
        values = profile[window] - profile[window].min()
        height = float(values.max()) if values.size else 0.0
        weights = np.clip(values - PEAK_SHARE * height, 0.0, None)
        total = float(weights.sum())
        axes.append(float((weights * xs[window]).sum() / total) if total > 0 else guess)
        ridges.append(height)
    return np.array(axes), np.array(ridges)


def _line(axes: npt.NDArray[np.float64]) -> tuple[float, float, bool]:
    """``(first axis, pitch, whether they lie on it)``: the line through a half's four inner
    axes, which lie on it when none is farther than :data:`MOST_RESIDUAL_MM`. The two
    outermost peaks are left out: a frame's wall and the bar, both unlike the field, lie in
    their windows and pull them (a black frame beside a red point pulls it by 17 mm)."""
    index = np.arange(1.0, 5.0)
    inner = axes[1:5]
    pitch, first = np.polyfit(index, inner, 1)
    residual = np.abs(inner - (first + pitch * index))
    return float(first), float(pitch), bool(np.all(residual <= MOST_RESIDUAL_MM))


def measure_layout(board_lab: FloatImage, field: Lab, scale: float) -> Layout | None:
    """This board's :class:`~companion.vision.plane.Layout` seen on the board plane, the
    canonical one when it lies within :data:`SNAP_MM`, or None when the points do not show
    plainly enough to measure (a felt board's faint points, an arm across the board)."""
    profile = _profile(board_lab, field, scale)
    halves = []
    for canonical in (_CANONICAL_AXES[:6], _CANONICAL_AXES[6:]):
        guesses = canonical
        for _ in range(3):  # each round centres the windows better on the peaks
            axes, ridges = _axes(profile, guesses, scale)
            first, pitch, lined_up = _line(axes)
            guesses = first + pitch * np.arange(6.0)
        if (
            not lined_up
            or not PITCH_RANGE[0] <= pitch <= PITCH_RANGE[1]
            or float(np.median(ridges)) < LEAST_RIDGE
        ):
            return None
        halves.append((guesses, pitch))
    (outer, outer_pitch), (home, home_pitch) = halves
    if np.max(np.abs(np.concatenate([outer, home]) - _CANONICAL_AXES)) < SNAP_MM:
        return CANONICAL_LAYOUT
    return Layout(
        outer=(float(outer[0] - outer_pitch / 2), float(outer[5] + outer_pitch / 2)),
        home=(float(home[0] - home_pitch / 2), float(home[5] + home_pitch / 2)),
    )


def measure_edge(board_lab: FloatImage, scale: float) -> float:
    """The strip of field (mm) between the frame's long sides and the points' bases, seen on
    the board plane of the playing area's corners (a board with canonical halves is fine).

    From the frame inward, each row is judged over the columns of both halves: the field's
    colour across the strip, the points' colours past their bases. The strip ends where the
    row comes within half of the level the bases rise to. Both sides must show a strip (a
    side whose every base holds a checker the colour of the field shows one where there is
    none); a wall's face or a checker's side seen over the strip from a tilted camera can
    only narrow it, so the wider side's counts. Taken from the open field between the points'
    tips, the field's colour needs no survey of the board.
    """
    middle = board_lab[
        view_row(g.PLAY_HEIGHT / 2 - 20.0, scale) : view_row(g.PLAY_HEIGHT / 2 + 20.0, scale)
    ]
    columns = np.concatenate(
        [np.arange(view_column(a, scale), view_column(b, scale)) for a, b in HALVES_COLUMNS]
    )
    field = np.median(middle[:, columns].reshape(-1, 3), axis=0)
    distance = colour_distance(
        board_lab[:, columns], (float(field[0]), float(field[1]), float(field[2]))
    )
    # a row of the strip is field across every column; one past the bases is a point's colour
    # over the bare triangles, though light checkers at some bases look like the field
    rows = np.percentile(distance, EDGE_PERCENTILE, axis=1)
    widths = []
    for sign, frame in ((1.0, 0.0), (-1.0, g.PLAY_HEIGHT)):
        inside = [rows[view_row(frame + sign * y, scale)] for y in np.arange(*EDGE_ROWS_MM)]
        level = float(np.median(inside))
        width, above = 0.0, level
        for y in np.arange(EDGE_ROWS_MM[0], -1.0, -1.0 / scale):
            value = float(rows[view_row(frame + sign * y, scale)])
            if value < level / 2:
                # where the rise to the bases crosses half their level, between this row and
                # the one before it (the view's rows show the plane at whole steps)
                width = float(y) + (level / 2 - value) / max(above - value, 1e-6) / scale
                break
            above = value
        widths.append(width)
    if min(widths) < LEAST_EDGE:
        return 0.0  # a strip along one side only is light checkers lying at every base
    width = max(widths)
    return 0.0 if width > MOST_EDGE else round(width, 1)
