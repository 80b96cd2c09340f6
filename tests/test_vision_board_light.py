"""The board finder under the simulator's photo looks: a desk lamp's pool of light fading
toward the board's ends with hard shadows, a sheen on dark boards' walls, a smooth outline
against a table of planks or woven cloth fading away from the board, checkers' lit edges
(``random_scene(..., photo=True)``; off by default).

Boards found under them are held within tolerance; the frames the finder still gets wrong are
strict expected failures, each with its cause, so that a fix shows as an unexpected pass.
Development seeds only. The two mechanisms that hold the finder under a lamp are checked on
synthetic boards too: rows settled where the points end (a wall's top or its shadow's edge is
not the row), and a strip in shade taken for the field.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from companion import geometry as g
from companion.sim import random_scene, render
from companion.vision import board
from companion.vision.board import find_board
from tests.sim_helpers import SIMULATOR_TOLERANCE_PX, corner_error, found_or_refused, truth_corners
from tests.test_vision_board import OPENING


def _lit(seed: int, **scene: Any) -> Any:
    """A rendered opening with the photo looks on."""
    return render(random_scene(seed, OPENING, photo=True, **scene))


class TestFoundUnderALamp:
    @pytest.mark.parametrize(
        ("seed", "scene"),
        [
            (5003, {"tilt": 0.0, "rotation": 0.0, "style": "tournament-red"}),
            (5103, {}),  # green-felt under a shaded lamp
            (5113, {}),  # tournament-cream under a shaded lamp
            (5119, {}),  # black-red under a shaded lamp
            (5021, {"tilt": 10.0, "rotation": 90.0, "style": "black-red"}),
            (5031, {"tilt": 30.0, "rotation": -60.0, "style": "tournament-red"}),  # dim
            (5051, {"tilt": 12.0, "rotation": -3.0, "style": "beige-brown"}),
            # refused while the table round the board was one even grain: the second look
            # proved the board one way only
            (5057, {"tilt": 22.0, "rotation": 60.0, "style": "green-felt"}),
            (5004, {"varied_shape": True}),  # bar 40.5 mm, points 38.1 / 39.4 mm
            # a row on the near wall's shadow edge across the points (was 11.6 px off)
            (5027, {"tilt": 25.0, "rotation": 180.0, "style": "tournament-cream"}),
            # a row on the far wall's lit top edge (was 11.2 px off)
            (5043, {"tilt": 20.0, "rotation": -5.0, "style": "olive-felt"}),
            # strips of field in the walls' shadows (was refused)
            (5043, {"style": "olive-felt", "margins": "style"}),
        ],
    )
    def test_the_playing_area_is_found_within_tolerance(
        self, seed: int, scene: dict[str, Any]
    ) -> None:
        frame = _lit(seed, **scene)
        found = find_board(frame.image)
        assert corner_error(found.corners_px, truth_corners(frame)) < SIMULATOR_TOLERANCE_PX
        assert found.contrast >= board.MIN_CONTRAST

    @pytest.mark.parametrize(
        ("seed", "scene"),
        [
            (5011, {"tilt": 20.0, "rotation": 30.0, "style": "green-felt"}),
            (5053, {"tilt": 18.0, "rotation": -120.0, "style": "tournament-red"}),
            (6103, {"style": "green-felt"}),
            pytest.param(
                5057,
                {"style": "green-felt"},
                marks=pytest.mark.xfail(
                    strict=True,
                    reason="a board one point in at one end, a freely fitted shape, proves "
                    "itself in a dim frame; the colour past that end (a point and checkers) "
                    "lies within the frame check's absolute Lab distance of the strips' "
                    "(58 px off)",
                ),
            ),
            # 65 px off while the trays' walls were drawn black on this dark board (one end
            # found a point inside the field's); found within 2.6 px since they are lit
            (5014, {"varied_shape": True}),
        ],
    )
    def test_a_board_with_strips_is_found_or_refused_never_wrong(
        self, seed: int, scene: dict[str, Any]
    ) -> None:
        frame = _lit(seed, margins="style", **scene)
        found_or_refused(frame)


FRAME_BGR = (40.0, 75.0, 120.0)
"""A brown wooden frame."""
POINTS_BGR = ((50.0, 60.0, 170.0), (210.0, 225.0, 230.0))
"""Red and cream points."""
INSET = 20
"""Where (pixels, one per millimetre) the playing area starts on the synthetic board."""
FAR_ROW_IN = 12.0
"""How far in (pixels) a tilted camera's view draws the far row's ends."""


RIM_BGR = (90.0, 90.0, 90.0)
"""A grey rim along the frame's wall."""


def _board_seen(
    tilted: bool,
    frame: tuple[float, ...] = FRAME_BGR,
    points: tuple[tuple[float, ...], ...] = POINTS_BGR,
    rim_at: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A synthetic board, and the homography from its plane (millimetres) to the view: a
    ``frame`` round two rows of alternating ``points`` (drawn as their bases' full width), the
    top row's first 6 mm in a wall's shadow 0.55 as bright, and a rim 3 mm wide ``rim_at``
    millimetres beyond the top row if given; seen from overhead at one pixel per millimetre,
    or ``tilted``, the top row the far one (shorter)."""
    height, width = int(g.PLAY_HEIGHT) + 2 * INSET, int(g.PLAY_WIDTH) + 2 * INSET
    plane = np.empty((height, width, 3), np.float64)
    plane[:] = frame
    if rim_at is not None:
        plane[INSET - rim_at - 3 : INSET - rim_at, INSET : INSET + int(g.PLAY_WIDTH)] = RIM_BGR
    middles, widths = board._point_middles(board.Model(board.SHAPES[0], False))
    length = int(board.SHAPES[0].point_length * g.PLAY_HEIGHT)
    for index, (middle, point_width) in enumerate(zip(middles, widths, strict=True)):
        x0, x1 = round(INSET + middle - point_width / 2), round(INSET + middle + point_width / 2)
        for y0 in (INSET, INSET + int(g.PLAY_HEIGHT) - length):
            plane[y0 : y0 + length, x0:x1] = points[index % 2]
    plane[INSET : INSET + 6, INSET : INSET + int(g.PLAY_WIDTH)] *= 0.55
    area = board._PLANE_RECT + INSET
    view = area.copy()
    if tilted:
        view[0, 0] += FAR_ROW_IN
        view[1, 0] -= FAR_ROW_IN
    to_view = cv2.getPerspectiveTransform(area.astype(np.float32), view.astype(np.float32))
    image = cv2.warpPerspective(np.clip(plane, 0, 255).astype(np.uint8), to_view, (width, height))
    to_view = to_view @ np.array([[1.0, 0.0, INSET], [0.0, 1.0, INSET], [0.0, 0.0, 1.0]])
    return np.asarray(image), to_view


def _with_top_row_at(to_view: np.ndarray, y: float) -> np.ndarray:
    """The playing area's corners (plane order) in the view, its top row ``y`` millimetres
    from the true one (negative: out)."""
    rect = board._PLANE_RECT.copy()
    rect[:2, 1] = y
    return board._project(to_view, rect)


class TestRowsSettled:
    @pytest.mark.parametrize(
        ("found_at", "tilted", "why"),
        [
            (6.0, False, "the shadow's edge on the points"),
            (6.0, True, "the shadow's edge on the points, seen tilted"),
            (-6.0, True, "the far wall's top, past the bases, seen tilted"),
            (0.0, True, "the bases themselves"),
        ],
    )
    def test_a_row_moves_to_where_its_points_end(
        self, found_at: float, tilted: bool, why: str
    ) -> None:
        """A row moved out stops a little short of the bases (inside costs the reader
        nothing, beyond costs readings); one moved in goes to them."""
        image, to_view = _board_seen(tilted)
        settled = board.settle_rows(image, _with_top_row_at(to_view, found_at), board.SHAPES[0])
        rows_mm = board._project(np.linalg.inv(to_view), settled)[:, 1]
        expected = board.OUT_MARGIN if found_at > 0.0 else 0.0
        assert rows_mm[:2] == pytest.approx([expected, expected], abs=0.5), why
        assert rows_mm[2:] == pytest.approx([g.PLAY_HEIGHT, g.PLAY_HEIGHT], abs=0.5), why

    def test_only_the_far_row_moves_in(self) -> None:
        """Seen from overhead no wall's inner face shows: a row beyond its points' ends stays
        (a real board's points may end short of the row)."""
        image, to_view = _board_seen(tilted=False)
        found = _with_top_row_at(to_view, -6.0)
        assert board.settle_rows(image, found, board.SHAPES[0]) == pytest.approx(found)

    def test_a_frame_coloured_like_one_of_the_points_does_not_draw_a_row_out(self) -> None:
        """As on the demo's board (black and red points, a black frame): past the bases the
        points of the frame's colour seem to go on, half the row's points, up to a rim further
        out; the other colour stops at the bases, and so does the row."""
        red, green = POINTS_BGR[0], (60.0, 140.0, 90.0)  # as bright as each other
        image, to_view = _board_seen(tilted=False, frame=red, points=(red, green), rim_at=5)
        found = _with_top_row_at(to_view, 0.0)
        assert board.settle_rows(image, found, board.SHAPES[0]) == pytest.approx(found)

    def test_a_row_on_one_colour_is_left_alone(self) -> None:
        image = np.full((600, 700, 3), FRAME_BGR, np.uint8)
        found = _with_top_row_at(np.eye(3), 6.0) + INSET
        assert board.settle_rows(image, found, board.SHAPES[0]) == pytest.approx(found)


class TestFieldInShade:
    FIELD_BGR = np.array([60.0, 140.0, 90.0])
    FIELD = board._Field.of(FIELD_BGR)
    """A green felt field."""

    def test_the_field_lit_or_in_a_wall_s_shadow_shows_the_field(self) -> None:
        for light in (1.0, 0.9, 0.6, 0.5):
            assert board._shows_field(light * self.FIELD_BGR, self.FIELD), light

    def test_another_colour_as_dark_or_the_field_in_deep_shade_does_not(self) -> None:
        assert not board._shows_field(np.array([30.0, 50.0, 85.0]), self.FIELD)  # brown frame
        assert not board._shows_field(0.2 * self.FIELD_BGR, self.FIELD)

    def test_a_grey_rim_round_a_near_white_field_does_not(self) -> None:
        """A near-white field darkened alike is any grey: a grey rim drawn round the playing
        area (or the blur into a black frame) would be taken for a strip in shade."""
        white = np.array([222.0, 236.0, 240.0])  # the tournament boards' field
        field = board._Field.of(white)
        assert board._shows_field(white, field)
        assert not board._shows_field(np.array([150.0, 152.0, 154.0]), field)
