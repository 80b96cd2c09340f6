"""``companion legal``: every legal play of a roll, one per distinct resulting position."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from companion.cli import EXIT_BAD_INPUT, EXIT_DEVICE, EXIT_OK
from companion.cli._common import (
    POSITION_HELP,
    add_dice_argument,
    add_json_argument,
    print_json,
    read_position,
    resolve_dice,
)
from companion.errors import CompanionError
from companion.rules import position_id
from companion.rules.moves import generate_plays

ORDER = 60

EXAMPLE = """example:
  companion legal opening --dice 6 3
  companion legal 4HPwATDgc/ABMA --dice 4 4 --json
  echo '{"position": "opening", "dice": [6, 5]}' | companion legal --batch -"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "legal",
        help="list every legal play of a roll",
        description="List every legal play of a roll: one line per distinct resulting position, "
        "in GNU Backgammon notation, with the Position ID of the board it leaves (still seen "
        "from the player who moved).",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", nargs="?", help=POSITION_HELP)
    add_dice_argument(parser)
    add_json_argument(parser)
    parser.add_argument(
        "--batch",
        metavar="FILE",
        help='JSON Lines in ({"position": ..., "dice": [a, b]} a line; \'-\' for stdin), the '
        'JSON answer a line out; a bad line gets an "error" line and the batch goes on',
    )
    parser.set_defaults(func=run)


def legal_json(position_text: str, dice: list[int] | None) -> dict[str, object]:
    """The JSON answer for one position and roll (shared by single and batch mode)."""
    parsed = read_position(position_text)
    roll = resolve_dice(dice, parsed)
    plays = sorted(generate_plays(parsed.position, roll), key=lambda p: str(p.play))
    return {
        "position_id": position_id.encode(parsed.position),
        "dice": list(roll),
        "plays": [
            {"play": str(play.play), "position_id": position_id.encode(play.after)}
            for play in plays
        ],
    }


def run(args: argparse.Namespace) -> int:
    if args.batch:
        if args.position:
            raise CompanionError("give either a POSITION or --batch FILE, not both")
        if args.batch == "-":
            return run_batch(sys.stdin, sys.stdout)
        try:
            with open(args.batch, encoding="utf-8") as stream:
                return run_batch(stream, sys.stdout)
        except OSError as error:
            print(
                f"companion legal: cannot read {args.batch}: {error.strerror}; name a JSON Lines "
                "file, or - to read standard input",
                file=sys.stderr,
            )
            return EXIT_DEVICE
    if not args.position:
        print("companion legal: give a POSITION (e.g. 'opening') or --batch FILE", file=sys.stderr)
        return EXIT_BAD_INPUT
    answer = legal_json(args.position, args.dice)
    if args.json:
        print_json(answer)
        return EXIT_OK
    plays = answer["plays"]
    assert isinstance(plays, list)
    dice = answer["dice"]
    assert isinstance(dice, list)
    roll = f"{max(dice)}-{min(dice)}"
    if not plays:
        print(f"no legal play with {roll}: the roll is forfeited")
        return EXIT_OK
    print(f"{len(plays)} legal play{'s' if len(plays) != 1 else ''} with {roll}:")
    width = max(len(p["play"]) for p in plays)
    for play in plays:
        print(f"  {play['play']:<{width}}  -> {play['position_id']}")
    return EXIT_OK


def run_batch(lines: IO[str], out: IO[str]) -> int:
    """Answers each JSON line in order; errors become lines too, so the batch never stops."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        answer: dict[str, object]
        try:
            request = json.loads(line)
            if not isinstance(request, dict) or "position" not in request:
                raise CompanionError('each line needs {"position": ..., "dice": [a, b]}')
            dice = request.get("dice")
            if dice is not None and not isinstance(dice, list):
                raise CompanionError('"dice" must be a list of two numbers, like [6, 3]')
            answer = legal_json(str(request["position"]), dice)
        except json.JSONDecodeError as error:
            answer = {"line": number, "error": f"not JSON: {error.msg} at column {error.colno}"}
        except CompanionError as error:
            answer = {"line": number, "error": str(error)}
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()
    return EXIT_OK
