"""Calibration from one frame, and the ``calibrate`` / ``read`` commands with their errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.cli import EXIT_BAD_INPUT, EXIT_DEVICE, EXIT_NEGATIVE, EXIT_OK, main
from companion.rules.position import Position
from companion.sim import Checkers, random_scene, render
from companion.vision.board import BoardNotFound, find_board
from companion.vision.calibrate import CalibrationError, calibrate, flip_point
from companion.vision.plane import WHITE_HOMES, order_clockwise

LOOK = {"style": "wood", "checker_set": "white-black", "lighting": "even", "k1": 0.0}
OPENING = Position.opening().to_absolute("white")
SEED = 77


def frame_of(board: Any, **fixed: Any) -> Any:
    return render(random_scene(SEED, board, **{**LOOK, **fixed}))


class TestFromTheOpening:
    @pytest.mark.parametrize("tilt", [0.0, 18.0, 33.0])
    def test_learns_orientation_and_colours_at_any_angle(self, tilt: float) -> None:
        frame = frame_of(OPENING, tilt=tilt)
        profile = calibrate(frame.image, corners=frame.truth["board_corners_px"])
        assert profile.white_home == "bottom-right"
        assert profile.colours.white[0] > profile.colours.black[0]
        assert profile.image_size == (1280, 720)

    @pytest.mark.parametrize("white_home", WHITE_HOMES)
    def test_finds_which_quadrant_holds_white_home(self, white_home: str) -> None:
        frame = frame_of(OPENING, tilt=12.0, white_home=white_home)
        profile = calibrate(frame.image, corners=frame.truth["board_corners_px"])
        assert profile.white_home == white_home
        assert profile.mirrored == (white_home in ("bottom-left", "top-right"))

    def test_a_frame_that_is_not_the_opening_is_refused(self) -> None:
        points = [0] * 24
        points[5], points[4], points[3] = 5, 5, 5
        points[18], points[19], points[20] = -5, -5, -5
        board = Checkers(tuple(points), {"white": 0, "black": 0}, {"white": 0, "black": 0})
        frame = frame_of(board, tilt=10.0)
        with pytest.raises(CalibrationError, match="--white-home"):
            calibrate(frame.image, corners=frame.truth["board_corners_px"])

    def test_any_position_with_the_orientation_named(self) -> None:
        points = [0] * 24
        points[5], points[7], points[12] = 5, 5, 5
        points[18], points[16], points[11] = -5, -5, -5
        board = Checkers(tuple(points), {"white": 0, "black": 0}, {"white": 0, "black": 0})
        frame = frame_of(board, tilt=10.0)
        profile = calibrate(
            frame.image, corners=frame.truth["board_corners_px"], white_home="bottom-right"
        )
        assert profile.colours.white[0] > profile.colours.black[0]

    def test_flipping_a_point_twice_gives_it_back(self) -> None:
        for white_home in WHITE_HOMES:
            for number in range(1, 25):
                assert flip_point(flip_point(number, white_home), white_home) == number


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("frames")
    opening = frame_of(OPENING, tilt=10.0)
    stacks = Checkers(
        (0, 0, 0, 0, 3, 5, 0, 2, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, -2, 0, 0),
        {"white": 0, "black": 0},
        {"white": 0, "black": 0},
    )
    later = frame_of(stacks, tilt=10.0)
    paths = {"opening": folder / "opening.png", "later": folder / "later.png"}
    cv2.imwrite(str(paths["opening"]), opening.image)
    cv2.imwrite(str(paths["later"]), later.image)
    paths["corners"] = folder / "corners.txt"
    paths["corners"].write_text(" ".join(f"{x},{y}" for x, y in opening.truth["board_corners_px"]))
    paths["truth"] = folder / "truth.json"
    paths["truth"].write_text(json.dumps(later.truth))
    return paths


class TestCommands:
    def test_calibrate_then_read(self, files: dict[str, Path], tmp_path: Path, capsys: Any) -> None:
        profile = tmp_path / "profile.json"
        corners = files["corners"].read_text()
        status = main(
            ["calibrate", str(files["opening"]), "--corners", corners, "-o", str(profile)]
        )
        assert status == EXIT_OK
        assert "bottom-right" in capsys.readouterr().out
        status = main(["read", str(files["later"]), "--profile", str(profile), "--json"])
        reading = json.loads(capsys.readouterr().out)
        truth = json.loads(files["truth"].read_text())
        assert status == (EXIT_OK if reading["readable"] else EXIT_NEGATIVE)
        assert reading["readable"]
        assert reading["points"] == truth["points"]

    def test_a_missing_image(self, tmp_path: Path, capsys: Any) -> None:
        status = main(["calibrate", str(tmp_path / "none.png"), "-o", str(tmp_path / "p.json")])
        assert status == EXIT_DEVICE
        assert "no image" in capsys.readouterr().err

    def test_a_file_that_is_not_an_image(self, tmp_path: Path, capsys: Any) -> None:
        bogus = tmp_path / "notes.png"
        bogus.write_text("hello")
        status = main(["calibrate", str(bogus), "-o", str(tmp_path / "p.json")])
        assert status == EXIT_BAD_INPUT
        assert "not an image" in capsys.readouterr().err

    def test_bad_corners(self, files: dict[str, Path], tmp_path: Path, capsys: Any) -> None:
        status = main(
            ["calibrate", str(files["opening"]), "--corners", "1,2 3,4", "-o", str(tmp_path / "p")]
        )
        assert status == EXIT_BAD_INPUT
        assert "four x,y pairs" in capsys.readouterr().err

    def test_a_profile_of_another_version(
        self, files: dict[str, Path], tmp_path: Path, capsys: Any
    ) -> None:
        profile = tmp_path / "profile.json"
        corners = files["corners"].read_text()
        main(["calibrate", str(files["opening"]), "--corners", corners, "-o", str(profile)])
        data = json.loads(profile.read_text())
        data["version"] = 0
        profile.write_text(json.dumps(data))
        capsys.readouterr()
        status = main(["read", str(files["later"]), "--profile", str(profile)])
        assert status == EXIT_BAD_INPUT
        assert "calibrate again" in capsys.readouterr().err

    def test_a_profile_from_another_camera(
        self, files: dict[str, Path], tmp_path: Path, capsys: Any
    ) -> None:
        profile = tmp_path / "profile.json"
        corners = files["corners"].read_text()
        main(["calibrate", str(files["opening"]), "--corners", corners, "-o", str(profile)])
        small = tmp_path / "small.png"
        cv2.imwrite(str(small), np.zeros((480, 640, 3), np.uint8))
        capsys.readouterr()
        status = main(["read", str(small), "--profile", str(profile)])
        assert status == EXIT_BAD_INPUT
        assert "another camera" in capsys.readouterr().err

    def test_a_missing_profile(self, files: dict[str, Path], tmp_path: Path, capsys: Any) -> None:
        status = main(["read", str(files["later"]), "--profile", str(tmp_path / "none.json")])
        assert status == EXIT_DEVICE
        assert "companion calibrate" in capsys.readouterr().err


class TestBoardFinder:
    def test_finds_the_playing_area_without_corners(self) -> None:
        frame = render(random_scene(6003, OPENING, k1=0.0))
        found = find_board(frame.image)
        truth = np.array(order_clockwise(frame.truth["board_corners_px"]))
        assert np.max(np.linalg.norm(np.array(found.corners_px) - truth, axis=1)) < 12.0
        profile = calibrate(frame.image)
        assert profile.white_home == frame.truth["orientation"]["white_home"]

    def test_a_frame_without_a_board_says_so(self, tmp_path: Path, capsys: Any) -> None:
        table = np.full((720, 1280, 3), (70, 90, 110), np.uint8)
        with pytest.raises(BoardNotFound, match="--corners"):
            find_board(table)
        path = tmp_path / "table.png"
        cv2.imwrite(str(path), table)
        status = main(["calibrate", str(path), "-o", str(tmp_path / "p.json")])
        assert status == EXIT_BAD_INPUT
        assert "no board found" in capsys.readouterr().err
