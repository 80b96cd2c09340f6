"""A real board's proportions: measured at calibration, followed by the plane view.

Boards are drawn here on the plane of their corners (1 px per mm) with their points where a
given layout puts them, so the truth of every end is known to the millimetre.
"""

from __future__ import annotations

import json
from typing import Any

import cv2
import numpy as np
import pytest

from companion import geometry as g
from companion.vision.calibrate import calibrate
from companion.vision.maps import to_lab
from companion.vision.plane import (
    CANONICAL_LAYOUT,
    VIEW_LEFT,
    VIEW_TOP,
    Layout,
    homography,
    view_size,
    warp,
)
from companion.vision.profile import Profile, ProfileError
from companion.vision.proportions import measure_layout
from tests.conftest import PROJECT, shared_path

FIELD_BGR = (200, 225, 235)
FIELD_LAB = tuple(float(v) for v in to_lab(np.array([[FIELD_BGR]], np.uint8))[0, 0])
POINT_BGR = ((40, 40, 180), (40, 40, 40))


def draw_board(layout: Layout, checkers_on: tuple[int, ...] = ()) -> np.ndarray:
    """A board seen straight from above on the plane view's pixels (1 px per mm): the field,
    twelve triangles per side where ``layout`` puts them, and a checker at the base of each
    point index in ``checkers_on`` (0-11 from the left, top row), light and dark in turn."""
    width, height = view_size(1.0)
    image = np.full((height, width, 3), 90, np.uint8)  # the frame
    for start, end in (layout.outer, layout.home):
        x0, x1 = round(start - VIEW_LEFT), round(end - VIEW_LEFT)
        cv2.rectangle(
            image, (x0, round(-VIEW_TOP)), (x1, round(g.PLAY_HEIGHT - VIEW_TOP)), FIELD_BGR, -1
        )
    index = 0
    for start, end in (layout.outer, layout.home):
        pitch = (end - start) / 6
        for k in range(6):
            base = start + (k + 0.5) * pitch - VIEW_LEFT
            for edge, tip in (
                (0.0, g.POINT_LENGTH),
                (g.PLAY_HEIGHT, g.PLAY_HEIGHT - g.POINT_LENGTH),
            ):
                triangle = np.array(
                    [
                        (base - pitch / 2, edge - VIEW_TOP),
                        (base + pitch / 2, edge - VIEW_TOP),
                        (base, tip - VIEW_TOP),
                    ]
                )
                colour = POINT_BGR[(k + (edge > 0)) % 2]
                cv2.fillPoly(
                    image, [np.round(triangle * 16).astype(np.int32)], colour, cv2.LINE_AA, 4
                )
            if index in checkers_on:
                light = checkers_on.index(index) % 2 == 0
                colour = (245, 245, 245) if light else (30, 70, 120)
                cv2.circle(image, (round(base), round(18 - VIEW_TOP)), 18, colour, -1)
            index += 1
    return image


def identity_homography() -> np.ndarray:
    """Image pixels of :func:`draw_board` to plane millimetres."""
    return np.array([[1.0, 0, VIEW_LEFT], [0, 1.0, VIEW_TOP], [0, 0, 1.0]])


NARROW_BAR = Layout(outer=(1.5, 249.0), home=(282.0, 531.5))
"""A tournament board like the real photos' one: points 41.25 mm wide, a bar 33 mm wide."""


class TestMeasuring:
    def test_a_narrow_bar_and_wide_points_are_measured_to_a_millimetre(self) -> None:
        board = to_lab(draw_board(NARROW_BAR, checkers_on=(0, 5, 7)))
        layout = measure_layout(board, FIELD_LAB, 1.0)
        assert layout is not None and not layout.is_canonical
        measured = np.array([*layout.outer, *layout.home])
        assert np.abs(measured - [*NARROW_BAR.outer, *NARROW_BAR.home]).max() < 1.0

    def test_a_standard_board_is_read_as_the_canonical_one(self) -> None:
        nearly = Layout(outer=(1.0, 241.5), home=(291.0, 531.0))
        assert measure_layout(to_lab(draw_board(nearly)), FIELD_LAB, 1.0) == CANONICAL_LAYOUT

    def test_a_board_a_few_millimetres_off_the_standard_one_is_measured(self) -> None:
        """Outer points 41 mm wide, the home half 4 mm narrower: read as the canonical board
        its end points' windows lay 4-6 mm off, and their stacks read a checker long."""
        off = Layout(outer=(0.0, 246.0), home=(294.0, 530.0))
        layout = measure_layout(to_lab(draw_board(off, checkers_on=(0, 5, 7))), FIELD_LAB, 1.0)
        assert layout is not None and not layout.is_canonical
        measured = np.array([*layout.outer, *layout.home])
        assert np.abs(measured - [*off.outer, *off.home]).max() < 1.0

    def test_a_board_whose_points_do_not_show_is_not_measured(self) -> None:
        plain = to_lab(draw_board(CANONICAL_LAYOUT))
        width, height = view_size(1.0)
        plain[:] = to_lab(np.full((height, width, 3), FIELD_BGR, np.uint8))
        assert measure_layout(plain, FIELD_LAB, 1.0) is None


class TestFollowing:
    def test_the_view_puts_every_point_where_the_canonical_board_has_it(self) -> None:
        photo = draw_board(NARROW_BAR)
        straight = to_lab(warp(photo, identity_homography(), 1.0, NARROW_BAR))
        # measured again on the corrected view, the board is the canonical one
        assert measure_layout(straight, FIELD_LAB, 1.0) == CANONICAL_LAYOUT
        assert straight.shape[:2] == to_lab(photo).shape[:2]

    @pytest.mark.parametrize("x", [-30.0, 0.0, 100.0, 249.0, 260.0, 282.0, 400.0, 531.5, 600.0])
    def test_a_board_point_and_its_canonical_place_agree_with_the_view(self, x: float) -> None:
        canonical_x, y = NARROW_BAR.to_canonical((x, 123.0))
        assert y == 123.0
        for x0, x1, slope, offset in NARROW_BAR.stretches():
            if x0 <= canonical_x < x1:
                assert slope * canonical_x + offset == pytest.approx(x)

    def test_many_points_at_once_agree_with_one_at_a_time(self) -> None:
        xs = np.linspace(-40.0, 600.0, 97)
        many = NARROW_BAR.canonical_xs(xs)
        assert many == pytest.approx([NARROW_BAR.to_canonical((x, 0.0))[0] for x in xs])
        assert np.all(np.diff(many) > 0)  # order kept: nothing folds over

    @pytest.mark.parametrize(
        ("x", "half"), [(245.0, "outer"), (255.0, "bar"), (278.0, "bar"), (286.0, "home")]
    )
    def test_a_die_is_on_the_bar_where_this_board_has_its_bar(self, x: float, half: str) -> None:
        """The rules' halves (where a die rests) follow the board: 255 mm lies on this
        board's bar, which a standard board would call its outer half."""
        assert g.half_of(*NARROW_BAR.to_canonical((x, 100.0))) == half

    def test_a_canonical_layout_changes_nothing(self) -> None:
        photo = draw_board(NARROW_BAR)
        assert CANONICAL_LAYOUT.to_canonical((12.5, 3.0)) == (12.5, 3.0)
        assert np.array_equal(
            warp(photo, identity_homography(), 1.0),
            warp(photo, identity_homography(), 1.0, Layout()),
        )


class TestProfile:
    def profile_json(self) -> dict[str, Any]:
        image = draw_board(NARROW_BAR, checkers_on=(0, 4, 9, 11))
        corners = [(-VIEW_LEFT, -VIEW_TOP), (g.PLAY_WIDTH - VIEW_LEFT, -VIEW_TOP)]
        corners += [
            (g.PLAY_WIDTH - VIEW_LEFT, g.PLAY_HEIGHT - VIEW_TOP),
            (-VIEW_LEFT, g.PLAY_HEIGHT - VIEW_TOP),
        ]
        assert np.allclose(homography(tuple(corners), "bottom-right"), identity_homography())
        profile = calibrate(image, corners=corners, white_home="bottom-right")
        assert not profile.layout.is_canonical
        assert any("bar 33 mm" in note for note in profile.notes)
        return profile.to_json()

    def test_the_layout_survives_saving_and_loading(self) -> None:
        data = json.loads(json.dumps(self.profile_json()))
        loaded = Profile.from_json(data)
        assert loaded.layout.outer == pytest.approx(NARROW_BAR.outer, abs=1.0)
        assert loaded.layout.home == pytest.approx(NARROW_BAR.home, abs=1.0)
        del data["halves_mm"]  # a profile made before boards were measured
        assert Profile.from_json(data).layout == CANONICAL_LAYOUT

    @pytest.mark.parametrize(
        "halves",
        [
            [1, 2],
            {"outer": [0, 240]},
            {"outer": [240, 0], "home": [290, 530]},
            {"outer": [0, 240], "home": [230, 530]},
            {"outer": [0, "x"], "home": [290, 530]},
        ],
    )
    def test_malformed_halves_say_calibrate_again(self, halves: object) -> None:
        data = self.profile_json()
        data["halves_mm"] = halves
        with pytest.raises(ProfileError, match=r"halves_mm.*calibrate again"):
            Profile.from_json(data)


def test_a_real_tournament_board_has_a_narrow_bar() -> None:
    """The fm board of test10-test12: its bar between the hinges is about 30 mm of the playing
    area's 530, its points 41-42 mm (judged by eye on the photo's plane view)."""
    labels = json.loads((PROJECT / "benchmarks" / "real_boards.json").read_text())["photos"]
    photo = next(p for p in labels if p["file"].endswith("test12.jpg"))
    path = shared_path("real-photos", "christiancorro-BackgammonCV", "images", photo["file"])
    profile = calibrate(
        cv2.imread(str(path)),
        corners=[tuple(c) for c in photo["corners"]],
        white_home=photo["position"]["white_home"],
    )
    assert 26.0 <= profile.layout.bar_width <= 36.0
    assert all(40.5 <= width <= 42.5 for width in profile.layout.point_widths)
