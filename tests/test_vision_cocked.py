"""What counts as evidence that a die is tilted: its top squashed, or a side's pips showing
farther out than a flat die's side could show them, but no spot beyond where any tilted die's
side pip can lie (a neighbouring checker's rim, the board's pattern).

Rendered frames pin what a player relies on: a die leaning on a checker is never let stand,
and a flat die beside the other die or a checker is never called cocked (its neighbour's pips
and rim are no side face of it). Frames are small (960x540) on one well-lit setup.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import pytest

from companion import geometry as g
from companion.rules.position import Position
from companion.sim import Checkers, DieSpec, random_scene, render
from companion.sim.dice import flat_pose
from companion.vision import dice, pips, reader
from companion.vision.calibrate import calibrate
from companion.vision.maps import PlaneMaps
from companion.vision.plane import VIEW_BOTTOM, VIEW_LEFT, VIEW_RIGHT, VIEW_TOP
from companion.vision.reader import read_frame
from companion.vision.reading import DieReading, Reading
from tests.test_vision_dice import read_dice, seen

SQUARE = 1.0
NO_SIDE_SHOWS = [0.0, 0.0, 0.0, 0.0]


class TestTiltEvidence:
    def test_a_square_top_with_nothing_beside_it_is_flat(self) -> None:
        assert dice.tilt_evidence(SQUARE, [], NO_SIDE_SHOWS) < 0

    def test_a_squashed_top_is_cocked_by_itself(self) -> None:
        leaning_30 = math.cos(math.radians(30))
        assert dice.tilt_evidence(leaning_30, [], NO_SIDE_SHOWS) > dice.SIDE_MARGIN

    def test_a_side_pip_where_a_flat_die_shows_no_side_says_cocked(self) -> None:
        middle_pip_at_35 = 0.5 * g.DIE_SIZE * math.sin(math.radians(35))
        assert dice.tilt_evidence(SQUARE, [(2, middle_pip_at_35)], NO_SIDE_SHOWS) > 0

    def test_a_side_pip_within_the_side_a_flat_die_shows_is_its_own(self) -> None:
        camera_sees_side_2 = [0.0, 0.0, 6.0, 0.0]
        assert dice.tilt_evidence(SQUARE, [(2, 4.0)], camera_sees_side_2) < 0

    def test_the_farthest_pip_of_a_45_degree_die_still_counts(self) -> None:
        farthest = 0.77 * g.DIE_SIZE * math.sin(math.radians(45))
        assert dice.tilt_evidence(SQUARE, [(0, farthest)], NO_SIDE_SHOWS) > dice.SIDE_MARGIN

    def test_a_spot_beyond_any_tilted_die_s_side_is_no_evidence(self) -> None:
        too_far = dice.FARTHEST_SIDE_PIP + 1.0
        assert dice.tilt_evidence(SQUARE, [(1, too_far)], NO_SIDE_SHOWS) < 0

    def test_the_reach_is_counted_from_the_side_a_flat_die_shows(self) -> None:
        camera_sees_side_1 = [0.0, 5.0, 0.0, 0.0]
        beyond_flat_side = 5.0 + dice.FARTHEST_SIDE_PIP - 1.0
        assert dice.tilt_evidence(SQUARE, [(1, beyond_flat_side)], camera_sees_side_1) > 0


def nearest(reading: Reading, die: dict[str, Any]) -> DieReading:
    """The die read nearest to where ``die`` lies: dice side by side lie closer together in the
    frame than :func:`tests.test_vision_dice.seen` tells apart."""
    near = [d for d in reading.dice if math.dist(d.center_px, die["center_px"]) < 20]
    assert near, f"die {die['value']} at {die['center_px']} not read: {reading.dice}"
    return min(near, key=lambda d: math.dist(d.center_px, die["center_px"]))


class TestRenderedRests:
    """On the setup of :mod:`tests.test_vision_dice` (its calibration shared)."""

    @pytest.mark.parametrize("value", [3, 4, 5])
    def test_a_die_leaning_20_degrees_on_a_checker_is_not_let_stand(self, value: int) -> None:
        # its top still looks square: the side it raises over the checker gives it away
        reading, truth = read_dice(
            DieSpec(value, "cocked", "home", tilt=20.0, support="checker"), DieSpec(4)
        )
        assert truth[0]["leaning_on"] == "checker"
        leaning = seen(reading, truth[0])
        assert leaning.value == value and not leaning.flat
        assert reading.dice_valid is not True

    @pytest.mark.parametrize(("value", "tilt"), [(6, 35.0), (4, 45.0)])
    def test_a_steep_top_s_own_pips_show_it_squashed(self, value: int, tilt: float) -> None:
        # the face reads as its value on a square model that merely overlaps its squashed
        # pips; only the pips, found one by one, show the tilt (the six was let stand, the
        # four left in doubt)
        reading, truth = read_dice(
            DieSpec(value, "cocked", "home", tilt=tilt, support="frame"), DieSpec(2)
        )
        leaning = seen(reading, truth[0])
        assert leaning.value == value and not leaning.flat
        assert leaning.confidence >= reader.CONFIDENCE_THRESHOLD
        assert reading.dice_valid is False

    @pytest.mark.parametrize(("first", "second", "gap"), [(5, 3, 1.0), (4, 1, 3.0)])
    def test_two_flat_dice_side_by_side_are_not_called_cocked(
        self, first: int, second: int, gap: float
    ) -> None:
        x, y = g.BAR_RIGHT + 60.0, 220.0
        reading, truth = read_dice(
            DieSpec(first, pose=flat_pose(first, x, y, 0.3, 0.0)),
            DieSpec(second, pose=flat_pose(second, x + g.DIE_SIZE + gap, y, 0.3, 0.0)),
        )
        for die in truth:
            assert nearest(reading, die).flat, f"the flat {die['value']} was called cocked"
        assert reading.dice_valid is not False

    @pytest.mark.parametrize("touching", ["checker", "die"])
    def test_a_flat_one_touching_something_is_not_called_cocked(self, touching: Any) -> None:
        # a lone pip does not tell how the face is turned: its outline must, or the sides
        # are looked for in the wrong places
        reading, truth = read_dice(DieSpec(1, touching=touching), DieSpec(3))
        assert seen(reading, truth[0]).flat
        assert reading.dice_valid is not False


FIVE = frozenset({(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)})
STEP = 13.0
SQUARE_MODEL = ((STEP, 0.0), (0.0, STEP))


def five_spots(squash: float, turn: float = 0.4, strengths: list[float] | None = None) -> Any:
    """Spot rows (x, y, strength, polarity, roundness) of a five's pips, its first axis
    squashed by ``squash``, the face turned by ``turn`` about (48, 48)."""
    c, s = math.cos(turn), math.sin(turn)
    rows = []
    for index, (a, b) in enumerate(sorted(FIVE)):
        u, v = a * STEP * squash, b * STEP
        strength = 1.0 if strengths is None else strengths[index]
        rows.append((48 + u * c - v * s, 48 + u * s + v * c, strength, -1.0, 1.0))
    return np.array(rows)


def turned(axes: Any, turn: float) -> Any:
    c, s = math.cos(turn), math.sin(turn)
    return tuple((x * c - y * s, x * s + y * c) for x, y in axes)


def five_model(turn: float = 0.4) -> pips.FaceModel:
    """A five's model: a square grid of ``STEP`` turned by ``turn`` about (48, 48)."""
    return pips.FaceModel(5, 5.0, 0.0, (48.0, 48.0), turned(SQUARE_MODEL, turn), FIVE)


class TestPipsSquareness:
    """A face's squashing measured on its own pips, near where its model puts them."""

    @pytest.mark.parametrize("squash", [1.0, 0.85, 0.72])
    def test_a_square_model_over_squashed_pips_measures_them(self, squash: float) -> None:
        measured = pips.pips_squareness(five_model(), five_spots(squash))
        assert measured == pytest.approx(squash, abs=0.01)

    def test_too_few_pips_found_measure_nothing(self) -> None:
        assert pips.pips_squareness(five_model(), five_spots(0.8)[:3]) is None
        assert pips.pips_squareness(five_model(), np.zeros((0, 5))) is None

    def test_a_spot_far_from_every_cell_is_no_pip(self) -> None:
        # corner pips half a step in: beyond what is taken for them
        assert pips.pips_squareness(five_model(), five_spots(0.5)) is None

    def test_a_spot_counts_for_one_cell_only(self) -> None:
        # a six's model squashed down its columns: a spot between two cells lies near both
        six = frozenset({(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)})
        model = pips.FaceModel(6, 5.0, 0.0, (48.0, 48.0), ((STEP, 0.0), (0.0, 0.7 * STEP)), six)
        between = [(48 - STEP, 48 - 0.35 * STEP), (48 + STEP, 48 - 0.35 * STEP)]
        spots = np.array([(x, y, 1.0, -1.0, 1.0) for x, y in [*between, (61.0, 48 + 9.1)]])
        assert pips.pips_squareness(model, spots) is None  # three pips, not five

    def test_a_faint_spot_taken_for_a_pip_measures_nothing(self) -> None:
        spots = five_spots(0.8, strengths=[1.0, 1.0, 0.2, 1.0, 1.0])
        assert pips.pips_squareness(five_model(), spots) is None


class TestOutlineTurn:
    @pytest.mark.parametrize("turn", [0.0, 0.3, -0.6, 1.2])
    def test_a_lone_pip_s_face_is_turned_as_its_outline(self, turn: float) -> None:
        side = int(dice.PATCH_MM * dice.PATCH_PX_PER_MM)
        patch = np.full((side, side, 3), 70, np.uint8)
        middle = side / 2
        half = g.DIE_SIZE / 2 * dice.PATCH_PX_PER_MM
        c, s = math.cos(turn), math.sin(turn)
        corners = [(middle + half * (c * a - s * b), middle + half * (s * a + c * b))
                   for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]  # fmt: skip
        cv2.fillConvexPoly(patch, np.round(np.array(corners)).astype(np.int32), (235, 235, 235))
        cv2.circle(patch, (round(middle), round(middle)), 6, (20, 20, 20), -1)
        blurred = np.asarray(cv2.GaussianBlur(patch, (0, 0), 1.5), np.uint8)
        found = dice._outline_turn(blurred, (middle, middle))
        off = (found - turn + math.pi / 4) % (math.pi / 2) - math.pi / 4
        assert abs(off) < math.radians(3)


def face_patch(turn: float, shift: float, pips_at: list[tuple[float, float]]) -> np.ndarray:
    """A patch as :func:`dice._outline_reach` reads it: a light face on a dark board, its
    centre ``shift`` mm along its first axis from the patch's middle, dark pips at ``pips_at``
    (mm from the patch's middle, along the face's axes)."""
    scale = dice.PATCH_PX_PER_MM
    side = int(dice.PATCH_MM * scale)
    middle = side / 2
    patch = np.full((side, side, 3), 70, np.uint8)
    c, s = math.cos(turn), math.sin(turn)

    def at(a: float, b: float) -> tuple[float, float]:
        return middle + scale * (c * a - s * b), middle + scale * (s * a + c * b)

    half = g.DIE_SIZE / 2
    corners = [at(shift + a * half, b * half) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    cv2.fillConvexPoly(patch, np.round(np.array(corners)).astype(np.int32), (235, 235, 235))
    for a, b in pips_at:
        x, y = at(a, b)
        cv2.circle(patch, (round(x), round(y)), 4, (20, 20, 20), -1)
    return np.asarray(cv2.GaussianBlur(patch, (0, 0), 1.5), np.uint8)


def two(turn: float) -> pips.FaceRead:
    """A two read with its grid centred on the patch's middle."""
    middle = dice.PATCH_MM * dice.PATCH_PX_PER_MM / 2
    return pips.FaceRead(2, 1.0, (middle, middle), turn, dice.PIP_STEP * dice.PATCH_PX_PER_MM)


def empty_board() -> PlaneMaps:
    """Evidence maps of a board with nothing on it (the plane view at 1 px/mm)."""
    shape = (round(VIEW_BOTTOM - VIEW_TOP), round(VIEW_RIGHT - VIEW_LEFT))
    nothing = np.zeros(shape, np.float32)
    return PlaneMaps(1.0, np.zeros((*shape, 3), np.float32), nothing, nothing, nothing,
                     nothing, nothing)  # fmt: skip


class TestOffCentre:
    STEP = dice.PIP_STEP

    def test_a_face_s_outline_is_measured_from_its_grid_s_centre(self) -> None:
        patch = face_patch(0.4, 2.0, [(2.0 - self.STEP, -self.STEP), (2.0 + self.STEP, self.STEP)])
        reach = dice._outline_reach(patch, two(0.4))
        assert reach is not None
        toward, away, across, back = reach
        assert toward == pytest.approx(10.0, abs=1.0)
        assert away == pytest.approx(6.0, abs=1.0)
        assert across == pytest.approx(back, abs=0.6)

    def test_no_outline_shows_on_a_die_the_colour_of_the_board(self) -> None:
        patch = np.full((96, 96, 3), 200, np.uint8)
        assert dice._outline_reach(patch, two(0.0)) is None

    @staticmethod
    def evidence(face_mm: tuple[float, float], edges: tuple[float, float, float, float]) -> float:
        to_view = np.eye(3)
        around = dice._Around(empty_board(), to_view, face_mm, 0.0, [0.0] * 4, [])
        return dice._off_centre(edges, around)

    def test_pips_off_the_outline_s_middle_toward_a_wall_say_cocked(self) -> None:
        # the grid's centre lies 2.5 mm toward +x, where the frame's wall is: a side face's
        # pip over the wall, beside the top's own
        near_wall = (g.PLAY_WIDTH - 14.0, g.PLAY_HEIGHT / 2)
        assert self.evidence(near_wall, (5.5, 10.5, 8.0, 8.0)) > 0

    def test_pips_off_the_middle_toward_nothing_say_nothing(self) -> None:
        open_space = ((g.BAR_RIGHT + g.PLAY_WIDTH) / 2, g.PLAY_HEIGHT / 2)
        assert self.evidence(open_space, (5.5, 10.5, 8.0, 8.0)) < 0

    def test_pips_a_little_off_the_middle_say_nothing(self) -> None:
        near_wall = (g.PLAY_WIDTH - 14.0, g.PLAY_HEIGHT / 2)
        slightly = 8.0 - dice.OFF_CENTRE * 0.8
        assert self.evidence(near_wall, (slightly, 16.0 - slightly, 8.0, 8.0)) < 0


def junction_patch() -> np.ndarray:
    """A patch where two light checkers (dark rims) touch at its middle on a light board: the
    board between them and their rims line up like a three's pips."""
    scale = dice.PATCH_PX_PER_MM
    side = int(dice.PATCH_MM * scale)
    patch = np.full((side, side, 3), 200, np.uint8)
    radius = g.CHECKER_DIAMETER / 2 * scale
    for dy in (-1, 1):
        centre = (round(side / 2), round(side / 2 + dy * (radius + 1)))
        cv2.circle(patch, centre, round(radius), (40, 40, 40), -1)
        cv2.circle(patch, centre, round(radius - 3), (235, 235, 235), -1)
    return np.asarray(cv2.GaussianBlur(patch, (0, 0), 1.5), np.uint8)


class TestOutlineReach:
    """A top's outline is measured only where its edge shows on all four sides
    (:func:`dice._outline_reach`): where two checkers meet there is none to measure."""

    def test_a_die_s_top_shows_its_square_outline(self) -> None:
        step = dice.PIP_STEP
        patch = face_patch(0.3, 0.0, [(-step, -step), (step, step)])
        assert dice._outline_reach(patch, two(0.3)) is not None

    @pytest.mark.parametrize("turn", [0.0, math.pi / 4])
    def test_where_two_checkers_meet_no_square_outline_shows(self, turn: float) -> None:
        assert dice._outline_reach(junction_patch(), two(turn)) is None


class TestSideShownBeyond:
    """The die's colour reaching beyond its top's edge, toward something to lean on, farther
    than a flat die's side shows there (:func:`dice._side_shown_beyond`)."""

    NEAR_WALL = (g.PLAY_WIDTH - 14.0, g.PLAY_HEIGHT / 2)
    """A die whose side 0 (+x) faces the frame's wall."""

    @staticmethod
    def evidence(
        face_mm: tuple[float, float],
        edges: tuple[float, float, float, float],
        predicted: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
        others: tuple[dice.FoundDie, ...] = (),
    ) -> float:
        around = dice._Around(empty_board(), np.eye(3), face_mm, 0.0, list(predicted), list(others))
        return dice._side_shown_beyond(edges, around)

    def test_a_side_shown_toward_a_wall_says_cocked(self) -> None:
        # a die leaning 15 degrees on the frame shows about 4 mm of its raised side
        assert self.evidence(self.NEAR_WALL, (12.0, 8.0, 8.0, 8.0)) > 0

    def test_the_side_a_flat_die_shows_the_camera_is_its_own(self) -> None:
        assert self.evidence(self.NEAR_WALL, (12.0, 8.0, 8.0, 8.0), (4.0, 0.0, 0.0, 0.0)) < 0

    def test_a_little_reach_beyond_the_edge_says_nothing(self) -> None:
        edge = 8.0 + dice.OUTLINE_SLACK * 0.8
        assert self.evidence(self.NEAR_WALL, (edge, 8.0, 8.0, 8.0)) < 0

    def test_a_side_shown_toward_nothing_says_nothing(self) -> None:
        open_space = ((g.BAR_RIGHT + g.PLAY_WIDTH) / 2, g.PLAY_HEIGHT / 2)
        assert self.evidence(open_space, (12.0, 8.0, 8.0, 8.0)) < 0

    def test_the_other_die_s_body_is_no_side_of_this_one(self) -> None:
        # two dice touching: the other's colour carries on past this one's edge
        x, y = (g.BAR_RIGHT + g.PLAY_WIDTH) / 2, g.PLAY_HEIGHT / 2
        reading = DieReading(4, True, "home", (0.0, 0.0), 1.0)
        other = dice.FoundDie(reading, (x + 17.0, y), g.DIE_SIZE, (x + 17.0, y), 1.0, (x, y))
        assert self.evidence((x, y), (12.0, 8.0, 8.0, 8.0), others=(other,)) < 0


class TestLeaningOnWhatWasNotSeen:
    def test_a_die_leaning_on_checkers_read_in_doubt_is_never_let_stand_surely(self) -> None:
        """A development frame (seed 5411): a 6 cocked 40 degrees against the black checkers
        on white's 1-point, which the reader doubted. Judged as leaning on nothing, it was
        settled flat as surely as its face, and the roll was accepted."""
        opening = Position.opening().to_absolute("white")
        calibration = render(random_scene(5411, opening))
        profile = calibrate(calibration.image, corners=calibration.truth["board_corners_px"])
        position = Checkers(
            (-4, 0, 0, 0, 0, 0, -2, 2, -2, 0, 0, 2, 0, -4, 0, 0, 0, 0, 5, 2, 0, 0, -3, 4),
            {"white": 0, "black": 0},
            {"white": 0, "black": 0},
        )
        dice_down = (DieSpec(6, rest="cocked"), DieSpec(2))
        frame = render(random_scene(5411, position, dice=dice_down, on_roll="white"))
        cocked = frame.truth["dice"][0]
        assert cocked["leaning_on"] == "checker" and not cocked["flat"]
        reading = read_frame(frame.image, profile, "white")
        die = nearest(reading, cocked)
        assert not die.flat or die.confidence < reader.CONFIDENCE_THRESHOLD
        assert not (reading.readable and reading.dice_valid)
