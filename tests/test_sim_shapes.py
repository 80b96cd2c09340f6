"""Boards of other proportions in the simulator: what is drawn follows the shape, the truth
says where, and the standard board draws exactly as it always did."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import geometry as g
from companion.cli import main
from companion.errors import CompanionError
from companion.rules.position import Position
from companion.sim import Checkers, DieSpec, random_scene, render, render_game
from companion.sim import board as board_model
from companion.sim.board import Orientation
from companion.sim.checkers import JITTER, place_checkers
from companion.sim.drawing import fill
from companion.sim.scene import PLAIN_LOOK
from companion.sim.shape import (
    CANONICAL_SHAPE,
    NO_MARGINS,
    VARIED_BAR,
    VARIED_POINTS,
    BoardShape,
    Field,
    ImpossibleShape,
)
from companion.sim.styles import board_style
from tests.sim_helpers import assert_checkers_drawn_at, nearest_colour
from tests.test_vision_sim import board

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sim"
SMALL = (480, 270)
UNEVEN = BoardShape(bar_width=30.0, outer_point_width=43.0, home_point_width=38.0)
"""A narrow bar and unlike halves: point 7 lies 16.5 mm from its standard axis."""
PLAIN = {
    "tilt": 0.0,
    "rotation": 0.0,
    "k1": 0.0,
    "lighting": "even",
    "style": "tournament-red",
    "cube": "none",
    "clutter": False,
    "noise": 0.0,
    "size": (960, 540),
    "margins": NO_MARGINS,
}


OPENING = Checkers.of(Position.opening().to_absolute("white"))
SINGLES = board({1: 1, 6: -1, 7: 1, 12: -1, 13: 1, 18: -1, 19: 1, 24: -1}, bar=(1, 1))
"""One checker on each point beside the bar and the frame, one of each colour on the bar."""


class TestTheStandardBoardIsUnchanged:
    def test_the_standard_shape_is_the_canonical_board(self) -> None:
        """geometry's functions are the canonical shape's answers: pin them to the numbers
        every frame drawn so far was drawn with."""
        shape = CANONICAL_SHAPE
        assert shape.is_canonical
        assert (shape.width, shape.bar_left, shape.bar_right) == (530.0, 240.0, 290.0)
        outer_xs = [20.0, 60.0, 100.0, 140.0, 180.0, 220.0]
        home_xs = [310.0, 350.0, 390.0, 430.0, 470.0, 510.0]
        bases = home_xs[::-1] + outer_xs[::-1] + outer_xs + home_xs
        for number, x in enumerate(bases, start=1):
            point = g.point_shape(number)
            assert point == shape.point(number)
            white_side = number <= 12
            assert (point.base_x, point.base_y, point.tip_y, point.width) == (
                x,
                440.0 if white_side else 0.0,
                260.0 if white_side else 180.0,
                40.0,
            )
            assert point.triangle()[:2] == ((x - 20.0, point.base_y), (x + 20.0, point.base_y))
        for colour in ("white", "black"):
            assert shape.bar_centres(colour, 3) == g.bar_centres(colour, 3)
            assert shape.tray_rect(colour) == g.tray_rect(colour)
            assert shape.tray_slots(colour, 15) == g.tray_slots(colour, 15)
        assert g.bar_rect() == (240.0, 0.0, 290.0, 440.0)
        assert [g.half_of(x, 220.0) for x in (-0.1, 0.0, 239.9, 240.0, 290.0, 290.1, 530.0)] == [
            "outside",
            "outer",
            "outer",
            "bar",
            "bar",
            "home",
            "home",
        ]
        assert board_model.object_right() == board_model.OBJECT_RIGHT
        assert board_model.centre_x() == board_model.CENTRE_X

    @pytest.mark.parametrize(
        ("name", "seed", "options"),
        [
            (
                "opening-overhead",
                101,
                {"dice": (DieSpec(6), DieSpec(3)), "tilt": 0.0, "lighting": "even"},
            ),
            (
                "cocked-on-checker",
                103,
                {
                    "dice": (DieSpec(4, "cocked", support="checker"), DieSpec(2)),
                    "tilt": 15.0,
                    "style": "tournament-cream",
                },
            ),
        ],
    )
    def test_committed_fixtures_are_drawn_byte_for_byte(
        self, name: str, seed: int, options: dict[str, object]
    ) -> None:
        """Two committed frames (made before boards had shapes, and before the frame stood
        as high as a real one) come out the same where the field is: every checker, die, the
        camera and the light where they were, to within the fixtures' JPEG noise; only the
        frame, its walls and their shadows (15 mm round the field's edges) look different.
        When the renderer changes on purpose, regenerate the fixtures
        (``fixtures/sim/README.md``). The fixtures show plain checkers on a board without
        margins (``PLAIN_LOOK``)."""
        look = {"style": "tournament-red", **options, **PLAIN_LOOK}
        scene = random_scene(seed, OPENING, on_roll="white", size=(640, 360), **look)
        frame = render(scene)
        committed = json.loads((FIXTURES / f"{name}.json").read_text())
        assert frame.truth["board_corners_px"] == committed["board_corners_px"]
        # the fixtures were drawn before the truth said how much of each die a hand hides
        assert [d.pop("hidden") for d in frame.truth["dice"]] == [0.0, 0.0]
        assert frame.truth["dice"] == committed["dice"]
        assert frame.truth["points"] == committed["points"]
        orientation = Orientation(scene.white_home, scene.shape)
        inside = np.zeros((360, 640), np.uint8)
        for x0, y0, x1, y1 in board_model.holes(scene.shape)[:2]:
            corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64)
            corners += np.array([(15, 15), (-15, 15), (-15, -15), (15, -15)], np.float64)
            world = np.column_stack([orientation.to_world_array(corners), np.zeros(4)])
            fill(inside, frame.camera.project_undistorted(world), 255)
        old = cv2.imread(str(FIXTURES / f"{name}.jpg")).astype(int)
        difference = np.abs(frame.image.astype(int) - old)[inside > 0]
        assert difference.mean() < 3.0
        assert np.percentile(difference.max(axis=1), 99) < 25

    def test_a_scene_given_the_standard_shape_draws_as_one_without(self) -> None:
        scene = random_scene(7, SINGLES, dice=(DieSpec(2), DieSpec(5)), on_roll="black")
        shaped = random_scene(
            7, SINGLES, dice=(DieSpec(2), DieSpec(5)), on_roll="black", shape=BoardShape()
        )
        assert scene == shaped
        plain, again = (
            render(replace(scene, camera=replace(scene.camera, size=SMALL))),
            render(replace(shaped, camera=replace(shaped.camera, size=SMALL))),
        )
        assert np.array_equal(plain.image, again.image)
        assert plain.truth["board_shape"] == {
            "bar_mm": 50.0,
            "outer_point_mm": 40.0,
            "home_point_mm": 40.0,
            "width_mm": 530.0,
            "outer": [0.0, 240.0],
            "home": [290.0, 530.0],
            "on_corners_plane": {"outer": [0.0, 240.0], "home": [290.0, 530.0]},
        }


class TestShapes:
    def test_impossible_shapes_are_refused_saying_what_is_wrong(self) -> None:
        with pytest.raises(ImpossibleShape, match="bar is 10 mm") as caught:
            BoardShape(bar_width=10.0)
        assert isinstance(caught.value, CompanionError) and isinstance(caught.value, ValueError)
        with pytest.raises(ImpossibleShape, match="home half's points are 30 mm"):
            BoardShape(home_point_width=30.0)

    def test_halves_and_points_follow_the_widths(self) -> None:
        shape = UNEVEN
        assert shape.outer == (0.0, 258.0) and shape.home == (288.0, 516.0)
        assert shape.point(7).base_x == pytest.approx(258.0 - 21.5)
        assert shape.point(19).base_x == pytest.approx(288.0 + 19.0)
        assert shape.point(1).base_x == pytest.approx(516.0 - 19.0)
        assert shape.half_of(270.0, 100.0) == "bar"
        assert shape.half_of(286.0, 100.0) == "bar"  # the standard board's home half
        assert shape.half_of(289.0, 100.0) == "home"
        assert shape.half_of(517.0, 100.0) == "outside"
        plane = shape.on_corners_plane()
        assert plane["home"][1] == pytest.approx(g.PLAY_WIDTH)
        assert plane["outer"][1] == pytest.approx(258.0 * g.PLAY_WIDTH / 516.0, abs=1e-3)

    def test_checkers_stand_on_their_own_point_s_axis_on_the_bar_and_beside_the_board(
        self,
    ) -> None:
        checkers = Checkers((2,) * 6 + (-2,) * 6 + (0,) * 12, {"white": 1, "black": 1}, {})
        off = {"white": 1, "black": 1}
        placed = place_checkers(
            checkers.points, checkers.bar, off, "line", jitter_seed=3, field=Field(UNEVEN)
        )
        for checker in placed:
            if checker.place == "point":
                assert abs(checker.x - UNEVEN.point(checker.point).base_x) <= JITTER
            elif checker.place == "bar":
                assert checker.x == pytest.approx(UNEVEN.bar_left + UNEVEN.bar_width / 2)
            else:
                x0, _, x1, _ = UNEVEN.tray_rect(checker.colour)
                assert x0 < checker.x < x1
                assert x0 > UNEVEN.width + g.TRAY_GAP - 1e-9

    def test_the_painted_points_follow_the_shape(self) -> None:
        style = board_style("tournament-red")
        texture = board_model.board_texture(style, "bottom-right", Field(UNEVEN))

        def nearest(x: float, y: float) -> str:
            return nearest_colour(texture, style, x, y)

        for number in range(1, 25):
            point = UNEVEN.point(number)
            y = point.base_y + point.direction * 150.0  # near the tip: a few mm wide
            assert nearest(point.base_x, y) == ("a" if number % 2 == 0 else "b"), number
            # beside the tip, the field: the standard axis of the points near the bar is off
            assert nearest(point.base_x + 6.0, y) == "field", number

    def test_a_checker_is_drawn_where_its_truth_puts_it(self) -> None:
        """A checker on each point beside the bar and the frame, one on the narrow bar: the
        pixels the checkers change are centred on each one's spot on this board."""
        scene = replace(random_scene(3, SINGLES, shape=UNEVEN, **PLAIN), jpeg_quality=None)
        frame = render(scene)
        # the corners are the playing area's: its width is the shape's
        assert_checkers_drawn_at(frame, render(replace(scene, board=board({}))), UNEVEN.width)
        for checker in frame.checkers:
            if checker.place == "point":
                truth_axis = UNEVEN.point(checker.point).base_x
                assert abs(checker.x - truth_axis) <= JITTER

    def test_a_die_on_the_narrow_bar_is_on_the_bar(self) -> None:
        shape = BoardShape(bar_width=28.0, outer_point_width=42.0, home_point_width=42.0)
        for seed in (1, 2, 3):
            scene = random_scene(
                seed,
                SINGLES,
                dice=(DieSpec(3, where="bar"), DieSpec(4, where="home")),
                on_roll="white",
                shape=shape,
                size=SMALL,
            )
            frame = render(scene)
            dice: list[dict[str, object]] = frame.truth["dice"]  # type: ignore[assignment]
            on_bar, in_home = dice
            assert on_bar["half"] == "bar" and in_home["half"] == "home"
            x0, _, x1, _ = shape.bar_rect()
            footprint = frame.dice[0].footprint()
            assert x0 < footprint[:, 0].min() and footprint[:, 0].max() < x1
            assert frame.dice[1].footprint()[:, 0].min() > shape.bar_right
            assert frame.truth["dice_valid"] is False and frame.truth["reason"] == "on the bar"

    def test_a_die_just_past_a_narrow_bar_is_in_the_home_half(self) -> None:
        """The standard bar would reach over it: the half follows the board's own bar."""
        shape = BoardShape(bar_width=30.0, outer_point_width=38.0, home_point_width=38.0)
        scene = random_scene(4, board({}), shape=shape, size=SMALL)
        spot = shape.bar_right + 12.0
        assert g.half_of(spot, 220.0) == "bar"
        pose = render(replace(scene, dice=(DieSpec(2, where="home"),))).dice[0]
        fixed = replace(pose, x=spot, y=220.0)
        frame = render(replace(scene, dice=(DieSpec(2, pose=fixed),)))
        assert frame.truth["dice"][0]["half"] == "home"  # type: ignore[index]


class TestRandomShapes:
    def test_a_varied_shape_comes_from_the_seed_and_leaves_every_other_choice(self) -> None:
        shapes = set()
        for seed in range(12):
            plain = random_scene(seed, OPENING)
            varied = random_scene(seed, OPENING, varied_shape=True)
            assert varied == random_scene(seed, OPENING, varied_shape=True)
            assert replace(varied, shape=CANONICAL_SHAPE) == plain
            shape = varied.shape
            assert VARIED_BAR[0] <= shape.bar_width <= VARIED_BAR[1]
            for width in (shape.outer_point_width, shape.home_point_width):
                assert VARIED_POINTS[0] <= width <= VARIED_POINTS[1]
            shapes.add(shape)
        assert len(shapes) == 12
        assert random_scene(0, OPENING).shape.is_canonical

    def test_a_fixed_shape_wins_over_a_varied_one(self) -> None:
        assert random_scene(5, OPENING, varied_shape=True, shape=UNEVEN).shape == UNEVEN

    def test_a_shaped_frame_is_drawn_the_same_every_time(self) -> None:
        scene = random_scene(
            8, SINGLES, varied_shape=True, dice=(DieSpec(1), DieSpec(6)), hand="near", size=SMALL
        )
        first, second = render(scene), render(scene)
        assert np.array_equal(first.image, second.image)
        assert first.truth == second.truth
        assert first.truth["board_shape"] == scene.shape.to_json()

    def test_a_game_on_a_shaped_board_keeps_its_dice_in_their_halves(self) -> None:
        """The dice of a recorded game are placed on the board they are drawn on: on this
        narrower home half, a die placed for the standard one would cross the frame."""
        shape = BoardShape(bar_width=50.0, outer_point_width=38.0, home_point_width=38.0)
        frames = list(render_game(7, turns=2, size=(320, 180), stable_frames=1, shape=shape))
        seen = 0
        for game_frame in frames:
            truth = game_frame.frame.truth
            assert truth["board_shape"] == shape.to_json()
            for die, pose in zip(truth["dice"], game_frame.frame.dice, strict=True):  # type: ignore[call-overload]
                if die["moving"] or die["half"] not in ("home", "outer"):
                    continue
                left, right = shape.home if die["half"] == "home" else shape.outer
                footprint = pose.footprint()
                assert left < footprint[:, 0].min() and footprint[:, 0].max() < right
                seen += 1
        assert seen >= 8


class TestCommandLine:
    def test_render_draws_the_asked_shape(self, tmp_path: Path) -> None:
        arguments = ["render", "opening", "--bar-width", "32", "--point-width", "41.5"]
        arguments += ["--size", "320x180", "-o", str(tmp_path)]
        assert main(arguments) == 0
        truth = json.loads((tmp_path / "frame_000000.json").read_text())
        assert truth["board_shape"]["bar_mm"] == 32.0
        assert truth["board_shape"]["home"] == [281.0, 530.0]

    def test_halves_may_be_given_apart(self, tmp_path: Path) -> None:
        arguments = ["render", "opening", "--outer-point-width", "43", "--home-point-width"]
        arguments += ["38", "--bar-width", "30", "--size", "320x180", "-o", str(tmp_path)]
        assert main(arguments) == 0
        truth = json.loads((tmp_path / "frame_000000.json").read_text())
        assert truth["board_shape"]["outer"] == [0.0, 258.0]
        assert truth["board_shape"]["home"] == [288.0, 516.0]

    @pytest.mark.parametrize(
        ("arguments", "message"),
        [
            (["--bar-width", "5"], "the bar is 5 mm wide: a bar is 20-80 mm wide"),
            (["--point-width", "30"], "points are 30 mm wide"),
            (["--point-width", "41", "--home-point-width", "42"], "--point-width sets both"),
            (["--bar-width", "32", "--vary-shape"], "--vary-shape draws"),
        ],
    )
    def test_impossible_shapes_are_refused_clearly(
        self,
        arguments: list[str],
        message: str,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        assert main(["render", "opening", *arguments, "-o", str(tmp_path)]) == 2
        assert message in capsys.readouterr().err
