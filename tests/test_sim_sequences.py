"""A recorded game: frames in order, hand frames unreadable, events true to the board, void
rolls held long enough to be refereed, and cube actions a referee can be given as buttons."""

from __future__ import annotations

import numpy as np
import pytest

from companion import geometry as g
from companion.referee import Referee, Settings
from companion.rules import position_id
from companion.rules.moves import generate_plays
from companion.rules.position import Colour, Position
from companion.sim.cube import CubeSpec
from companion.sim.scene import InvalidScene
from companion.sim.sequences import STABLE_FRAMES, render_game
from companion.sources import reading_from_truth


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


# -- void rolls and the cube: seeds whose games hold them (the same seed, the same game) --------

SMALL = (160, 90)


@pytest.fixture(scope="module")
def rerolled() -> list:
    """Seed 8: rolls void by a die on the wrong side and by a cocked die, and a double taken."""
    return list(render_game(8, turns=8, size=SMALL))


@pytest.fixture(scope="module")
def dropped() -> list:
    """Seed 5: a double taken, then a redouble dropped."""
    return list(render_game(5, turns=8, size=SMALL))


def events_of(game: list, kind: str) -> list[dict]:
    return [e for f in game for e in f.events if e["type"] == kind]


@pytest.mark.parametrize("reason", ["cocked", "wrong side"])
def test_a_void_roll_is_held_still_then_picked_up_and_rolled_again(
    rerolled: list, reason: str
) -> None:
    voids = [e for e in events_of(rerolled, "reroll") if e["reason"] == reason]
    assert voids
    for event in voids:
        shown = [rerolled[event["frame"] + i].frame.truth for i in range(STABLE_FRAMES)]
        assert all(t == {**shown[0], "seed": t["seed"]} for t in shown[1:])
        truth = shown[0]
        assert truth["readable"] is True and truth["on_roll"] == event["colour"]
        assert [d["value"] for d in truth["dice"]] == event["dice"]
        assert truth["dice_valid"] is False
        die = truth["dice"][event["die"] - 1]
        if reason == "cocked":
            assert die["flat"] is False
        else:
            assert die["half"] != g.right_hand_half(
                event["colour"], truth["orientation"]["mirrored"]
            )
        pickup = rerolled[event["frame"] + STABLE_FRAMES].frame.truth
        assert pickup["readable"] is False and pickup["occluders"]
        again = rerolled[event["frame"] + STABLE_FRAMES + 1].frame.truth
        assert all(d["moving"] for d in again["dice"])


def test_a_double_taken_hands_the_cube_to_the_taker(rerolled: list) -> None:
    (double,) = events_of(rerolled, "double")
    (take,) = events_of(rerolled, "take")
    (pickup,) = events_of(rerolled, "pickup")
    assert pickup["frame"] < double["frame"] < take["frame"]
    assert rerolled[pickup["frame"]].frame.truth["dice"] == []
    assert (double["cube"], take["cube"]) == (2, 2)
    assert take["colour"] != double["colour"]
    assert [double["control"], take["control"]] == ["double", "take"]
    assert rerolled[double["frame"]].frame.truth["cube"]["owner"] == "centre"
    cube = rerolled[take["frame"]].frame.truth["cube"]
    assert (cube["owner"], cube["value"]) == (take["colour"], 2)
    assert rerolled[-1].frame.truth["cube"]["owner"] == take["colour"]


def test_a_dropped_redouble_ends_the_game_at_the_cube_value(dropped: list) -> None:
    doubles = events_of(dropped, "double")
    assert [d["cube"] for d in doubles] == [2, 4]
    (take,) = events_of(dropped, "take")
    (drop,) = events_of(dropped, "drop")
    (end,) = events_of(dropped, "game_end")
    assert doubles[1]["colour"] == take["colour"]  # only the owner may redouble
    assert drop["colour"] != doubles[1]["colour"] and drop["frame"] == doubles[1]["frame"] + 1
    assert (end["winner"], end["points"], end["result"]) == (doubles[1]["colour"], 2, "drop")
    assert all(not e["type"] == "roll" for f in dropped[end["frame"] :] for e in f.events)


@pytest.mark.parametrize("game_name", ["rerolled", "dropped"])
def test_a_referee_pressed_the_recorded_buttons_announces_every_event(
    game_name: str, request: pytest.FixtureRequest
) -> None:
    game = request.getfixturevalue(game_name)
    mirrored = bool(game[0].frame.truth["orientation"]["mirrored"])
    referee = Referee(Settings(stable_frames=STABLE_FRAMES, stable_seconds=0.0, mirrored=mirrored))
    seen = list(referee.start_match(5).events)
    for game_frame in game:
        now = game_frame.index / 30.0
        for event in game_frame.events:
            if "control" in event:
                seen += referee.control(event["control"], now).events
        seen += referee.feed(reading_from_truth(game_frame.frame.truth), now).events
    kinds = [e.kind for e in seen]
    assert kinds.count("reroll") == len(events_of(game, "reroll"))
    assert kinds.count("double") == len(events_of(game, "double"))
    assert kinds.count("take") == len(events_of(game, "take"))
    assert kinds.count("drop") == len(events_of(game, "drop"))
    plays = [e["play"] for e in events_of(game, "play")]
    assert [e.data["play"] for e in seen if e.kind == "move"] == plays[: len(plays) - 1] + (
        plays[-1:] if events_of(game, "drop") else []
    )
    if events_of(game, "drop"):
        (end,) = events_of(game, "game_end")
        over = next(e for e in seen if e.kind == "game_over")
        assert (over.data["winner"], over.data["points"]) == (end["winner"], end["points"])


def test_the_same_seed_films_the_same_game() -> None:
    first = list(render_game(8, turns=2, size=SMALL))
    again = list(render_game(8, turns=2, size=SMALL))
    assert [f.events for f in first] == [f.events for f in again]
    assert all(
        np.array_equal(a.frame.image, b.frame.image) for a, b in zip(first, again, strict=True)
    )


def test_each_settled_state_is_held_for_the_asked_frames() -> None:
    game = list(render_game(8, turns=1, size=SMALL, stable_frames=1))
    longer = list(render_game(8, turns=1, size=SMALL, stable_frames=4))
    assert len(longer) > len(game)
    for event in events_of(longer, "roll") + events_of(longer, "play"):
        held = [longer[event["frame"] + i].frame.truth for i in range(4)]
        assert all(t["dice"] == held[0]["dice"] and t["points"] == held[0]["points"] for t in held)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stable_frames": 0}, "stable_frames must be 1-10"),
        ({"turns": -1}, "turns must be 0 or more"),
        ({"cube": CubeSpec(2, "white")}, "cube in the centre"),
    ],
)
def test_bad_options_say_what_to_change(options: dict, message: str) -> None:
    with pytest.raises(InvalidScene, match=message):
        render_game(1, size=SMALL, **options)
