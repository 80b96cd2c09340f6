"""``companion demo``: the program at work on bundled data, with no camera and no board.

Replays a recorded game fragment (``companion/data/demo_game.jsonl``): each line is what a
player rolled and what they played, including plays a referee must refuse. Every play is judged
exactly as at the table, an illegal one is refused with the rule and the closest legal plays,
and the game goes on from the accepted plays only.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from typing import Any

from companion.cli import EXIT_OK
from companion.errors import InvalidFormat
from companion.rules import Colour, Position, judge, position_id

ORDER = 10

EXAMPLE = """example:
  companion demo"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="judge a bundled recorded game (no camera needed)",
        description="Replay a bundled game fragment through the rules engine: every roll and "
        "play is judged as a referee at the table would, illegal plays are refused with the "
        "rule they break and the closest legal plays, and the final board is shown.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(func=run)


def load_turns() -> list[dict[str, Any]]:
    text = resources.files("companion.data").joinpath("demo_game.jsonl").read_text("utf-8")
    turns = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                turns.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise InvalidFormat(f"demo_game.jsonl line {number}: {error.msg}") from None
    return turns


def run(args: argparse.Namespace) -> int:
    position = Position.opening()
    on_roll = Colour.WHITE
    print("Backgammon Companion demo: judging a recorded game from the opening position.\n")
    accepted = refused = 0
    for turn in load_turns():
        player = Colour(turn["player"])
        if player is not on_roll:
            raise InvalidFormat(
                f"the recorded game has {player} playing while {on_roll} is on roll"
            )
        dice = tuple(turn["dice"])
        play = turn["play"].strip()
        # An empty play is a player who moves nothing (a forfeited roll, or a mistake).
        verdict = judge(position, dice, play or position, on_roll=on_roll)
        print(
            f"{on_roll:>5} rolls {dice[0]}-{dice[1]} and "
            + (f"plays {play!r}" if play else "moves nothing")
        )
        print(f"      {verdict}")
        if verdict.legal and verdict.after is not None:
            accepted += 1
            position = verdict.after.flip()
            on_roll = on_roll.opponent
        else:
            refused += 1
            if verdict.closest:
                print(f"      closest legal plays: {', '.join(verdict.closest)}")
            print("      (the checkers go back; the player plays again)")
    print(f"\n{accepted} plays accepted, {refused} refused. {on_roll} to roll; the board from")
    print(f"{on_roll}'s side (X = {on_roll}, O = {on_roll.opponent}):\n")
    print(position.diagram())
    print(f"\nPosition ID {position_id.encode(position)}")
    return EXIT_OK
