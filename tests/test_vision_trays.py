"""Borne-off checkers in the trays: a tray is read empty only when nothing stands in it.

In dim light a checker standing on edge shows only its shaded rim, which differs from the tray
by less than a checker's colour does: the colour maps see nothing there. The change from the
empty tray still shows it, and a tray that changed is never reported empty surely.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion import geometry as g
from companion.rules.position import AbsoluteBoard, Position
from companion.sim import DieSpec, random_scene, render
from companion.vision import checkers
from companion.vision.calibrate import calibrate
from companion.vision.maps import PlaneMaps
from companion.vision.plane import view_column, view_row
from companion.vision.profile import Profile
from companion.vision.reader import read_frame
from companion.vision.reading import Reading

OPENING = Position.opening().to_absolute("white")
# five white checkers borne off; seed 7453 draws a wooden board in dim light, 31 degrees tilt
BEARING_OFF = AbsoluteBoard(
    (0, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, 3, -4, -4, 0, 0, 0, 7, -5, 0, 0, 0, 0, 0),
    {"white": 0, "black": 0},
    {"white": 5, "black": 0},
)
SEED = 7453


@pytest.fixture(scope="module")
def dim_bear_off() -> Reading:
    """A frame of a dim wooden board with five white checkers off, read with the profile of
    the same board's opening (the colour maps see nothing in that tray)."""
    calibration = render(random_scene(SEED, OPENING))
    profile: Profile = calibrate(calibration.image, corners=calibration.truth["board_corners_px"])
    dice = (DieSpec(4, rest="cocked"), DieSpec(3))
    frame = render(random_scene(SEED, BEARING_OFF, dice=dice, on_roll="white"))
    assert frame.truth["off"] == {"white": 5, "black": 0}
    return read_frame(frame.image, profile, "white")


def test_checkers_standing_in_a_dim_tray_are_never_read_as_none_surely(
    dim_bear_off: Reading,
) -> None:
    if dim_bear_off.off.white != 5:
        assert dim_bear_off.confidence["off"] < 0.5
        assert not dim_bear_off.readable and "the trays" in dim_bear_off.unreadable


def test_the_empty_tray_beside_them_is_read_empty(dim_bear_off: Reading) -> None:
    assert dim_bear_off.off.black == 0


def _tray_rows(colour: str, start: float, end: float) -> tuple[slice, slice]:
    """View rows and columns of a stretch (mm from the tray's filling end) of a tray."""
    x0, y0, x1, y1 = g.tray_rect(colour)  # type: ignore[arg-type]
    if colour == "white":  # white's tray fills from its bottom end
        rows = slice(view_row(y1 - end, 1.0), view_row(y1 - start, 1.0))
    else:
        rows = slice(view_row(y0 + start, 1.0), view_row(y0 + end, 1.0))
    return rows, slice(view_column(x0, 1.0), view_column(x1, 1.0))


def _empty_board(noise: float = 0.0) -> np.ndarray:
    lab = np.full((600, 800, 3), 100.0, np.float32)
    return lab + np.float32(noise)


class TestTrayChanges:
    def test_two_slots_standing_change_only_their_stretch(self) -> None:
        reference = _empty_board()
        frame = reference.copy()
        rows, cols = _tray_rows("white", 0.0, 28.0)
        frame[rows, cols, 0] += 25.0
        changes = checkers.tray_changes(frame, (reference, reference), 1.0)
        assert float(changes["white"][:25].min()) == 1.0
        assert float(changes["white"][40:].max()) == 0.0
        assert float(changes["black"].max()) == 0.0

    def test_light_changed_everywhere_is_no_change(self) -> None:
        """A lamp switched on since calibration lightens the frame strip as it does the tray."""
        reference = _empty_board()
        frame = _empty_board(noise=12.0)
        changes = checkers.tray_changes(frame, (reference, reference), 1.0)
        assert float(changes["white"].max()) == 0.0 and float(changes["black"].max()) == 0.0


class TestReadTray:
    @staticmethod
    def _maps() -> PlaneMaps:
        blank = np.zeros((600, 800), np.float32)
        lab = np.zeros((600, 800, 3), np.float32)
        return PlaneMaps(1.0, lab, blank, blank, blank, blank, blank)

    def test_a_tray_that_shows_nothing_and_did_not_change_is_empty_surely(self) -> None:
        unchanged = np.zeros(215)
        reading = checkers.read_tray(self._maps(), "black", change=unchanged)
        assert reading.count == 0 and reading.confidence == 1.0

    def test_a_tray_whose_first_slot_changed_is_not_empty_surely(self) -> None:
        changed = np.zeros(215)
        changed[3:12] = 1.0  # one checker on edge, shortened by the camera
        reading = checkers.read_tray(self._maps(), "black", change=changed)
        assert reading.count == 0 and reading.confidence < 0.5
