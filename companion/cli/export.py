"""``companion export``: a game journal to the Jellyfish ``.mat`` format other programs import."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from companion.cli import EXIT_OK
from companion.formats.mat import from_events, write_mat
from companion.journal import JournalError, read_journal

ORDER = 25

EXAMPLE = """examples:
  companion export games/game-20261130-041200.jsonl --mat match.mat
  companion export games/game-20261130-041200.jsonl --mat -        (print it)"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a game journal as a .mat match file",
        description="Convert the journal that 'companion run' writes into a Jellyfish .mat "
        "file, laid out as GNU Backgammon's 'export match mat' writes it, for analysis in GNU "
        "Backgammon ('import mat FILE') or eXtreme Gammon. Only accepted plays and cube "
        "actions are written; undone ones and abandoned games are left out.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("log", metavar="LOG", help="the journal (.jsonl) of a game")
    parser.add_argument(
        "--mat", required=True, metavar="FILE", help="the .mat file to write, or - for stdout"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    contents = read_journal(args.log)
    if contents.damaged_tail:
        print(
            f"note: the last line of {args.log} was cut short (a crash while writing) and is "
            "left out; 'companion run --resume' repairs the file",
            file=sys.stderr,
        )
    stamp = time.localtime(contents.events[0].time) if contents.events else time.localtime()
    text = write_mat(from_events(contents.events, date=time.strftime("%Y.%m.%d", stamp)))
    if args.mat == "-":
        sys.stdout.write(text)
        return EXIT_OK
    try:
        Path(args.mat).write_text(text, encoding="utf-8")
    except OSError as error:
        raise JournalError(
            f"cannot write {args.mat}: {error.strerror or error}; choose a path in a folder you "
            "can write to with --mat FILE"
        ) from None
    games = text.count(" Game ")
    print(f"wrote {args.mat}: {games} game{'s' if games != 1 else ''}")
    return EXIT_OK
