"""``companion demo``: the whole program at work on a simulated camera, with no board needed.

The simulator films a whole game (a cocked die, a die on the wrong side, an illegal move that is
corrected, a takeback and a double taken early on, then a race to the last checker borne off);
the frames go through calibration, vision and the referee exactly as a live camera's would, the
verdicts appear as they happen, and the journal and the ``.mat`` match record are written. When
the camera is unsure of a frame the referee waits for the next clear one: nothing it did not see
is accepted. ``--rules`` instead replays a recorded game fragment
(``companion/data/demo_game.jsonl``) through the rules engine alone, in a second.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from companion.cli import EXIT_OK
from companion.errors import CompanionError, InvalidFormat
from companion.rules import Colour, Position, judge, position_id

ORDER = 10

EXAMPLE = """examples:
  companion demo
  companion demo --log demo-out/ --display console,serial:loop://
  companion demo --short
  GPIOZERO_PIN_FACTORY=mock companion demo --display console,leds
  companion demo --rules"""

FRAME_INTERVAL = 0.1
"""Seconds between the simulated camera's frames (10 frames a second)."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="watch a simulated game from camera frames to verdicts (no camera needed)",
        description="Film a whole game with the simulator (a cocked die, a die on the wrong "
        "side, an illegal move corrected, a takeback, a double, then a race to the end) and run "
        "every frame through calibration, vision and the referee as a live camera would: "
        "verdicts appear as they happen, and the journal and the .mat match record are written. "
        "With --rules, replay a recorded game fragment through the rules engine alone.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--log",
        metavar="DIR",
        help="folder for the journal and the .mat record (default: a new temporary folder)",
    )
    parser.add_argument(
        "--display",
        default="console",
        help="where verdicts go: console, leds, serial:PORT, comma-separated (default console)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        help="another simulated game: its rolls and plays (default: the demo's own game)",
    )
    parser.add_argument(
        "--short",
        action="store_true",
        help="film only the scripted turns (every episode, about 90 frames, a few seconds), "
        "not the race to the end",
    )
    parser.add_argument(
        "--rules", action="store_true", help="replay the recorded fragment through the rules only"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.rules:
        return run_rules_replay(sys.stdout)
    return run_camera_demo(args, sys.stdout)


def run_camera_demo(args: argparse.Namespace, out: TextIO) -> int:
    """Renders the demo film and plays it through vision and the referee, frame by frame."""
    # Imported here: the rules replay must not pay for OpenCV and the simulator.
    from companion.cli.run import LiveGame, export_mat
    from companion.displays import from_spec, load_config
    from companion.journal import Journal
    from companion.referee import Referee, Settings
    from companion.sim.demo import DEFAULT_SEED, render_demo_game
    from companion.sim.truth import is_settled
    from companion.sources import Frame
    from companion.vision.calibrate import calibrate
    from companion.vision.reader import ReadSettings, read_frame

    started = time.perf_counter()
    what = "the opening turns of a game" if args.short else "a whole game"
    log_dir = Path(args.log) if args.log else Path(tempfile.mkdtemp(prefix="companion-demo-"))
    out.write(
        f"Backgammon Companion demo: a simulated camera films {what}; every frame goes\n"
        "through calibration, vision and the referee exactly as a live camera's would.\n\n"
    )
    film = render_demo_game(
        DEFAULT_SEED if args.seed is None else args.seed, whole_game=not args.short
    )
    first = next(film)
    profile = calibrate(first.frame.image, source="simulated camera, frame 0")
    out.write(
        f"calibrated from the first frame (the opening position): white's home board is "
        f"{profile.white_home}\n"
    )
    settings = ReadSettings()
    last_doubt: list[tuple[str, ...]] = [()]
    counts = {"read": 0}

    def reader(image: Any, referee: Referee) -> Any:
        on_roll = referee.table.on_roll
        reading = read_frame(image, profile, on_roll.value if on_roll else None, settings)
        counts["read"] += 1
        # The camera says when it is unsure (once per change), and the referee waits.
        doubt = () if reading.readable else tuple(reading.unreadable)
        if doubt != last_doubt[0]:
            if doubt:
                named = ", ".join(doubt[:4]) + (
                    f" and {len(doubt) - 4} more" if len(doubt) > 4 else ""
                )
                out.write(f"(camera unsure, waiting: {named})\n")
            else:
                out.write("(camera sees the board clearly again)\n")
            last_doubt[0] = doubt
        return reading

    referee = Referee(
        Settings(stable_frames=3, stable_seconds=1.5 * FRAME_INTERVAL, mirrored=profile.mirrored)
    )
    displays = from_spec(args.display, load_config(None))
    journal = Journal.create(log_dir)
    try:
        game = LiveGame(referee, journal, displays, reader, out)
        game.record(referee.start_match(3, ("Alice", "Bob"), now=0.0))
        settled = unsure = 0
        for shot in itertools.chain([first], film):
            now = shot.index * FRAME_INTERVAL
            for event in shot.events:
                control = event.get("control")
                if control:
                    out.write(f"(button: {control})\n")
                    game.control(str(control), now, shot.index)
            game.handle(Frame(shot.index, now, image=shot.frame.image))
            # The simulator knows which frames a referee judges: none with a hand or a die
            # still rolling. Of those, how many the camera was unsure of (it waited).
            if is_settled(shot.frame.truth):
                settled += 1
                unsure += bool(last_doubt[0])
    except KeyboardInterrupt:
        # Ctrl-C stops the film, not the record: the journal is complete up to this moment.
        journal.close()
        out.write(f"\njournal: {journal.path}\nmatch record: {export_mat(journal.path)}\n")
        raise
    finally:
        journal.close()
        displays.close()
    record = export_mat(journal.path)
    table = referee.table
    elapsed = time.perf_counter() - started
    out.write(
        f"\n{game.frames} frames judged in {elapsed:.1f} s: {counts['read']} read by vision (the "
        f"others unchanged); of the {settled} frames with nothing moving, the camera was unsure "
        f"of {unsure} and the referee waited.\n"
        f"score: white {table.match.white_score}, black {table.match.black_score}\n"
        f"journal: {journal.path}\nmatch record (.mat, for GNU Backgammon and eXtreme Gammon): "
        f"{record}\n"
    )
    return EXIT_OK


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


def run_rules_replay(out: TextIO) -> int:
    """Judges the recorded fragment's plays one by one, as a referee at the table would."""
    position = Position.opening()
    on_roll = Colour.WHITE
    out.write("Backgammon Companion demo: judging a recorded game from the opening position.\n\n")
    accepted = refused = 0
    for turn in load_turns():
        player = Colour(turn["player"])
        if player is not on_roll:
            raise CompanionError(
                f"the recorded game has {player} playing while {on_roll} is on roll"
            )
        dice = tuple(turn["dice"])
        play = turn["play"].strip()
        # An empty play is a player who moves nothing (a forfeited roll, or a mistake).
        verdict = judge(position, dice, play or position, on_roll=on_roll)
        action = f"plays {play!r}" if play else "moves nothing"
        out.write(f"{on_roll:>5} rolls {dice[0]}-{dice[1]} and {action}\n")
        out.write(f"      {verdict}\n")
        if verdict.legal and verdict.after is not None:
            accepted += 1
            position = verdict.after.flip()
            on_roll = on_roll.opponent
        else:
            refused += 1
            if verdict.closest:
                out.write(f"      closest legal plays: {', '.join(verdict.closest)}\n")
            out.write("      (the checkers go back; the player plays again)\n")
    out.write(
        f"\n{accepted} plays accepted, {refused} refused. {on_roll} to roll; the board from\n"
    )
    out.write(f"{on_roll}'s side (X = {on_roll}, O = {on_roll.opponent}):\n\n")
    out.write(position.diagram() + "\n")
    out.write(f"\nPosition ID {position_id.encode(position)}\n")
    return EXIT_OK
