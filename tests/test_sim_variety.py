"""Appearance variety and hand poses: the look changes, the truth does not."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from companion import geometry as g
from companion.rules.position import Position
from companion.sim import Checkers, random_scene, render
from companion.sim.occluders import POSES, Hand, random_hand, vary_hand
from companion.sim.sequences import render_game
from companion.sim.styles import EXTRA_BOARD_STYLES, UnknownStyle

SIZE = (320, 180)
OPENING = Checkers.of(Position.opening().to_absolute("white"))
STACKED = Checkers(
    (2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, -2),
    {"white": 0, "black": 0},
    {"white": 0, "black": 0},
)


def test_variety_changes_the_pixels_but_not_the_reading() -> None:
    plain = render(random_scene(31, OPENING, size=SIZE))
    varied = render(
        random_scene(31, OPENING, size=SIZE, vary=True, style=plain.truth["style"]["board"])
    )
    assert "variation" not in plain.truth and "variation" in varied.truth
    for key in ("readable", "points", "bar", "off", "board_corners_px", "orientation"):
        assert varied.truth[key] == plain.truth[key]
    difference = np.abs(varied.image.astype(int) - plain.image.astype(int)).mean()
    assert difference > 5


def test_the_same_seed_gives_the_same_varied_frame() -> None:
    first = render(random_scene(8, OPENING, size=SIZE, vary=True))
    again = render(random_scene(8, OPENING, size=SIZE, vary=True))
    assert np.array_equal(first.image, again.image)
    other = render(random_scene(9, OPENING, size=SIZE, vary=True))
    assert other.truth["variation"] != first.truth["variation"]


def test_varied_sets_reach_boards_a_plain_seed_never_draws() -> None:
    plain = {random_scene(s, OPENING).style for s in range(40)}
    varied = {random_scene(s, OPENING, vary=True).style for s in range(40)}
    assert not plain & set(EXTRA_BOARD_STYLES)
    assert varied & set(EXTRA_BOARD_STYLES)


def test_extra_styles_can_be_named_and_unknown_names_list_them() -> None:
    frame = render(random_scene(3, OPENING, size=SIZE, style="walnut", checker_set="red-black"))
    assert frame.truth["style"]["board"] == "walnut"
    with pytest.raises(UnknownStyle, match="walnut"):
        random_scene(3, OPENING, style="marble")


def test_a_recorded_game_keeps_one_look() -> None:
    frames = list(render_game(4, turns=1, size=(160, 90), vary=True))
    looks = {str(f.frame.truth["variation"]) for f in frames}
    assert len(looks) == 1


@pytest.mark.parametrize("seed", range(8))
def test_uneven_stacks_stay_on_their_points_without_overlapping(seed: int) -> None:
    frame = render(random_scene(seed, STACKED, size=SIZE, vary=True, stack="line"))
    diameter = frame.truth["variation"]["checker_diameter_mm"]
    assert 0.88 * g.CHECKER_DIAMETER <= diameter <= 1.03 * g.CHECKER_DIAMETER
    for point in range(1, 25):
        stack = sorted(
            (c for c in frame.checkers if c.place == "point" and c.point == point),
            key=lambda c: abs(c.y - g.point_shape(point).base_y),
        )
        if not stack:
            continue
        assert all(math.isclose(2 * c.radius, diameter, abs_tol=0.01) for c in stack)
        x0, y0, x1, y1 = g.point_shape(point).region()
        for checker in stack:
            assert x0 <= checker.x <= x1 and y0 <= checker.y <= y1
        for a, b in itertools.pairwise(stack):
            assert math.dist((a.x, a.y), (b.x, b.y)) >= 2 * a.radius - 0.01


def test_a_plain_hand_is_the_hand_it_always_was() -> None:
    hand = random_hand(np.random.default_rng(5), True)
    assert hand.pose == "reaching"
    assert hand == random_hand(np.random.default_rng(5), True)


def test_varied_hands_take_every_pose() -> None:
    poses = {
        vary_hand(random_hand(rng, True), rng).pose for rng in map(np.random.default_rng, range(30))
    }
    assert poses == set(POSES)
    beside = {
        vary_hand(random_hand(rng, False), rng, over_board=False).pose
        for rng in map(np.random.default_rng, range(30))
    }
    assert "checker" not in beside


@pytest.mark.parametrize("pose", POSES)
def test_what_a_hand_holds_is_part_of_the_occluder(pose: str) -> None:
    template = random_hand(np.random.default_rng(3), True)
    hand: Hand = replace(
        template, pose=pose, x=150.0, y=330.0, from_x=180.0, from_y=940.0, height=50.0
    )  # type: ignore[arg-type]
    frame = render(random_scene(6, OPENING, size=(640, 360), hand=hand, tilt=0.0))
    assert frame.truth["readable"] is False
    assert frame.truth["occluders"][0]["pose"] == pose
    assert frame.hand_mask is not None
    # the hand covers the spot it holds or reaches for, just short of the fingertips
    world = np.array([[151.2, 355.0, 0.0]])
    u, v = frame.camera.project(world)[0]
    assert frame.hand_mask[int(v), int(u)] > 127
