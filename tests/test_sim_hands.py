"""The looks that make a frame read as a photograph: a raised frame with inner walls and their
shadow, and a jointed hand above the board that casts its shadow away from the lamp."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion import geometry as g
from companion.sim import Checkers, lighting, occluders, render, walls
from companion.sim import board as board_model
from companion.sim.board import Orientation
from companion.sim.camera import CameraSpec, make_camera
from companion.sim.scene import Scene
from companion.sim.shape import CANONICAL_SHAPE

SMALL = (640, 360)
EMPTY = Checkers(tuple([0] * 24), {"white": 0, "black": 0}, {"white": 0, "black": 0})


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
    camera_at = frame.camera.position[:2]
    for quad, normal in board_model.walls(CANONICAL_SHAPE):
        world = quad.copy()
        world[:, :2] = orientation.to_world_array(quad[:, :2])
        facing = np.array(normal) * [
            -1 if orientation.flip_x else 1,
            -1 if orientation.flip_y else 1,
        ]
        if float(np.dot(facing, camera_at - world[:, :2].mean(axis=0))) <= 0:
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
        middle = (quad[0] + quad[1]) / 2
        behind = middle[:2] - np.array(normal) * 6.0
        lid = frame.camera.project_undistorted(
            np.array([[*orientation.to_world(*behind), board_model.FRAME_HEIGHT]])
        )[0]
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


def _shadow_shift(height: float) -> tuple[float, np.ndarray]:
    """How far (px) the darkening a hand at ``height`` leaves beside itself lies from the hand,
    along the image direction away from the lamp; and that direction."""
    scene = Scene(
        EMPTY, camera=CameraSpec(size=SMALL), lighting="lamp", noise=0.0, seed=3, light_seed=3
    )
    without = render(scene)
    frame = render(replace(scene, hand=_hand(height)))
    assert frame.hand_mask is not None
    hand = cv2.dilate(frame.hand_mask, np.ones((9, 9), np.uint8)) > 0
    darker = (without.image.astype(float) - frame.image.astype(float)).mean(axis=2)
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
    orientation = Orientation(scene.white_home, CANONICAL_SHAPE)
    wx, wy = orientation.to_world(250.0, 200.0)
    away = np.array([wx, wy]) - lamp[:2]
    away /= np.linalg.norm(away)
    ends = frame.camera.project_undistorted(
        np.array([[wx, wy, 0.0], [wx + away[0] * 50, wy + away[1] * 50, 0.0]])
    )
    direction = (ends[1] - ends[0]) / np.linalg.norm(ends[1] - ends[0])
    return float(np.dot(shadow_centre - hand_centre, direction)), direction


def test_a_hands_shadow_falls_away_from_the_lamp_and_farther_the_higher_it_is() -> None:
    low, _ = _shadow_shift(40.0)
    high, _ = _shadow_shift(110.0)
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
