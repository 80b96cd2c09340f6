"""``companion read``: what the camera sees in one image, with a calibration profile."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.cli import EXIT_NEGATIVE, EXIT_OK
from companion.errors import CompanionError
from companion.vision.profile import load_profile
from companion.vision.reader import ReadSettings, read_frame
from companion.vision.reading import Reading

ORDER = 40

EXAMPLE = """example:
  companion calibrate opening.png -o calibration/home.json
  companion read frame.png --profile calibration/home.json --on-roll white
  companion read frame.png --profile calibration/home.json --json

exit status: 0 when the whole board was read, 1 when part of it could not be read (the
reading names the parts), 2 for bad input, 3 when a file cannot be read, 4 for a fault in
the program (a bug: one line, and the details saved in a report file)."""


class ImageFileError(CompanionError, OSError):
    """An image file that does not exist or cannot be opened."""


class NotAnImage(CompanionError, ValueError):
    """A file that exists but holds no picture OpenCV can decode."""


def load_image(path: str) -> npt.NDArray[np.uint8]:
    """Reads a colour image file; raises :class:`ImageFileError` or :class:`NotAnImage`."""
    location = Path(path)
    if not location.exists():
        raise ImageFileError(f"no image at {location}: check the file name")
    if not location.is_file():
        raise ImageFileError(f"{location} is not a file: name one PNG or JPEG frame")
    try:
        data = np.fromfile(location, dtype=np.uint8)
    except OSError as error:
        raise ImageFileError(
            f"cannot read {location}: {error.strerror}; check that the file is readable"
        ) from error
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise NotAnImage(
            f"{location} is not an image this program can read (use PNG or JPEG frames)"
        )
    return np.asarray(image, dtype=np.uint8)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "read",
        help="read the checkers and dice in one camera image",
        description="Read one camera image with a calibration profile: every point's checkers "
        "(+ white, - black, white's numbering), the bar, the borne-off checkers, and the dice "
        "(value, flat or cocked, which half). Any part that cannot be read surely (a hand "
        "over the board, glare, an unclear stack) makes the reading unreadable and is named.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("image", help="a PNG or JPEG frame from the calibrated camera")
    parser.add_argument(
        "--profile",
        required=True,
        help="the calibration profile made by 'companion calibrate' for this camera",
    )
    parser.add_argument(
        "--on-roll",
        choices=("white", "black"),
        help="the player who rolled: judges whether the dice stand (flat, on their right)",
    )
    parser.add_argument(
        "--die-on-checker-stands",
        action="store_true",
        help="count a die resting level on a checker as valid (2016 US Backgammon allowance); "
        "by default it is cocked, the traditional rule",
    )
    parser.add_argument("--json", action="store_true", help="print the Reading as JSON")
    parser.set_defaults(func=run)


def describe(reading: Reading) -> str:
    """The reading in words and a small diagram, for people."""
    lines = []
    top = " ".join(f"{p:+3d}" if p else "  ." for p in reading.points[12:24])
    bottom = " ".join(f"{p:+3d}" if p else "  ." for p in reversed(reading.points[:12]))
    lines.append("points 13-24: " + top)
    lines.append("points 12-1:  " + bottom)
    lines.append(
        f"bar: white {reading.bar.white}, black {reading.bar.black}; "
        f"off: white {reading.off.white}, black {reading.off.black}"
    )
    for die in reading.dice:
        rest = "flat" if die.flat else "cocked"
        if die.on_checker:
            rest += " on a checker"
        lines.append(
            f"die: {die.value} ({rest}, {die.half} half, at {die.center_px[0]:.0f},"
            f"{die.center_px[1]:.0f} px, confidence {die.confidence:.2f})"
        )
    if reading.dice_valid is not None:
        verdict = "the roll stands" if reading.dice_valid else f"reroll: {reading.dice_reason}"
        lines.append(verdict)
    if reading.readable:
        lines.append("readable: yes")
    else:
        lines.append("readable: NO - could not read " + ", ".join(reading.unreadable))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    profile = load_profile(args.profile)
    image = load_image(args.image)
    start = time.perf_counter()
    reading = read_frame(
        image,
        profile,
        on_roll=args.on_roll,
        settings=ReadSettings(die_on_checker_is_cocked=not args.die_on_checker_stands),
    )
    elapsed = time.perf_counter() - start
    if args.json:
        json.dump(reading.to_json(), sys.stdout)
        sys.stdout.write("\n")
    else:
        print(describe(reading))
        print(f"read in {elapsed * 1000:.0f} ms")
    return EXIT_OK if reading.readable else EXIT_NEGATIVE
