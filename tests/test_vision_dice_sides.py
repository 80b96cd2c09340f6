"""A flat die seen from a low camera shows, besides its top, the side facing the camera: wide,
and with pips of its own. Those pips are never the die's value: the top lies beyond them, away
from the camera, and is read there (the read of the side alone made a flat two a three and a
flat six a two or a three, surely, on development seed 7336's look).

Frames are rendered at 1280x720 with seed 7336's camera (tilted 34 degrees), board and light,
on an empty board: the die under test lies in the far half, where a flat die's side facing the
camera shows about 12 mm wide, and a five lies in open space near the camera.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pytest

from companion.rules.position import Position
from companion.sim import DieSpec, random_scene, render
from companion.sim.dice import flat_pose
from companion.vision import dice, reader
from companion.vision.calibrate import calibrate
from companion.vision.plane import camera_heights
from companion.vision.profile import Profile
from companion.vision.reading import Reading
from tests.sim_helpers import EMPTY

SEED = 7336
FAR = (440.5, 147.0)
"""Where the die under test lies (canonical mm): its side facing the camera shows wide."""
NEAR = (300.0, 300.0)


@lru_cache(maxsize=1)
def profile() -> Profile:
    opening = Position.opening().to_absolute("white")
    frame = render(random_scene(SEED, opening))
    corners: Any = frame.truth["board_corners_px"]
    return calibrate(frame.image, corners=corners)


def read_far_die(value: int, turn_degrees: float) -> tuple[Reading, list[dict[str, Any]]]:
    specs = (
        DieSpec(value, pose=flat_pose(value, *FAR, math.radians(turn_degrees), 0.0)),
        DieSpec(5, pose=flat_pose(5, *NEAR, 0.3, 0.0)),
    )
    frame = render(random_scene(SEED, EMPTY, dice=specs, on_roll="white"))
    truth: Any = frame.truth["dice"]
    return reader.read_frame(frame.image, profile(), "white"), list(truth)


class TestSideShownToTheCamera:
    @pytest.mark.parametrize(("value", "turn"), [(2, 0.0), (6, 90.0), (6, 180.0), (6, 270.0)])
    def test_a_flat_die_is_read_by_its_top_not_the_side_the_camera_sees(
        self, value: int, turn: float
    ) -> None:
        reading, truth = read_far_die(value, turn)
        near = [d for d in reading.dice if math.dist(d.center_px, truth[0]["center_px"]) < 25]
        assert len(near) == 1, f"the far die ({value}) read as {reading.dice}"
        assert near[0].value == value
        wrong = [d for d in reading.dice if d.value not in (value, 5)]
        assert not wrong, f"a value no die shows was read: {wrong}"


class TestWhereASideShows:
    """The geometry behind it, on the same camera."""

    @staticmethod
    def camera() -> Any:
        image_to_plane = profile().image_to_plane
        return camera_heights(image_to_plane, (1280, 720)).camera

    def test_a_side_read_points_back_to_its_top(self) -> None:
        camera = self.camera()
        top = dice._top_beyond(camera, (440.5, 160.5), 16.0)
        assert top is not None
        # beyond the side, away from the camera (which stands past the board's near edge)
        assert top[1] < 160.5
        assert dice._side_face_of((440.5, 160.5), top, camera, 16.0)

    def test_a_top_is_no_side_of_a_face_nearer_the_camera(self) -> None:
        camera = self.camera()
        top = dice._top_beyond(camera, (440.5, 160.5), 16.0)
        assert top is not None
        assert not dice._side_face_of(top, (440.5, 160.5), camera, 16.0)
        assert not dice._side_face_of((440.5, 160.5), (440.5, 160.5), camera, 16.0)

    def test_no_side_is_looked_for_below_the_camera(self) -> None:
        # straight under the camera a flat die shows no side at all
        camera = self.camera()
        below = (float(camera.position[0]), float(camera.position[1]))
        assert dice._top_beyond(camera, below, 16.0) is None
