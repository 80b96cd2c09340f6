"""Frame sources: specs, image folders, videos, readings files, and a camera that disappears."""

from __future__ import annotations

import itertools
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import InvalidFormat
from companion.referee.scripted import die, reading_of
from companion.rules import Position
from companion.sources import (
    CameraSource,
    ChangeGate,
    ImageFolderSource,
    ReadingsSource,
    SourceError,
    SourceSpecError,
    open_source,
    write_readings,
)


def image(value: int) -> np.ndarray:
    return np.full((36, 64, 3), value, dtype=np.uint8)


class TestSpecs:
    @pytest.mark.parametrize(
        ("spec", "error", "message"),
        [
            ("webcam", SourceSpecError, "unknown source 'webcam'"),
            ("camera:front", SourceSpecError, "e.g. camera:0"),
            ("video:", SourceSpecError, "names no video"),
            ("video:/no/such.mp4", SourceError, "no video file"),
            ("images:/no/such/dir", SourceError, "no folder"),
            ("readings:/no/such.jsonl", SourceError, "cannot read the readings file"),
        ],
    )
    def test_bad_specs_say_what_to_use(self, spec: str, error: type, message: str) -> None:
        with pytest.raises(error, match=message):
            open_source(spec)

    def test_picamera_without_picamera2_says_how_to_install_it(self) -> None:
        try:
            import picamera2  # noqa: F401
        except ImportError:
            with pytest.raises(SourceError, match="python3-picamera2"):
                open_source("picamera")
        else:
            pytest.skip("picamera2 is installed here")


class TestFiles:
    def test_image_folder_frames_come_in_sorted_order(self, tmp_path: Path) -> None:
        for name, value in (("frame-10.png", 30), ("frame-02.png", 20), ("frame-01.png", 10)):
            cv2.imwrite(str(tmp_path / name), image(value))
        (tmp_path / "notes.txt").write_text("not an image")
        source = open_source(f"images:{tmp_path}", fps=10)
        frames = list(source.frames())
        assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30]
        assert [f.time for f in frames] == [0.0, 0.1, 0.2]

    def test_empty_folder_and_broken_image_are_clear_errors(self, tmp_path: Path) -> None:
        with pytest.raises(SourceError, match="holds no images"):
            ImageFolderSource(str(tmp_path))
        (tmp_path / "broken.png").write_bytes(b"not a png")
        with pytest.raises(SourceError, match="cannot be read as an image"):
            list(ImageFolderSource(str(tmp_path)).frames())

    def test_video_file_frames(self, tmp_path: Path) -> None:
        path = tmp_path / "clip.avi"
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 36))
        if not writer.isOpened():
            pytest.skip("this OpenCV build cannot write MJPG videos")
        for value in (0, 100, 200, 250):
            writer.write(image(value))
        writer.release()
        source = open_source(f"video:{path}")
        frames = list(source.frames())
        source.close()
        assert len(frames) == 4
        assert abs(int(frames[2].image.mean()) - 200) < 10
        assert frames[1].time == pytest.approx(0.1)

    def test_a_file_that_is_not_a_video(self, tmp_path: Path) -> None:
        path = tmp_path / "clip.mp4"
        path.write_text("text")
        with pytest.raises(SourceError, match="cannot be read as a video"):
            open_source(f"video:{path}")

    def test_readings_file_replays_readings_and_controls(self, tmp_path: Path) -> None:
        board = reading_of(Position.opening(), dice=[die(3), die(1)])
        path = tmp_path / "game.jsonl"
        write_readings(path, [board, "double"])
        frames = list(ReadingsSource(str(path), repeat=2).frames())
        assert [f.reading for f in frames[:2]] == [board, board]
        assert frames[2].control == "double"
        assert [f.index for f in frames] == [0, 1, 2]

    def test_a_bad_readings_line_is_named(self, tmp_path: Path) -> None:
        path = tmp_path / "game.jsonl"
        path.write_text('{"readable": true}\n{"points": [1, 2]}\n')
        with pytest.raises(InvalidFormat, match="line 2"):
            ReadingsSource(str(path))


class FakeDevice:
    def __init__(self, frames: list[int]) -> None:
        self.frames = list(frames)
        self.released = False

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.frames:
            return False, None
        return True, image(self.frames.pop(0))

    def release(self) -> None:
        self.released = True


class ClosedDevice(FakeDevice):
    def isOpened(self) -> bool:
        return False


class TestCamera:
    def test_a_camera_that_disappears_is_retried_and_the_frames_go_on(self) -> None:
        # Plugged in with two frames, then unplugged for two attempts, then back.
        devices = iter([FakeDevice([1, 2]), ClosedDevice([]), ClosedDevice([]), FakeDevice([3, 4])])
        messages: list[str] = []
        waits: list[float] = []
        clock = itertools.count(100.0, 1.0)
        camera = CameraSource(
            0,
            capture=lambda n: next(devices),
            retry_seconds=0.5,
            status=messages.append,
            clock=lambda: next(clock),
            sleep=waits.append,
        )
        frames = list(itertools.islice(camera.frames(), 4))
        assert [int(f.image[0, 0, 0]) for f in frames] == [1, 2, 3, 4]
        assert [f.index for f in frames] == [0, 1, 2, 3]
        assert waits == [0.5, 0.5, 0.5]
        assert "camera 0 stopped giving frames" in messages[0]
        assert "the game waits where it was" in messages[0].lower()
        assert messages[1] == "camera 0 is back: the game goes on"

    def test_a_camera_that_stays_away_gives_up_with_how_to_resume(self) -> None:
        devices = itertools.chain([FakeDevice([1])], itertools.repeat(ClosedDevice([])))
        clock = itertools.count(0.0, 10.0)
        camera = CameraSource(
            2,
            capture=lambda n: next(devices),
            give_up_after=30,
            status=lambda m: None,
            clock=lambda: next(clock),
            sleep=lambda s: None,
        )
        with pytest.raises(SourceError, match="--resume LOG"):
            list(camera.frames())

    def test_no_camera_at_start_is_a_clear_error(self) -> None:
        with pytest.raises(SourceError, match="camera 3 cannot be opened"):
            CameraSource(3, capture=lambda n: ClosedDevice([]))


class TestChangeGate:
    def test_an_unchanged_frame_is_not_read_again(self) -> None:
        gate = ChangeGate(refresh=100)
        rng = np.random.default_rng(1)
        still = rng.integers(60, 200, (720, 1280, 3), dtype=np.uint8)
        assert gate.changed(still)
        noisy = np.clip(still + rng.normal(0, 4, still.shape), 0, 255).astype(np.uint8)
        assert not gate.changed(noisy)  # sensor noise is not a change

    def test_a_die_landing_is_a_change(self) -> None:
        gate = ChangeGate(refresh=100)
        board = np.full((720, 1280, 3), 90, dtype=np.uint8)
        assert gate.changed(board)
        with_die = board.copy()
        with_die[400:430, 900:930] = 245  # a 30-pixel white die: 0.1 % of the frame
        assert gate.changed(with_die)

    def test_a_read_is_forced_every_refresh_frames(self) -> None:
        gate = ChangeGate(refresh=3)
        still = image(50)
        assert [gate.changed(still) for _ in range(7)] == [
            True,
            False,
            False,
            True,
            False,
            False,
            True,
        ]
