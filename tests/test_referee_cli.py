"""`companion run` and `companion export` at their edges: ordering, options and bad input."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from companion.cli import build_parser, main
from companion.cli.run import LiveGame
from companion.displays import DisplayBase, Status
from companion.displays import Verdict as DisplayVerdict
from companion.journal import Journal, read_journal
from companion.referee import Referee, Settings
from companion.referee.scripted import after_play, die, reading_of
from companion.rules import Colour, Position
from companion.sources import Frame
from companion.vision.reading import Reading


class JournalWatcher(DisplayBase):
    """A display that checks, at each verdict, what the journal on disk already holds."""

    name = "watcher"

    def __init__(self, journal: Path) -> None:
        self.journal = journal
        self.seen: list[tuple[str, int]] = []

    def show_verdict(self, verdict: DisplayVerdict) -> None:
        self.seen.append((verdict.headline, len(read_journal(self.journal).events)))


def _opening_and_first_play() -> list[Reading]:
    """What the camera reads of the first moves: the opening, the opening roll (5-2), then
    white's 13/8 13/11."""
    opening = Position.opening()
    after = after_play(opening, (5, 2), "13/8 13/11")
    return [
        reading_of(opening),
        reading_of(opening, dice=[die(5, "home"), die(2, "outer")]),
        reading_of(after, Colour.WHITE),
    ]


def test_every_event_is_on_disk_before_its_verdict_is_shown(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path)
    watcher = JournalWatcher(journal.path)
    referee = Referee(Settings(stable_frames=1, stable_seconds=0.0))
    game = LiveGame(referee, journal, watcher, out=io.StringIO())
    game.record(referee.start_match(3))
    frames = _opening_and_first_play()
    for index, reading in enumerate(frames):
        game.handle(Frame(index, float(index), reading=reading))
    journal.close()
    events = read_journal(journal.path).events
    kinds = [event.kind for event in events]
    assert kinds == ["match_start", "game_start", "opening_roll", "move"]
    # Each verdict saw at least the events of its own step already written.
    written_by = {"game 1: roll one die each": 2, "white starts with 5-2": 3, "black to roll": 4}
    for headline, count in watcher.seen:
        if headline in written_by:
            assert count >= written_by[headline], headline
    assert [e.data.get("frame") for e in events[1:]] == [0, 1, 2]


def test_keys_and_buttons_become_controls(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path)
    shown: list[str] = []

    class Recorder(DisplayBase):
        def show_verdict(self, verdict: DisplayVerdict) -> None:
            shown.append(f"{verdict.status.value}: {verdict.headline}")

    referee = Referee(Settings(stable_frames=1, stable_seconds=0.0))
    out = io.StringIO()
    game = LiveGame(referee, journal, Recorder(), out=out)
    game.record(referee.start_match(3))
    game.controls.put("d")
    game.controls.put("resign")
    game.handle(Frame(0, 0.0, reading=reading_of(Position.opening())))
    journal.close()
    assert shown[1] == f"{Status.WARNING.value}: cannot double: no game is going on"
    assert "unknown control 'resign'" in out.getvalue()


def test_run_help_has_an_example() -> None:
    parser = build_parser()
    actions = {a.dest: a for a in parser._subparsers._group_actions}  # type: ignore[union-attr]
    commands: Any = actions["command"].choices
    assert "companion run --source camera:0" in commands["run"].format_help()
    assert "companion export" in commands["export"].format_help()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--source", "camera:0"], "add --profile FILE"),
        (["--source", "readings:x.jsonl", "--players", "Ann"], "--players needs two names"),
        (["--source", "webcam", "--profile", "p.json"], "unknown source 'webcam'"),
        (["--source", "readings:/no/such.jsonl"], "cannot read the readings file"),
        (["--source", "readings:x", "--match", "-1"], "--match is the match length"),
        (["--source", "readings:x", "--beavers"], "add --match 0"),
    ],
)
def test_bad_input_is_a_message_not_a_traceback(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["run", *args, "--log", str(tmp_path / "games"), "--keys", "off"])
    assert status in (2, 3)
    assert not (tmp_path / "games").exists()  # nothing written for a command that cannot run
    error = capsys.readouterr().err
    assert message in error
    assert "Traceback" not in error


def test_resume_of_a_journal_that_is_not_a_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"kind":"note"}\n')
    status = main(["run", "--source", "readings:x", "--resume", str(path), "--keys", "off"])
    assert status == 2
    assert "not a game journal" in capsys.readouterr().err


def test_a_camera_lost_mid_game_is_retried_and_the_game_goes_on(tmp_path: Path) -> None:
    """Frames from a camera that drops out after the opening roll; the game resumes after it."""
    import itertools

    import numpy as np

    from companion.sources import CameraSource

    states = _opening_and_first_play()

    class Device:
        """Shows each state on two frames, as images whose grey level names the state."""

        def __init__(self, shown: list[int]) -> None:
            self.shown = [level for level in shown for _ in range(2)]

        def isOpened(self) -> bool:
            return True

        def set(self, prop: int, value: float) -> bool:
            return True

        def read(self) -> tuple[bool, object]:
            if not self.shown:
                return False, None
            return True, np.full((8, 8, 3), self.shown.pop(0), dtype=np.uint8)

        def release(self) -> None:
            pass

    class Unplugged(Device):
        def isOpened(self) -> bool:
            return False

    devices = iter([Device([0, 1]), Unplugged([]), Device([1, 2])])
    messages: list[str] = []
    clock = itertools.count(0.0, 0.1)
    camera = CameraSource(
        0,
        capture=lambda n: next(devices),
        status=messages.append,
        clock=lambda: next(clock),
        sleep=lambda s: None,
    )
    journal = Journal.create(tmp_path)
    referee = Referee(Settings(stable_frames=2, stable_seconds=0.0))
    game = LiveGame(
        referee, journal, DisplayBase(), reader=lambda image, ref: states[int(image[0, 0, 0])]
    )
    game.gate.refresh = 1  # read every frame: the test images are tiny
    game.record(referee.start_match(3))
    frames = camera.frames()
    for frame in itertools.islice(frames, 8):
        game.handle(frame)
    journal.close()
    assert "stopped giving frames" in messages[0]
    assert messages[1] == "camera 0 is back: the game goes on"
    kinds = [e.kind for e in read_journal(journal.path).events]
    assert kinds == ["match_start", "game_start", "opening_roll", "move"]


def test_a_fault_in_the_vision_code_makes_frames_unreadable_not_the_end_of_the_game(
    tmp_path: Path,
) -> None:
    """A bug in the reader on a frame (development seed 5163 once stopped it with a
    ValueError) is said once; the referee waits as for any unsure frame and the game goes on."""
    import numpy as np

    states = _opening_and_first_play()
    faulty = len(states)

    def reader(image: np.ndarray, referee: Referee) -> Reading:
        shown = int(image[0, 0, 0])
        if shown == faulty:
            raise ValueError("operands could not be broadcast together")
        return states[shown]

    journal = Journal.create(tmp_path)
    referee = Referee(Settings(stable_frames=2, stable_seconds=0.0))
    out = io.StringIO()
    game = LiveGame(referee, journal, DisplayBase(), reader=reader, out=out)
    game.gate.refresh = 1  # read every frame: the test images are tiny
    game.record(referee.start_match(3))
    for index, shown in enumerate([0, 0, faulty, faulty, 1, 1, faulty, 2, 2]):
        image = np.full((8, 8, 3), shown, dtype=np.uint8)
        game.handle(Frame(index, index * 0.1, image=image))
    journal.close()
    said = out.getvalue().splitlines()
    assert said[0].startswith("the vision reader failed on frame 2 (ValueError: operands")
    assert "the game goes on" in said[0]
    assert said[1] == "the vision reader reads frames again (2 failed so far)"
    assert said[2].startswith("the vision reader failed on frame 6")
    assert said[3] == "the vision reader reads frames again (3 failed so far)"
    assert len(said) == 4 and game.vision_faults == 3
    kept = journal.path.with_name(f"{journal.path.stem}-vision-faults.txt")
    assert f"(details in {kept})" in said[0]
    details = kept.read_text(encoding="utf-8")
    assert details.count("Traceback") == 2 and "frame 6:" in details
    kinds = [e.kind for e in read_journal(journal.path).events]
    assert kinds == ["match_start", "game_start", "opening_roll", "move"]
