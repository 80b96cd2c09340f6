"""Boards with a strip of field between the frame and the points' bases.

Many real boards leave one (a few millimetres to 15 mm): every checker then lies that much
nearer the centre than on the canonical board, and a stack of five read along canonical rows
looks like more. Calibration measures the strip and the reader sees the board through it.
The simulator draws the strip with exact truth (``field_margins``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion import geometry as g
from companion.rules import position_id
from companion.rules.position import Position
from companion.sim import Checkers, DieSpec, random_scene, render
from companion.sim.shape import Margins
from companion.vision import reader
from companion.vision.calibrate import calibrate
from companion.vision.checkers import RegionReading
from companion.vision.plane import CANONICAL_LAYOUT, Layout
from companion.vision.profile import Profile, ProfileError
from companion.vision.reader import read_frame
from companion.vision.reading import Counts
from tests.sim_helpers import sure_points
from tests.test_vision_honesty import found_die

OPENING = Position.opening().to_absolute("white")
MIDGAME = Checkers.of(position_id.decode("hWfhgBLg+SNgQA").to_absolute("white"))
"""Seven checkers on one point, a checker on the bar, stacks of five and more."""
SETUP: dict[str, Any] = {
    "style": "green-felt",
    "checker_set": "white-black",
    "checker_look": "plain",
    "lighting": "even",
    "k1": 0.0,
    "tilt": 20.0,
}
SEED = 6103


def scene_frame(board: Any, margins: Margins, **extra: Any) -> Any:
    return render(random_scene(SEED, board, margins=margins, **SETUP, **extra))


@pytest.fixture(scope="module")
def strip_profile() -> tuple[Profile, Any]:
    """A board with a 12 mm strip along the frame (and 8 and 5 mm beside frame and bar)."""
    margins = Margins(frame=8.0, bar=5.0, edge=12.0)
    frame = scene_frame(OPENING, margins)
    profile = calibrate(frame.image, corners=frame.truth["board_corners_px"])
    return profile, frame.truth["field_margins"]


def test_calibration_measures_the_strip(strip_profile: tuple[Profile, Any]) -> None:
    profile, drawn = strip_profile
    assert abs(profile.layout.edge - drawn["edge"]) < 2.0, (profile.layout, drawn)
    assert any("between the frame and the points' bases" in note for note in profile.notes)
    # the halves end where the points do, the strips beside frame and bar left out
    measured = np.array([*profile.layout.outer, *profile.layout.home])
    expected = np.array([*drawn["on_corners_plane"]["outer"], *drawn["on_corners_plane"]["home"]])
    assert np.abs(measured - expected).max() < 2.0, (measured, expected)


def test_a_midgame_frame_is_read_through_the_strip(strip_profile: tuple[Profile, Any]) -> None:
    profile, _ = strip_profile
    frame = scene_frame(
        MIDGAME,
        Margins(frame=8.0, bar=5.0, edge=12.0),
        on_roll="white",
        dice=(DieSpec(3), DieSpec(1)),
    )
    reading = read_frame(frame.image, profile)
    truth = frame.truth["points"]
    sure = sure_points(reading)
    assert len(sure) >= 21
    assert all(reading.points[n] == truth[n] for n in sure), (reading.points, truth)
    assert reading.bar.to_json() == frame.truth["bar"]


def test_a_board_without_a_strip_measures_none() -> None:
    frame = scene_frame(OPENING, Margins())
    profile = calibrate(frame.image, corners=frame.truth["board_corners_px"])
    assert profile.layout == CANONICAL_LAYOUT


class TestLayoutAlongThePoints:
    layout = Layout(edge=10.0)

    def test_the_bases_land_on_the_frame_and_the_tips_on_the_canonical_tips(self) -> None:
        x = np.array([100.0, 100.0, 100.0, 100.0])
        ys = np.array([10.0, 10.0 + g.POINT_LENGTH, g.PLAY_HEIGHT - 10.0, g.PLAY_HEIGHT / 2])
        expected = [0.0, g.POINT_LENGTH, g.PLAY_HEIGHT, g.PLAY_HEIGHT / 2]
        assert np.allclose(self.layout.canonical_ys(x, ys), expected)

    def test_a_stack_keeps_its_pitch(self) -> None:
        """Checkers on a point move by the strip, not stretched: five still make a point."""
        ys = 10.0 + g.CHECKER_DIAMETER / 2 + g.CHECKER_PITCH * np.arange(5.0)
        canonical = self.layout.canonical_ys(np.full(5, 100.0), ys)
        assert np.allclose(np.diff(canonical), g.CHECKER_PITCH)

    def test_the_bar_and_the_trays_keep_their_places(self) -> None:
        xs = np.array([g.BAR_LEFT + g.BAR_WIDTH / 2, g.PLAY_WIDTH + g.TRAY_GAP + 10.0])
        ys = np.array([200.0, 30.0])
        assert np.allclose(self.layout.canonical_ys(xs, ys), ys)
        assert self.layout.to_canonical((g.BAR_LEFT + 5.0, 60.0)) == (g.BAR_LEFT + 5.0, 60.0)


class TestTheStripIsTheBoards:
    """The view shifts the strip off the canonical playing area; a die lying on it is still on
    the board, and the frame stands beyond it."""

    def test_a_die_on_the_strip_is_in_its_half(self) -> None:
        layout = Layout(edge=15.0)
        assert layout.half_of((100.0, 9.0)) == "outer"
        assert layout.half_of((430.0, g.PLAY_HEIGHT - 9.0)) == "home"
        assert layout.half_of((100.0, -3.0)) == "outside"

    def test_the_frame_stands_beyond_the_strip(self) -> None:
        """A die 12 mm (view) from the points' bases lies 27 mm from the frame behind a 15 mm
        strip: out of a leaning die's reach."""
        die = found_die(120.0, 12.0)
        empty = [RegionReading(0, 1.0) for _ in range(24)]
        assert not reader.leans_on_nothing(die, empty, Counts(0, 0), [die])
        assert reader.leans_on_nothing(die, empty, Counts(0, 0), [die], edge=15.0)


class TestProfileFile:
    def test_the_strip_is_kept_in_the_profile(self, strip_profile: tuple[Profile, Any]) -> None:
        profile, _ = strip_profile
        again = Profile.from_json(profile.to_json()).layout
        assert again.edge == pytest.approx(profile.layout.edge, abs=0.05) and again.edge > 0
        assert np.allclose(
            [*again.outer, *again.home], [*profile.layout.outer, *profile.layout.home], atol=0.05
        )

    def test_a_profile_without_a_strip_reads_as_none(
        self, strip_profile: tuple[Profile, Any]
    ) -> None:
        data = strip_profile[0].to_json()
        del data["halves_mm"]["edge"]
        assert Profile.from_json(data).layout.edge == 0.0

    def test_an_impossible_strip_says_what_is_wrong(
        self, strip_profile: tuple[Profile, Any]
    ) -> None:
        data = strip_profile[0].to_json()
        data["halves_mm"]["edge"] = -4
        with pytest.raises(ProfileError, match="strip between the frame and the points"):
            Profile.from_json(data)
