"""Where frames come from: a camera, a video file, a folder of images, a Raspberry Pi camera,
or a file of recorded Readings.

A source is named by a spec on the command line:

* ``camera:N`` — V4L2 camera number ``N`` through OpenCV (``/dev/videoN``). A camera that stops
  giving frames (unplugged, a loose cable) is retried every ``retry_seconds`` with a message
  saying so, and the game goes on from where it was once frames come back.
* ``video:PATH`` — a video file, frame by frame.
* ``images:DIR`` — every image in ``DIR`` (``.png``, ``.jpg``, ``.jpeg``, ``.bmp``), in sorted
  order of their names.
* ``picamera`` — the Raspberry Pi camera through ``picamera2``, imported only when used.
* ``readings:FILE`` — a JSON Lines file of Readings (one per still state) and of controls
  (``{"control": "double"}``); each line counts as ``repeat`` frames (a line may set its own
  ``"repeat"``). ``readings:DIR`` — a folder of simulator truth files (``companion render
  --game``), one frame each. Neither needs vision, so a game can be replayed, tested and timed
  on any machine.

Every source yields :class:`Frame` values with an index and a time. Live sources stamp the
wall clock; recorded ones stamp ``index / fps`` so a replay is the same every time, and play as
fast as they can unless ``realtime`` asks them to keep to ``fps``. A recorded source can
start at frame ``skip`` (a resumed game goes on from the frame after the journal's last event):
the frames before it are neither decoded nor waited for, and the frames keep their numbers.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from companion.errors import CompanionError, InvalidFormat
from companion.vision.reading import Reading

logger = logging.getLogger(__name__)

Image = npt.NDArray[Any]
"""A BGR colour frame, height x width x 3 (8-bit from every real source)."""
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")
SPEC_HELP = (
    "use camera:N (e.g. camera:0), video:PATH, images:DIR, picamera, or readings:FILE "
    "(a JSON Lines file of Readings)"
)


class SourceSpecError(CompanionError, ValueError):
    """A ``--source`` that names no source this program knows."""


class SourceError(CompanionError, OSError):
    """A source that cannot be opened or read (no such camera, file or folder)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: an image to read, or (from a readings file) a Reading or a control."""

    index: int
    time: float
    image: Image | None = None
    reading: Reading | None = None
    control: str | None = None


class FrameSource(Protocol):
    """Anything that yields frames; ``close`` releases the device (safe to call twice)."""

    name: str

    def frames(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


Status = Callable[[str], None]
"""Where a source reports what happens to it (camera lost, camera back)."""


def _log_status(message: str) -> None:
    logger.warning("%s", message)


class _Pacer:
    """Stamps recorded frames ``index / fps`` and, when ``realtime``, waits to keep to ``fps``
    from the first frame played, frame ``first`` (a source started at a later frame neither
    reads nor waits for the frames it skips)."""

    def __init__(self, fps: float, realtime: bool, first: int = 0) -> None:
        if fps <= 0:
            raise SourceSpecError(f"the frame rate must be above 0, not {fps}")
        if first < 0:
            raise SourceSpecError(f"the frames to skip are 0 or more, not {first}")
        self.fps = fps
        self.realtime = realtime
        self.first = first
        self._start: float | None = None

    def stamp(self, index: int) -> float:
        stamp = index / self.fps
        if self.realtime:
            now = time.monotonic()
            if self._start is None:
                self._start = now  # the clock starts with the first frame played
            delay = (index - self.first) / self.fps - (now - self._start)
            if delay > 0:
                time.sleep(delay)
        return stamp


class CameraSource:
    """A V4L2 camera through ``cv2.VideoCapture``, retried when it disappears.

    ``capture`` makes the capture object (``cv2.VideoCapture`` by default; tests pass a fake).
    ``retry_seconds`` is the wait between attempts to reopen; ``give_up_after`` (seconds, None
    for never) ends the game with :class:`SourceError` when the camera stays away.
    """

    def __init__(
        self,
        number: int,
        *,
        width: int = 1280,
        height: int = 720,
        capture: Callable[[int], Any] | None = None,
        retry_seconds: float = 2.0,
        give_up_after: float | None = None,
        status: Status = _log_status,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.name = f"camera:{number}"
        self.number = number
        self.width, self.height = width, height
        if capture is None:
            import cv2

            def capture(index: int) -> Any:
                return cv2.VideoCapture(index, cv2.CAP_V4L2)

        self._capture = capture
        self.retry_seconds = retry_seconds
        self.give_up_after = give_up_after
        self.status = status
        self._clock = clock
        self._sleep = sleep
        self._device: Any = None
        self._open(first=True)

    def _open(self, first: bool = False) -> bool:
        device = self._capture(self.number)
        if device is None or not device.isOpened():
            if device is not None:
                device.release()
            if first:
                raise SourceError(
                    f"camera {self.number} cannot be opened (/dev/video{self.number}): check "
                    "that it is plugged in and not used by another program, or try camera:1"
                )
            return False
        try:
            import cv2

            device.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
            device.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        except (ImportError, AttributeError):
            pass
        self._device = device
        return True

    def frames(self) -> Iterator[Frame]:
        index = 0
        while True:
            if self._device is None:
                self._reconnect()
            ok, image = self._device.read()
            if not ok or image is None:
                self._device.release()
                self._device = None
                self.status(
                    f"camera {self.number} stopped giving frames; retrying every "
                    f"{self.retry_seconds:g} s (check the cable). The game waits where it was."
                )
                continue
            yield Frame(index, self._clock(), image=image)
            index += 1

    def _reconnect(self) -> None:
        lost_at = self._clock()
        while True:
            self._sleep(self.retry_seconds)
            if self._open():
                self.status(f"camera {self.number} is back: the game goes on")
                return
            away = self._clock() - lost_at
            if self.give_up_after is not None and away >= self.give_up_after:
                raise SourceError(
                    f"camera {self.number} has been away for {away:.0f} s: giving up. The "
                    "journal holds every accepted move; continue with --resume LOG"
                )

    def close(self) -> None:
        if self._device is not None:
            self._device.release()
            self._device = None


class VideoSource:
    """The frames of a video file, in order, from frame ``skip`` (the ones before it are
    passed over without being decoded)."""

    def __init__(
        self, path: str, *, fps: float | None = None, realtime: bool = False, skip: int = 0
    ) -> None:
        import cv2

        self.name = f"video:{path}"
        if not os.path.isfile(path):
            raise SourceError(f"no video file at {path}: check the path, e.g. video:game.mp4")
        self._video = cv2.VideoCapture(path)
        if not self._video.isOpened():
            raise SourceError(f"{path} cannot be read as a video (is it a video file?)")
        rate = fps or float(self._video.get(cv2.CAP_PROP_FPS) or 0.0) or 30.0
        self._pacer = _Pacer(rate, realtime, skip)

    def frames(self) -> Iterator[Frame]:
        for _ in range(self._pacer.first):
            if not self._video.grab():
                return
        index = self._pacer.first
        while True:
            ok, image = self._video.read()
            if not ok:
                return
            yield Frame(index, self._pacer.stamp(index), image=image)
            index += 1

    def close(self) -> None:
        self._video.release()


class ImageFolderSource:
    """Every image file in a folder, sorted by name (``frame-0001.png``, ...), from the image
    numbered ``skip`` (counting from 0; the ones before it are not read)."""

    def __init__(
        self, folder: str, *, fps: float = 30.0, realtime: bool = False, skip: int = 0
    ) -> None:
        self.name = f"images:{folder}"
        directory = Path(folder)
        if not directory.is_dir():
            raise SourceError(f"no folder at {folder}")
        self.paths = sorted(p for p in directory.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            kinds = ", ".join(IMAGE_SUFFIXES)
            raise SourceError(f"{folder} holds no images ({kinds})")
        self._pacer = _Pacer(fps, realtime, skip)

    def frames(self) -> Iterator[Frame]:
        import cv2

        first = self._pacer.first
        for index, path in enumerate(self.paths[first:], start=first):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError(f"{path} cannot be read as an image")
            yield Frame(index, self._pacer.stamp(index), image=image)

    def close(self) -> None:
        """Nothing to release."""


class PicameraSource:
    """The Raspberry Pi camera (``picamera2``, imported only here)."""

    def __init__(self, *, width: int = 1280, height: int = 720) -> None:
        self.name = "picamera"
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise SourceError(
                "the picamera source needs picamera2, which is not installed: on Raspberry Pi "
                "OS run 'sudo apt install python3-picamera2', or use camera:0 for a USB camera"
            ) from None
        try:
            self._camera = Picamera2()
            config = self._camera.create_video_configuration(
                main={"size": (width, height), "format": "BGR888"}
            )
            self._camera.configure(config)
            self._camera.start()
        except Exception as error:  # picamera2 raises plain RuntimeErrors
            raise SourceError(f"the Raspberry Pi camera cannot be started: {error}") from None

    def frames(self) -> Iterator[Frame]:
        index = 0
        while True:
            image = self._camera.capture_array("main")
            yield Frame(index, time.time(), image=np.ascontiguousarray(image[:, :, :3]))
            index += 1

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


def reading_from_truth(data: object) -> Reading:
    """A Reading from a Reading JSON object or a simulator truth file.

    A truth file describes a die still tumbling (``"moving": true``, no value); no reader can
    read a moving die, so such a frame counts as unreadable, as a real camera's would.
    """
    if isinstance(data, dict):
        dice = data.get("dice", [])
        if isinstance(dice, list) and any(isinstance(d, dict) and d.get("moving") for d in dice):
            return Reading.empty_unreadable(["dice rolling"])
    return Reading.from_json(data)


class ReadingsSource:
    """Recorded Readings and controls (JSON Lines), or a folder of simulator truth files.

    A folder (``companion render --game -o DIR`` writes one) gives one frame per ``.json`` file
    in sorted order, as the frames were rendered.
    """

    def __init__(
        self,
        path: str,
        *,
        repeat: int = 10,
        fps: float = 30.0,
        realtime: bool = False,
        skip: int = 0,
    ) -> None:
        self.name = f"readings:{path}"
        self.items: list[tuple[Reading | str, int]] = []
        self._pacer = _Pacer(fps, realtime, skip)
        folder = Path(path)
        if folder.is_dir():
            files = sorted(folder.glob("*.json"))
            for file in files:
                try:
                    data = json.loads(file.read_text(encoding="utf-8"))
                    if isinstance(data, list):
                        continue  # the game's list of events (events.json), not a frame
                    self.items.append((reading_from_truth(data), 1))
                except (OSError, ValueError, InvalidFormat) as error:
                    raise InvalidFormat(f"{file}: {error}") from None
            if not self.items:
                raise SourceError(f"{path} holds no truth files of frames")
            return
        try:
            lines = folder.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise SourceError(f"cannot read the readings file {path}: {error.strerror}") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                count = int(data.get("repeat", repeat)) if isinstance(data, dict) else repeat
                if isinstance(data, dict) and "control" in data:
                    self.items.append((str(data["control"]), 1))
                else:
                    self.items.append((reading_from_truth(data), count))
            except (ValueError, InvalidFormat) as error:
                raise InvalidFormat(f"{path}, line {number}: {error}") from None

    def frames(self) -> Iterator[Frame]:
        start = 0
        for item, count in self.items:
            for index in range(max(start, self._pacer.first), start + count):
                stamp = self._pacer.stamp(index)
                if isinstance(item, str):
                    yield Frame(index, stamp, control=item)
                else:
                    yield Frame(index, stamp, reading=item)
            start += count

    def close(self) -> None:
        """Nothing to release."""


KINDS = ("camera", "picamera", "video", "images", "readings")
LIVE_KINDS = ("camera", "picamera")
"""Sources whose frames happen now, stamped by the wall clock (the others are recordings)."""


def source_kind(spec: str) -> str:
    """The kind of source a spec names (``camera``, ``video``, ...); raises
    :class:`SourceSpecError` for a spec that names none, before anything is opened."""
    kind = spec.partition(":")[0].strip().lower()
    if kind not in KINDS:
        raise SourceSpecError(f"unknown source {spec!r}: {SPEC_HELP}")
    return kind


def open_source(
    spec: str,
    *,
    fps: float | None = None,
    realtime: bool = False,
    status: Status = _log_status,
    repeat: int = 10,
    skip: int = 0,
) -> FrameSource:
    """The source named by ``spec`` (see the module docstring).

    Raises :class:`SourceSpecError` for a spec that names no source, :class:`SourceError` when
    the device or file cannot be opened. ``repeat`` is how many frames each line of a readings
    file lasts (enough to pass the referee's stability window). A recorded source starts at
    frame ``skip`` (a live camera has no frames to skip: it starts now).
    """
    kind = source_kind(spec)
    rest = spec.partition(":")[2].strip()
    rate = fps or 30.0
    if kind == "camera":
        if not rest.isdigit():
            raise SourceSpecError(f"{spec!r}: a camera is named by its number, e.g. camera:0")
        return CameraSource(int(rest), status=status)
    if kind == "picamera":
        return PicameraSource()
    if not rest:
        raise SourceSpecError(f"{spec!r} names no {kind or 'source'}: {SPEC_HELP}")
    if kind == "video":
        return VideoSource(rest, fps=fps, realtime=realtime, skip=skip)
    if kind == "images":
        return ImageFolderSource(rest, fps=rate, realtime=realtime, skip=skip)
    return ReadingsSource(rest, repeat=repeat, fps=rate, realtime=realtime, skip=skip)


def write_readings(path: str | os.PathLike[str], items: list[Reading | str]) -> None:
    """Writes a readings file that :class:`ReadingsSource` replays (controls as objects)."""
    with open(path, "w", encoding="utf-8") as handle:
        for item in items:
            data: object = {"control": item} if isinstance(item, str) else item.to_json()
            handle.write(json.dumps(data, separators=(",", ":")) + "\n")


class ChangeGate:
    """Says whether a frame differs enough from the last one read to be worth reading again.

    Reading a frame (warping, colour maps, dice) costs far more than comparing two thumbnails,
    and most frames of a game show a board where nothing moves. The gate shrinks each frame to
    a grey thumbnail (``size``; each thumbnail pixel averages a block of the frame, which also
    averages the sensor noise away) and compares it with the thumbnail of the last frame read.
    The *largest* change counts, not the mean: a die landing changes a few blocks a lot and
    the rest not at all. Below ``threshold`` grey levels the previous Reading still holds (on
    the simulator's frames, noise between still frames stays under 20 levels while a die or a
    checker moving changes a block by 58 or more). At least every ``refresh`` frames a frame
    is read anyway, so a slow change cannot hide.
    """

    def __init__(
        self, threshold: float = 30.0, size: tuple[int, int] = (160, 90), refresh: int = 15
    ) -> None:
        self.threshold = threshold
        self.size = size
        self.refresh = refresh
        self._last: npt.NDArray[np.float32] | None = None
        self._since = 0

    def changed(self, image: Image) -> bool:
        import cv2

        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        thumb = cv2.resize(grey, self.size, interpolation=cv2.INTER_AREA).astype(np.float32)
        self._since += 1
        if (
            self._last is not None
            and self._since < self.refresh
            and float(np.max(np.abs(thumb - self._last))) < self.threshold
        ):
            return False
        self._last = thumb
        self._since = 0
        return True
