"""``companion judge``: was a play legal? Exit 0 legal, 1 illegal, 2 bad input."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli import EXIT_NEGATIVE, EXIT_OK
from companion.cli._common import (
    POSITION_HELP,
    add_dice_argument,
    add_json_argument,
    colour_or_none,
    print_json,
    read_position,
    resolve_dice,
)
from companion.rules import position_id
from companion.rules.judge import judge

ORDER = 70

EXAMPLE = """examples:
  companion judge opening --dice 6 3 --play "24/18 13/10"      (legal, exit 0)
  companion judge opening --dice 6 3 --play "24/18"            (illegal, exit 1)
  companion judge opening --dice 6 3 --after 4HPwATDgc+IBIQ --json"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "judge",
        help="judge one play: legal or illegal, and why",
        description="Judge a play of a roll, given as notation (--play) or as the board it left "
        "(--after). Prints the verdict: the play in standard notation when legal, or the rule "
        "that was broken and the closest legal plays. Exit status 0 legal, 1 illegal, 2 bad "
        "input.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", help=POSITION_HELP)
    add_dice_argument(parser)
    played = parser.add_mutually_exclusive_group(required=True)
    played.add_argument(
        "--play", help="the play as typed: '24/18 13/10', 'bar/22', '6/off', '8/5(2)', '24-18'"
    )
    played.add_argument(
        "--after",
        metavar="POSITION",
        help="the board after the play (Position ID still seen from the player who moved)",
    )
    parser.add_argument(
        "--on-roll",
        metavar="COLOUR",
        help="white or black: name the sides by colour in the verdict",
    )
    add_json_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    parsed = read_position(args.position)
    roll = resolve_dice(args.dice, parsed)
    on_roll = colour_or_none(args.on_roll) or parsed.on_roll
    played = args.play if args.play is not None else read_position(args.after).position
    verdict = judge(parsed.position, roll, played, on_roll=on_roll)
    if args.json:
        answer: dict[str, object] = {
            "position_id": position_id.encode(parsed.position),
            "dice": list(roll),
            **verdict.to_json(),
        }
        if verdict.after is not None:
            answer["after_position_id"] = position_id.encode(verdict.after)
        print_json(answer)
    else:
        print(verdict)
        if not verdict.legal and verdict.closest:
            print("closest legal plays: " + ", ".join(verdict.closest))
    return EXIT_OK if verdict.legal else EXIT_NEGATIVE
