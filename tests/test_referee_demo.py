"""The simulator's demo game, frame by frame through the referee: every episode announced.

``companion.sim.render_demo_game`` films a whole game in which each episode a referee handles
happens once (an illegal play corrected, a cocked die, a die on the wrong side, a takeback, a
double taken or dropped) and the game then runs to its end, and says for each what a referee
should announce and on which frame. Here the frames' ground truth stands for a perfect vision
reader: what the referee says, journals and exports is exactly what the script says.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.cli.run import LiveGame, export_mat
from companion.displays import DisplayBase
from companion.formats.mat import read_mat, write_mat
from companion.journal import Journal, read_journal
from companion.referee import Event, Phase, Referee, Settings, Verdict
from companion.referee.table import Table
from companion.rules import Colour, Position
from companion.rules.match import MatchState
from companion.sim import render_demo_game
from companion.sim.demo import DEFAULT_SEED, _Demo, expected_record
from companion.sim.sequences import GameFrame
from companion.sources import Frame, reading_from_truth
from companion.vision.reading import Reading
from tests.test_mat import GNUBG, GNUBG_SCRIPT

WINDOW = 3
FPS = 30.0
SIZE = (96, 54)
"""Only the truth is read here: the smallest frames render fastest."""
PLAYERS = ("Ann", "Bob")
LENGTH = 5


@dataclass(frozen=True)
class Refereed:
    """One demo film through a referee fed the truth of every frame."""

    expected: list[dict[str, Any]]
    said: dict[int, list[Verdict]]
    events: list[Event]
    referee: Referee


@pytest.fixture(scope="module")
def film_taken() -> list[GameFrame]:
    return list(render_demo_game(DEFAULT_SEED, SIZE, stable_frames=WINDOW, cube_action="take"))


@pytest.fixture(scope="module")
def film_dropped() -> list[GameFrame]:
    return list(render_demo_game(DEFAULT_SEED, SIZE, stable_frames=WINDOW, cube_action="drop"))


def referee_the_demo(frames: list[GameFrame], unsure: frozenset[int] = frozenset()) -> Refereed:
    """The film through a referee; the frames in ``unsure`` read as a camera unsure of them."""
    referee: Referee | None = None
    events: list[Event] = []
    said: dict[int, list[Verdict]] = {}
    expected: list[dict[str, Any]] = []
    for game_frame in frames:
        if referee is None:
            truth: dict[str, Any] = game_frame.frame.truth
            mirrored = bool(truth["orientation"]["mirrored"])
            referee = Referee(Settings(stable_frames=WINDOW, stable_seconds=0.0, mirrored=mirrored))
            events += referee.start_match(LENGTH, PLAYERS).events
        now = game_frame.index / FPS
        for event in game_frame.events:
            expected.append(event)
            if "control" in event:
                step = referee.control(str(event["control"]), now)
                events += step.events
                said.setdefault(game_frame.index, []).extend(step.verdicts)
        if game_frame.index in unsure:
            reading = Reading.empty_unreadable(["the dice"])
        else:
            reading = reading_from_truth(game_frame.frame.truth)
        step = referee.feed(reading, now)
        events += step.events
        said.setdefault(game_frame.index, []).extend(step.verdicts)
    assert referee is not None
    return Refereed(expected, said, events, referee)


@pytest.fixture(scope="module")
def taken(film_taken: list[GameFrame]) -> Refereed:
    return referee_the_demo(film_taken)


@pytest.fixture(scope="module")
def dropped(film_dropped: list[GameFrame]) -> Refereed:
    return referee_the_demo(film_dropped)


def game_end(expected: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in expected if e["type"] == "game_end")


def announced_frame(event: dict[str, Any]) -> int:
    """A button is answered at once; a board or dice state when the stability window closes."""
    return int(event["frame"]) + (0 if "control" in event else WINDOW - 1)


@pytest.mark.parametrize("which", ["taken", "dropped"])
def test_every_episode_is_announced_on_its_frame(
    which: str, request: pytest.FixtureRequest
) -> None:
    run: Refereed = request.getfixturevalue(which)
    announced: set[tuple[int, str]] = set()
    for event in run.expected:
        if event["type"] == "game_end" and event["result"] == "drop":
            continue  # announced with the drop itself
        frame = announced_frame(event)
        headline = event["announce"].split(" (")[0]
        found = [v for v in run.said.get(frame, []) if v.headline == headline]
        assert found, f"frame {frame}: expected {event['announce']!r}, got {run.said.get(frame)}"
        assert found[0].kind.value == event["verdict"], event
        announced.add((frame, headline))
    unexpected = [
        (frame, v.headline)
        for frame, verdicts in run.said.items()
        for v in verdicts
        if v.kind.value in ("illegal", "warning", "reroll", "game_over")
        and (frame, v.headline) not in announced
    ]
    assert unexpected == []
    plays = [e["play"] for e in run.expected if e["type"] == "pickup"]
    if game_end(run.expected)["result"] != "drop":
        plays.append(next(e["play"] for e in reversed(run.expected) if e["type"] == "play"))
    assert [e.data["play"] for e in run.events if e.kind == "move"] == plays


def said_in_order(run: Refereed) -> list[str]:
    return [verdict.headline for _, verdicts in sorted(run.said.items()) for verdict in verdicts]


def test_the_referee_waits_out_states_the_camera_was_unsure_of(
    film_taken: list[GameFrame], taken: Refereed
) -> None:
    """A roll, a play and a pickup each never seen settled (every frame of their window
    unreadable): the referee says nothing it did not see, and the next clear state tells it
    all (the play with its roll, the play when the dice are picked up, the end of the turn
    when the opponent rolls). So does the pickup before the double: the opponent's double
    ends the turn. The verdicts and the record are those of a perfect camera."""
    chosen = [
        [e for e in taken.expected if e["type"] == kind][10 + i]
        for i, kind in enumerate(("roll", "play", "pickup"))
    ]
    double = next(i for i, e in enumerate(taken.expected) if e["type"] == "double")
    chosen.append(next(e for e in reversed(taken.expected[:double]) if e["type"] == "pickup"))
    unsure = frozenset(e["frame"] + k for e in chosen for k in range(WINDOW))
    blind = referee_the_demo(film_taken, unsure)
    assert said_in_order(blind) == said_in_order(taken)
    moves = [(e.data["play"], e.data["dice"]) for e in blind.events if e.kind == "move"]
    assert moves == [(e.data["play"], e.data["dice"]) for e in taken.events if e.kind == "move"]


def test_the_illegal_play_is_named_with_what_to_put_back(taken: Refereed) -> None:
    illegal = next(e for e in taken.expected if e["type"] == "illegal")
    said = taken.said[announced_frame(illegal)]
    verdict = next(v for v in said if v.kind.value == "illegal")
    assert verdict.rule == illegal["rule"]
    assert verdict.put_back.startswith(f"move one {illegal['colour']} checker from the")


def test_a_roll_that_cannot_be_played_is_forfeited_and_picked_up() -> None:
    """White on the bar against a closed board: the roll is shown, announced as forfeited,
    and the dice picked up end the turn with no play (the race filmed after the scripted turns
    films such rolls this way)."""
    closed = Position.from_points({25: 1, 6: 14}, {point: 2 for point in range(1, 7)})
    demo = _Demo(DEFAULT_SEED, SIZE, WINDOW, "take", {})
    frames = list(demo.forfeited_turn(closed, Colour.WHITE, [6, 3]))
    script = [e for f in frames for e in f.events]
    assert [e["type"] for e in script] == ["roll", "no_play", "pickup"]
    table = Table(MatchState(length=LENGTH, on_roll=Colour.WHITE), closed, Phase.ROLLING)
    referee = Referee.at(table, Settings(stable_frames=WINDOW, stable_seconds=0.0))
    said = []
    for game_frame in frames:
        step = referee.feed(reading_from_truth(game_frame.frame.truth), game_frame.index / FPS)
        said += [(game_frame.index, verdict.headline) for verdict in step.verdicts]
    assert said == [(announced_frame(e), e["announce"].split(" (")[0]) for e in script]
    assert referee.table.on_roll is Colour.BLACK
    assert demo.position == closed.flip()


def test_the_game_runs_to_its_end_and_scores_the_cube(taken: Refereed) -> None:
    end = game_end(taken.expected)
    assert end["type"] == "game_end" and end["result"] in ("single", "gammon", "backgammon")
    assert end["points"] == {"single": 1, "gammon": 2, "backgammon": 3}[end["result"]] * 2
    over = next(e for e in taken.events if e.kind == "game_over")
    assert (over.data["winner"], over.data["points"]) == (end["winner"], end["points"])
    match = taken.referee.table.match
    assert match.score(Colour(end["winner"])) == end["points"]
    assert match.score(Colour(end["winner"]).opponent) == 0
    assert taken.referee.phase in (Phase.SETUP, Phase.MATCH_OVER)


def test_the_drop_ends_the_game_with_the_score(dropped: Refereed) -> None:
    end = next(e for e in dropped.expected if e["type"] == "game_end")
    over = next(e for e in dropped.events if e.kind == "game_over")
    assert (over.data["winner"], over.data["points"]) == (end["winner"], end["points"])
    match = dropped.referee.table.match
    assert match.score(Colour(end["winner"])) == end["points"]
    assert dropped.referee.phase is Phase.SETUP


def live_game_mat(frames: list[GameFrame], folder: Path) -> tuple[str, list[dict[str, Any]]]:
    """The film through the live loop (journal written before each verdict), then the .mat."""
    journal = Journal.create(folder)
    referee = Referee(Settings(stable_frames=WINDOW, stable_seconds=0.0))
    game = LiveGame(referee, journal, DisplayBase(), out=io.StringIO())
    game.record(referee.start_match(LENGTH, PLAYERS))
    expected = []
    for game_frame in frames:
        now = game_frame.index / FPS
        for event in game_frame.events:
            expected.append(event)
            if "control" in event:
                game.control(str(event["control"]), now, game_frame.index)
        game.handle(
            Frame(game_frame.index, now, reading=reading_from_truth(game_frame.frame.truth))
        )
    journal.close()
    assert read_journal(journal.path).events[-1].kind == "game_over"
    return export_mat(journal.path).read_text(), expected


@pytest.fixture(scope="module")
def whole_game_mat(
    film_taken: list[GameFrame], tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, list[dict[str, Any]]]:
    return live_game_mat(film_taken, tmp_path_factory.mktemp("take"))


def test_the_whole_game_journal_gives_the_exact_mat(
    whole_game_mat: tuple[str, list[dict[str, Any]]],
) -> None:
    written, expected = whole_game_mat
    record = expected_record(expected, LENGTH, PLAYERS, time.strftime("%Y.%m.%d"))
    assert written == write_mat(record)
    end = game_end(expected)
    assert written.rstrip().endswith(f"Wins {end['points']} points")
    # and our own reader gives back the same game
    assert read_mat(written) == record


def test_the_dropped_game_journal_gives_the_exact_mat(
    film_dropped: list[GameFrame], tmp_path: Path
) -> None:
    written, expected = live_game_mat(film_dropped, tmp_path)
    record = expected_record(expected, LENGTH, PLAYERS, time.strftime("%Y.%m.%d"))
    assert written == write_mat(record)
    assert "Drops" in written and written.rstrip().endswith("Wins 1 point")


def gnubg_reads(written: str, folder: Path) -> tuple[dict[str, Any], str]:
    """What GNU Backgammon makes of a .mat text: its match (JSON) and its own export of it."""
    mat = folder / "demo.mat"
    mat.write_text(written)
    out, again = folder / "imported.json", folder / "again.mat"
    script = folder / "check.py"
    script.write_text(GNUBG_SCRIPT.format(mat=mat, out=out, again=again))
    home = folder / "home"  # gnubg writes its settings under $HOME
    home.mkdir()
    subprocess.run(
        [shutil.which(GNUBG) or GNUBG, "-t", "-q", "-p", str(script)],
        env={**os.environ, "HOME": str(home)},
        capture_output=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.read_text()), again.read_text()


def check_gnubg_agrees(written: str, end: dict[str, Any], folder: Path) -> None:
    """GNU Backgammon reads every action as we wrote it (each roll and its moves, the cube),
    scores the game as we do, and writes the match back exactly as we wrote it."""
    imported, again = gnubg_reads(written, folder)
    (game,) = imported["games"]
    colour = {"X": "white", "O": "black"}
    assert (colour[game["info"]["winner"]], game["info"]["points-won"]) == (
        end["winner"],
        end["points"],
    )
    theirs = [
        (
            colour[a["player"]],
            a["action"],
            tuple(a.get("dice", ())),
            tuple(map(tuple, a.get("move", ()))),
        )
        for a in game["game"]
    ]
    ours = [
        (a.player.value, a.kind, a.dice or (), tuple((s, d) for s, d, _ in a.moves))
        for a in read_mat(written).games[0].actions
    ]
    assert theirs == ours
    assert again == written


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_gnu_backgammon_imports_the_whole_game(
    whole_game_mat: tuple[str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    written, expected = whole_game_mat
    check_gnubg_agrees(written, game_end(expected), tmp_path)
