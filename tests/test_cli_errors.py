"""Every command meets bad input the way a player should see it: a one-line reason that names
what was wrong and what to do, exit status 2 (bad input) or 3 (a device or file), no traceback,
and no journal or record lost, even to Ctrl-C.

Most cases run in-process through ``main`` (fast); Ctrl-C and one sample of each kind run as a
real ``companion`` process, since only a process shows what a player sees.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import cli
from companion.cli import EXIT_FAULT, FAULT_REPORTS, main
from companion.cli import read as read_command
from companion.journal import Journal, read_journal
from companion.referee import Phase, Referee

COMPANION = Path(sys.executable).with_name("companion")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of good and bad inputs: frames, a profile, journals, broken files."""
    d = tmp_path_factory.mktemp("errors")
    argv = ["render", "opening", "--dice", "6", "3", "--size", "640x360", "-o", str(d / "frames")]
    assert main(argv) == 0
    frame = d / "frames" / "frame_000000.png"
    assert main(["calibrate", str(frame), "-o", str(d / "profile.json")]) == 0
    (d / "empty.png").write_bytes(b"")
    (d / "text.png").write_text("hello\n")
    data = frame.read_bytes()
    (d / "truncated.png").write_bytes(data[: len(data) // 3])
    image = cv2.imread(str(frame))
    assert image is not None
    ok, jpeg = cv2.imencode(".jpg", image)
    assert ok
    (d / "truncated.jpg").write_bytes(jpeg.tobytes()[:2000])
    (d / "folder").mkdir()
    (d / "emptydir").mkdir()
    (d / "afile").write_text("a file, not a folder\n")
    (d / "garbage.json").write_text("{garbage\n")
    profile = json.loads((d / "profile.json").read_text())
    (d / "v99.json").write_text(json.dumps({**profile, "version": 99}))
    (d / "big").mkdir()
    cv2.imwrite(str(d / "big" / "frame.png"), np.zeros((720, 1280, 3), np.uint8))
    # A real journal from the demo, then the same game ended by a dropped double in a
    # 1-point match: a finished match, replayed and written by the referee itself.
    assert main(["demo", "--short", "--log", str(d / "demo")]) == 0
    whole = next((d / "demo").glob("*.jsonl"))
    lines = whole.read_text().splitlines(keepends=True)
    (d / "journal.jsonl").write_text("".join(lines))
    (d / "empty.jsonl").write_text("")
    (d / "notjson.jsonl").write_text("not json\n")
    (d / "cut.jsonl").write_text("".join(lines[:3]) + lines[3][:20])
    kinds = [json.loads(line)["kind"] for line in lines]
    prefix = lines[: kinds.index("double") + 1]
    start = json.loads(prefix[0])
    prefix[0] = json.dumps({**start, "length": 1}) + "\n"
    (d / "finished.jsonl").write_text("".join(prefix))
    events = list(read_journal(d / "finished.jsonl").events)
    referee = Referee.resume(events)
    step = referee.control("drop", events[-1].time + 1)
    assert referee.phase is Phase.MATCH_OVER
    journal, _ = Journal.continue_from(d / "finished.jsonl")
    for event in step.events:
        journal.append(event)
    journal.close()
    return d


@pytest.fixture
def here(work: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(work)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    yield work


RUN = ["run", "--keys", "off", "--log", "games"]
PROFILE = ["--profile", "profile.json"]
IMAGES = ["--source", "images:frames"]

CASES: list[tuple[list[str], int, list[str]]] = [
    # read: images and profiles
    (["read", "missing.png", *PROFILE], 3, ["no image at missing.png", "check the file name"]),
    (["read", "folder", *PROFILE], 3, ["folder is not a file", "PNG or JPEG"]),
    (["read", "empty.png", *PROFILE], 2, ["empty.png is not an image", "PNG or JPEG"]),
    (["read", "text.png", *PROFILE], 2, ["text.png is not an image", "PNG or JPEG"]),
    (["read", "truncated.png", *PROFILE], 2, ["truncated.png is not an image", "PNG or JPEG"]),
    (["read", "truncated.jpg", *PROFILE], 2, ["truncated.jpg is not an image", "PNG or JPEG"]),
    (["read", "frames/frame_000000.png", "--profile", "missing.json"], 3, ["no profile at"]),
    (["read", "frames/frame_000000.png", "--profile", "folder"], 3, ["profile folder", "name"]),
    (["read", "frames/frame_000000.png", "--profile", "garbage.json"], 2, ["not JSON", "calib"]),
    (["read", "frames/frame_000000.png", "--profile", "v99.json"], 2, ["version 99", "calib"]),
    (["read", "big/frame.png", *PROFILE], 2, ["1280x720", "640x360", "calibrate"]),
    # calibrate
    (["calibrate", "missing.png", "-o", "p.json"], 3, ["no image at", "check the file name"]),
    (["calibrate", "folder", "-o", "p.json"], 3, ["is not a file", "PNG or JPEG"]),
    (["calibrate", "empty.png", "-o", "p.json"], 2, ["not an image", "PNG or JPEG"]),
    (["calibrate", "truncated.jpg", "-o", "p.json"], 2, ["not an image", "PNG or JPEG"]),
    (["calibrate", "frames/frame_000000.png", "-o", "afile/p.json"], 3, ["cannot write", "-o"]),
    (["calibrate", "frames/frame_000000.png", "-o", "/proc/x/p.json"], 3, ["cannot write", "-o"]),
    (["calibrate", "frames/frame_000000.png", "-o", "folder"], 3, ["cannot write", "-o"]),
    (["calibrate", "--source", "camera:7", "-o", "p.json"], 3, ["camera 7", "plugged in"]),
    (["calibrate"], 2, ["give an IMAGE or --source"]),
    # render
    (["render", "opening", "--dice", "6", "3", "-o", "afile/x"], 3, ["cannot create", "afile"]),
    (["render", "opening", "--dice", "6", "3", "-o", "/proc/x"], 3, ["cannot create", "/proc/x"]),
    (["render", "opening", "--dice", "0", "9", "-o", "r"], 2, ["shows 0", "1 to 6"]),
    (["render", "opening", "--dice", "6", "3", "--tilt", "90", "-o", "r"], 2, ["0-35"]),
    (["render", "opening", "--dice", "6", "3", "--count", "-1", "-o", "r"], 2, ["1 or more"]),
    (["render", "bogus", "--dice", "6", "3", "-o", "r"], 2, ["'bogus' is not a position"]),
    # legal and judge
    (["legal", "opening", "--dice", "0", "9"], 2, ["1 to 6, got 0"]),
    (["legal", "bogus", "--dice", "6", "3"], 2, ["'bogus' is not a position", "opening"]),
    (["legal", "--batch", "missing.jsonl"], 3, ["cannot read missing.jsonl", "- to read"]),
    (["legal", "--batch", "folder"], 3, ["cannot read folder", "- to read"]),
    (["legal"], 2, ["give a POSITION"]),
    (["judge", "opening", "--dice", "0", "9", "--play", "24/18"], 2, ["1 to 6, got 0"]),
    (["judge", "opening", "--dice", "6", "3", "--play", "rubbish"], 2, ["FROM/TO"]),
    # export
    (["export", "missing.jsonl", "--mat", "o.mat"], 3, ["cannot read the journal missing"]),
    (["export", "folder", "--mat", "o.mat"], 3, ["cannot read the journal folder"]),
    (["export", "empty.jsonl", "--mat", "o.mat"], 2, ["no match_start", "companion run"]),
    (["export", "notjson.jsonl", "--mat", "o.mat"], 2, ["no match_start", "companion run"]),
    (["export", "journal.jsonl", "--mat", "afile/x.mat"], 3, ["cannot write", "--mat FILE"]),
    (["export", "journal.jsonl", "--mat", "/proc/x.mat"], 3, ["cannot write", "--mat FILE"]),
    # demo
    (["demo", "--log", "afile/x"], 3, ["cannot create a journal", "--log DIR"]),
    (["demo", "--log", "/proc/x"], 3, ["cannot create a journal", "--log DIR"]),
    (["demo", "--display", "bogus"], 2, ["unknown display 'bogus'", "--display console"]),
    (["demo", "--display", "leds"], 3, ["no GPIO", "--display console"]),
    # run: sources, profiles, displays, logs, numbers
    ([*RUN, "--source", "camera:7", *PROFILE], 3, ["camera 7", "plugged in"]),
    ([*RUN, "--source", "video:missing.mp4", *PROFILE], 3, ["no video file", "check the path"]),
    ([*RUN, "--source", "images:emptydir", *PROFILE], 3, ["emptydir holds no images", ".png"]),
    ([*RUN, "--source", "images:nowhere", *PROFILE], 3, ["no folder at nowhere"]),
    ([*RUN, "--source", "bogus:1", *PROFILE], 2, ["unknown source", "camera:N"]),
    ([*RUN, *IMAGES], 2, ["add --profile FILE"]),
    ([*RUN, *IMAGES, "--profile", "garbage.json"], 2, ["not JSON", "calibrate again"]),
    ([*RUN, *IMAGES, "--profile", "v99.json"], 2, ["version 99", "calibrate again"]),
    ([*RUN, *IMAGES, "--profile", "missing.json"], 3, ["no profile at", "companion calibrate"]),
    ([*RUN, "--source", "images:big", *PROFILE], 2, ["1280x720", "calibrate this camera"]),
    ([*RUN, *IMAGES, *PROFILE, "--match", "-1"], 2, ["--match", "not -1"]),
    ([*RUN, *IMAGES, *PROFILE, "--fps", "0"], 2, ["--fps", "more than 0"]),
    ([*RUN, *IMAGES, *PROFILE, "--skip", "-1"], 2, ["--skip", "0 or more"]),
    ([*RUN, *IMAGES, *PROFILE, "--stable-frames", "0"], 2, ["at least 1 frame"]),
    ([*RUN, *IMAGES, *PROFILE, "--players", "one"], 2, ["two names"]),
    ([*RUN, *IMAGES, *PROFILE, "--display", "bogus"], 2, ["unknown display 'bogus'"]),
    ([*RUN, *IMAGES, *PROFILE, "--display", "leds"], 3, ["no GPIO", "--display console"]),
    ([*RUN, *IMAGES, *PROFILE, "--config", "missing.toml"], 2, ["no settings file", "copy"]),
    ([*RUN, *IMAGES, *PROFILE, "--config", "garbage.json"], 2, ["not valid TOML"]),
    (["run", *IMAGES, *PROFILE, "--log", "afile/x"], 3, ["cannot create a journal", "--log"]),
    (["run", *IMAGES, *PROFILE, "--log", "/proc/x"], 3, ["cannot create a journal", "--log"]),
    ([*RUN, *IMAGES, *PROFILE, "--resume", "missing.jsonl"], 3, ["cannot read the journal"]),
    ([*RUN, *IMAGES, *PROFILE, "--resume", "empty.jsonl"], 2, ["no match_start", "without"]),
    ([*RUN, *IMAGES, *PROFILE, "--resume", "notjson.jsonl"], 2, ["no match_start", "without"]),
    ([*RUN, *IMAGES, *PROFILE, "--resume", "finished.jsonl"], 2, ["is over", "companion export"]),
]


@pytest.mark.parametrize(("argv", "status", "phrases"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_gets_a_clear_error(
    here: Path, capsys: pytest.CaptureFixture[str], argv: list[str], status: int, phrases: list[str]
) -> None:
    assert main(argv) == status
    err = capsys.readouterr().err
    assert f"companion {argv[0]}: " in err
    for phrase in phrases:
        assert phrase in err, f"{phrase!r} not in {err!r}"
    assert "Traceback" not in err


def test_refused_runs_leave_the_journals_untouched(here: Path) -> None:
    """A failed --resume, a bad display or a finished match never cuts or appends a journal."""
    before = {name: (here / name).read_bytes() for name in ("finished.jsonl", "notjson.jsonl")}
    for name in before:
        main([*RUN, *IMAGES, *PROFILE, "--resume", name, "--display", "bogus"])
        main([*RUN, *IMAGES, *PROFILE, "--resume", name])
    assert {name: (here / name).read_bytes() for name in before} == before


def test_export_of_a_cut_short_journal_names_the_cut_and_keeps_the_rest(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "cut.jsonl", "--mat", "-"]) == 0
    captured = capsys.readouterr()
    assert "cut short" in captured.err and "--resume" in captured.err
    assert "point match" in captured.out


def _companion(argv: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "OPENCV_LOG_LEVEL": "ERROR", "PYTHONUNBUFFERED": "1"}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    return subprocess.Popen(
        [str(COMPANION), *argv],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A test run started in the background inherits "ignore Ctrl-C"; a user's terminal
        # does not, so the program under test gets the terminal's default back.
        preexec_fn=_default_ctrl_c,
    )


def _default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("argv", "status", "phrase"),
    [
        (["read", "text.png", *PROFILE], 2, "not an image"),
        (["export", "missing.jsonl", "--mat", "o.mat"], 3, "cannot read the journal"),
        (["run", "--source", "camera:7", *PROFILE], 3, "camera 7"),
    ],
)
def test_a_real_process_shows_one_line_and_no_traceback(
    work: Path, argv: list[str], status: int, phrase: str
) -> None:
    process = _companion(argv, work)
    out, err = process.communicate(timeout=60)
    assert process.returncode == status
    assert phrase in err
    assert "Traceback" not in err + out


def _broken_reader(*args: object, **kwargs: object) -> None:
    raise ValueError("operands could not be broadcast together")


def test_a_fault_in_the_program_is_one_plain_line_and_a_saved_report(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug is no fault of the player's: one line that says so, the traceback in a file."""
    monkeypatch.setattr(read_command, "read_frame", _broken_reader)
    monkeypatch.setenv(FAULT_REPORTS, str(here / "reports"))
    assert main(["read", "frames/frame_000000.png", *PROFILE]) == EXIT_FAULT
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "fault in the program" in err and "bug" in err and "operands could not" in err
    (report,) = (here / "reports").glob("companion-read-fault-*.txt")
    assert str(report) in err
    text = report.read_text()
    assert "command: companion read frames/frame_000000.png --profile profile.json" in text
    assert "Traceback" in text and "_broken_reader" in text


def test_a_fault_is_still_named_when_its_report_cannot_be_saved(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(read_command, "read_frame", _broken_reader)
    monkeypatch.setenv(FAULT_REPORTS, str(here / "text.png" / "reports"))  # under a file
    assert main(["read", "frames/frame_000000.png", *PROFILE]) == EXIT_FAULT
    err = capsys.readouterr().err
    assert "no report could be saved" in err and "Traceback" not in err


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


@pytest.mark.parametrize(
    ("fault", "shown"),
    [
        (_Unprintable(), "_Unprintable: <no message>"),
        (ValueError("first line\nsecond line\nthird"), "ValueError: first line)"),
    ],
)
def test_a_fault_with_an_awkward_message_still_makes_one_line(
    here: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fault: Exception,
    shown: str,
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise fault

    monkeypatch.setattr(read_command, "read_frame", broken)
    monkeypatch.setenv(FAULT_REPORTS, str(here / "reports"))
    assert main(["read", "frames/frame_000000.png", *PROFILE]) == EXIT_FAULT
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and shown in err and "Traceback" not in err


def test_a_fault_s_report_keeps_a_file_name_that_is_not_utf8(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Linux hands such names over as surrogate escapes, which UTF-8 cannot write as they are
    def broken(args: object) -> int:
        raise ValueError("operands could not be broadcast together")

    monkeypatch.setattr(read_command, "run", broken)
    monkeypatch.setenv(FAULT_REPORTS, str(here / "odd-reports"))
    assert main(["read", "fr\udcffame.png", *PROFILE]) == EXIT_FAULT
    (report,) = (here / "odd-reports").glob("companion-read-fault-*.txt")
    assert "fr\\udcffame.png" in report.read_text() and str(report) in capsys.readouterr().err


def test_a_fault_before_any_command_runs_is_reported_plainly(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken() -> list[object]:
        raise ImportError("cannot import name 'x' from 'companion.sim'")

    monkeypatch.setattr(cli, "_command_modules", broken)
    monkeypatch.setenv(FAULT_REPORTS, str(here / "reports"))
    assert main(["read", "frames/frame_000000.png", *PROFILE]) == EXIT_FAULT
    err = capsys.readouterr().err
    assert err.startswith("companion: stopped by a fault") and "Traceback" not in err


def _interrupt_after(process: subprocess.Popen[str], marker: str) -> tuple[str, str]:
    """Sends Ctrl-C once ``marker`` is printed; returns all the output."""
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        if marker in line:
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return "".join(seen) + out, err


def _complete_events(folder: Path) -> list[str]:
    (journal,) = folder.glob("*.jsonl")
    text = journal.read_text()
    assert text.endswith("\n")
    contents = read_journal(journal)
    assert not contents.damaged_tail
    return [event.kind for event in contents.events]


def test_ctrl_c_during_demo_keeps_the_journal_and_writes_the_record(work: Path) -> None:
    log = work / "interrupted-demo"
    out, err = _interrupt_after(_companion(["demo", "--log", str(log)], work), "roll one die each")
    assert "interrupted" in err and "Traceback" not in err + out
    assert _complete_events(log)[:2] == ["match_start", "game_start"]
    (record,) = log.glob("*.mat")
    assert "match record" in out and record.read_text().strip()


def test_ctrl_c_during_run_keeps_the_journal_and_writes_the_record(work: Path) -> None:
    log = work / "interrupted-run"
    argv = [*RUN[:3], "--log", str(log), *IMAGES, *PROFILE, "--realtime", "--fps", "1"]
    out, err = _interrupt_after(_companion(argv, work), "journal:")
    assert "interrupted" in err and "Traceback" not in err + out
    assert _complete_events(log)[0] == "match_start"
    (record,) = log.glob("*.mat")
    assert "match record" in out and record.read_text().strip()


def test_a_missing_serial_display_is_named_and_the_game_goes_on(
    here: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A display cable can be plugged in later, so a missing port is a note, not a stop."""
    argv = [*RUN[:3], "--log", "serial-games", *IMAGES, *PROFILE, "--display", "serial:/dev/nope"]
    assert main(argv) == 0
    err = capsys.readouterr().err + caplog.text  # the note is logged (stderr outside pytest)
    assert "/dev/nope unavailable" in err and "retrying" in err and "Traceback" not in err
    assert _complete_events(here / "serial-games")[0] == "match_start"
    assert list((here / "serial-games").glob("*.mat"))
