"""Optional ArUco markers at the corners of the playing area give calibration its corners."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import EXIT_BAD_INPUT, EXIT_OK, main
from companion.geometry import PLAY_HEIGHT, PLAY_WIDTH
from companion.rules.position import Position
from companion.sim import random_scene, render
from companion.vision.calibrate import calibrate
from companion.vision.markers import DICTIONARY, find_marker_corners
from companion.vision.plane import order_clockwise

MARKER_MM = 30.0


def with_markers(image: np.ndarray, corners: list[list[float]], count: int = 4) -> np.ndarray:
    """The frame with markers stuck outside the playing area's corners, each inner corner on
    a corner (drawn in perspective, as the camera would see paper on the frame)."""
    ordered = np.array(order_clockwise([tuple(c) for c in corners]), np.float32)
    plane = np.array([[0, 0], [PLAY_WIDTH, 0], [PLAY_WIDTH, PLAY_HEIGHT], [0, PLAY_HEIGHT]])
    to_image = cv2.getPerspectiveTransform(plane.astype(np.float32), ordered)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    out = image.copy()
    outward = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    for index in range(count):
        marker = cv2.aruco.generateImageMarker(dictionary, index, 120)
        marker = cv2.copyMakeBorder(marker, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
        (cx, cy), (dx, dy) = plane[index], outward[index]
        side = MARKER_MM * 160 / 120  # the white margin round it
        margin = MARKER_MM * 20 / 120
        # the square of the black marker has its inner corner on the playing area's corner
        xs = sorted([cx - dx * margin, cx + dx * (side - margin)])
        ys = sorted([cy - dy * margin, cy + dy * (side - margin)])
        square = np.array([[xs[0], ys[0]], [xs[1], ys[0]], [xs[1], ys[1]], [xs[0], ys[1]]])
        where = cv2.perspectiveTransform(square.reshape(-1, 1, 2).astype(np.float32), to_image)
        paste = cv2.getPerspectiveTransform(
            np.float32([[0, 0], [160, 0], [160, 160], [0, 160]]), where.reshape(4, 2)
        )
        warped = cv2.warpPerspective(cv2.cvtColor(marker, cv2.COLOR_GRAY2BGR), paste, (1280, 720))
        mask = cv2.warpPerspective(np.full((160, 160), 255, np.uint8), paste, (1280, 720))
        out[mask > 0] = warped[mask > 0]
    return out


@pytest.fixture(scope="module")
def opening() -> tuple[np.ndarray, list[list[float]]]:
    frame = render(random_scene(23, Position.opening().to_absolute("white"), tilt=18.0))
    return frame.image, frame.truth["board_corners_px"]  # type: ignore[return-value]


def test_four_markers_give_the_corners(opening: tuple[np.ndarray, list[list[float]]]) -> None:
    image, truth = opening
    found = find_marker_corners(with_markers(image, truth))
    assert found is not None
    error = np.linalg.norm(np.array(found) - np.array(order_clockwise(truth)), axis=1)
    assert error.max() < 2.0


def test_calibration_uses_them(opening: tuple[np.ndarray, list[list[float]]]) -> None:
    image, truth = opening
    profile = calibrate(with_markers(image, truth))
    assert "corners from the four ArUco markers" in profile.notes
    assert profile.white_home == "bottom-right"


def test_three_markers_are_not_enough(opening: tuple[np.ndarray, list[list[float]]]) -> None:
    image, truth = opening
    assert find_marker_corners(with_markers(image, truth, count=3)) is None
    assert find_marker_corners(image) is None


def test_the_printed_sheet_holds_four_readable_markers(tmp_path: Path) -> None:
    sheet = tmp_path / "markers.png"
    assert main(["markers", "-o", str(sheet)]) == EXIT_OK
    image = cv2.imread(str(sheet))
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY))
    _found, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [(["--size", "5"], "15-60 mm"), (["-o", "sheet.jpg"], "written as PNG")],
)
def test_bad_sheet_arguments_say_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    output = ["-o", str(tmp_path / "m.png")] if "-o" not in arguments else []
    args = [a if a != "sheet.jpg" else str(tmp_path / a) for a in arguments]
    assert main(["markers", *output, *args]) == EXIT_BAD_INPUT
    assert message in capsys.readouterr().err
