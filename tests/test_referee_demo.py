"""The simulator's demo game, frame by frame through the referee: every episode announced.

``companion.sim.render_demo_game`` records a short game in which each episode a referee
handles happens once (an illegal play corrected, a cocked die, a die on the wrong side, a
takeback, a double taken or dropped), and says for each what a referee should announce and on
which frame. Here the frames' ground truth stands for a perfect vision reader.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cli.run import LiveGame, export_mat
from companion.displays import DisplayBase
from companion.formats.mat import Action, GameRecord, MatchRecord, write_mat
from companion.journal import Journal
from companion.referee import Event, Phase, Referee, Settings, Verdict
from companion.rules import Colour, Position, generate_plays, position_id
from companion.sim import render_demo_game
from companion.sim.sequences import GameFrame
from companion.sources import Frame, reading_from_truth
from companion.vision.reading import Reading

WINDOW = 3
FPS = 30.0


Reader = Callable[[GameFrame], Reading]


def truth_of(game_frame: GameFrame) -> Reading:
    return reading_from_truth(game_frame.frame.truth)


def referee_the_demo(
    cube_action: str, reader: Reader = truth_of, size: tuple[int, int] = (320, 180)
) -> tuple[list[dict[str, Any]], dict[int, list[Verdict]], list[Event], Referee]:
    """Plays the demo through a referee; ``reader`` turns each frame into a Reading."""
    frames = render_demo_game(2, size, stable_frames=WINDOW, cube_action=cube_action)
    referee: Referee | None = None
    events: list[Event] = []
    said: dict[int, list[Verdict]] = {}
    expected: list[dict[str, Any]] = []
    for game_frame in frames:
        if referee is None:
            mirrored = bool(game_frame.frame.truth["orientation"]["mirrored"])
            referee = Referee(Settings(stable_frames=WINDOW, stable_seconds=0.0, mirrored=mirrored))
            events += referee.start_match(5, ("Ann", "Bob")).events
        now = game_frame.index / FPS
        for event in game_frame.events:
            expected.append(event)
            if "control" in event:
                step = referee.control(event["control"], now)
                events += step.events
                said.setdefault(game_frame.index, []).extend(step.verdicts)
        step = referee.feed(reader(game_frame), now)
        events += step.events
        said.setdefault(game_frame.index, []).extend(step.verdicts)
    assert referee is not None
    return expected, said, events, referee


def check_announcements(
    expected: list[dict[str, Any]], said: dict[int, list[Verdict]], events: list[Event]
) -> None:
    """Each scripted episode announced on its frame with its kind, and nothing else amiss."""
    announced: set[tuple[int, str]] = set()
    for event in expected:
        if event["type"] == "game_end" and event.get("result") == "drop":
            continue  # announced with the drop itself
        frame = event["frame"] + (0 if "control" in event else WINDOW - 1)
        headline = event["announce"].split(" (")[0]
        found = [v for v in said.get(frame, []) if v.headline == headline]
        assert found, f"frame {frame}: expected {event['announce']!r}, got {said.get(frame)}"
        assert found[0].kind.value == event["verdict"], event
        announced.add((frame, headline))
    unexpected = [
        (frame, v.headline)
        for frame, verdicts in said.items()
        for v in verdicts
        if v.kind.value in ("illegal", "warning", "reroll") and (frame, v.headline) not in announced
    ]
    assert unexpected == []
    plays = [e["play"] for e in expected if e["type"] == "pickup"]
    assert [e.data["play"] for e in events if e.kind == "move"] == plays


@pytest.mark.parametrize("cube_action", ["take", "drop"])
def test_every_episode_is_announced_on_its_frame(cube_action: str) -> None:
    expected, said, events, _ = referee_the_demo(cube_action)
    check_announcements(expected, said, events)


def test_the_illegal_play_is_named_with_what_to_put_back() -> None:
    expected, said, _, _ = referee_the_demo("take")
    illegal = next(e for e in expected if e["type"] == "illegal")
    verdict = next(v for v in said[illegal["frame"] + WINDOW - 1] if v.kind.value == "illegal")
    assert verdict.rule == illegal["rule"]
    assert verdict.put_back.startswith("move one white checker from the")


def test_the_drop_ends_the_game_with_the_score() -> None:
    expected, _, events, referee = referee_the_demo("drop")
    end = next(e for e in expected if e["type"] == "game_end")
    over = next(e for e in events if e.kind == "game_over")
    assert (over.data["winner"], over.data["points"]) == (end["winner"], end["points"])
    match = referee.table.match
    assert match.score(Colour(end["winner"])) == end["points"]
    assert referee.phase is Phase.SETUP


def expected_record(expected: list[dict[str, Any]]) -> MatchRecord:
    """The .mat record the demo must leave: its plays (die by die), cube actions and result."""
    actions: list[Action] = []
    position = Position.opening()
    winner, points, ending = None, 0, False
    standing: dict[str, Any] = {}
    for event in expected:
        kind = event["type"]
        if kind == "play":
            standing = event  # the play on the board; it stands when the dice are picked up
        elif kind == "pickup":
            dice = (max(standing["dice"]), min(standing["dice"]))
            after = position_id.decode(standing["position_id"])
            chosen = next(p for p in generate_plays(position, dice) if p.after == after)
            moves = sorted(chosen.play.moves, key=lambda m: (-m.source, -m.destination))
            steps = tuple((m.source, m.destination, m.hit) for m in moves)
            actions.append(Action("move", Colour(standing["colour"]), dice, steps))
            position = after.flip()
        elif kind in ("double", "take", "drop"):
            cube = event.get("cube", 0) if kind == "double" else 0
            actions.append(Action(kind, Colour(event["colour"]), cube=cube))
        elif kind == "game_end":
            winner, points, ending = Colour(event["winner"]), event["points"], True
    game = GameRecord(0, 0, tuple(actions), winner, points, "drop" if ending else "")
    return MatchRecord(5, "Ann", "Bob", (game,), time.strftime("%Y.%m.%d"))


@pytest.mark.parametrize("cube_action", ["take", "drop"])
def test_the_demo_journal_and_its_exact_mat(cube_action: str, tmp_path: Path) -> None:
    """Frames through the live loop: journal written before each verdict, then the .mat."""
    frames = list(render_demo_game(2, (320, 180), stable_frames=WINDOW, cube_action=cube_action))
    journal = Journal.create(tmp_path)
    referee = Referee(Settings(stable_frames=WINDOW, stable_seconds=0.0))
    game = LiveGame(referee, journal, DisplayBase(), out=io.StringIO())
    game.record(referee.start_match(5, ("Ann", "Bob")))
    expected = []
    for game_frame in frames:
        now = game_frame.index / FPS
        for event in game_frame.events:
            expected.append(event)
            if "control" in event:
                game.control(event["control"], now, game_frame.index)
        game.handle(Frame(game_frame.index, now, reading=truth_of(game_frame)))
    journal.close()
    written = export_mat(journal.path).read_text()
    assert written == write_mat(expected_record(expected))
