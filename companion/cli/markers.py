"""``companion markers``: print the optional corner markers for boards the finder misses."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import cv2

from companion.cli import EXIT_OK
from companion.errors import CompanionError
from companion.vision.markers import marker_sheet

ORDER = 36

EXAMPLE = """example:
  companion markers -o markers.png
  companion markers --size 40 -o big-markers.png

Print the sheet at 100% (no "fit to page"), cut the four markers out with a white margin and
stick one at each corner of the playing area, its inner corner on the playing area's corner.
'companion calibrate' then uses them whenever it sees all four. See calibration/README.md."""


class SheetNotWritten(CompanionError, OSError):
    """The marker sheet could not be written."""


class BadSheetArgument(CompanionError, ValueError):
    """A marker size or a file name the sheet cannot be made with."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "markers",
        help="print ArUco corner markers for boards the finder cannot find",
        description="Write a printable A4 sheet (PNG, 300 dpi) of four ArUco markers. Stuck "
        "at the corners of the playing area, they give 'companion calibrate' the board's "
        "corners on boards it cannot find by itself.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-o", "--output", required=True, help="the PNG file to write")
    parser.add_argument(
        "--size", type=float, default=30.0, help="width of each marker in mm (30; 15-60)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 15.0 <= args.size <= 60.0:
        raise BadSheetArgument(
            f"--size {args.size:g} mm: markers must be 15-60 mm wide to print on A4 and be "
            "read by a camera above the board"
        )
    path = Path(args.output)
    if path.suffix.lower() != ".png":
        raise BadSheetArgument(
            f"{args.output}: the sheet is written as PNG; name it e.g. markers.png"
        )
    if not path.parent.is_dir():
        raise SheetNotWritten(
            f"cannot write {args.output}: the folder {path.parent} does not exist"
        )
    if not cv2.imwrite(str(path), marker_sheet(args.size)):
        raise SheetNotWritten(f"cannot write {args.output}: check that the folder is writable")
    print(f"wrote {args.output}: print it at 100% and stick one marker at each corner")
    return EXIT_OK
