"""Checks the simulator's tests share: what colour the painted board shows at a spot, and
whether each checker is drawn where its placement says."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from companion import geometry as g
from companion.sim import Checkers, Frame
from companion.sim import board as board_model
from companion.sim.styles import BoardStyle
from companion.vision import board
from companion.vision.plane import Corners, order_clockwise
from companion.vision.reading import Reading


def nearest_colour(texture: board_model.Image, style: BoardStyle, x: float, y: float) -> str:
    """Which of ``style``'s paints the board ``texture`` shows around ``(x, y)`` (mm on the
    board's plane): ``"a"`` or ``"b"`` (the points' two colours) or ``"field"``."""
    colours = {
        "a": np.array(style.point_a, np.float64),
        "b": np.array(style.point_b, np.float64),
        "field": np.array(style.field, np.float64),
    }
    u = round((x - board_model.OBJECT_LEFT) * board_model.TEXTURE_PX_PER_MM)
    v = round((y - board_model.OBJECT_TOP) * board_model.TEXTURE_PX_PER_MM)
    pixel = texture[v - 1 : v + 2, u - 1 : u + 2].astype(np.float64).reshape(-1, 3).mean(axis=0)
    return min(colours, key=lambda name: float(np.linalg.norm(pixel - colours[name])))


def assert_checkers_drawn_at(frame: Frame, empty: Frame, width: float) -> None:
    """Every checker of ``frame`` (seen straight from above, on a board ``width`` mm wide)
    changes the pixels of a disc of its size around its own spot, compared with ``empty``
    (the same scene without checkers)."""
    changed = np.abs(frame.image.astype(int) - empty.image.astype(int)).sum(axis=2) > 60
    # px per mm at the board, straight overhead; the corners are the playing area's
    corners = np.array(frame.truth["board_corners_px"])
    scale = (corners[1, 0] - corners[0, 0]) / width
    assert scale == pytest.approx((corners[3, 1] - corners[0, 1]) / g.PLAY_HEIGHT, rel=0.01)
    for checker in frame.checkers:
        u, v = frame.camera.project(np.array([[checker.x, checker.y, checker.base + 7.0]]))[0]
        radius = round(checker.radius * scale)
        box = changed[
            round(v) - radius - 3 : round(v) + radius + 4,
            round(u) - radius - 3 : round(u) + radius + 4,
        ]
        _, cols = np.nonzero(box)
        assert len(cols) > 0.6 * np.pi * radius**2, (checker.place, checker.point)
        centre = cols.mean() + round(u) - radius - 3
        assert abs(centre - u) / scale < 1.5, (checker.place, checker.point)


EMPTY = Checkers((0,) * 24, {"white": 0, "black": 0}, {"white": 0, "black": 0})
"""A board with no checkers at all: scenes that show only the board, dice, cube or a hand."""


SIMULATOR_TOLERANCE_PX = 10.0
"""How far (pixels) a found corner may lie from the truth's on 1280x720 simulator frames: the
board finder benchmark's "found"."""


def corner_error(found: Corners, truth: Any) -> float:
    """The largest distance between a found corner and the true one, in pixels."""
    return float(np.max(np.linalg.norm(np.array(found) - np.array(truth, dtype=float), axis=1)))


def truth_corners(frame: Frame) -> Corners:
    """The playing area's true corners in ``frame``, clockwise from the top-left as the board
    finder reports them."""
    return order_clockwise(frame.truth["board_corners_px"])  # type: ignore[arg-type]


def found_or_refused(frame: Frame) -> None:
    """The board finder on ``frame``: the whole playing area within tolerance, or
    ``BoardNotFound`` (the user is asked for corners); never a wrong board."""
    try:
        found = board.find_board(frame.image)
    except board.BoardNotFound:
        return
    assert corner_error(found.corners_px, truth_corners(frame)) < SIMULATOR_TOLERANCE_PX


def on_frame(frame: Frame, plane: Any) -> npt.NDArray[np.float64]:
    """Points of the playing area's plane (canonical millimetres, as the truth's corners span
    it) in ``frame``'s pixels: a guess drawn from the true board."""
    to_image = board._homographies(np.array(frame.truth["board_corners_px"], dtype=float)[None])
    return board._project(to_image[0], np.array(plane, dtype=float))


def at_working_size(frame: Frame) -> tuple[board.Gradient, npt.NDArray[np.float64]]:
    """The frame's edges at the board finder's working size, and the truth's corners there (in
    the plane's order), so that its fits can be checked from the true corners."""
    factor = board.WORK_WIDTH / max(frame.image.shape[:2])
    small = np.asarray(
        cv2.resize(frame.image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA),
        np.uint8,
    )
    corners = np.array(frame.truth["board_corners_px"], dtype=np.float64) * factor
    return board._edge_strength(small), corners


def sure_points(reading: Reading) -> list[int]:
    """The points (0-23: white's numbering less one) the reader is sure of (confidence at
    least 0.5), whose counts a test can hold to the truth."""
    return [n for n in range(24) if reading.confidence[f"point {n + 1}"] >= 0.5]
