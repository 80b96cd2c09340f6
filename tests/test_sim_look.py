"""How real boards look in the simulator: checker looks (plain, rings, marbled, logo), strips
of field between the frame (and bar) and the points, and a lamp hung over the board drawn.

The old look stays one option away: a plain checker on a board without margins (``PLAIN_LOOK``)
draws the committed fixtures byte for byte (``tests/test_sim_shapes.py``), so every draw that is
not about the looks is as it was."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from companion import geometry as g
from companion.cli import main
from companion.rules.position import Position
from companion.sim import Checkers, random_scene, render
from companion.sim import board as board_model
from companion.sim.checkers import JITTER, LOOK_VARIANTS, face_sprite, place_checkers
from companion.sim.scene import LOOK_KEY, MARGINS_FROM_STYLE, PLAIN_LOOK, SHAPE_KEY
from companion.sim.shape import (
    CANONICAL_SHAPE,
    MIN_DRAWN_POINT,
    NO_MARGINS,
    BoardShape,
    Field,
    ImpossibleShape,
    Margins,
)
from companion.sim.styles import CHECKER_LOOKS, UnknownStyle, board_style
from tests.sim_helpers import assert_checkers_drawn_at, nearest_colour
from tests.test_vision_sim import board

OPENING = Checkers.of(Position.opening().to_absolute("white"))
OVERHEAD = {
    "tilt": 0.0,
    "rotation": 0.0,
    "k1": 0.0,
    "lighting": "even",
    "cube": "none",
    "clutter": False,
    "noise": 0.0,
    "size": (960, 540),
}
WIDE = Margins(frame=12.0, bar=8.0, edge=10.0)
UNEVEN = BoardShape(bar_width=30.0, outer_point_width=43.0, home_point_width=38.0)


class TestCheckerLooks:
    def test_the_look_has_a_generator_of_its_own(self) -> None:
        assert LOOK_KEY not in (1, 2, 3, 4, 5, 7, 9, 11, 13, SHAPE_KEY)
        for seed in range(40):
            drawn = random_scene(seed, OPENING)
            fixed = random_scene(seed, OPENING, checker_look="logo")
            assert replace(drawn, checker_look="logo") == fixed
        looks = {random_scene(seed, OPENING).checker_look for seed in range(60)}
        assert looks == {None, *CHECKER_LOOKS}

    def test_every_look_shows_on_the_face_and_keeps_its_outline(self) -> None:
        face, rim = (40, 40, 170), (30, 30, 130)
        plain = face_sprite(face, rim, 0.6, 3, 5, "plain", 0).astype(np.float64)
        for look in ("rings", "marbled", "logo"):
            sprite = face_sprite(face, rim, 0.6, 3, 5, look, 1).astype(np.float64)
            assert np.array_equal(sprite[..., 3], plain[..., 3])  # the same disc
            inside = plain[..., 3] == 255
            differs = np.abs(sprite[..., :3] - plain[..., :3]).sum(axis=2)[inside]
            assert np.mean(differs > 30) > 0.03, look

    def test_marbled_and_logo_checkers_differ_from_their_neighbours(self) -> None:
        for look in ("marbled", "logo"):
            sprites = [
                face_sprite((230, 230, 230), (200, 200, 200), 0.5, 0, 6, look, v)
                for v in range(LOOK_VARIANTS)
            ]
            for a, b in itertools.pairwise(sprites):
                assert not np.array_equal(a, b), look
        placed = place_checkers([5] + [0] * 23, {"white": 2}, {}, "line")
        stack = [c.variant for c in placed if c.place == "point"]
        assert all(a != b for a, b in itertools.pairwise(stack))

    def test_the_truth_names_the_look_and_an_unknown_one_is_refused(self) -> None:
        scene = random_scene(3, OPENING, checker_look="marbled", size=(320, 180))
        assert render(scene).truth["style"]["checker_look"] == "marbled"
        own = random_scene(3, OPENING, checker_look=None, checker_set="ivory-red")
        frame = render(replace(own, checker_look=None, camera=scene.camera))
        assert frame.truth["style"]["checker_look"] == "marbled"  # the set's own
        with pytest.raises(UnknownStyle, match="unknown checker look 'glitter'"):
            random_scene(3, OPENING, checker_look="glitter")


class TestMargins:
    @pytest.mark.parametrize("shape", [CANONICAL_SHAPE, UNEVEN])
    def test_without_margins_the_points_are_the_shapes(self, shape: BoardShape) -> None:
        field = Field(shape)
        for number in range(1, 25):
            drawn, standard = field.point(number), shape.point(number)
            assert (drawn.base_x, drawn.base_y, drawn.tip_y, drawn.width) == (
                standard.base_x,
                standard.base_y,
                standard.tip_y,
                standard.width,
            )
            assert drawn.direction == standard.direction
            for count in (1, 5, 6, 9, 15):
                for style in ("line", "layers"):
                    assert field.stack_centres(number, count, style) == shape.stack_centres(
                        number, count, style
                    )

    @pytest.mark.parametrize("shape", [CANONICAL_SHAPE, UNEVEN])
    def test_margins_move_the_points_in_and_keep_room_for_a_checker(
        self, shape: BoardShape
    ) -> None:
        field = Field(shape, WIDE)
        m = field.margins
        assert m.edge == WIDE.edge and 0 < m.frame <= WIDE.frame and 0 < m.bar <= WIDE.bar
        assert m.frame / m.bar == pytest.approx(WIDE.frame / WIDE.bar)  # scaled together
        for number in range(1, 25):
            point = field.point(number)
            assert point.width >= MIN_DRAWN_POINT - 1e-9
            (x0, y0), (x1, _), _ = point.triangle()
            outer = number in range(7, 19)
            left, right = field.points_span("outer" if outer else "home")
            assert left - 1e-9 <= x0 < x1 <= right + 1e-9
            assert y0 == (m.edge if number > 12 else g.PLAY_HEIGHT - m.edge)
            for count in (1, 6, 8, 15):
                for style in ("line", "layers"):
                    ys = [y for _, y, _ in field.stack_centres(number, count, style)]
                    near = min(abs(y - y0) for y in ys)
                    assert near == pytest.approx(g.CHECKER_DIAMETER / 2)
                    reach = max(abs(y - y0) for y in ys) + g.CHECKER_DIAMETER / 2 + m.edge
                    assert reach <= g.PLAY_HEIGHT / 2 + 1e-9  # never past the middle
        spans = field.to_json()["points_x"]
        assert spans == {
            "outer": [round(m.frame, 3), round(shape.bar_left - m.bar, 3)],
            "home": [round(shape.bar_right + m.bar, 3), round(shape.width - m.frame, 3)],
        }
        with pytest.raises(ImpossibleShape, match="negative"):
            Margins(frame=-1.0)

    def test_the_margins_are_painted_field_and_the_truth_says_where(self) -> None:
        style = board_style("green-felt")
        field = Field(UNEVEN, WIDE)
        texture = board_model.board_texture(style, "bottom-right", field)

        def nearest(x: float, y: float) -> str:
            return nearest_colour(texture, style, x, y)

        m = field.margins
        for number in range(1, 25):
            point = field.point(number)
            colour = "a" if number % 2 == 0 else "b"
            assert nearest(point.base_x, point.base_y + point.direction * 20.0) == colour
            # between the frame and the points' bases, the field
            assert nearest(point.base_x, point.base_y - point.direction * m.edge / 2) == "field"
        for x in (m.frame / 2, UNEVEN.bar_left - m.bar / 2, UNEVEN.width - m.frame / 2):
            assert nearest(x, m.edge + 3.0) == "field"
        scene = random_scene(
            5, OPENING, shape=UNEVEN, margins=WIDE, style="green-felt", size=(320, 180)
        )
        truth = render(scene).truth
        assert truth["field_margins"] == field.to_json()
        wood = board_style("wood").margins
        assert (
            random_scene(5, OPENING, margins="style").field.asked
            == board_style(random_scene(5, OPENING).style).margins
        )
        assert random_scene(5, OPENING, style="wood", margins="style").field.margins == wood
        default = random_scene(5, OPENING, style="wood").field.margins
        assert default == (wood if MARGINS_FROM_STYLE else NO_MARGINS)

    def test_squeezed_margins_are_drawn_as_the_field_says_not_squeezed_again(self) -> None:
        """Margins too wide for the narrow half are scaled down once: the checkers stand on
        the field's own points, not on those of a field rebuilt from the drawn margins (which
        scales them again and moves the points by a rounding)."""
        shape = BoardShape(bar_width=39.5, outer_point_width=38.4, home_point_width=42.9)
        field = Field(shape, Margins(frame=8.6, bar=0.1, edge=11.6))
        again = Field(shape, field.margins)
        assert again.margins != field.margins  # the case that drifted
        points = [1 if number % 2 else -1 for number in range(24)]
        placed = place_checkers(points, {}, {}, "line", field=field)
        assert [c.x for c in placed] == [field.point(c.point).base_x for c in placed]
        assert any(c.x != again.point(c.point).base_x for c in placed)

    def test_a_checker_is_drawn_on_its_moved_point(self) -> None:
        singles = board({1: 1, 6: -1, 7: 1, 12: -1, 13: 1, 18: -1, 19: 1, 24: -1})
        look = {**OVERHEAD, "style": "tournament-red", "checker_look": "plain", "margins": WIDE}
        scene = replace(random_scene(3, singles, shape=UNEVEN, **look), jpeg_quality=None)
        frame = render(scene)
        field = scene.field
        for checker in frame.checkers:
            assert abs(checker.x - field.point(checker.point).base_x) <= JITTER
        assert_checkers_drawn_at(frame, render(replace(scene, board=board({}))), UNEVEN.width)


def test_the_lamp_hangs_over_the_board_drawn() -> None:
    wide = BoardShape(bar_width=50.0, outer_point_width=43.0, home_point_width=43.0)
    for seed in (1, 2, 3):
        for lighting in ("lamp", "glare"):
            look = {"lighting": lighting, "size": (320, 180), **PLAIN_LOOK}
            standard = render(random_scene(seed, OPENING, **look)).truth["lighting"]
            shaped = render(random_scene(seed, OPENING, shape=wide, **look)).truth["lighting"]
            moved = np.subtract(shaped["lamp_mm"], standard["lamp_mm"])
            shift = board_model.centre_x(wide) - board_model.CENTRE_X
            assert moved == pytest.approx([shift, 0.0, 0.0], abs=0.11)


def test_the_command_takes_a_look_and_margins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "frames"
    args = ["render", "opening", "--size", "320x180", "--seed", "4", "-o", str(out)]
    assert main([*args, "--checker-look", "logo", "--margins", "10,6,5"]) == 0
    (written,) = out.glob("*.json")
    truth = json.loads(written.read_text())
    assert truth["style"]["checker_look"] == "logo"
    assert (truth["field_margins"]["frame"], truth["field_margins"]["edge"]) == (10.0, 5.0)
    styled = tmp_path / "styled"
    styled_args = ["render", "opening", "--size", "320x180", "--style", "green-felt"]
    assert main([*styled_args, "--margins", "style", "-o", str(styled)]) == 0
    (written,) = styled.glob("*.json")
    margins = json.loads(written.read_text())["field_margins"]
    assert margins["edge"] == board_style("green-felt").margins.edge > 0
    for bad, said in (("1,2", "not three margins"), ("10,6,40", "outside 0-30 mm")):
        with pytest.raises(SystemExit) as stopped:
            main([*args, "--margins", bad])
        assert stopped.value.code == 2
        assert said in capsys.readouterr().err
