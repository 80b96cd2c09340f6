"""A recorded game: frames in order, the hand frames unreadable, the events true to the board."""

from __future__ import annotations

import pytest

from companion.rules import position_id
from companion.rules.moves import generate_plays
from companion.rules.position import Colour, Position
from companion.sim.sequences import render_game


@pytest.fixture(scope="module")
def game() -> list:
    return list(render_game(5, turns=3, size=(320, 180)))


def test_frames_are_numbered_in_order(game: list) -> None:
    assert [f.index for f in game] == list(range(len(game)))
    assert all(f.frame.image.shape == (180, 320, 3) for f in game)


def test_the_game_opens_with_one_die_each(game: list) -> None:
    first = game[0].frame.truth
    assert all(d["moving"] for d in first["dice"])
    opening = next(e for f in game for e in f.events if e["type"] == "opening_roll")
    settled = game[opening["frame"]].frame.truth
    assert [d["value"] for d in settled["dice"]] == [opening["white"], opening["black"]]
    assert settled["dice_valid"] is True
    assert [d["half"] for d in settled["dice"]] == ["home", "outer"]


def test_frames_with_a_hand_over_the_board_are_unreadable(game: list) -> None:
    hands = [f for f in game if f.frame.truth["occluders"]]
    assert hands
    assert all(f.frame.truth["readable"] is False for f in hands)
    assert all(f.frame.truth["readable"] is True for f in game if not f.frame.truth["occluders"])


def test_every_play_is_legal_and_the_next_frames_show_it(game: list) -> None:
    events = [e for f in game for e in f.events]
    position = Position.opening()
    plays = [e for e in events if e["type"] == "play"]
    assert len(plays) == 3
    for event in plays:
        colour = Colour(event["colour"])
        legal = {str(p.play): p for p in generate_plays(position, tuple(event["dice"]))}
        assert event["play"] in legal
        after = legal[event["play"]].after
        assert position_id.encode(after) == event["position_id"]
        shown = game[event["frame"]].frame.truth
        assert shown["readable"] is True
        assert shown["points"] == list(after.to_absolute(colour).points)
        position = after.flip()


def test_rolls_are_shown_by_the_settled_dice(game: list) -> None:
    for event in (e for f in game for e in f.events if e["type"] == "roll"):
        truth = game[event["frame"]].frame.truth
        assert sorted(d["value"] for d in truth["dice"]) == sorted(event["dice"])
        assert truth["on_roll"] == event["colour"]
        assert truth["dice_valid"] is True
