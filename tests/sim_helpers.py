"""Checks the simulator's tests share: what colour the painted board shows at a spot, and
whether each checker is drawn where its placement says."""

from __future__ import annotations

import numpy as np
import pytest

from companion import geometry as g
from companion.sim import Frame
from companion.sim import board as board_model
from companion.sim.styles import BoardStyle


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
