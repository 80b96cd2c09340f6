"""``companion calibrate``: learn a camera's view of a board from one image of it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from companion.cli import EXIT_OK
from companion.cli.read import load_image
from companion.errors import CompanionError
from companion.vision.calibrate import calibrate
from companion.vision.plane import WHITE_HOMES, WhiteHome
from companion.vision.profile import save_profile

ORDER = 35
DEFAULT_PROFILE = "calibration/profile.json"

EXAMPLE = """example:
  companion calibrate opening.png -o calibration/home.json
  companion calibrate frame.png --white-home bottom-left -o calibration/club.json
  companion calibrate frame.png --corners "212,80 1010,96 1030,650 190,640" -o cal.json
  companion calibrate --source camera:0 -o calibration/home.json

Set up the opening position and take one frame: the board, its orientation (which quadrant
holds white's home board) and the colours are all learned from it. From any other position,
name white's home quadrant with --white-home. See calibration/README.md."""


class CameraUnavailable(CompanionError, OSError):
    """A camera that cannot be opened or gives no frame."""


class BadArgument(CompanionError, ValueError):
    """A command-line value that cannot be understood (says what to write instead)."""


def parse_corners(text: str) -> list[tuple[float, float]]:
    """``"x,y x,y x,y x,y"`` as four points; raises a clear error for anything else."""
    pairs = text.replace(";", " ").split()
    if len(pairs) != 4:
        raise BadArgument(
            f'--corners needs four x,y pairs separated by spaces ("x,y x,y x,y x,y"), got '
            f"{len(pairs)}"
        )
    corners = []
    for pair in pairs:
        parts = pair.split(",")
        try:
            if len(parts) != 2:
                raise ValueError(pair)
            corners.append((float(parts[0]), float(parts[1])))
        except ValueError:
            raise BadArgument(f"--corners: {pair!r} is not an x,y pair of numbers") from None
    return corners


def grab_frame(source: str) -> npt.NDArray[np.uint8]:
    """One frame from ``camera:N``, through the same camera source a live game uses."""
    kind, _, index = source.partition(":")
    if kind != "camera" or not index.isdigit():
        raise BadArgument(f"--source {source!r}: say camera:0 (or another camera number)")
    from companion.sources import CameraSource, SourceError

    try:
        camera = CameraSource(int(index), give_up_after=0.0)
    except SourceError as error:
        raise CameraUnavailable(str(error)) from None
    try:
        # A few frames let the exposure settle before the one that is kept.
        for frame in camera.frames():
            if frame.index >= 4 and frame.image is not None:
                return np.asarray(frame.image, dtype=np.uint8)
    except SourceError as error:
        raise CameraUnavailable(f"camera {index} gave no frame: {error}") from None
    finally:
        camera.close()
    raise CameraUnavailable(f"camera {index} gave no frame")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="learn the board, its orientation and colours from one image",
        description="Make a calibration profile from one image of the board (the opening "
        "position by default): finds the playing area with no markers (or from four corner "
        "markers, see 'companion markers', when all four are in view), learns which quadrant "
        "holds white's home board and the colours of the checkers, and writes a small JSON "
        "profile for 'companion read' and 'companion run'.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("image", nargs="?", help="a PNG or JPEG frame of the whole board")
    parser.add_argument("--source", help="grab the frame from a camera instead: camera:0")
    parser.add_argument(
        "-o", "--output", default=DEFAULT_PROFILE, help=f"profile to write ({DEFAULT_PROFILE})"
    )
    parser.add_argument(
        "--corners",
        help='the playing area\'s outer corners "x,y x,y x,y x,y", clockwise from the top-left '
        "as the image shows them (both halves and the bar, without the trays and frame); "
        "overrides the board finder",
    )
    parser.add_argument(
        "--white-home",
        choices=WHITE_HOMES,
        help="the image quadrant of white's home board; needed unless the image shows the "
        "opening position",
    )
    parser.add_argument("--json", action="store_true", help="print the profile as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if bool(args.image) == bool(args.source):
        raise BadArgument("give an IMAGE or --source camera:N (one of them)")
    image = load_image(args.image) if args.image else grab_frame(args.source)
    corners = parse_corners(args.corners) if args.corners else None
    white_home = cast(WhiteHome, args.white_home) if args.white_home else None
    start = time.perf_counter()
    profile = calibrate(
        image, corners=corners, white_home=white_home, source=args.image or args.source
    )
    elapsed = time.perf_counter() - start
    save_profile(profile, args.output)
    if args.json:
        data = profile.to_json()
        data.pop("reference_image_base64", None)
        json.dump(data, sys.stdout)
        sys.stdout.write("\n")
        return EXIT_OK
    corners_text = " ".join(f"{x:.0f},{y:.0f}" for x, y in profile.corners_px)
    print(f"board corners: {corners_text}")
    mirrored = " (mirrored: home boards on white's left)" if profile.mirrored else ""
    print(f"white's home board: {profile.white_home}{mirrored}")
    for note in profile.notes:
        print(f"note: {note}")
    print(f"profile written to {args.output} in {elapsed:.2f} s")
    return EXIT_OK
