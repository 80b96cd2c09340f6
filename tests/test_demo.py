"""`companion demo`: the simulated camera game from pixels to verdicts, journal and .mat."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.formats.mat import read_mat
from companion.journal import read_journal


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    import contextlib
    import io

    log = tmp_path_factory.mktemp("demo")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--log", str(log)]) == 0
    return out.getvalue(), log


def test_the_demo_calibrates_itself_from_the_opening(demo: tuple[str, Path]) -> None:
    out, _ = demo
    assert "calibrated from the first frame (the opening position)" in out
    assert "white's home board is bottom-right" in out


def test_the_demo_announces_each_verdict_as_it_happens(demo: tuple[str, Path]) -> None:
    out, _ = demo
    lines = [line for line in out.splitlines() if line.startswith("[")]
    expected = [
        "[WAIT]      white starts with 4-2",
        "[ILLEGAL]   illegal: the move used 5 pips but the dice show 4-2",
        "[LEGAL]     white plays 8/4 6/4",
        "[REROLL]    re-roll: cocked",
        "[INFO]      takeback: white's 24/23 24/22 is taken back",
        "[WAIT]      black doubles to 2",
        "[INFO]      white takes: the cube is at 2, white owns it",
        "[LEGAL]     black plays 13/8",
    ]
    positions = [lines.index(line) for line in expected]
    assert positions == sorted(positions), "verdicts out of order"


def test_the_camera_says_when_it_is_unsure_and_never_guesses(demo: tuple[str, Path]) -> None:
    out, _ = demo
    assert "(camera unsure, waiting:" in out
    assert "(camera sees the board clearly again)" in out


def test_the_demo_writes_a_journal_and_a_mat_record_that_reads_back(
    demo: tuple[str, Path],
) -> None:
    _, log = demo
    (journal,) = log.glob("*.jsonl")
    (record,) = log.glob("*.mat")
    events = read_journal(journal).events
    assert [event.kind for event in events].count("move") == 4
    match = read_mat(record.read_text("utf-8"))
    assert match.length == 3
    assert (match.white, match.black) == ("Alice", "Bob")
    actions = match.games[0].actions
    assert actions[0].text().strip() == "42: 8/4 6/4"
    assert [action.kind for action in actions if action.kind != "move"] == ["double", "take"]
