"""Argument helpers shared by the sub-commands: positions, dice and JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from companion.errors import InvalidDice
from companion.rules.moves import check_dice
from companion.rules.parse import ParsedPosition, parse_position
from companion.rules.position import Colour

POSITION_HELP = (
    "the position: 'opening', a GNU Backgammon Position ID (e.g. 4HPwATDgc/ABMA, the player on "
    "roll as the ID encodes it), optionally with its Match ID (ID:MATCHID), or an XGID"
)


def add_dice_argument(parser: argparse.ArgumentParser, required: bool = False) -> None:
    parser.add_argument(
        "--dice",
        nargs=2,
        type=int,
        metavar=("D1", "D2"),
        required=required,
        help="the roll, two numbers 1-6 (e.g. --dice 6 3); optional when the XGID holds the dice",
    )


def add_json_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON for programs")


def read_position(text: str) -> ParsedPosition:
    return parse_position(text)


def resolve_dice(given: Sequence[int] | None, parsed: ParsedPosition) -> tuple[int, int]:
    """The roll from --dice, or from the position text when it names one."""
    if given:
        return check_dice(tuple(given))
    if parsed.dice:
        return check_dice(parsed.dice)
    raise InvalidDice("no dice given: add --dice D1 D2, e.g. --dice 6 3")


def colour_or_none(text: str | None) -> Colour | None:
    if text is None:
        return None
    try:
        return Colour.parse(text)
    except ValueError as error:
        raise InvalidDice(str(error)) from None


def print_json(data: object) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
