"""The demo game: every episode happens, the truth shows it, and a referee announces it."""

from __future__ import annotations

from itertools import islice
from typing import Any

import numpy as np
import pytest

from companion.errors import CompanionError
from companion.referee import Referee, Settings
from companion.rules import position_id
from companion.rules.judge import judge
from companion.rules.moves import generate_plays
from companion.rules.position import Colour, Position
from companion.sim.demo import render_demo_game
from companion.sim.sequences import GameFrame
from companion.vision.reading import Reading

SIZE = (320, 180)
WINDOW = 3


@pytest.fixture(scope="module")
def taken() -> list[GameFrame]:
    return list(render_demo_game(size=SIZE))


@pytest.fixture(scope="module")
def dropped() -> list[GameFrame]:
    return list(render_demo_game(5, SIZE, cube_action="drop", style="wood"))


def events_of(frames: list[GameFrame]) -> list[dict[str, Any]]:
    return [e for f in frames for e in f.events]


def state(truth: dict[str, Any]) -> tuple[object, ...]:
    dice = tuple((d["value"], d["flat"], d["half"], d["on_checker"]) for d in truth["dice"])
    return (tuple(truth["points"]), tuple(truth["bar"].items()), tuple(truth["off"].items()), dice)


def truth_reading(truth: dict[str, Any]) -> Reading:
    if any(die.get("moving") for die in truth["dice"]):
        return Reading.empty_unreadable(["dice rolling"])
    return Reading.from_json(truth)


def test_the_demo_is_short_and_numbered(taken: list[GameFrame]) -> None:
    assert 60 <= len(taken) <= 120
    first = taken[0].frame.truth
    assert first["readable"] and not first["dice"] and not first["occluders"]
    assert first["points"] == list(Position.opening().to_absolute(Colour.WHITE).points)
    assert [f.index for f in taken] == list(range(len(taken)))
    assert all(f.frame.image.shape == (SIZE[1], SIZE[0], 3) for f in taken)


def test_every_episode_happens_in_order(taken: list[GameFrame]) -> None:
    kinds = [e["type"] for e in events_of(taken)]
    assert kinds[:2] == ["setup", "opening_roll"]
    for episode in ("illegal", "reroll", "takeback", "double", "take", "pickup"):
        assert episode in kinds
    assert kinds.index("illegal") < kinds.index("takeback") < kinds.index("double")
    reasons = [e["reason"] for e in events_of(taken) if e["type"] == "reroll"]
    assert reasons == ["cocked", "wrong side"]
    assert all(e["announce"] and e["verdict"] for e in events_of(taken))


def test_each_settled_state_lasts_a_whole_stability_window(taken: list[GameFrame]) -> None:
    for event in events_of(taken):
        if event["type"] in ("double", "take"):
            continue
        shown = [taken[event["frame"] + k].frame.truth for k in range(WINDOW)]
        assert all(t["readable"] for t in shown), event
        assert len({state(t) for t in shown}) == 1, event


def test_void_rolls_show_what_makes_them_void(taken: list[GameFrame]) -> None:
    for event in (e for e in events_of(taken) if e["type"] == "reroll"):
        truth = taken[event["frame"]].frame.truth
        assert truth["dice_valid"] is False
        assert truth["reason"] == event["reason"]
        die = truth["dice"][event["die"] - 1]
        if event["reason"] == "cocked":
            assert die["flat"] is False and die["cocked_angle"] >= 10
        else:
            other = truth["dice"][2 - event["die"]]
            assert die["half"] != other["half"]
        # the dice are picked up by hand before the next roll
        after = taken[event["frame"] + WINDOW].frame.truth
        assert after["readable"] is False


def test_plays_are_legal_and_the_illegal_board_is_refused(taken: list[GameFrame]) -> None:
    position = Position.opening()
    turn_start = position
    colour = None
    for event in events_of(taken):
        truth = taken[event["frame"]].frame.truth
        if event["type"] == "illegal":
            colour = Colour(event["colour"])
            board = Position.from_absolute(truth["points"], truth["bar"], truth["off"], colour)
            verdict = judge(position, tuple(event["dice"]), board)
            assert not verdict.legal
            assert verdict.rule == event["rule"]
        elif event["type"] == "play":
            colour = Colour(event["colour"])
            legal = {str(p.play): p for p in generate_plays(turn_start, tuple(event["dice"]))}
            assert event["play"] in legal
            after = legal[event["play"]].after
            assert position_id.encode(after) == event["position_id"]
            assert truth["points"] == list(after.to_absolute(colour).points)
            position = after
        elif event["type"] == "takeback":
            assert colour is not None
            assert truth["points"] == list(turn_start.to_absolute(colour).points)
        elif event["type"] == "pickup":
            assert truth["dice"] == [] and truth["readable"]
            position = turn_start = position.flip()


def test_the_cube_moves_to_the_taker_showing_two(taken: list[GameFrame]) -> None:
    double = next(e for e in events_of(taken) if e["type"] == "double")
    take = next(e for e in events_of(taken) if e["type"] == "take")
    assert take["colour"] != double["colour"]
    before = taken[double["frame"]].frame.truth["cube"]
    after = taken[take["frame"] + 1].frame.truth["cube"]
    assert (before["value"], before["owner"]) == (1, "centre")
    assert (after["value"], after["owner"]) == (2, take["colour"])
    assert after["face_up"] == 2
    # the cube stays where it lies from frame to frame
    centres = {tuple(taken[i].frame.truth["cube"]["center_px"]) for i in range(double["frame"])}
    assert len(centres) == 1


def test_a_drop_ends_the_game(dropped: list[GameFrame]) -> None:
    events = events_of(dropped)
    assert [e["type"] for e in events][-3:] == ["double", "drop", "game_end"]
    end = events[-1]
    assert end["winner"] == events[-3]["colour"] and end["points"] == 1
    assert "take" not in [e["type"] for e in events]
    assert dropped[-1].frame.truth["cube"]["owner"] == "centre"


def referee_run(frames: list[GameFrame]) -> tuple[list[Any], list[Any]]:
    """Feeds the truth of every frame (what a perfect reader sees) and the controls."""
    mirrored = bool(frames[0].frame.truth["orientation"]["mirrored"])
    referee = Referee(Settings(stable_frames=WINDOW, stable_seconds=0.0, mirrored=mirrored))
    recorded = list(referee.start_match(5).events)
    said = []
    for game_frame in frames:
        now = game_frame.index / 30.0
        steps = [
            referee.control(event["control"], now)
            for event in game_frame.events
            if "control" in event
        ]
        steps.append(referee.feed(truth_reading(game_frame.frame.truth), now))
        for step in steps:
            said += [(game_frame.index, verdict) for verdict in step.verdicts]
            recorded += step.events
    return said, recorded


@pytest.mark.parametrize("which", ["taken", "dropped"])
def test_a_referee_announces_every_episode_when_the_window_closes(
    which: str, request: pytest.FixtureRequest
) -> None:
    frames: list[GameFrame] = request.getfixturevalue(which)
    said, recorded = referee_run(frames)
    assert not [v for _, v in said if v.kind.value == "warning"]
    for event in events_of(frames):
        at_once = "control" in event or event.get("result") == "drop"
        last = event["frame"] + (0 if at_once else WINDOW - 1)
        kinds = {v.kind.value for index, v in said if index == last}
        assert event["verdict"] in kinds, (event, [(i, str(v)) for i, v in said])
    if which == "taken":
        plays = [e["play"] for e in events_of(frames) if e["type"] == "pickup"]
        moves = [e.data["play"] for e in recorded if e.kind == "move"]
        assert moves == plays


def test_the_same_seed_gives_the_same_frames() -> None:
    first = [f.frame.image for f in islice(render_demo_game(4, (160, 90)), 3)]
    again = [f.frame.image for f in islice(render_demo_game(4, (160, 90)), 3)]
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))


def test_a_shorter_window_gives_a_shorter_film() -> None:
    short = list(render_demo_game(3, (160, 90), stable_frames=1))
    assert len(short) < 60
    assert [e["type"] for e in events_of(short)].count("reroll") == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stable_frames": 0}, "stable_frames"),
        ({"cube_action": "beaver"}, "cube_action"),
        ({"seed": -1}, "seed"),
        ({"style": "marble"}, "style"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, Any], message: str) -> None:
    with pytest.raises(CompanionError, match=message) as refused:
        next(iter(render_demo_game(**options)))
    assert isinstance(refused.value, ValueError)
