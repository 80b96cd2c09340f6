"""The demo game: every episode happens, the game runs to its end, and the truth shows it all."""

from __future__ import annotations

from itertools import islice
from typing import Any

import numpy as np
import pytest

from companion.errors import CompanionError
from companion.formats.mat import write_mat
from companion.rules import position_id
from companion.rules.judge import judge
from companion.rules.match import game_result
from companion.rules.moves import generate_plays
from companion.rules.position import Colour, Position
from companion.sim.demo import expected_record, render_demo_game
from companion.sim.sequences import GameFrame

SIZE = (96, 54)
"""Only the truth is looked at here: the smallest frames render fastest."""
WINDOW = 3


@pytest.fixture(scope="module")
def taken() -> list[GameFrame]:
    return list(render_demo_game(size=SIZE))


@pytest.fixture(scope="module")
def dropped() -> list[GameFrame]:
    return list(render_demo_game(5, SIZE, cube_action="drop", style="wood"))


def events_of(frames: list[GameFrame]) -> list[dict[str, Any]]:
    return [e for f in frames for e in f.events]


def truth_of(frames: list[GameFrame], index: int) -> dict[str, Any]:
    return frames[index].frame.truth


def state(truth: dict[str, Any]) -> tuple[object, ...]:
    dice = tuple((d["value"], d["flat"], d["half"], d["on_checker"]) for d in truth["dice"])
    return (tuple(truth["points"]), tuple(truth["bar"].items()), tuple(truth["off"].items()), dice)


def test_the_film_starts_from_the_set_up_board_and_is_numbered(taken: list[GameFrame]) -> None:
    first = truth_of(taken, 0)
    assert first["readable"] and not first["dice"] and not first["occluders"]
    assert first["points"] == list(Position.opening().to_absolute(Colour.WHITE).points)
    assert [f.index for f in taken] == list(range(len(taken)))
    assert all(f.frame.image.shape == (SIZE[1], SIZE[0], 3) for f in taken)


def test_every_episode_happens_in_order_then_the_game_runs_to_its_end(
    taken: list[GameFrame],
) -> None:
    kinds = [e["type"] for e in events_of(taken)]
    assert kinds[:2] == ["setup", "opening_roll"]
    scripted = ["illegal", "reroll", "reroll", "takeback", "double", "take"]
    assert [k for k in kinds if k in scripted] == scripted
    reasons = [e["reason"] for e in events_of(taken) if e["type"] == "reroll"]
    assert reasons == ["cocked", "wrong side"]
    assert kinds[-3:] == ["play", "game_end", "next_game"]
    turns = kinds.count("pickup") + 1
    assert 30 <= turns <= 80, "a whole game, raced home after the scripted turns"
    assert all(e["announce"] and e["verdict"] for e in events_of(taken))


def test_each_settled_state_lasts_a_whole_stability_window(taken: list[GameFrame]) -> None:
    for event in events_of(taken):
        if "control" in event:
            continue
        shown = [truth_of(taken, event["frame"] + k) for k in range(WINDOW)]
        assert all(t["readable"] for t in shown), event
        assert len({state(t) for t in shown}) == 1, event


def test_void_rolls_show_what_makes_them_void(taken: list[GameFrame]) -> None:
    for event in (e for e in events_of(taken) if e["type"] == "reroll"):
        truth = truth_of(taken, event["frame"])
        assert truth["dice_valid"] is False
        assert truth["reason"] == event["reason"]
        die = truth["dice"][event["die"] - 1]
        other = truth["dice"][2 - event["die"]]
        if event["reason"] == "cocked":
            assert die["flat"] is False and die["cocked_angle"] >= 10
            # it leans on a checker, and its face (the one with more pips) shows the tilt
            assert die["leaning_on"] == "checker" and die["value"] >= other["value"]
        else:
            assert die["half"] != other["half"]
        # the dice are picked up by hand before the next roll
        assert truth_of(taken, event["frame"] + WINDOW)["readable"] is False


def test_every_other_roll_lies_flat_on_the_rollers_right_hand_side(
    taken: list[GameFrame],
) -> None:
    void = {
        e["frame"] + k for e in events_of(taken) if e["type"] == "reroll" for k in range(WINDOW)
    }
    for game_frame in taken:
        truth = game_frame.frame.truth
        if not truth["readable"] or not truth["dice"] or game_frame.index in void:
            continue
        if not truth.get("opening_roll"):  # (the opening roll is one die in each player's half)
            assert truth["dice_valid"] is True, game_frame.index
        assert all(d["flat"] and not d["on_checker"] for d in truth["dice"]), game_frame.index


def test_plays_are_legal_and_the_illegal_board_is_refused(taken: list[GameFrame]) -> None:
    position = turn_start = Position.opening()
    colour = None
    for event in events_of(taken):
        truth = truth_of(taken, event["frame"])
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
            absolute = after.to_absolute(colour)
            assert truth["points"] == list(absolute.points)
            assert truth["off"] == dict(absolute.off)
            position = after
        elif event["type"] == "no_play":
            assert not [p for p in generate_plays(turn_start, tuple(event["dice"])) if p.dice_used]
        elif event["type"] == "takeback":
            assert colour is not None
            assert truth["points"] == list(turn_start.to_absolute(colour).points)
        elif event["type"] == "pickup":
            assert truth["dice"] == [] and truth["readable"]
            position = turn_start = position.flip()
        elif event["type"] == "game_end":
            result = game_result(position)
            assert result is not None and event["result"] == result.name.lower()
            assert event["points"] == int(result) * 2  # the cube was doubled and taken
            assert truth["off"][event["winner"]] == 15


def test_the_cube_moves_to_the_taker_showing_two(taken: list[GameFrame]) -> None:
    double = next(e for e in events_of(taken) if e["type"] == "double")
    take = next(e for e in events_of(taken) if e["type"] == "take")
    assert take["colour"] != double["colour"]
    before = truth_of(taken, double["frame"])["cube"]
    after = truth_of(taken, take["frame"] + 1)["cube"]
    assert (before["value"], before["owner"]) == (1, "centre")
    assert (after["value"], after["owner"]) == (2, take["colour"])
    assert after["face_up"] == 2
    # the cube stays where it lies from frame to frame
    centres = {tuple(truth_of(taken, i)["cube"]["center_px"]) for i in range(double["frame"])}
    assert len(centres) == 1
    assert truth_of(taken, len(taken) - 1)["cube"] == after


def test_a_drop_ends_the_game(dropped: list[GameFrame]) -> None:
    events = events_of(dropped)
    assert [e["type"] for e in events][-3:] == ["double", "drop", "game_end"]
    end = events[-1]
    assert end["winner"] == events[-3]["colour"] and end["points"] == 1
    assert "take" not in [e["type"] for e in events]
    assert dropped[-1].frame.truth["cube"]["owner"] == "centre"


def test_the_expected_record_holds_every_turn_and_the_result(taken: list[GameFrame]) -> None:
    events = events_of(taken)
    record = expected_record(events, 3, ("Alice", "Bob"))
    (game,) = record.games
    moves = [a for a in game.actions if a.kind == "move"]
    assert len(moves) == [e["type"] for e in events].count("pickup") + 1
    assert [a.kind for a in game.actions if a.kind != "move"] == ["double", "take"]
    opening = events[1]
    assert moves[0].dice == tuple(opening["dice"]) and moves[0].player is Colour(opening["starter"])
    end = events[-2]
    assert game.winner is Colour(end["winner"]) and game.ending == "bearoff"
    assert write_mat(record).rstrip().endswith(f"Wins {end['points']} points")


def test_a_short_film_is_the_scripted_turns_of_the_same_game(taken: list[GameFrame]) -> None:
    """What happens comes from the seed alone, whatever the picture size: a test may learn
    the script from small frames and check a run on full-size ones against it."""
    short = list(render_demo_game(size=(64, 36), whole_game=False))
    kinds = [e["type"] for e in events_of(short)]
    assert kinds[-1] == "pickup" and "game_end" not in kinds
    assert kinds.index("take") < len(kinds) - 3  # the doubler's roll and play came after
    assert events_of(short) == [e for e in events_of(taken) if e["frame"] < len(short)]


def test_the_same_seed_gives_the_same_frames() -> None:
    first = [f.frame.image for f in islice(render_demo_game(4, (160, 90)), 3)]
    again = [f.frame.image for f in islice(render_demo_game(4, (160, 90)), 3)]
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))


def test_a_shorter_window_gives_a_shorter_film_of_the_same_game(taken: list[GameFrame]) -> None:
    short = list(render_demo_game(size=(64, 36), stable_frames=1))
    assert len(short) < 0.6 * len(taken)  # two frames fewer for every settled state
    plays = [(e["type"], e.get("play")) for e in events_of(short)]
    assert plays == [(e["type"], e.get("play")) for e in events_of(taken)]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stable_frames": 0}, "stable_frames"),
        ({"cube_action": "beaver"}, "cube_action"),
        ({"seed": -1}, "seed"),
        ({"style": "marble"}, "style"),
        ({"fill": "wide"}, "fill"),
        ({"fill": 3.0}, "fill"),
        ({"light_seed": "lamp"}, "light_seed"),
    ],
)
def test_bad_options_are_refused_clearly(options: dict[str, Any], message: str) -> None:
    with pytest.raises(CompanionError, match=message) as refused:
        next(iter(render_demo_game(**options)))
    assert isinstance(refused.value, ValueError)
