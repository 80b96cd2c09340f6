"""The journal: durable lines, repair of a cut-short write, and resuming after a real kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import InvalidFormat
from companion.formats.mat import from_events, write_mat
from companion.journal import Journal, JournalError, read_journal, repair
from companion.referee import Event, Referee
from companion.referee.scripted import scripted_match
from companion.sources import write_readings

PROJECT = Path(__file__).resolve().parents[1]


def events(n: int) -> list[Event]:
    return [Event("note", {"n": i}, time=float(i)) for i in range(n)]


class TestJournal:
    def test_each_event_is_one_line_on_disk_when_append_returns(self, tmp_path: Path) -> None:
        with Journal.create(tmp_path, now=0) as journal:
            for event in events(3):
                journal.append(event)
                # Another reader sees the line at once: it was flushed, not buffered.
                assert read_journal(journal.path).events[-1] == event
        lines = journal.path.read_text().splitlines()
        assert [json.loads(line)["n"] for line in lines] == [0, 1, 2]

    def test_fsync_is_called_for_every_event(self, tmp_path: Path, monkeypatch) -> None:
        synced: list[int] = []
        real = os.fsync
        monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
        with Journal.create(tmp_path) as journal:
            before = len(synced)
            for event in events(4):
                journal.append(event)
        assert len(synced) - before == 4

    def test_a_new_journal_never_overwrites_another(self, tmp_path: Path) -> None:
        first = Journal.create(tmp_path, now=0)
        second = Journal.create(tmp_path, now=0)
        assert first.path != second.path
        assert second.path.name.endswith("-2.jsonl")
        first.close()
        second.close()

    def test_a_cut_short_last_line_is_repaired_keeping_every_earlier_line(
        self, tmp_path: Path
    ) -> None:
        with Journal.create(tmp_path) as journal:
            for event in events(5):
                journal.append(event)
        path = journal.path
        whole = path.read_bytes()
        path.write_bytes(whole + b'{"kind":"move","time":12.5,"pla')
        contents = read_journal(path)
        assert len(contents.events) == 5
        assert contents.damaged_tail == b'{"kind":"move","time":12.5,"pla'
        repaired = repair(path)
        assert repaired.events == contents.events
        assert path.read_bytes() == whole
        # Appending continues on a clean line.
        journal, _ = Journal.continue_from(path)
        journal.append(Event("note", {"n": 5}))
        journal.close()
        assert [e.data["n"] for e in read_journal(path).events] == [0, 1, 2, 3, 4, 5]

    def test_a_last_line_of_zeros_after_a_power_cut_is_repaired(self, tmp_path: Path) -> None:
        path = tmp_path / "game.jsonl"
        path.write_bytes(b'{"kind":"note","n":1}\n' + b"\x00" * 40 + b"\n")
        assert len(repair(path).events) == 1
        assert path.read_bytes() == b'{"kind":"note","n":1}\n'

    def test_a_damaged_line_in_the_middle_is_refused_not_dropped(self, tmp_path: Path) -> None:
        path = tmp_path / "game.jsonl"
        path.write_text('{"kind":"note"}\n{"kind": oops\n{"kind":"note"}\n')
        with pytest.raises(InvalidFormat, match="line 2"):
            read_journal(path)

    def test_missing_journal_is_a_clear_error(self, tmp_path: Path) -> None:
        with pytest.raises(JournalError, match="cannot read the journal"):
            read_journal(tmp_path / "nope.jsonl")
        blocker = tmp_path / "file"
        blocker.write_text("")
        with pytest.raises(JournalError, match="choose another folder"):
            Journal.create(blocker / "games")


def script_file(tmp_path: Path, length: int = 3, seed: int = 5) -> Path:
    path = tmp_path / "match.readings.jsonl"
    write_readings(path, scripted_match(length, seed).steps)
    return path


def accepted(journal: Path) -> str:
    """The .mat of a journal (without the date): the accepted moves, cube actions and scores."""
    return write_mat(from_events(read_journal(journal).events))


RUN = ["--match", "3", "--players", "Ann,Bob", "--keys", "off", "--stable-seconds", "0"]


def test_export_command_writes_the_mat(tmp_path: Path, capsys) -> None:
    readings = script_file(tmp_path)
    assert main(["run", "--source", f"readings:{readings}", "--log", str(tmp_path), *RUN]) == 0
    journal = next(tmp_path.glob("game-*.jsonl"))
    target = tmp_path / "out.mat"
    assert main(["export", str(journal), "--mat", str(target)]) == 0
    written = target.read_text()
    assert written.startswith('; [EventDate "')
    assert written.split("\n", 2)[2] == accepted(journal)
    assert main(["export", str(tmp_path / "missing.jsonl"), "--mat", str(target)]) == 3
    assert "cannot read the journal" in capsys.readouterr().err


def test_kill_minus_nine_mid_game_then_resume_loses_no_accepted_move(tmp_path: Path) -> None:
    readings = script_file(tmp_path)
    # The game as it goes without a crash.
    reference_dir = tmp_path / "reference"
    args = ["run", "--source", f"readings:{readings}", "--display", "console", *RUN]
    assert main([*args, "--log", str(reference_dir)]) == 0
    reference = accepted(next(reference_dir.glob("*.jsonl")))

    # The same game, played at 400 frames a second, killed for real in the middle.
    crash_dir = tmp_path / "crash"
    command = [
        sys.executable,
        "-m",
        "companion",
        *args,
        "--log",
        str(crash_dir),
        "--realtime",
        "--fps",
        "400",
    ]
    process = subprocess.Popen(
        command, cwd=PROJECT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 60
        moves = 0
        while time.monotonic() < deadline and process.poll() is None:
            found = list(crash_dir.glob("*.jsonl"))
            if found:
                moves = sum('"kind":"move"' in line for line in found[0].read_text().splitlines())
                if moves >= 25:
                    break
            time.sleep(0.05)
        assert process.poll() is None, "the game ended before it could be killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == -signal.SIGKILL
    journal = next(crash_dir.glob("*.jsonl"))
    before = read_journal(journal).events
    moved_before = [e for e in before if e.kind == "move"]
    assert len(moved_before) >= 25
    # Power went mid-write too: a half line at the end.
    with open(journal, "ab") as handle:
        handle.write(b'{"kind":"move","time":99.0,"player":"wh')

    resumed = [
        *args[: -len(RUN)],
        *RUN,
        "--resume",
        str(journal),  # goes on after the journal's last frame by itself (no --skip)
    ]
    assert main(resumed) == 0
    after = read_journal(journal)
    assert after.damaged_tail == b""
    assert after.events[: len(before)] == before  # nothing accepted before the kill was lost
    assert accepted(journal) == reference
    final = Referee.resume(list(after.events))
    assert final.table.match == scripted_match(3, 5).final


def test_export_of_a_cut_short_journal_says_so_and_prints(tmp_path: Path, capsys) -> None:
    path = tmp_path / "game.jsonl"
    lines = [
        {"kind": "match_start", "time": 1.8e9, "length": 1, "white": "Ann", "black": "Bob"},
        {"kind": "game_start", "game": 1},
        {"kind": "opening_roll", "white": 3, "black": 1},
        {"kind": "move", "player": "white", "dice": [3, 1], "moves": [[8, 5, False], [6, 5, 0]]},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + '{"kind":"ro')
    assert main(["export", str(path), "--mat", "-"]) == 0
    captured = capsys.readouterr()
    assert "was cut short" in captured.err
    assert captured.out.startswith('; [EventDate "2027.')
    assert "  1) 31: 8/5 6/5" in captured.out
    assert path.read_text().endswith('{"kind":"ro')  # export never writes to the journal
