"""``companion run``: a live game from a camera (or a recorded source) to verdicts and a log.

The loop is the edge where everything meets: frames from a source, vision turns each into a
Reading, the referee judges, each event is written to the journal (flushed and fsync-ed)
*before* its verdict is shown on the displays. Controls come from buttons (``companion.toml``)
or keys typed on the console (``d`` double, ``t`` take, ``p`` drop, ``b`` beaver, ``u`` undo,
``n`` new game, each followed by Enter). ``--resume LOG`` rebuilds the game from a journal (a
cut-short last line is repaired) and carries on appending to it.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from companion.cli import EXIT_OK
from companion.errors import CompanionError, InvalidFormat
from companion.formats.mat import from_events, write_mat
from companion.journal import Journal, read_journal
from companion.referee import Command, Event, Phase, Referee, Settings, Step
from companion.referee import Verdict as RefereeVerdict
from companion.sources import (
    LIVE_KINDS,
    ChangeGate,
    Frame,
    FrameSource,
    open_source,
    source_kind,
)
from companion.vision.reading import Reading

ORDER = 20

EXAMPLE = """examples:
  companion run --source camera:0 --profile board.json --match 7 --players "Ann,Bob"
  companion run --source video:game.mp4 --profile board.json --display console,leds
  companion run --source camera:0 --profile board.json --resume games/game-20261130-0412.jsonl

keys while playing (then Enter): d double, t take, p drop, b beaver, u undo, n new game"""


class BadArguments(CompanionError, ValueError):
    """A combination of options that cannot work together."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="referee a live game from a camera, video or image folder",
        description="Watch a game and referee it: every roll and play is judged when the board "
        "is still, illegal plays are refused with the rule and what to put back, the cube and "
        "the match score are kept, and every event is written to a journal (JSON Lines) before "
        "it is announced. After a crash, --resume LOG continues the game. The .mat record is "
        "written beside the journal when the program stops.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--source",
        required=True,
        help="camera:N, video:PATH, images:DIR, picamera, or readings:FILE|DIR (recorded "
        "Readings, or the truth files of companion render --game)",
    )
    parser.add_argument("--profile", help="the calibration profile (companion calibrate)")
    parser.add_argument(
        "--match", type=int, default=7, metavar="N", help="match length; 0 for money (default 7)"
    )
    parser.add_argument(
        "--players",
        default="white,black",
        help='the names of white and black, comma-separated (e.g. "Ann,Bob")',
    )
    parser.add_argument("--beavers", action="store_true", help="allow beavers (money play only)")
    parser.add_argument("--jacoby", action="store_true", help="Jacoby rule (money play only)")
    parser.add_argument(
        "--display",
        default="console",
        help="displays, comma-separated: console, leds, serial[:PORT] (default console)",
    )
    parser.add_argument("--config", help="the settings file (default companion.toml if present)")
    parser.add_argument(
        "--log", default="games", metavar="DIR", help="folder for the journal (default ./games)"
    )
    parser.add_argument(
        "--resume",
        metavar="LOG",
        help="continue the game of this journal (the match length and players come from it)",
    )
    parser.add_argument(
        "--stable-frames",
        type=int,
        default=3,
        metavar="N",
        help="frames a board must be read the same before it counts (default 3)",
    )
    parser.add_argument(
        "--stable-seconds",
        type=float,
        default=0.25,
        metavar="S",
        help="and for at least this long (default 0.25 s)",
    )
    parser.add_argument(
        "--die-on-checker-flat",
        action="store_true",
        help="a die level on a checker stands (2016 US Backgammon allowance)",
    )
    parser.add_argument(
        "--fps", type=float, help="frame rate of a recorded source (default: the file's, or 30)"
    )
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="play a recorded source at its frame rate instead of as fast as possible",
    )
    parser.add_argument(
        "--skip",
        type=int,
        default=None,
        metavar="N",
        help="skip the first N frames of a recorded source (default 0; with --resume, the frame "
        "after the journal's last event, whose number each event records)",
    )
    parser.add_argument(
        "--keys",
        choices=("auto", "on", "off"),
        default="auto",
        help="read control keys typed on the console (auto: when it is a terminal)",
    )
    parser.set_defaults(func=run)


def parse_players(text: str) -> tuple[str, str]:
    names = [name.strip() for name in text.split(",")]
    if len(names) != 2 or not all(names):
        raise BadArguments(f"--players needs two names, white's then black's: got {text!r}")
    return names[0], names[1]


class LiveGame:
    """The loop of one game: frames in, journal lines and display calls out.

    ``reader`` turns an image into a Reading (the vision reader with the profile); frames that
    carry a Reading already (a readings file) skip it. ``out`` gets the console lines that are
    not display output (resumes, source trouble).
    """

    def __init__(
        self,
        referee: Referee,
        journal: Journal,
        displays: Any,
        reader: Callable[[Any, Referee], Reading] | None = None,
        out: TextIO | None = None,
    ) -> None:
        self.referee = referee
        self.journal = journal
        self.displays = displays
        self.reader = reader
        self.out = out if out is not None else sys.stdout
        self.controls: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.gate = ChangeGate()
        self._last_reading: Reading | None = None
        self.vision_faults = 0
        """Frames the vision code failed on (:meth:`_read`)."""
        self._vision_failing = False
        self.frames = 0

    def record(self, step: Step, frame: int | None = None) -> None:
        """Journals every event (durably), then shows the verdicts: never the other way round."""
        for event in step.events:
            if frame is not None:
                event = replace(event, data={**event.data, "frame": frame})
            self.journal.append(event)
        for verdict in step.verdicts:
            self.show(verdict)
        if any(event.stateful for event in step.events):
            self.show_state()

    def show(self, verdict: RefereeVerdict) -> None:
        from companion.displays import Verdict as DisplayVerdict

        self.displays.show_verdict(DisplayVerdict(verdict.kind, verdict.headline, verdict.detail))

    def show_state(self) -> None:
        table = self.referee.table
        match = table.match
        scores = {"white": match.white_score, "black": match.black_score}
        self.displays.show_score(scores, match.length, match.crawford)
        if table.on_roll is not None:
            self.displays.show_turn(table.on_roll, table.name(table.on_roll))
            self.displays.show_pips(*table.pips())
            if table.dice is not None:
                self.displays.show_dice(*table.dice)
            self.displays.show_board(table.position, table.on_roll)

    def handle(self, frame: Frame) -> None:
        """One frame (or recorded control) through vision and the referee."""
        self.frames += 1
        while True:
            try:
                key = self.controls.get_nowait()
            except queue.Empty:
                break
            self.control(key, frame.time, frame.index)
        if frame.control is not None:
            self.control(frame.control, frame.time, frame.index)
            return
        reading = frame.reading
        if reading is None:
            if frame.image is None or self.reader is None:
                raise BadArguments("image frames need a calibration profile: add --profile FILE")
            if self._last_reading is not None and not self.gate.changed(frame.image):
                reading = self._last_reading
            else:
                reading = self._read(frame.image, frame.index)
                self._last_reading = reading
        self.record(self.referee.feed(reading, frame.time), frame.index)

    def _read(self, image: Any, index: int) -> Reading:
        """Vision's reading of frame ``index``. A fault in the vision code makes the frame
        unreadable instead of ending a game in play: the referee waits for the next frame, as
        for any frame the camera is unsure of, and the journal keeps everything played so
        far. The console says so when the faults begin and when frames read again (as a
        display that fails, or a camera that stops giving frames); the first traceback of
        each run of faults is kept beside the journal, for a bug report. Bad input the reader
        names (a profile made for another camera) still stops the game with its message: no
        frame of that camera can be read."""
        assert self.reader is not None
        try:
            reading = self.reader(image, self.referee)
        except CompanionError:
            raise
        except Exception as error:  # a vision bug must not stop the game at the table
            self.vision_faults += 1
            if not self._vision_failing:
                self._vision_failing = True
                details = self._keep_fault(index)
                self.out.write(
                    f"the vision reader failed on frame {index} ({type(error).__name__}: "
                    f"{error}); such frames count as unreadable and the game goes on. Please "
                    f"report it{details}, with the profile and, if you can, the frame\n"
                )
                self.out.flush()
            return Reading.empty_unreadable([f"the frame (the vision reader failed: {error})"])
        if self._vision_failing:
            self._vision_failing = False
            self.out.write(
                f"the vision reader reads frames again ({self.vision_faults} failed so far)\n"
            )
            self.out.flush()
        return reading

    def _keep_fault(self, index: int) -> str:
        """Appends the fault being handled, with its traceback, to a file beside the journal
        (a player's console gets one plain line, a bug report the whole story); returns
        " (details in FILE)", or "" where the file cannot be written."""
        path = self.journal.path.with_name(f"{self.journal.path.stem}-vision-faults.txt")
        try:
            with path.open("a", encoding="utf-8") as file:
                file.write(f"frame {index}:\n{traceback.format_exc()}\n")
        except OSError:
            return ""
        return f" (details in {path})"

    def control(self, text: str, now: float, frame: int | None = None) -> None:
        try:
            command = Command.parse(text)
        except InvalidFormat as error:
            self.out.write(f"{error}\n")
            return
        self.record(self.referee.control(command, now), frame)

    def play(self, source: FrameSource) -> None:
        """Every frame of ``source`` (a recording opened at ``--skip`` starts there itself)."""
        for frame in source.frames():
            self.handle(frame)
            if self.referee.phase is Phase.MATCH_OVER:
                return


def _key_reader(game: LiveGame, stream: TextIO) -> threading.Thread:
    def read() -> None:
        for line in stream:
            if line.strip():
                game.controls.put(line.strip())

    thread = threading.Thread(target=read, name="companion-keys", daemon=True)
    thread.start()
    return thread


def _vision_reader(profile_path: str, die_on_checker_flat: bool) -> tuple[Any, Any]:
    """The vision reader bound to a profile, and the profile (for its orientation)."""
    from companion.vision.profile import load_profile
    from companion.vision.reader import ReadSettings, read_frame

    profile = load_profile(profile_path)
    settings = ReadSettings(die_on_checker_is_cocked=not die_on_checker_flat)

    def reader(image: Any, referee: Referee) -> Reading:
        on_roll = referee.table.on_roll
        return read_frame(image, profile, on_roll.value if on_roll else None, settings)

    return reader, profile


def export_mat(journal_path: Path) -> Path:
    """Writes ``<journal>.mat`` from the journal's events; returns its path."""
    events = read_journal(journal_path).events
    record = from_events(events, date=time.strftime("%Y.%m.%d"))
    target = journal_path.with_suffix(".mat")
    target.write_text(write_mat(record), encoding="utf-8")
    return target


def run(args: argparse.Namespace) -> int:
    players = parse_players(args.players)
    if args.match < 0:
        raise BadArguments(
            f"--match is the match length (1 or more, 0 for money), not {args.match}"
        )
    if args.match and (args.beavers or args.jacoby):
        raise BadArguments("--beavers and --jacoby are for money play: add --match 0")
    if args.fps is not None and not args.fps > 0:
        raise BadArguments(
            f"--fps is frames per second, more than 0 (e.g. --fps 30), not {args.fps}"
        )
    if args.skip is not None and args.skip < 0:
        raise BadArguments(f"--skip is a number of frames, 0 or more, not {args.skip}")
    kind = source_kind(args.source)
    reader = None
    mirrored = False
    if args.profile:
        reader, profile = _vision_reader(args.profile, args.die_on_checker_flat)
        mirrored = bool(profile.mirrored)
    elif kind != "readings":
        raise BadArguments(f"--source {args.source} gives images: add --profile FILE")
    settings = Settings(
        stable_frames=args.stable_frames,
        stable_seconds=args.stable_seconds,
        mirrored=mirrored,
        die_on_checker_is_flat=args.die_on_checker_flat,
    )
    out = sys.stdout
    events: list[Event] = []
    if args.resume:
        # Checked before anything is opened: a journal that cannot be replayed stops here.
        events = list(read_journal(args.resume).events)
        referee = Referee.resume(events, settings)
        if referee.phase is Phase.MATCH_OVER:
            match = referee.table.match
            raise BadArguments(
                f"the match in {args.resume} is over (white {match.white_score}, black "
                f"{match.black_score}): nothing to continue; start a new match without --resume, "
                f"or write its record with 'companion export {args.resume} --mat FILE'"
            )
    else:
        referee = Referee(settings)
    skip = args.skip if args.skip is not None else _resume_frame(events, kind)
    if args.skip is None and skip:
        print(
            f"resuming at frame {skip} of {args.source}, after the journal's last event "
            "(--skip 0 plays it from the start)",
            flush=True,
        )
    # A recorded still state lasts long enough to pass the stability window, with a frame spare.
    rate = args.fps or 30.0
    repeat = max(args.stable_frames, math.ceil(args.stable_seconds * rate) + 1) + 1
    from companion.displays import buttons_from_config, from_spec, load_config

    with contextlib.ExitStack() as stack:
        source = open_source(
            args.source,
            fps=args.fps,
            realtime=args.realtime,
            status=lambda message: print(message, flush=True),
            repeat=repeat,
            skip=skip,
        )
        stack.callback(source.close)
        config = load_config(args.config) if args.config else _default_config(load_config)
        displays = from_spec(args.display, config)
        stack.callback(displays.close)
        if args.resume:
            journal, contents = Journal.continue_from(args.resume)
            if contents.damaged_tail:
                out.write(
                    f"repaired {args.resume}: cut off a last line the crash left unfinished "
                    f"({len(contents.damaged_tail)} bytes); every complete event is kept\n"
                )
        else:
            journal = Journal.create(args.log)
        # Even after Ctrl-C the record is written: the journal is complete up to that moment.
        stack.callback(lambda: out.write(f"match record: {export_mat(journal.path)}\n"))
        stack.callback(journal.close)
        game = LiveGame(referee, journal, displays, reader, out)
        try:
            buttons = buttons_from_config(config)
        except OSError as error:
            buttons = None
            out.write(f"no buttons: {error}\n")
        if buttons is not None:
            stack.callback(buttons.close)
            buttons.on_control = lambda control: game.controls.put(control.value)
        if args.keys == "on" or (args.keys == "auto" and sys.stdin.isatty()):
            _key_reader(game, sys.stdin)
        if args.resume:
            table = referee.table
            out.write(
                f"resumed {args.resume}: {len(events)} events, game {table.game}, "
                f"{table.phase.value}, score white {table.match.white_score} black "
                f"{table.match.black_score}\n"
            )
            game.show_state()
        else:
            # on the frames' own clock: a live camera's is the wall clock, a recording's starts
            # at its first frame
            now = time.time() if kind in LIVE_KINDS else 0.0
            game.record(
                referee.start_match(
                    args.match, players, beavers=args.beavers, jacoby=args.jacoby, now=now
                )
            )
        out.write(f"journal: {journal.path}\n")
        out.flush()
        game.play(source)
    out.flush()
    return EXIT_OK


def _resume_frame(events: list[Event], kind: str) -> int:
    """Where a resumed game goes on in a recorded source: the frame after the journal's last
    event that names one (a live camera's frames are new, so it starts where it is)."""
    if kind in LIVE_KINDS:
        return 0
    frames = [event.data["frame"] for event in events if isinstance(event.data.get("frame"), int)]
    return max(frames) + 1 if frames else 0


def _default_config(load: Callable[..., Any]) -> Any:
    """``companion.toml`` in the working folder when there is one, else the defaults."""
    return load("companion.toml") if Path("companion.toml").exists() else load(None)
