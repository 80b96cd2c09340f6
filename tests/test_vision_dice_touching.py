"""A die touching something may lean on it: a flat die's rest is called sure only when nothing
it could lean on lies beyond any of its sides (:func:`companion.vision.dice._support_beside`),
when the faint checker colour there is no checker's body (a shadow, a point's edge:
:func:`companion.vision.dice._checker_in_reach`), or when the walls it touches lie at its top's
edges, where a leaning die's cannot (:func:`companion.vision.dice._flat_against_walls`); a die
leaning on a checker or on the frame is never let stand as flat surely. A die whose top shows
squashed as only a steep tilt squashes it is cocked surely, even where it is unclear whether it
rests on a checker or leans beside one (:data:`companion.vision.dice.SURE_SQUASH`). A die the
frame's colours show alone, beside a checker the colour of the board beneath it, is left unsure
where the reader counted a checker, or doubts a point, within its reach
(:func:`companion.vision.reader.settle_free_dice`).

Frames are rendered at 1280x720 on development seeds' cameras, boards and lights, the dice
placed by the simulator: one cocked against a checker or the frame at a given tilt (or lying
flat against one), the other flat in open space.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from companion import geometry as g
from companion.sim import Checkers, DieSpec, InvalidScene, random_scene, render
from companion.sim.dice import flat_pose
from companion.vision import dice, reader
from companion.vision.calibrate import calibrate
from companion.vision.profile import Profile
from companion.vision.reading import DieReading
from tests.test_vision_board import OPENING
from tests.test_vision_dice import SEED as DICE_SEED
from tests.test_vision_dice import SETUP as DICE_SETUP

SEEDS = (5310, 7336)
STEEP_SEED = 5304
"""A development seed whose checkers a steeply cocked die leans on fill part of the ring round
it: whether it rests on a checker or beside one is unclear
(:data:`companion.vision.dice.ON_CHECKER_UNCLEAR`)."""
SURE = 0.5


@lru_cache(maxsize=len(SEEDS) + 2)
def profile(seed: int) -> Profile:
    frame = render(random_scene(seed, OPENING))
    corners: Any = frame.truth["board_corners_px"]
    return calibrate(frame.image, corners=corners)


def read_first_die(seed: int, spec: DieSpec) -> tuple[DieReading | None, dict[str, Any]]:
    """The reading nearest the first die's truth (None when none lies within 20 px)."""
    try:
        frame = render(random_scene(seed, OPENING, dice=(spec, DieSpec(5)), on_roll="white"))
    except InvalidScene:
        pytest.skip(f"seed {seed} has no room for {spec}")
    dice_truth: Any = frame.truth["dice"]
    truth: dict[str, Any] = dice_truth[0]
    reading = reader.read_frame(frame.image, profile(seed), "white")
    near = [d for d in reading.dice if math.dist(d.center_px, truth["center_px"]) < 20]
    return (
        min(near, key=lambda d: math.dist(d.center_px, truth["center_px"])) if near else None
    ), truth


TILTS = [(5, 15.0), (4, 20.0), (2, 25.0), (6, 30.0), (3, 35.0), (1, 40.0)]


def assert_surely_flat(die: DieReading | None, value: int, what: str) -> None:
    assert die is not None, f"{what} was not found"
    assert die.value == value
    assert die.flat and die.confidence >= SURE, f"{what} left unsure: {die}"


class TestLeaning:
    @pytest.mark.parametrize("support", ["checker", "frame"])
    @pytest.mark.parametrize("seed", SEEDS)
    @pytest.mark.parametrize(("value", "tilt"), TILTS)
    def test_a_die_leaning_on_a_checker_or_the_frame_is_never_read_surely_flat(
        self, seed: int, value: int, tilt: float, support: Any
    ) -> None:
        die, truth = read_first_die(seed, DieSpec(value, rest="cocked", tilt=tilt, support=support))
        assert not truth["flat"] and truth["leaning_on"] == support
        if die is not None:
            assert not (die.flat and die.confidence >= SURE), (
                f"a die leaning {tilt} degrees on the {support} let stand as flat: {die}"
            )


class TestAgainstTheFrame:
    def test_a_flat_die_touching_the_frame_is_read_surely_flat(self) -> None:
        # development 7336: lying square against the frame's wall, in the open field between
        # the points' tips; its top's edge lies over the wall's foot, where a leaning die's
        # could not (:func:`companion.vision.dice._flat_against_walls`)
        x = g.PLAY_WIDTH - g.DIE_SIZE / 2 - 0.2
        die, truth = read_first_die(7336, DieSpec(3, pose=flat_pose(3, x, 220.0, 0.0, 0.0)))
        assert truth["flat"] and truth["leaning_on"] is None
        assert_surely_flat(die, 3, "the flat die against the frame")


class TestLyingAgainstAChecker:
    @pytest.mark.parametrize("seed", SEEDS)
    @pytest.mark.parametrize("value", [3, 5, 6])
    def test_a_flat_die_against_a_checker_is_read_flat_never_surely_cocked(
        self, seed: int, value: int
    ) -> None:
        die, truth = read_first_die(seed, DieSpec(value, touching="checker"))
        assert truth["flat"]
        assert die is not None, "the die touching a checker was not found"
        assert die.value == value
        assert die.flat or die.confidence < SURE, f"a flat die called cocked surely: {die}"


def found_by_the_dice_reader(seed: int, spec: DieSpec) -> tuple[dice.FoundDie, dict[str, Any]]:
    """The dice reader's own reading of the first die (before the reader weighs the points
    read round it), and the die's truth."""
    frame = render(random_scene(seed, OPENING, dice=(spec, DieSpec(5)), on_roll="white"))
    dice_truth: Any = frame.truth["dice"]
    truth: dict[str, Any] = dice_truth[0]
    known = profile(seed)
    view = reader._plane_view(frame.image, known.image_to_plane, known)
    maps = reader.frame_maps(view, known)
    found = dice.find_dice(frame.image, known.image_to_plane, maps)
    return min(found, key=lambda d: math.dist(d.reading.center_px, truth["center_px"])), truth


class TestFaintCheckerColourBesideAFlatDie:
    def test_a_flat_die_with_no_checker_body_in_reach_is_read_surely_flat(self) -> None:
        # development 5329: something beyond a side of the die shows faintly in a checker's
        # colour, but fills no checker's disc within reach of it
        # (:func:`companion.vision.dice._checker_in_reach`): nothing there holds it up
        die, truth = found_by_the_dice_reader(5329, DieSpec(4))
        assert truth["flat"] and truth["leaning_on"] is None
        assert_surely_flat(die.reading, 4, "the flat die beside faint checker colour")

    def test_the_reader_leaves_it_unsure_beside_points_it_doubts(self) -> None:
        """On this dark board the reader doubts the points beside the die (dark checkers on
        dark points would not show), and the die's own look round it, by the same colours, is
        as blind there: its rest is left unsure (the frame is unreadable anyway)."""
        die, _ = read_first_die(5329, DieSpec(4))
        assert die is not None and die.value == 4 and die.flat
        assert die.confidence < SURE


class TestSteeplyCockedWhereItsRestIsUnclear:
    @pytest.mark.parametrize(("value", "tilt"), [(4, 35.0), (5, 40.0), (6, 35.0)])
    def test_a_die_whose_top_shows_squashed_is_read_surely_cocked(
        self, value: int, tilt: float
    ) -> None:
        # development 5304: leaning on a checker of a stack, checker colour over part of the
        # ring round it; its top's pip grid measures 0.81-0.83, as no flat die's does: cocked
        # on the checker or beside it, it is cocked either way (a roll to do again)
        spec = DieSpec(value, rest="cocked", tilt=tilt, support="checker")
        die, truth = read_first_die(STEEP_SEED, spec)
        assert not truth["flat"]
        assert die is not None, "the cocked die was not found"
        assert die.value == value
        assert not die.flat and die.confidence >= SURE, f"the cocked die left unsure: {die}"

    @pytest.mark.parametrize("value", [4, 5, 6])
    def test_a_flat_die_against_a_checker_there_is_never_voided_surely(self, value: int) -> None:
        die, truth = read_first_die(STEEP_SEED, DieSpec(value, touching="checker"))
        assert truth["flat"]
        assert die is not None, "the die touching a checker was not found"
        assert die.flat or die.confidence < SURE, f"a flat die called cocked surely: {die}"


class TestADieLeaningOnACheckerTheBoardHides:
    def test_is_never_read_surely_flat(self) -> None:
        # development 6035: a three leaning 11 degrees on a gold checker on a wooden board; the
        # checker barely differs from the wood, so round the die nothing shows to lean on
        # (FoundDie.alone), but the reader counted the checker there
        rng = np.random.default_rng(6035)
        value, tilt = int(rng.integers(1, 7)), float(rng.uniform(10, 15))
        board, other = Checkers.random(rng), DieSpec(int(rng.integers(1, 7)))
        spec = DieSpec(value, rest="cocked", tilt=tilt, support="checker")
        frame = render(random_scene(6035, board, dice=(spec, other), on_roll="white"))
        dice_truth: Any = frame.truth["dice"]
        truth: dict[str, Any] = dice_truth[0]
        assert not truth["flat"] and truth["leaning_on"] == "checker"
        reading = reader.read_frame(frame.image, profile(6035), "white")
        near = [d for d in reading.dice if math.dist(d.center_px, truth["center_px"]) < 20]
        assert near, "the leaning die was not found"
        die = near[0]
        assert not (die.flat and die.confidence >= SURE), f"a cocked die let stand: {die}"
        assert not reading.readable or reading.dice_valid is False


END_SETUP: dict[str, Any] = {**DICE_SETUP, "tilt": 30.0}
"""The dice tests' setup, from a camera tilted steeply enough that a die's top shows well
off its footprint."""


@lru_cache(maxsize=1)
def end_profile() -> Profile:
    frame = render(random_scene(DICE_SEED, OPENING, **END_SETUP))
    corners: Any = frame.truth["board_corners_px"]
    return calibrate(frame.image, corners=corners)


class TestAtTheEndOfAStack:
    def test_a_die_beyond_a_stack_s_last_checker_is_no_seam_of_it(self) -> None:
        # a five 3 mm beyond black's three on point 17: read with the die unmasked, the stack
        # took it for its fourth checker and the die was dropped as the seam of the two; the
        # footprint lies clear of the three, and the stack is left in doubt
        (x, y0, _), (_, y, _) = g.stack_centres(17, 3)[1:3]
        out = 1.0 if y > y0 else -1.0
        five = DieSpec(5, pose=flat_pose(5, x, y + out * (18 + 8 + 3), 0.2, 0.0))
        three = DieSpec(3, pose=flat_pose(3, g.BAR_RIGHT + 100, 220.0, 0.5, 0.0))
        frame = render(
            random_scene(DICE_SEED, OPENING, dice=(five, three), on_roll="white", **END_SETUP)
        )
        reading = reader.read_frame(frame.image, end_profile(), "white")
        truth: Any = frame.truth["dice"]
        near = [d for d in reading.dice if math.dist(d.center_px, truth[0]["center_px"]) < 20]
        assert [d.value for d in near] == [5]
        assert reading.points[16] == -3 or reading.confidence["point 17"] < SURE


SLANT_SEEDS = (5482, 5494)
"""Development seeds whose boards, seen from a camera tilted 30 degrees, put a die touching a
checker where the camera looks at it steeply enough (its slope there about 0.55 or more) for
the die's top to show any lean (:func:`companion.vision.lean.cannot_lean`)."""


@lru_cache(maxsize=len(SLANT_SEEDS))
def slant_profile(seed: int) -> Profile:
    frame = render(random_scene(seed, OPENING, tilt=30.0))
    corners: Any = frame.truth["board_corners_px"]
    return calibrate(frame.image, corners=corners)


def read_slanted(seed: int, spec: DieSpec) -> tuple[DieReading | None, dict[str, Any]]:
    """The reading nearest the first die's truth, the camera tilted 30 degrees."""
    try:
        frame = render(
            random_scene(seed, OPENING, dice=(spec, DieSpec(3)), on_roll="white", tilt=30.0)
        )
    except InvalidScene:
        pytest.skip(f"seed {seed} has no room for {spec}")
    truth: Any = frame.truth["dice"][0]
    reading = reader.read_frame(frame.image, slant_profile(seed), "white")
    near = [d for d in reading.dice if math.dist(d.center_px, truth["center_px"]) < 20]
    return min(near, key=lambda d: math.dist(d.center_px, truth["center_px"]), default=None), truth


class TestATopThatCannotLean:
    @pytest.mark.parametrize("seed", SLANT_SEEDS)
    @pytest.mark.parametrize("value", [5, 6])
    def test_a_flat_die_against_a_checker_seen_at_a_slant_is_read_surely_flat(
        self, seed: int, value: int
    ) -> None:
        # its pips lie on a square grid, and a lean of 10 degrees or more toward anything
        # would stretch or shear it by 0.03 or more at this slope; before, a die touching a
        # checker was always left unsure
        die, truth = read_slanted(seed, DieSpec(value, touching="checker"))
        assert truth["flat"]
        assert_surely_flat(die, value, "the flat die against a checker")

    @pytest.mark.parametrize("seed", SLANT_SEEDS)
    @pytest.mark.parametrize(("value", "tilt"), [(5, 10.0), (6, 12.0), (4, 15.0), (5, 25.0)])
    def test_a_shallow_lean_seen_there_is_never_let_stand(
        self, seed: int, value: int, tilt: float
    ) -> None:
        spec = DieSpec(value, rest="cocked", tilt=tilt, support="checker")
        die, truth = read_slanted(seed, spec)
        assert not truth["flat"]
        if die is None:
            pytest.skip("the leaning die was not found: nothing to judge")
        assert not (die.flat and die.confidence >= SURE), (
            f"a die leaning {tilt} degrees on a checker let stand as flat: {die}"
        )
