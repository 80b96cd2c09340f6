"""Following a board or camera nudged since calibration, frame by frame.

Players knock the table, slide the board to make room for the cup, or touch the camera. The
profile's homography then misses the board by a few millimetres, and every triangle's edge
reads as something lying on it. Each frame's plane view is therefore aligned with the empty
board learned at calibration, as a rigid motion in the board's plane (a turn and a shift),
by maximising their correlation (OpenCV's ECC) on small, blurred lightness images: checkers,
dice and hands differ from the empty board, but the board's own lines dominate.

Conventions: motions are 3x3 matrices on the canonical plane in millimetres, taking where a
feature of the board lay at calibration to where the frame's profile homography now sees it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from companion import geometry as g
from companion.vision.plane import Matrix, view_matrix

FloatImage = npt.NDArray[np.float32]

SMALL = 0.25
"""Scale of the images the motion is measured on (of the 1 px/mm plane view)."""
LEAST_MOTION_MM = 0.75
"""Motions that move no part of the playing area further than this are left alone (noise)."""
MOST_MOTION_MM = 25.0
"""Motions beyond this are no nudge: the board was moved, and must be calibrated again."""
LEAST_CORRELATION = 0.5
"""Below this correlation the alignment is not trusted (a hand or a cup over much of it)."""
LEAST_GAIN = 0.02
"""Gain in correlation over leaving the frame as it is that a motion must bring."""
ITERATIONS = 40


def small_lightness(lab: FloatImage, scale: float) -> FloatImage:
    """The lightness a motion is measured on: blurred (a pixel's noise and a checker's
    detail do not steer it) and reduced to :data:`SMALL` of 1 px/mm."""
    lightness = np.ascontiguousarray(lab[..., 0], np.float32)
    blurred = cv2.GaussianBlur(lightness, (0, 0), 1.5 * scale)
    factor = SMALL / scale
    small = cv2.resize(blurred, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return np.asarray(small, dtype=np.float32)


def board_motion(reference_small: FloatImage, view_lab: FloatImage, scale: float) -> Matrix | None:
    """The board's motion since calibration (plane millimetres), or None when there is none to
    follow: too small to matter, or not measurable with trust."""
    current = small_lightness(view_lab, scale)
    start = np.eye(3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ITERATIONS, 1e-4)
    try:
        # no mask: OpenCV then weighs every pixel alike itself (a mask of ones, made in C++;
        # the same fit as one passed in, without a pass to binarise it)
        correlation, found = cv2.findTransformECC(  # type: ignore[call-overload]
            reference_small, current, start, cv2.MOTION_HOMOGRAPHY, criteria, None, 1
        )
    except cv2.error:
        return None  # no convergence: nothing to follow with trust
    if correlation < LEAST_CORRELATION:
        return None
    # checkers, dice and hands differ from the empty board and pull the fit a little wherever
    # they lie; a real nudge improves the match plainly, a spurious fit hardly at all
    if correlation - float(cv2.computeECC(reference_small, current)) < LEAST_GAIN:
        return None
    motion = _to_plane(np.asarray(found, dtype=np.float64))
    if largest_shift(motion) < LEAST_MOTION_MM:
        return None
    return motion


_TO_SMALL = view_matrix(np.eye(3), SMALL)
"""Plane millimetres to pixels of the small view the motion is measured on."""
_FROM_SMALL = np.linalg.inv(_TO_SMALL)
_CORNERS = np.array(
    [[0.0, 0.0, 1.0], [g.PLAY_WIDTH, 0.0, 1.0], [g.PLAY_WIDTH, g.PLAY_HEIGHT, 1.0],
     [0.0, g.PLAY_HEIGHT, 1.0]]
)  # fmt: skip
"""The playing area's corners (homogeneous plane millimetres)."""


def _to_plane(warp_small: npt.NDArray[np.float64]) -> Matrix:
    """An ECC warp (3x3) on the small view, as a motion on the plane in millimetres."""
    motion: Matrix = _FROM_SMALL @ warp_small @ _TO_SMALL
    return motion


def largest_shift(motion: Matrix) -> float:
    """How far (mm) the motion moves the furthest corner of the playing area."""
    moved = _CORNERS @ motion.T
    return float(np.max(np.linalg.norm(moved[:, :2] / moved[:, 2:] - _CORNERS[:, :2], axis=1)))


def turn_degrees(motion: Matrix) -> float:
    """The motion's turn, in degrees."""
    return math.degrees(math.atan2(motion[1, 0], motion[0, 0]))
