"""The looks that make a frame read as a photograph: a raised frame with inner walls and their
shadow, and a jointed hand above the board that casts its shadow away from the lamp."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np
import pytest

from companion import geometry as g
from companion.sim import DieSpec, Frame, lighting, occluders, render, walls
from companion.sim import board as board_model
from companion.sim import dice as dice_model
from companion.sim.board import Orientation
from companion.sim.camera import CameraSpec, make_camera
from companion.sim.scene import Scene
from companion.sim.shape import CANONICAL_SHAPE
from tests.sim_helpers import EMPTY

SMALL = (640, 360)


def grey(image: np.ndarray, u: float, v: float) -> float:
    """Mean brightness of the 3x3 pixels around ``(u, v)``."""
    col, row = round(u), round(v)
    return float(
        cv2.cvtColor(image[row - 1 : row + 2, col - 1 : col + 2], cv2.COLOR_BGR2GRAY).mean()
    )


def test_a_tilted_camera_sees_the_far_walls_in_shade() -> None:
    """Real frames stand 15-30 mm above the field: from 30 degrees of tilt the wall across
    the field shows as a band several pixels high, darker than the frame's top above it under
    a light from overhead."""
    assert 15.0 <= board_model.FRAME_HEIGHT <= 30.0
    scene = Scene(
        EMPTY,
        camera=CameraSpec(tilt=30, size=(1280, 720)),
        lighting="even",
        noise=0.0,
        style="tournament-cream",
    )
    frame = render(scene)
    orientation = Orientation(scene.white_home, CANONICAL_SHAPE)
    seen = 0
    for wall in walls._walls_in_world(orientation, CANONICAL_SHAPE):
        world, normal = wall
        if not walls._faces_camera(wall, frame.camera.position):
            continue  # its face is turned away from the camera
        tops = frame.camera.project_undistorted(world[2:])
        top = tops.mean(axis=0)
        foot = frame.camera.project_undistorted(world[:2]).mean(axis=0)
        along = (tops[1] - tops[0]) / np.linalg.norm(tops[1] - tops[0])
        across = (foot - top) - np.dot(foot - top, along) * along
        if np.hypot(*across) < 8.0:
            continue  # seen nearly edge-on: too thin to sample
        seen += 1
        face = (top + foot) / 2
        behind = world[:2, :2].mean(axis=0) - normal * 6.0
        lid = frame.camera.project_undistorted(np.array([[*behind, board_model.FRAME_HEIGHT]]))[0]
        shade = float(frame.image[round(face[1]), round(face[0])].mean())
        assert shade < 0.9 * grey(frame.image, *lid)
    assert seen >= 2


def test_the_walls_on_the_lamps_side_shade_the_field_beside_them() -> None:
    camera = make_camera(CameraSpec(size=(1280, 720)))  # shadow maps only: cheap at full size
    orientation = Orientation("bottom-right", CANONICAL_SHAPE)
    light = lighting.make_light("lamp", np.random.default_rng(1))
    middle_y = g.PLAY_HEIGHT / 2
    # the lamp low and far to the left of the board's left half (world = canonical here)
    x_left, _ = orientation.to_world(0.0, middle_y)
    light = replace(light, lamp=np.array([x_left - 600.0, middle_y, 500.0]))
    cast, corner = walls.frame_shadow(camera, orientation, CANONICAL_SHAPE, light)

    def coverage(field: np.ndarray, x: float) -> float:
        u, v = (
            camera.project_undistorted(np.array([[*orientation.to_world(x, middle_y), 0.0]]))[0]
            / lighting.SHADOW_SCALE
        )
        return float(field[round(v), round(u)])

    beside_lamp = coverage(cast, 10.0)
    across = coverage(cast, CANONICAL_SHAPE.bar_left - 10.0)
    assert beside_lamp > 0.8 and across < 0.05
    # the corner's soft darkening is there whatever the lamp (where the frame's top does not
    # hide the corner from the camera)
    assert coverage(corner, 3.0) > 0.3 and coverage(corner, 25.0) < 0.05
    # and never on the frame's top
    assert coverage(cast, -g.FRAME_WIDTH / 2) < 0.05


def _hand(height: float) -> occluders.Hand:
    return occluders.Hand(
        x=250.0,
        y=200.0,
        from_x=250.0,
        from_y=g.PLAY_HEIGHT + 500.0,
        height=height,
        skin=occluders.SKIN_TONES[1],
        sleeve=occluders.SLEEVES[0],
        spread=0.04,
    )


LAMP_LIT = Scene(
    EMPTY, camera=CameraSpec(size=SMALL), lighting="lamp", noise=0.0, seed=3, light_seed=3
)
"""The scene each hand's shadow is measured in."""


@lru_cache(maxsize=1)
def _without_hand() -> np.ndarray:
    """:data:`LAMP_LIT` with no hand, rendered once for every hand measured against it."""
    return render(LAMP_LIT).image


def _shadow_shift(height: float) -> float:
    """How far (px) the darkening a hand at ``height`` leaves beside itself lies from the hand,
    along the image direction away from the lamp."""
    frame = render(replace(LAMP_LIT, hand=_hand(height)))
    assert frame.hand_mask is not None
    hand = cv2.dilate(frame.hand_mask, np.ones((9, 9), np.uint8)) > 0
    darker = (_without_hand().astype(float) - frame.image.astype(float)).mean(axis=2)
    darker[hand | (darker < 2.0)] = 0.0
    assert darker.sum() > 2000.0  # a shadow worth the name
    rows, cols = np.nonzero(frame.hand_mask > 127)
    hand_centre = np.array([cols.mean(), rows.mean()])
    weights_rows, weights_cols = np.nonzero(darker)
    weights = darker[weights_rows, weights_cols]
    shadow_centre = np.array(
        [np.average(weights_cols, weights=weights), np.average(weights_rows, weights=weights)]
    )
    lamp = np.array(frame.truth["lighting"]["lamp_mm"])  # type: ignore[index]
    orientation = Orientation(LAMP_LIT.white_home, CANONICAL_SHAPE)
    wx, wy = orientation.to_world(250.0, 200.0)
    away = np.array([wx, wy]) - lamp[:2]
    away /= np.linalg.norm(away)
    ends = frame.camera.project_undistorted(
        np.array([[wx, wy, 0.0], [wx + away[0] * 50, wy + away[1] * 50, 0.0]])
    )
    direction = (ends[1] - ends[0]) / np.linalg.norm(ends[1] - ends[0])
    return float(np.dot(shadow_centre - hand_centre, direction))


def test_a_hands_shadow_falls_away_from_the_lamp_and_farther_the_higher_it_is() -> None:
    low = _shadow_shift(40.0)
    high = _shadow_shift(110.0)
    assert low > 0.0
    assert high > low + 3.0


def test_fingers_bend_at_their_joints_and_dip_toward_the_board() -> None:
    hand = _hand(80.0)
    _, digits = occluders._build(hand)
    fingers = digits[1:]
    assert len(fingers) == 4
    for centres, radii, _ in fingers:
        assert len(centres) == 4  # knuckle, two finger joints, tip
        steps = np.diff(centres, axis=0)
        pitch = np.arctan2(-steps[:, 2], np.hypot(steps[:, 0], steps[:, 1]))
        assert np.all(np.diff(pitch) > 0)  # each joint bends the finger further down
        assert centres[-1, 2] < centres[0, 2] - 5.0
        assert np.all(np.diff(radii) < 0)  # thinner toward the tip
    # every bone is drawn as a part of its own, so the silhouette bends where the finger does
    drawn = occluders.parts(hand)
    assert sum(len(c) == 2 and c[0, 2] > c[1, 2] for c, _, _ in drawn) >= 12


@pytest.mark.parametrize("pose", ["checker", "cup"])
def test_holding_hands_are_jointed_too(pose: str) -> None:
    hand = replace(_hand(90.0), pose=pose)  # type: ignore[arg-type]
    every, digits = occluders._build(hand)
    assert len(digits) == 5
    bones = sum(len(radii) - 1 for _, radii, _ in digits)
    assert len(every) == 3 + bones


@pytest.mark.parametrize("white_home", ["bottom-right", "bottom-left", "top-left", "top-right"])
def test_each_wall_shows_the_frame_behind_its_own_edge(white_home: str) -> None:
    """A wall is the frame's top folded down, so it shows the texture just behind its own edge
    in the world, however the board is turned: on a board painted frame-blue and field-red,
    every wall the camera sees squarely is blue (a mirrored board once showed the field of the
    case's other side on some of them)."""
    shape = CANONICAL_SHAPE
    orientation = Orientation(white_home, shape)  # type: ignore[arg-type]
    width, height = board_model.texture_size(shape)
    texture = np.zeros((height, width, 3), np.uint8)
    texture[:] = (255, 0, 0)
    for hole in board_model.holes(shape):
        world = orientation.to_world_array(np.array([hole[:2], hole[2:]], np.float64))
        (u0, v0), (u1, v1) = np.round(
            (world - [board_model.OBJECT_LEFT, board_model.OBJECT_TOP])
            * board_model.TEXTURE_PX_PER_MM
        ).astype(int)
        texture[min(v0, v1) : max(v0, v1), min(u0, u1) : max(u0, u1)] = (0, 0, 255)
    camera = make_camera(CameraSpec(tilt=40, size=SMALL), shape)
    light = lighting.make_light("even", np.random.default_rng(1))
    image = np.zeros((SMALL[1], SMALL[0], 3), np.uint8)
    walls.draw_walls(image, camera, orientation, shape, texture, light, np.array([255.0, 0, 0]))
    seen = 0
    for world, _ in walls._walls_in_world(orientation, shape):
        middle = camera.project_undistorted(world.mean(axis=0)[None])[0]
        col, row = round(middle[0]), round(middle[1])
        blue, _, red = image[row - 1 : row + 2, col - 1 : col + 2].reshape(-1, 3).mean(axis=0)
        if blue + red < 40.0 or walls._thickness(camera.project_undistorted(world)) < 6.0:
            continue  # turned away from the camera, or too thin to sample its middle
        seen += 1
        assert blue > 4 * red, world[:2]
    assert seen >= 4


@lru_cache(maxsize=1)
def _die_under_a_palm() -> tuple[Scene, Frame, Frame]:
    """A tilted frame with two dice, then the same frame with a hand reaching from the near
    side whose palm lies over the first die (fingertips 40 mm beyond it)."""
    scene = Scene(
        EMPTY,
        dice=(DieSpec(5), DieSpec(2)),
        on_roll="white",
        camera=CameraSpec(tilt=20, size=SMALL),
        seed=3,
    )
    bare = render(scene)
    die = bare.dice[0]
    hand = occluders.Hand(
        die.x,
        die.y - 40,
        die.x,
        die.y + 600,
        60.0,
        occluders.SKIN_TONES[0],
        occluders.SLEEVES[0],
        0.03,
    )
    return scene, bare, render(replace(scene, hand=hand))


def test_the_truth_says_how_much_of_each_die_a_hand_hides() -> None:
    """``hidden`` is the share of the die's outline the hand covers: the die under the palm
    is mostly hidden (its centre's pixel is under the hand), the other, far from the hand,
    not at all; with no hand, no die is hidden. The hand moves no die."""
    _, bare, covered = _die_under_a_palm()
    assert [d["hidden"] for d in bare.truth["dice"]] == [0.0, 0.0]
    assert [(d.x, d.y) for d in covered.dice] == [(d.x, d.y) for d in bare.dice]
    under, far = covered.truth["dice"]
    assert under["hidden"] > 0.5 and far["hidden"] == 0.0
    u, v = (round(c) for c in under["center_px"])
    assert covered.hand_mask is not None and covered.hand_mask[v, u] > 127
    u, v = (round(c) for c in far["center_px"])
    assert covered.hand_mask[v, u] == 0
    assert not covered.truth["readable"]


def test_a_die_partly_under_the_fingertips_is_partly_hidden() -> None:
    """Fingertips ending at the die's centre cover part of it, less than the palm does;
    ``hidden`` agrees with the hand's mask over the die's own outline (the outline's convex
    hull filled at whole pixels, so to within 0.06)."""
    scene, bare, covered = _die_under_a_palm()
    die = bare.dice[0]
    hand = occluders.Hand(
        die.x, die.y, die.x, die.y + 600, 60.0, occluders.SKIN_TONES[0], occluders.SLEEVES[0], 0.03
    )
    frame = render(replace(scene, hand=hand))
    share = frame.truth["dice"][0]["hidden"]
    assert 0.0 < share < covered.truth["dice"][0]["hidden"]
    orientation = Orientation(scene.white_home, scene.shape)
    outline = frame.camera.project(dice_model.outline_world(die, orientation))
    hull = cv2.convexHull(outline.astype(np.float32))
    inside = np.zeros(frame.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(hull).astype(np.int32), 255)
    assert frame.hand_mask is not None
    seen = np.count_nonzero((inside > 0) & (frame.hand_mask > 127)) / np.count_nonzero(inside)
    assert share == pytest.approx(seen, abs=0.06)
    assert render(replace(scene, hand=hand)).truth == frame.truth
