"""A board or camera nudged after calibration: the reader follows the board, frame by frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.sim import random_scene, render
from companion.vision import nudge
from companion.vision.reader import read_frame
from tests.test_vision_sim import SEED, SETUP, STACKS, profile_for, same_board

TILT = 10.0


def camera_turned_by(degrees: float) -> tuple[object, dict[str, object]]:
    """A frame of :data:`STACKS` with the camera turned a little since calibration."""
    # the camera's turn at calibration, from the scene itself (no need to draw it)
    turned = random_scene(SEED, STACKS, tilt=TILT, **SETUP).camera.rotation + degrees
    frame = render(random_scene(SEED, STACKS, tilt=TILT, rotation=turned, **SETUP))
    return read_frame(frame.image, profile_for(SEED, TILT)), frame.truth


@pytest.mark.parametrize("degrees", [0.8, -1.5])
def test_a_turned_camera_still_reads_the_board(degrees: float) -> None:
    reading, truth = camera_turned_by(degrees)
    assert reading.readable, reading.unreadable  # type: ignore[attr-defined]
    assert same_board(reading, truth)  # type: ignore[arg-type]


def test_a_board_moved_far_is_never_read_as_if_it_had_not() -> None:
    """Beyond a nudge the reader does not read a board it no longer knows where to find."""
    frame = render(random_scene(SEED, STACKS, tilt=TILT, **SETUP))
    moved = cv2.warpAffine(frame.image, np.float32([[1, 0, 70], [0, 1, 25]]), (1280, 720))
    reading = read_frame(moved, profile_for(SEED, TILT))
    assert not reading.readable


def test_the_measured_motion_matches_the_turn() -> None:
    profile = profile_for(SEED, TILT)
    calibrated = random_scene(SEED, STACKS, tilt=TILT, **SETUP).camera.rotation
    turned = render(
        random_scene(
            SEED,
            STACKS,
            tilt=TILT,
            rotation=calibrated + 1.5,
            **SETUP,
        )
    )
    from companion.vision import reader

    view = reader.to_lab(
        reader.warp(
            turned.image,
            reader.view_homography(profile.image_to_plane, (1280, 720)),
            reader.VIEW_SCALE,
        )
    )
    motion = nudge.board_motion(reader._small_reference(profile.reference), view, 1.0)
    assert motion is not None
    assert abs(abs(nudge.turn_degrees(motion)) - 1.5) < 0.3
