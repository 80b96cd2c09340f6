"""Rendered games from the simulator through the referee, using the simulator's ground truth.

The truth of each rendered frame is the Reading a perfect vision reader would return, so these
tests check the referee against everything a recorded game holds: the opening roll, rolls,
cocked dice, hands over the board (unreadable frames), and the plays, frame by frame as a
camera delivers them. A die still tumbling is read as nothing (an unreadable frame).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.referee import Event, Referee, Settings
from companion.sim.sequences import render_game
from companion.vision.reading import Reading

FPS = 30.0


def truth_reading(truth: dict[str, Any]) -> Reading:
    if any(die.get("moving") for die in truth.get("dice", [])):
        return Reading.empty_unreadable(["dice rolling"])
    return Reading.from_json(truth)


@pytest.mark.parametrize("seed", [3, 11])
def test_a_rendered_game_is_refereed_as_recorded(seed: int) -> None:
    frames = list(render_game(seed, turns=8, size=(320, 180)))
    mirrored = bool(frames[0].frame.truth["orientation"]["mirrored"])
    referee = Referee(Settings(stable_frames=2, stable_seconds=0.0, mirrored=mirrored))
    events: list[Event] = list(referee.start_match(5).events)
    verdicts = []
    for game_frame in frames:
        step = referee.feed(truth_reading(game_frame.frame.truth), game_frame.index / FPS)
        events += step.events
        verdicts += step.verdicts
    recorded = [e for f in frames for e in f.events]

    opening = next(e for e in recorded if e["type"] == "opening_roll")
    ours = next(e for e in events if e.kind == "opening_roll")
    assert (ours.data["white"], ours.data["black"]) == (opening["white"], opening["black"])

    rolls = [sorted(e["dice"]) for e in recorded if e["type"] in ("play", "no_play")][1:]
    assert [sorted(e.data["dice"]) for e in events if e.kind == "roll"] == rolls
    # every void roll (a cocked die, a die in the wrong half) is held long enough to be seen
    assert sum(e.kind == "reroll" for e in events) == sum(e["type"] == "reroll" for e in recorded)

    plays = [(e["colour"], e["play"], e["position_id"]) for e in recorded if e["type"] == "play"]
    moves = [
        (e.data["player"], e.data["play"], e.data["after_position_id"])
        for e in events
        if e.kind == "move" and e.data["moves"]
    ]
    # Every play but the last was committed by the next roll; the last waits for its dice to
    # be picked up, announced but still open to a takeback.
    assert moves == plays[: len(moves)]
    assert len(moves) >= len(plays) - 1
    if len(moves) < len(plays):
        assert referee.pending_play == plays[-1][1]
    assert not [v for v in verdicts if v.kind.value in ("illegal", "warning")]


def test_companion_run_referees_a_rendered_game_from_its_truth_files(tmp_path, capsys) -> None:
    """`companion render --game` then `companion run --source readings:DIR`, to the .mat."""
    import json

    from companion.cli import main
    from companion.formats.mat import read_mat

    frames = tmp_path / "game"
    size = ["--size", "320x180"]
    assert main(["render", "--game", "--seed", "3", "--turns", "5", *size, "-o", str(frames)]) == 0
    logs = tmp_path / "logs"
    window = ["--stable-frames", "2", "--stable-seconds", "0", "--keys", "off"]
    source = f"readings:{frames}"
    assert (
        main(["run", "--source", source, "--log", str(logs), "--players", "Ann,Bob", *window]) == 0
    )
    recorded = json.loads((frames / "events.json").read_text())
    plays = [(e["colour"], e["play"]) for e in recorded if e["type"] == "play"]
    record = read_mat(next(logs.glob("*.mat")).read_text())
    game = record.games[0]
    written = [(a.player.value, len(a.moves)) for a in game.actions]
    # The last play stays open unless its dice were picked up (as before a double): every
    # other one is recorded.
    picked = any(e["type"] == "pickup" and e["play"] == plays[-1][1] for e in recorded)
    assert len(written) == len(plays) - (0 if picked else 1)
    assert [colour for colour, _ in written] == [colour for colour, _ in plays[: len(written)]]
    assert (record.white, record.black) == ("Ann", "Bob")
    assert "[ILLEGAL]" not in capsys.readouterr().out
