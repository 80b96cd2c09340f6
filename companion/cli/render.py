"""``companion render``: photo-like camera frames of any position (or a whole game), with truth.

Each frame is written as an image (PNG or JPEG) and a JSON file of the same name holding its
ground truth: the Reading of ``DESIGN.md`` plus the board corners in the image, the camera, the
style, the light and any hand. Options left out are chosen from the seed, so ``--count 100``
gives a varied labelled set and the same command always gives the same files.
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

from companion.cli import EXIT_OK
from companion.errors import CompanionError, InvalidDice
from companion.rules.parse import ACCEPTED_FORMS, parse_position
from companion.rules.position import Colour
from companion.sim import DieSpec, Frame, InvalidScene, random_scene, render
from companion.sim.board import WHITE_HOMES
from companion.sim.cube import CubeSpec, InvalidCube
from companion.sim.demo import render_demo_game
from companion.sim.scene import Checkers
from companion.sim.sequences import DEFAULT_TURNS, render_game
from companion.sim.shape import (
    BAR_WIDTHS,
    CANONICAL_SHAPE,
    NO_MARGINS,
    POINT_WIDTHS,
    BoardShape,
    Margins,
)
from companion.sim.styles import (
    BOARD_STYLES,
    CHECKER_LOOKS,
    CHECKER_SETS,
    EXTRA_BOARD_STYLES,
    EXTRA_CHECKER_SETS,
    LIGHTINGS,
)

ORDER = 80

EXAMPLE = """examples:
  companion render opening --dice 6 3 -o frames/
  companion render 4HPwATDgc/ABMA --dice 5 2 --cocked 1 --tilt 25 --style wood -o frames/
  companion render opening --dice 4 4 --hand near --count 20 --format jpg -o set/
  companion render --game --seed 7 --turns 6 -o game/
  companion render --demo --vary -o demo/
  companion render opening --dice 3 1 --bar-width 32 --point-width 41.5 -o narrow-bar/
  companion render opening --vary-shape --count 20 -o shapes/
  companion render opening --checker-look marbled --margins 12,8,6 -o marbled/
  companion render opening --lighting lamp --tilt 25 --photo -o photo-like/"""


class OutputFailed(CompanionError, OSError):
    """The output folder or a file in it could not be written."""


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size: write WIDTHxHEIGHT, e.g. 1280x720"
        ) from None
    return width, height


def _cube(text: str) -> CubeSpec | str:
    lowered = text.strip().lower()
    if lowered == "none":
        return "none"
    if lowered in ("centre", "center", "1"):
        return CubeSpec()
    value, _, owner = lowered.partition(":")
    try:
        return CubeSpec(int(value), owner)  # type: ignore[arg-type]
    except (ValueError, InvalidCube) as error:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a cube: write 'none', 'centre' or VALUE:OWNER like 4:white ({error})"
        ) from None


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "render",
        help="draw synthetic camera frames of a position, with exact ground truth",
        description="Draw camera frames of a physical board showing POSITION, as a camera above "
        "the table would see it, and write each as an image plus a JSON file with its ground "
        "truth (checkers, dice, whether the roll is valid, the board's corners in the image, "
        "camera, style, light). Options left out are picked from --seed. With --game, record a "
        "whole game instead: dice rolling, hands moving checkers, settled boards, and an "
        "events.json of every roll and play.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "position",
        nargs="?",
        help=f"the position: {ACCEPTED_FORMS}; a bare Position ID is drawn with --on-roll "
        "(default white) on roll",
    )
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="folder to write to")
    parser.add_argument("--game", action="store_true", help="record a whole game instead")
    parser.add_argument(
        "--demo",
        action="store_true",
        help="record the scripted demo game (cocked and wrong-side dice, an illegal move "
        "corrected, a takeback, a double) with events.json",
    )
    parser.add_argument(
        "--cube-action",
        choices=("take", "drop"),
        default="take",
        help="with --demo: whether the double is taken (default) or dropped",
    )
    parser.add_argument(
        "--vary",
        action="store_true",
        help="randomise the look further (colours, table, checker size, light temperature)",
    )
    parser.add_argument(
        "--turns",
        type=int,
        default=DEFAULT_TURNS,
        help=f"with --game: turns to record after the opening roll (default {DEFAULT_TURNS}; "
        "0 plays the game to its end)",
    )
    parser.add_argument("--dice", nargs=2, type=int, metavar=("D1", "D2"), help="the dice, 1-6")
    parser.add_argument(
        "--cocked", type=int, choices=(1, 2), help="make die 1 or 2 cocked (tilted 10-45 degrees)"
    )
    parser.add_argument(
        "--lean",
        choices=("checker", "frame"),
        help="with --cocked: what the cocked die leans on (default: either, by the seed)",
    )
    parser.add_argument(
        "--on-checker", type=int, choices=(1, 2), help="rest die 1 or 2 flat on top of a checker"
    )
    parser.add_argument(
        "--dice-where",
        choices=("home", "outer", "bar", "outside"),
        help="where the dice land (default: the right-hand half of the player on roll)",
    )
    parser.add_argument(
        "--touching",
        choices=("die", "checker"),
        help="make the second die touch the first die or a checker",
    )
    parser.add_argument("--on-roll", help="white or black: who rolled (judges the dice)")
    parser.add_argument(
        "--style", choices=sorted([*BOARD_STYLES, *EXTRA_BOARD_STYLES]), help="board style"
    )
    parser.add_argument(
        "--checkers",
        choices=sorted([*CHECKER_SETS, *EXTRA_CHECKER_SETS]),
        help="checker set and dice",
    )
    parser.add_argument("--lighting", choices=LIGHTINGS, help="the light")
    parser.add_argument("--stack", choices=("line", "layers"), help="how stacks over five grow")
    parser.add_argument("--tilt", type=float, help="camera tilt from straight down, 0-35 degrees")
    parser.add_argument("--rotation", type=float, help="camera turn about the vertical, degrees")
    parser.add_argument("--height", type=float, help="camera height above the board, mm")
    parser.add_argument("--distortion", type=float, help="radial lens distortion k1 (e.g. -0.1)")
    parser.add_argument(
        "--size", type=_size, default=(1280, 720), help="image size WIDTHxHEIGHT (1280x720)"
    )
    parser.add_argument(
        "--white-home",
        choices=WHITE_HOMES,
        help="image quadrant of white's home board (bottom-left and top-right are mirrored)",
    )
    parser.add_argument(
        "--bar-width",
        type=float,
        metavar="MM",
        help=f"the bar's width, {BAR_WIDTHS[0]:g}-{BAR_WIDTHS[1]:g} mm (default 50, the "
        "standard board's; tournament boards have 30-37)",
    )
    parser.add_argument(
        "--point-width",
        type=float,
        metavar="MM",
        help=f"every point's width, {POINT_WIDTHS[0]:g}-{POINT_WIDTHS[1]:g} mm (default 40; "
        "tournament boards have 41-42)",
    )
    parser.add_argument(
        "--outer-point-width",
        type=float,
        metavar="MM",
        help="the outer half's points' width (points 7-18), when the halves differ",
    )
    parser.add_argument(
        "--home-point-width",
        type=float,
        metavar="MM",
        help="the home half's points' width (points 1-6 and 19-24), when the halves differ",
    )
    parser.add_argument(
        "--vary-shape",
        action="store_true",
        help="a board of other proportions for each seed (bar 28-50 mm, points 38-43 mm a half)",
    )
    parser.add_argument(
        "--checker-look",
        choices=CHECKER_LOOKS,
        help="what is on the checkers' tops: plain, concentric rings with an inlaid band, "
        "marbled resin, or an engraved logo (default: the set's own or one chosen by the seed)",
    )
    parser.add_argument(
        "--margins",
        type=_margins,
        metavar="FRAME,BAR,EDGE",
        help="mm of field between the frame and the outermost points, between the bar and the "
        "points beside it, and between the frame's long sides and the points' bases, e.g. "
        "10,6,5; 'style' for the board style's own; 'none' (the default, for now) for points "
        "touching the frame",
    )
    parser.add_argument("--hand", choices=("over", "near"), help="a hand over or beside the board")
    parser.add_argument(
        "--photo",
        action="store_true",
        help="the looks most like a photograph (off by default, as in the benchmark's "
        "evaluation set; benchmarks/vision.py --photo measures the vision code on them): "
        "a desk lamp's pool of light and hard shadows (with --lighting lamp), glossy walls "
        "with lit top edges and a lit rim round every hole of the frame, the board's outline "
        "smooth against a table of planks or woven cloth fading away from it, checkers' lit "
        "edges and borne-off checkers' rounded rims, veins and hairs on hands and no glare "
        "on them (the truth's lighting records the fall-off and the lamp's pool)",
    )
    parser.add_argument(
        "--no-clutter",
        action="store_true",
        help="nothing on the table round the board (by default the seed may put a score pad, a "
        "cup, a mug, a can, a phone or a clock there)",
    )
    parser.add_argument(
        "--cube",
        type=_cube,
        help="the doubling cube beside the board: 'none', 'centre', or VALUE:OWNER like 4:white "
        "(default: chosen by the seed)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    parser.add_argument(
        "--count", type=int, default=1, help="frames to draw, seeds SEED, SEED+1..."
    )
    parser.add_argument("--format", choices=("png", "jpg"), default="png", help="image format")
    parser.set_defaults(func=run)


def _dice_specs(args: argparse.Namespace, values: tuple[int, int] | None) -> tuple[DieSpec, ...]:
    if values is None:
        for option in ("cocked", "on_checker", "dice_where", "touching", "lean"):
            if getattr(args, option) is not None:
                name = "--" + option.replace("_", "-")
                raise InvalidDice(f"{name} needs dice: add --dice D1 D2, e.g. --dice 6 3")
        return ()
    if args.lean is not None and args.cocked is None:
        raise InvalidDice("--lean says what a cocked die leans on: add --cocked 1 or --cocked 2")
    if args.cocked is not None and args.cocked == args.on_checker:
        raise InvalidDice(f"die {args.cocked} cannot be both cocked and resting on a checker")
    specs: list[DieSpec] = []
    for number, value in enumerate(values, start=1):
        if not 1 <= value <= 6:
            raise InvalidDice(f"die {number} shows {value}: dice show 1 to 6")
        rest = "cocked" if args.cocked == number else "flat"
        if args.on_checker == number:
            rest = "on_checker"
        touching = args.touching if number == 2 and rest == "flat" else None
        if touching == "die" and specs and specs[0].rest != "flat":
            touching = None
        support = args.lean if rest == "cocked" else None
        specs.append(DieSpec(value, rest, args.dice_where, touching, support=support))  # type: ignore[arg-type]
    return tuple(specs)


def _prepare_output(folder: str) -> Path:
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFailed(f"cannot create the output folder {folder}: {error.strerror}") from None
    if not os.access(path, os.W_OK):
        raise OutputFailed(f"cannot write to the output folder {folder}")
    return path


def _write(path: Path, name: str, frame: Frame, image_format: str) -> None:
    image_path = path / f"{name}.{image_format}"
    params = [cv2.IMWRITE_JPEG_QUALITY, 92] if image_format == "jpg" else []
    if not cv2.imwrite(str(image_path), frame.image, params):
        raise OutputFailed(f"cannot write {image_path}")
    try:
        (path / f"{name}.json").write_text(json.dumps(frame.truth, indent=1) + "\n", "utf-8")
    except OSError as error:
        raise OutputFailed(f"cannot write {path / name}.json: {error.strerror}") from None


def _shape(args: argparse.Namespace) -> BoardShape | None:
    """The board's proportions the options ask for, or None for the standard board (or one
    drawn from the seed with --vary-shape)."""
    widths = (args.bar_width, args.point_width, args.outer_point_width, args.home_point_width)
    if all(width is None for width in widths):
        return None
    if args.vary_shape:
        raise InvalidScene(
            "--vary-shape draws the board's proportions from the seed: leave out --bar-width "
            "and the point widths, or --vary-shape"
        )
    if args.point_width is not None and (
        args.outer_point_width is not None or args.home_point_width is not None
    ):
        raise InvalidScene(
            "--point-width sets both halves' points: leave it out to give "
            "--outer-point-width and --home-point-width apart"
        )
    outer = args.point_width if args.outer_point_width is None else args.outer_point_width
    home = args.point_width if args.home_point_width is None else args.home_point_width
    given = {"bar_width": args.bar_width, "outer_point_width": outer, "home_point_width": home}
    return replace(CANONICAL_SHAPE, **{name: mm for name, mm in given.items() if mm is not None})


def _margins(text: str) -> Margins | str:
    """``--margins``: 'none', 'style' or three millimetre figures FRAME,BAR,EDGE."""
    if text.strip().lower() == "none":
        return NO_MARGINS
    if text.strip().lower() == "style":
        return "style"
    try:
        frame, bar, edge = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not three margins: write FRAME,BAR,EDGE in mm, e.g. 10,6,5, "
            "or 'none' or 'style'"
        ) from None
    if not all(0 <= mm <= 30 for mm in (frame, bar, edge)):
        raise argparse.ArgumentTypeError(
            f"margins {text!r} are outside 0-30 mm: real boards leave a few mm to 15 mm"
        )
    return Margins(frame, bar, edge)


def _look(args: argparse.Namespace) -> dict[str, object]:
    return {
        "checker_look": args.checker_look,
        "margins": args.margins,
        "shape": _shape(args),
        "varied_shape": args.vary_shape,
        "style": args.style,
        "checker_set": args.checkers,
        "lighting": args.lighting,
        "stack": args.stack,
        "white_home": args.white_home,
        "hand": args.hand,
        "tilt": args.tilt,
        "rotation": args.rotation,
        "height": args.height,
        "k1": args.distortion,
        "cube": args.cube,
        "vary": args.vary,
        "clutter": False if args.no_clutter else None,
        "photo": True if args.photo else None,
    }


def run(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise InvalidScene(f"--count must be 1 or more, not {args.count}")
    if args.seed < 0:
        raise InvalidScene(f"--seed must be 0 or more, not {args.seed}")
    if args.tilt is not None and not 0 <= args.tilt <= 35:
        raise InvalidScene(f"--tilt {args.tilt} is outside 0-35 degrees")
    if args.game or args.demo:
        return _run_game(args)
    if not args.position:
        raise InvalidScene("give a POSITION to draw (e.g. 'opening'), or --game for a whole game")
    parsed = parse_position(args.position)
    try:
        on_roll = Colour.parse(args.on_roll) if args.on_roll else parsed.on_roll
    except ValueError as error:
        raise InvalidScene(f"--on-roll: {error}") from None
    drawn_for = on_roll or Colour.WHITE
    board = Checkers.of(parsed.position.to_absolute(drawn_for))
    values = tuple(args.dice) if args.dice else parsed.dice
    specs = _dice_specs(args, values)  # type: ignore[arg-type]
    path = _prepare_output(args.output)
    for index in range(args.count):
        seed = args.seed + index
        scene = random_scene(
            seed,
            board,
            dice=specs,
            on_roll=on_roll.value if on_roll else None,
            size=args.size,
            **_look(args),
        )
        frame = render(scene)
        _write(path, f"frame_{seed:06d}", frame, args.format)
    print(f"wrote {args.count} frame{'s' if args.count != 1 else ''} to {path}/")
    return EXIT_OK


def _run_game(args: argparse.Namespace) -> int:
    which = "--demo" if args.demo else "--game"
    if args.game and args.demo:
        raise InvalidScene("choose --game or --demo, not both")
    if args.position or args.dice:
        raise InvalidScene(f"{which} starts from the opening roll: leave out POSITION and --dice")
    if args.turns < 0:
        raise InvalidScene(f"--turns must be 0 or more, not {args.turns}")
    path = _prepare_output(args.output)
    look = {k: v for k, v in _look(args).items() if k != "hand" and v is not None}
    events: list[dict[str, object]] = []
    count = 0
    chosen: dict[str, Any] = look
    if args.demo:
        frames = render_demo_game(args.seed, args.size, cube_action=args.cube_action, **chosen)
    else:
        frames = render_game(args.seed, args.turns or None, args.size, **chosen)
    for game_frame in frames:
        _write(path, f"frame_{game_frame.index:05d}", game_frame.frame, args.format)
        events.extend(game_frame.events)
        count += 1
    try:
        (path / "events.json").write_text(json.dumps(events, indent=1) + "\n", "utf-8")
    except OSError as error:
        raise OutputFailed(f"cannot write events.json: {error.strerror}") from None
    plays = sum(1 for e in events if e["type"] == "play")
    print(f"wrote {count} frames of a game ({plays} plays) and events.json to {path}/")
    return EXIT_OK
