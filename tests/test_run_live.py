"""`companion run` on a camera's frames referees the game exactly as `companion demo` does.

No camera is attached to the machines the tests run on, so the tests do what a user with one
would do, on the frames the simulator films for ``companion demo --short`` (the scripted turns:
an illegal play corrected, a cocked die, a die on the wrong side, a takeback, a double taken):
the frames are written as a video file that OpenCV's ``VideoCapture`` reads (the class behind
``camera:N`` too) and as a folder of images; the board is calibrated from the opening frame with
``companion calibrate``; ``companion run`` watches the frames, and the players press the cube
keys on the console while it runs. The image folder holds the demo's pixels exactly, so ``run``
must say and journal what the demo says, event for event. The video is compressed again, as a
webcam's MJPG stream is: the camera may then be unsure of a state the demo saw (the referee
waits), but ``run`` must say nothing the demo does not and accept the same rolls and plays.
(Whether the demo itself says what the film's script expects is ``tests/test_demo.py``'s.)

The film is rendered, written and calibrated once for the module, and the demo is run once on
it; each test then runs ``companion run`` (in this process, or as a subprocess for the keys and
for a real ``kill -9``).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.cli import main
from companion.formats.mat import from_events, read_mat, write_mat
from companion.journal import read_journal
from companion.referee import Event
from companion.sim.demo import DEFAULT_SEED, render_demo_game
from companion.sim.sequences import GameFrame
from companion.sources import ImageFolderSource, open_source, write_readings
from companion.vision.reading import Reading
from tests.conftest import PROJECT
from tests.test_demo import VERDICT, headlines

FPS = 10
"""The demo's simulated camera films 10 frames a second (``companion.cli.demo``)."""
PLAYERS = "Alice,Bob"
GAME = ["--match", "3", "--players", PLAYERS]
"""The demo's match: 3 points, Alice (white) against Bob (black)."""
WINDOW = ["--stable-seconds", "0.15"]
"""The demo's stability window: 3 frames (the default) and 0.15 s, as the film holds each
settled state for 3 frames a tenth of a second apart (a live camera at 30 frames a second
holds them longer; ``run``'s default 0.25 s would need a fourth frame)."""
SUBPROCESS_TIMEOUT = 90.0
"""Seconds after which a ``companion run`` subprocess that has not finished is killed."""


@dataclass(frozen=True)
class Film:
    """The short demo film on disk, and what its script says happens in it."""

    folder: Path
    """Every frame as ``frame-NNNN.png``: the demo's pixels, untouched."""
    video: Path
    """Every frame before the double, as MJPG in an AVI file (a webcam's compression)."""
    before_double: Path
    """The image folder's frames before the double (hard links)."""
    profile: Path
    """``companion calibrate`` of the opening frame."""
    calibrated: str
    """What ``companion calibrate`` printed."""
    frames: int
    script: list[dict[str, Any]]
    """The film's events (``GameFrame.events``): what a referee should say, frame by frame."""

    @property
    def double(self) -> dict[str, Any]:
        """The script's double: the first control a player presses."""
        return next(e for e in self.script if e["type"] == "double")

    @property
    def double_frame(self) -> int:
        """The frame on which the doubler's hand turns the cube."""
        return int(self.double["frame"])


@dataclass(frozen=True)
class Refereed:
    """What one command printed and the journal it wrote."""

    out: str
    journal: Path

    @property
    def headlines(self) -> list[str]:
        return headlines(self.out)

    @property
    def events(self) -> tuple[Event, ...]:
        return read_journal(self.journal).events


def cli(args: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(args) == 0, out.getvalue()[-2000:]
    return out.getvalue()


def only_journal(folder: Path) -> Path:
    (journal,) = folder.glob("*.jsonl")
    return journal


@pytest.fixture(scope="module")
def shots() -> list[GameFrame]:
    """The short demo's film, rendered once for the module."""
    return list(render_demo_game(DEFAULT_SEED, whole_game=False))


@pytest.fixture(scope="module")
def film(shots: list[GameFrame], tmp_path_factory: pytest.TempPathFactory) -> Film:
    root = tmp_path_factory.mktemp("film")
    folder, before_double = root / "frames", root / "before-double"
    folder.mkdir()
    before_double.mkdir()
    script: list[dict[str, Any]] = []
    images = []
    written: dict[int, Path] = {}  # a still state is one picture held for several frames
    for shot in shots:
        path = folder / f"frame-{shot.index:04d}.png"
        if id(shot.frame) in written:
            os.link(written[id(shot.frame)], path)
        else:
            cv2.imwrite(str(path), shot.frame.image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
            written[id(shot.frame)] = path
        images.append(shot.frame.image)
        script.extend(shot.events)
    double = next(e["frame"] for e in script if e["type"] == "double")
    height, width = images[0].shape[:2]
    video = root / "before-double.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (width, height))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG videos")
    for index, image in enumerate(images[:double]):
        writer.write(image)
        os.link(folder / f"frame-{index:04d}.png", before_double / f"frame-{index:04d}.png")
    writer.release()
    profile = root / "profile.json"
    calibrated = cli(["calibrate", str(folder / "frame-0000.png"), "-o", str(profile)])
    return Film(folder, video, before_double, profile, calibrated, len(images), script)


@pytest.fixture(scope="module")
def demo(shots: list[GameFrame], tmp_path_factory: pytest.TempPathFactory) -> Refereed:
    """``companion demo --short``: the reference for every run of the same frames (the film
    already rendered is handed to it, as rendering it again would give the same pictures)."""
    log = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("companion.sim.demo.render_demo_game", lambda *a, **k: iter(shots))
        out = cli(["demo", "--short", "--log", str(log)])
    return Refereed(out, only_journal(log))


def run_args(film: Film, source: str, log: Path, *more: str) -> list[str]:
    return [
        "run",
        "--source",
        source,
        "--profile",
        str(film.profile),
        *GAME,
        *WINDOW,
        "--fps",
        str(FPS),
        "--log",
        str(log),
        *more,
    ]


def facts(events: tuple[Event, ...] | list[Event]) -> list[tuple[str, dict[str, Any]]]:
    """Events without their times (the demo starts its clock at 0, ``run`` at the wall
    clock's time): the kind and every fact, the frame of each included."""
    return [(event.kind, dict(event.data)) for event in events]


def before(events: tuple[Event, ...], frame: int) -> list[Event]:
    """The match's events up to (not including) ``frame`` (the match start has no frame)."""
    return [e for e in events if e.data.get("frame", -1) < frame]


def exported_mat(journal: Path, folder: Path) -> str:
    """``companion export LOG --mat FILE``: the record a player takes to GNU Backgammon."""
    target = folder / "exported.mat"
    cli(["export", str(journal), "--mat", str(target)])
    return target.read_text("utf-8")


def same_day(record: str, events: list[Event]) -> str:
    """The ``.mat`` that ``events`` make, dated as ``record`` is (exports write today's date)."""
    return write_mat(replace(from_events(events), date=read_mat(record).date))


def headline(event: dict[str, Any]) -> str:
    """A script event's announcement as a display's headline (the advice in brackets aside)."""
    return str(event["announce"]).split(" (")[0]


def said_before_the_double(demo: Refereed, film: Film) -> list[str]:
    """The demo's verdicts up to the doubler's double (which needs a key to be pressed)."""
    return demo.headlines[: demo.headlines.index(headline(film.double))]


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    """Whether ``part`` is ``whole`` with some items left out (and none added or reordered)."""
    rest = iter(whole)
    return all(item in rest for item in part)


ACCEPTED = ("match_start", "game_start", "opening_roll", "roll", "move")
"""The events that make the game's record: what the referee accepted."""


def accepted(events: tuple[Event, ...] | list[Event]) -> list[tuple[str, dict[str, Any]]]:
    """The accepted rolls and plays with what was read of them, not the frame they were
    decided on (an unsure frame makes the referee wait for the next)."""
    return [
        (kind, {key: value for key, value in data.items() if key != "frame"})
        for kind, data in facts(events)
        if kind in ACCEPTED
    ]


def undated(record: str) -> str:
    """A ``.mat`` record without its date line (an export is dated the day it is made)."""
    return "\n".join(line for line in record.splitlines() if "EventDate" not in line)


# -- one player's session with a camera, step by step ---------------------------------------------


def test_calibrating_the_opening_frame_finds_the_board_the_demo_found(
    film: Film, demo: Refereed
) -> None:
    assert "white's home board: bottom-right" in film.calibrated
    assert "white's home board is bottom-right" in demo.out
    assert film.frames == film.script[-1]["frame"] + 3  # the last state is held 3 frames


def test_the_image_folder_is_refereed_event_for_event_as_the_demo(
    film: Film, demo: Refereed, tmp_path: Path
) -> None:
    """The demo's own pixels, up to the double (the first control a player must press): every
    verdict, every journal line (with the frame it was decided on) and the .mat the same."""
    out = cli(run_args(film, f"images:{film.before_double}", tmp_path, "--keys", "off"))
    run = Refereed(out, only_journal(tmp_path))
    double = film.double_frame
    assert run.headlines == said_before_the_double(demo, film)
    assert facts(run.events) == facts(before(demo.events, double))
    standing = [e["play"] for e in film.script if e["type"] == "pickup" and e["frame"] < double]
    assert [e.data["play"] for e in run.events if e.kind == "move"] == standing
    written = exported_mat(run.journal, tmp_path)
    assert written == same_day(written, before(demo.events, double))


def test_a_webcams_compressed_video_is_refereed_as_the_demo(
    film: Film, demo: Refereed, tmp_path: Path
) -> None:
    """The same frames through ``video:`` (OpenCV's VideoCapture, as ``camera:N``), squeezed
    again by MJPG as a webcam's stream is, up to the double. The camera may be unsure of a
    state the demo's pixels show plainly (then the referee waits and says nothing of it), but
    it says nothing the demo does not, in the same order, and it accepts the same rolls and
    plays: the record is the demo's."""
    video = cv2.VideoCapture(str(film.video))
    assert video.get(cv2.CAP_PROP_FRAME_COUNT) == film.double_frame  # it holds every frame
    video.release()
    out = cli(run_args(film, f"video:{film.video}", tmp_path, "--keys", "off"))
    run = Refereed(out, only_journal(tmp_path))
    demo_said = said_before_the_double(demo, film)
    assert is_subsequence(run.headlines, demo_said), (run.headlines, demo_said)
    assert accepted(run.events) == accepted(before(demo.events, film.double_frame))
    written = exported_mat(run.journal, tmp_path)
    assert written == same_day(written, before(demo.events, film.double_frame))


# -- a crash mid-game, a resumed game, and the players' cube keys ---------------------------------


@contextlib.contextmanager
def companion_run(args: list[str], keys: bool = False) -> Iterator[subprocess.Popen[str]]:
    """``python -m companion ARGS`` with its console as a pipe, killed if it outlives
    :data:`SUBPROCESS_TIMEOUT` (a hung test fails instead of hanging)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", *args],
        cwd=PROJECT,
        stdin=subprocess.PIPE if keys else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(SUBPROCESS_TIMEOUT, process.kill)
    watchdog.start()
    try:
        yield process
    finally:
        watchdog.cancel()
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def watch(process: subprocess.Popen[str], on_verdict: Callable[[str], bool]) -> str:
    """Reads the console line by line; ``on_verdict(headline)`` returning True stops reading."""
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line)
        found = VERDICT.match(line)
        if found and on_verdict(found.group(1)):
            break
    return "".join(lines)


def test_kill_minus_nine_mid_turn_then_resume_with_the_cube_keys_loses_nothing(
    film: Film, demo: Refereed, tmp_path: Path
) -> None:
    """The program is killed for real just after it announces the play that the player will
    take back (the dice still down: the play is not yet on record); ``--resume`` goes on from
    the frame after the journal's last event, at the camera's pace, and the players type ``d``
    (double) and ``t`` (take) on the console when the doubler is on roll, as they would at the
    table. The whole film then leaves the demo's verdicts, journal (bar the frames on which
    the keys were read) and .mat."""
    script = film.script
    taken_back = next(e for e in script if e["type"] == "takeback")
    doomed = f"{taken_back['colour']} plays {taken_back['play']}"
    log = tmp_path / "game"
    source = f"images:{film.folder}"
    with companion_run(run_args(film, source, log, "--keys", "off")) as crashed:
        out_before = watch(crashed, lambda said: said == doomed)
        os.kill(crashed.pid, signal.SIGKILL)
        crashed.wait(timeout=10)
        assert crashed.stdout is not None
        out_before += crashed.stdout.read()  # whatever it printed before it died
    assert crashed.returncode == -signal.SIGKILL, out_before[-2000:]
    journal = only_journal(log)
    journaled = read_journal(journal).events
    # The play on the board is announced but not yet on record: its dice are still down.
    finished = [e for e in script if e["type"] == "pickup" and e["frame"] < taken_back["frame"]]
    assert [e.kind for e in journaled].count("move") == len(finished)
    assert journaled[-1].kind == "roll"
    last_frame = journaled[-1].data["frame"]

    double = film.double
    to_roll = [e for e in script if e["type"] == "pickup" and e["frame"] < double["frame"]][-1]
    pressed: list[str] = []

    keys = {headline(to_roll): "d", headline(double): "t"}

    def players(said: str) -> bool:
        """The doubler presses ``d`` once on roll; the taker ``t`` once the cube is offered."""
        if said in keys and keys[said] not in pressed:
            assert resumed.stdin is not None
            resumed.stdin.write(keys[said] + "\n")
            resumed.stdin.flush()
            pressed.append(keys[said])
        return False

    # At the camera's pace (--realtime), so that there is time to press a key.
    # (no --skip: a resumed recording goes on after the journal's last frame by itself)
    resume = ["--resume", str(journal), "--realtime"]
    with companion_run(run_args(film, source, log, *resume, "--keys", "on"), True) as resumed:
        out_after = watch(resumed, players)
        assert resumed.stderr is not None
        assert resumed.wait(timeout=SUBPROCESS_TIMEOUT) == 0, resumed.stderr.read()
    assert pressed == ["d", "t"]
    assert f"resumed {journal}" in out_after
    assert f"resuming at frame {last_frame + 1} of" in out_after

    # Nothing is said twice but the play that was not yet on record when the power went: the
    # frames after the last event on record show it again, and the referee judges it again.
    again = demo.headlines.index(doomed)
    assert headlines(out_before) == demo.headlines[: again + 1]
    assert headlines(out_after) == demo.headlines[again:]
    final = read_journal(journal)
    assert final.events[: len(journaled)] == journaled  # nothing accepted before the kill lost

    def unkeyed(events: tuple[Event, ...]) -> list[tuple[str, dict[str, Any]]]:
        # A key is read on the next frame after it is typed, not on the frame the film's hand
        # touches the cube: those two events may carry another frame number.
        return [
            (kind, {k: v for k, v in data.items() if k != "frame" or kind not in CUBE})
            for kind, data in facts(events)
        ]

    assert unkeyed(final.events) == unkeyed(demo.events)
    written = exported_mat(journal, tmp_path)
    assert undated(written) == undated(demo.journal.with_suffix(".mat").read_text("utf-8"))
    assert [a.kind for a in read_mat(written).games[0].actions].count("take") == 1


CUBE = ("double", "take")
"""The events a player's key makes (the cube actions of the film)."""


class FakeClock:
    """Stands for the ``time`` module in ``companion.sources``: records the waits asked for,
    and lets 10 ms pass each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0
        self.waits: list[float] = []

    def monotonic(self) -> float:
        self.now += 0.01
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def test_a_resumed_folder_neither_reads_nor_waits_for_the_frames_it_skips(
    film: Film, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game resumed from frame N of a recording starts at once: the frames before N are not
    decoded, and the camera's pace is kept from frame N on (not from frame 0)."""
    clock = FakeClock()
    monkeypatch.setattr("companion.sources.time", clock)
    read: list[str] = []
    real_imread = cv2.imread

    def imread(path: str, *flags: int) -> Any:
        read.append(path)
        return real_imread(path, *flags)

    monkeypatch.setattr(cv2, "imread", imread)
    last = film.frames - 1
    source = ImageFolderSource(str(film.folder), fps=FPS, realtime=True, skip=last - 2)
    frames = list(source.frames())
    assert [f.index for f in frames] == [last - 2, last - 1, last]
    assert [f.time for f in frames] == [f.index / FPS for f in frames]  # the film's own times
    assert [Path(path).name for path in read] == [
        f"frame-{i:04d}.png" for i in range(last - 2, last + 1)
    ]
    assert 0 < sum(clock.waits) <= 2 / FPS  # the pace of two frames, not of the whole film


@pytest.mark.parametrize("kind", ["images", "video", "readings"])
def test_every_recording_started_at_a_frame_gives_the_rest_as_they_were(
    kind: str, film: Film, tmp_path: Path
) -> None:
    """``--skip N``: frame N onwards, numbered and timed as in the whole recording."""
    spec = {
        "images": f"images:{tmp_path}",
        "video": f"video:{film.video}",
        "readings": f"readings:{tmp_path / 'game.jsonl'}",
    }[kind]
    if kind == "images":  # eight of the frames will do
        for index in range(8):
            name = f"frame-{index:04d}.png"
            os.link(film.folder / name, tmp_path / name)
    if kind == "readings":
        opening = Reading.from_json(
            {"readable": True, "points": OPENING_POINTS, "bar": {}, "off": {}, "dice": []}
        )
        write_readings(tmp_path / "game.jsonl", [opening, "double", opening])
    whole = list(open_source(spec, fps=FPS, repeat=3).frames())
    start = len(whole) - 5  # (in a readings file: within a line that lasts 3 frames)
    rest = list(open_source(spec, fps=FPS, repeat=3, skip=start).frames())
    assert [(f.index, f.time, f.control) for f in rest] == [
        (f.index, f.time, f.control) for f in whole[start:]
    ]
    for mine, theirs in zip(rest, whole[start:], strict=True):
        assert (mine.image is None) == (theirs.image is None)
        if mine.image is not None and theirs.image is not None:
            assert (mine.image == theirs.image).all()
        assert mine.reading == theirs.reading


OPENING_POINTS = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
"""The opening position in white's numbering (+ white, - black)."""
