"""The referee: Readings and controls in, verdicts and events out, for a whole match.

It knows nothing about cameras, pins or files: the caller feeds one Reading per frame (with
the time) and the controls players press, writes the events to the journal, and shows the
verdicts. Everything the referee decides follows from what the camera saw once it was stable
(:mod:`companion.referee.stability`) and from the rules engine:

* Between games the board must show the opening position (``setup``). Then each player rolls
  one die into their own right-hand side; the higher starts and plays both numbers; a tie
  rolls again (``opening``).
* The player on roll may double before rolling (``rolling``); the opponent takes, beavers
  (money games with beavers) or drops (``doubled``). No doubling in the Crawford game.
* Once two dice lie still, they are judged: both flat on the roller's right-hand side, else
  "re-roll: <reason>". A valid roll opens the turn (``playing``).
* Each stable board during the turn is judged against the position before the move: a legal
  board is announced in notation; an illegal one is refused with the rule, and the players are
  told which checkers to put back to reach the nearest legal play. Until the roller picks up
  the dice the move may change (a takeback); picking them up, or the opponent's next roll or
  double, ends the turn and commits the legal play. A play that bears off the fifteenth
  checker ends the game at once: single, gammon or backgammon, times the cube.
* A board that changes while no dice are down, or that shows checkers vanished or both
  colours moved, is reported, never accepted; but a valid roll seen only beside a legal play
  of it (the camera missed the dice settling) is the roll and then the play.
* When the camera cannot read the dice (an awkward die, dice touching) while a roll is
  awaited or played, the referee says so once and waits: it never takes a roll or a play from
  a frame it was unsure of. If the roller plays and picks up the dice unread, the changed
  board is reported with the way out: put the dice back showing the roll (the roll, then the
  play, are judged as if the camera had missed the dice settling), or put the checkers back.
  The same holds for the opening roll, and after a double taken without pressing take.
* Undo reverts the last accepted action (a turn or a cube action).

Colours name the players in every message; points are named from the player on roll's side.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from companion.errors import IllegalAction
from companion.geometry import right_hand_half
from companion.referee import events as ev
from companion.referee.board import OPENING_BOARD, put_back, raw_board, same_board
from companion.referee.events import Command, Event, Kind, Verdict
from companion.referee.stability import DiceDoubt, InvalidSettings, StabilityFilter, dice_key
from companion.referee.table import Phase, Table, apply, replay
from companion.rules import Colour, LegalPlay, Position, generate_plays, judge, position_id
from companion.rules.judge import RawBoard
from companion.rules.match import (
    GameResult,
    game_result,
    opening_roll,
    result_name,
    to_match_id,
)
from companion.vision.reading import DieReading, Reading, judge_dice

ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))
"""The 21 different rolls, higher die first."""
OPENING_ROLLS = tuple((high, low) for high, low in ROLLS if high != low)
"""The 15 rolls an opening can give (never a double)."""

DISTURBED_RULES = frozenset({"checker_count", "wrong_side"})
"""The judge's rules for which the referee reports an "impossible board" and asks for the
position before the move: checkers appeared or vanished, or the opponent's checkers moved. The
board was disturbed, not played, so no play of the roll is a sensible target.

The judge's ``IMPOSSIBLE_RULES`` also holds ``too_far`` (the roller's checkers moved more pips
than the roll gives), because no way of moving by the dice reaches such a board. At the table
that is a slip in counting, not a disturbed board: it is refused as an illegal play, and the
players are told which checker to move to reach the nearest legal play (often one checker, a
pip or two), not to take the whole move back."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How the referee watches. ``mirrored`` comes from the calibration profile (home boards
    on white's left); ``die_on_checker_is_flat`` is the 2016 US Backgammon allowance."""

    stable_frames: int = 3
    stable_seconds: float = 0.25
    mirrored: bool = False
    die_on_checker_is_flat: bool = False
    dice_doubt_seconds: float = 1.0
    """How long the camera may be unsure of the dice alone over a still board before the
    players are asked to set the dice apart (a die settling is read in a fraction of this)."""

    def __post_init__(self) -> None:
        StabilityFilter(self.stable_frames, self.stable_seconds)  # validates the window
        DiceDoubt(self.stable_frames, self.dice_doubt_seconds)


class Step(NamedTuple):
    """What one reading or control produced: events to journal first, then verdicts to show."""

    events: tuple[Event, ...] = ()
    verdicts: tuple[Verdict, ...] = ()


@dataclass
class _Out:
    now: float
    events: list[Event] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)

    def say(self, kind: Kind, headline: str, detail: str = "", **extra: str) -> None:
        self.verdicts.append(Verdict(kind, headline, detail, **extra))

    def step(self) -> Step:
        return Step(tuple(self.events), tuple(self.verdicts))


def _dice_text(dice: tuple[int, int]) -> str:
    return f"{max(dice)}-{min(dice)}"


def _leads_to(position: Position, roll: tuple[int, int], board: RawBoard) -> bool:
    """Whether some legal play of ``roll`` from ``position`` leaves ``board`` (both seen from
    the player who moves)."""
    return any((p.after.mover, p.after.opponent) == board for p in generate_plays(position, roll))


def _some_roll_leads_to(
    position: Position, board: RawBoard, rolls: tuple[tuple[int, int], ...] = ROLLS
) -> bool:
    """Whether some roll has a legal play from ``position`` that leaves ``board``: then the
    camera may have missed that roll when it finds this board without having seen the dice."""
    return any(_leads_to(position, roll, board) for roll in rolls)


class Referee:
    """One match at the table. Start with :meth:`start_match` or :meth:`resume`."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.filter = StabilityFilter(self.settings.stable_frames, self.settings.stable_seconds)
        self.dice_doubt = DiceDoubt(
            self.settings.stable_frames,
            max(self.settings.stable_seconds, self.settings.dice_doubt_seconds),
        )
        self._table: Table | None = None
        self.history: list[Table] = []
        self._pending: LegalPlay | None = None
        self._dice_down = False
        self._board_warned = False
        self._last_stable: Reading | None = None
        self._plays_for: tuple[Position, tuple[int, int]] | None = None
        self._plays: dict[RawBoard, LegalPlay] = {}

    # -- starting ----------------------------------------------------------------------------

    def start_match(
        self,
        length: int,
        players: tuple[str, str] = ("white", "black"),
        *,
        beavers: bool = False,
        jacoby: bool = False,
        now: float = 0.0,
    ) -> Step:
        """A new match to ``length`` points (0 = money game); players are white's and black's
        names. Raises :class:`IllegalAction` for a negative length or beavers in a match."""
        if length < 0:
            raise IllegalAction(f"a match is played to 1 point or more (0 for money), not {length}")
        if length and (beavers or jacoby):
            raise IllegalAction("beavers and the Jacoby rule are for money games only")
        out = _Out(now)
        data = {
            "length": length,
            "white": players[0],
            "black": players[1],
            "beavers": beavers,
            "jacoby": jacoby,
        }
        self._emit(out, ev.MATCH_START, **data)
        what = f"a {length}-point match" if length else "a money session"
        out.say(
            Kind.INFO,
            f"{what}: {players[0]} (white) against {players[1]} (black)",
            "set up the board for the opening position",
        )
        return out.step()

    @classmethod
    def resume(cls, events: list[Event], settings: Settings | None = None) -> Referee:
        """The referee a journal's events lead to (raises ``InvalidFormat`` when they cannot
        be replayed). A turn that was open stays open: its play is judged again from the
        next stable board, as if the dice were still down."""
        referee = cls(settings)
        referee._table, referee.history = replay(events)
        referee._reopen()
        return referee

    @classmethod
    def at(cls, table: Table, settings: Settings | None = None) -> Referee:
        """A referee taking over a game at ``table`` (a set-up position, a lesson, a test).

        Nothing before it can be undone; a journal of this game starts at the next event.
        """
        referee = cls(settings)
        referee._table = table
        referee._reopen()
        return referee

    def _reopen(self) -> None:
        """A turn taken over in the middle stays open as if its dice were still down."""
        self._dice_down = self.table.phase is Phase.PLAYING
        if self._dice_down and not self._plays_now():
            self._pending = LegalPlay((), self.table.position, ())

    # -- questions ---------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        if self._table is None:
            raise IllegalAction("no match has started: call start_match or resume first")
        return self._table

    @property
    def phase(self) -> Phase:
        return self.table.phase

    @property
    def pending_play(self) -> str | None:
        """The legal play on the board that the end of the turn would commit, if any."""
        return None if self._pending is None else str(self._pending.play)

    # -- input -------------------------------------------------------------------------------

    def feed(self, reading: Reading, now: float) -> Step:
        """One frame's reading; only the frame on which a state becomes stable does anything,
        or the frame on which the camera has been unsure of the dice alone for a while (the
        players are asked, once, to set the dice where the camera can read them)."""
        doubt = self.dice_doubt.feed(reading, now)
        stable = self.filter.feed(reading, now)
        if stable is not None:
            return self.judge_stable(stable, now)
        if doubt is not None:
            out = _Out(now)
            self._dice_unclear(doubt, out)
            return out.step()
        return Step()

    def judge_stable(self, reading: Reading, now: float) -> Step:
        """Judges a reading already known to be stable (the stability filter's output)."""
        out = _Out(now)
        self._stable(reading, out)
        return out.step()

    def control(self, command: Command | str, now: float) -> Step:
        """A button or key: double, take, drop, beaver, undo, new game."""
        command = Command.parse(command) if not isinstance(command, Command) else command
        out = _Out(now)
        table = self.table
        try:
            if command is Command.UNDO:
                self._undo(out)
            elif command is Command.NEW_GAME:
                if table.phase in (Phase.OPENING, Phase.ROLLING, Phase.DOUBLED, Phase.PLAYING):
                    self._emit(out, ev.ABANDON, game=table.game)
                    out.say(
                        Kind.INFO,
                        f"game {table.game} abandoned, no score",
                        "set up the board for the opening position",
                    )
                else:
                    out.say(Kind.INFO, "no game is going on: set up the board to start one")
            else:
                self._cube(command, out)
        except IllegalAction as refusal:
            out.say(Kind.WARNING, f"cannot {command.value.replace('_', ' ')}: {refusal}")
        return out.step()

    # -- the phases --------------------------------------------------------------------------

    def _stable(self, reading: Reading, out: _Out) -> None:
        self._last_stable = reading
        phase = self.table.phase
        if phase is Phase.SETUP:
            self._setup(reading, out)
        elif phase is Phase.OPENING:
            self._opening(reading, out)
        elif phase is Phase.ROLLING:
            self._rolling(reading, out)
        elif phase is Phase.DOUBLED:
            self._doubled(reading, out)
        elif phase is Phase.PLAYING:
            self._playing(reading, out)

    def _dice_unclear(self, reading: Reading, out: _Out) -> None:
        """The camera has been unsure of the dice alone for a while: where a roll is awaited
        or being played, the players are asked to set the dice where it can read them. Nothing
        is taken from the frame: its board may hide a checker under a die."""
        phase = self.table.phase
        if phase not in (Phase.OPENING, Phase.ROLLING, Phase.PLAYING):
            return
        names = " ".join(reading.unreadable)
        advice = "move the dice apart where they lie, keeping the numbers they show, so the "
        advice += "camera can read them"
        if "only one die" in names:
            if phase is Phase.OPENING:
                out.say(Kind.WAITING, "opening roll: one die is down, waiting for the other")
                return
            if phase is Phase.ROLLING:
                advice = f"if a die left the board, roll again; otherwise {advice}"
            advice = f"it sees only one die: {advice}"
        elif "dice-like" in names:
            advice = f"it sees more than two dice: take the cube or a third die away and {advice}"
        elif "not read" in names:
            advice = f"a die is hard to make out: {advice}"
        player = self._on_roll().value if phase is Phase.ROLLING else ""
        out.say(Kind.WAITING, "the camera cannot read the dice clearly", advice, player=player)

    def _setup(self, reading: Reading, out: _Out) -> None:
        table = self.table
        if not same_board(reading, OPENING_BOARD):
            out.say(
                Kind.WAITING,
                f"set up the board for game {table.game}",
                put_back(reading, OPENING_BOARD, Colour.WHITE, limit=6),
            )
            return
        self._emit(out, ev.GAME_START, game=table.game, match_id=to_match_id(table.match))
        crawford = " (the Crawford game: no doubling)" if table.match.crawford else ""
        out.say(
            Kind.INFO,
            f"game {table.game}{crawford}: roll one die each",
            "each player rolls into their own right-hand side",
        )
        if reading.dice:
            self._opening(reading, out)

    def _opening(self, reading: Reading, out: _Out) -> None:
        if not same_board(reading, OPENING_BOARD):
            if self._opening_rolled_and_played(reading, out):
                return
            instruction = put_back(reading, OPENING_BOARD, Colour.WHITE)
            opening = Position.opening()
            if any(
                _some_roll_leads_to(opening, raw_board(reading, c), OPENING_ROLLS) for c in Colour
            ):
                instruction = (
                    "if you rolled and the camera missed it, put each die back on its own "
                    f"side showing the opening roll; otherwise {instruction}"
                )
            out.say(
                Kind.WARNING,
                "the board must show the opening position for the opening roll",
                instruction,
            )
            return
        dice = self._as_judged(reading.dice)
        if len(dice) < 2:
            if dice:
                out.say(Kind.WAITING, "opening roll: one die is down, waiting for the other")
            return
        if len(dice) > 2:
            out.say(Kind.WARNING, f"{len(dice)} dice on the board: the opening roll is one each")
            return
        reason, w, b = self._opening_dice(dice)
        if reason:
            self._emit(out, ev.REROLL, player="both", reason=reason)
            out.say(Kind.REROLL, f"re-roll the opening: {reason}")
            return
        self._accept_opening(reading, w, b, out)

    def _opening_dice(self, dice: tuple[DieReading, ...]) -> tuple[str, int, int]:
        """Why two opening dice do not stand ("" when they do), and white's and black's die."""
        white_half = right_hand_half("white", self.settings.mirrored)
        black_half = right_hand_half("black", self.settings.mirrored)
        reason = ""
        for die in dice:
            if not die.flat or die.on_checker:
                reason = "a die is cocked"
            elif die.half in ("bar", "outside"):
                reason = "a die is " + ("on the bar" if die.half == "bar" else "off the board")
        white = [d for d in dice if d.half == white_half]
        black = [d for d in dice if d.half == black_half]
        if not reason and (len(white) != 1 or len(black) != 1):
            reason = "both dice are on one side: each player rolls into their own right-hand side"
        if reason:
            return reason, 0, 0
        return "", white[0].value, black[0].value

    def _opening_rolled_and_played(self, reading: Reading, out: _Out) -> bool:
        """An opening roll (one die each side, different numbers) beside a board showing the
        starter's legal play of it: the camera never read the dice before the starter played.
        The roll is announced, then the play is judged."""
        dice = self._as_judged(reading.dice)
        if len(dice) != 2:
            return False
        reason, w, b = self._opening_dice(dice)
        starter = None if reason else opening_roll(w, b)
        if starter is None:
            return False
        roll = (max(w, b), min(w, b))
        if not _leads_to(Position.opening(), roll, raw_board(reading, starter)):
            return False
        self._accept_opening(reading, w, b, out)
        self._playing(reading, out)
        return True

    def _accept_opening(self, reading: Reading, w: int, b: int, out: _Out) -> None:
        starter = opening_roll(w, b)
        if starter is None:
            self._emit(out, ev.OPENING_TIE, white=w, black=b)
            out.say(Kind.REROLL, f"opening roll tied {w}-{b}: both roll again")
            return
        seen = [[d.value, d.flat, d.half, d.on_checker] for d in reading.dice]
        self._emit(
            out,
            ev.OPENING_ROLL,
            white=w,
            black=b,
            starter=starter.value,
            dice=[max(w, b), min(w, b)],
            dice_seen=sorted(seen),
        )
        self._dice_down = True
        out.say(
            Kind.WAITING,
            f"{starter} starts with {max(w, b)}-{min(w, b)}",
            f"white rolled {w}, black rolled {b}",
            player=starter.value,
        )
        self._turn_opened(out)

    def _rolling(self, reading: Reading, out: _Out) -> None:
        table = self.table
        roller = self._on_roll()
        expected = table.position.to_absolute(roller)
        if not same_board(reading, expected):
            # Even after a warning: the roller may put back the dice the camera never read.
            if self._rolled_and_played(reading, out):
                return
            self._board_warned = True
            self._emit(out, ev.WARNING, player=roller.value, reason="board changed without dice")
            headline = "the board changed while no dice are down"
            instruction = put_back(reading, expected, roller)
            if _some_roll_leads_to(table.position, raw_board(reading, roller)):
                opponent = roller.opponent
                if self._opponent_rolled(reading, roller):
                    # The opponent rolled: it cannot count before the roller's turn is read.
                    headline = f"{opponent}'s roll cannot count yet: {roller}'s roll was not read"
                    instruction = (
                        f"{opponent} picks up the dice; if {roller} rolled and the camera missed "
                        f"it, {roller} puts the dice back on their right-hand side showing the "
                        f"roll; otherwise {instruction}"
                    )
                else:
                    instruction = (
                        f"if {roller} rolled and the camera missed it, put the dice back on "
                        f"{roller}'s right-hand side showing the roll; otherwise {instruction}"
                    )
            out.say(Kind.WARNING, headline, instruction, player=roller.value)
            return
        if self._board_warned:
            self._board_warned = False
            out.say(Kind.INFO, "the board is as it was again", f"{roller} to roll")
        dice = self._as_judged(reading.dice)
        if not dice:
            return
        if len(dice) > 2:
            out.say(Kind.WARNING, f"{len(dice)} dice on the board: a roll is two dice")
            return
        side = right_hand_half(roller.value, self.settings.mirrored)
        valid, reason = judge_dice(dice, roller.value, side)
        if not valid:
            self._emit(
                out,
                ev.REROLL,
                player=roller.value,
                reason=reason or "",
                dice=[d.value for d in dice],
            )
            out.say(
                Kind.REROLL,
                f"re-roll: {reason}",
                f"{roller} rolls both dice flat into their right-hand side (the {side} half)",
                player=roller.value,
            )
            return
        self._accept_roll(reading, dice, out)

    def _accept_roll(self, reading: Reading, dice: tuple[DieReading, ...], out: _Out) -> None:
        roller = self._on_roll()
        roll = (max(d.value for d in dice), min(d.value for d in dice))
        seen = sorted([d.value, d.flat, d.half, d.on_checker] for d in reading.dice)
        self._emit(out, ev.ROLL, player=roller.value, dice=list(roll), dice_seen=seen)
        self._dice_down = True
        out.say(Kind.WAITING, f"{roller} rolled {_dice_text(roll)}", player=roller.value)
        self._turn_opened(out)

    def _rolled_and_played(self, reading: Reading, out: _Out) -> bool:
        """A valid roll lying beside a board that shows a legal play of it: the camera never
        saw the dice settle (a hand or the cup over them) and the roller has moved since. The
        roll is announced, then the play is judged; anything else is a changed board."""
        roller = self._on_roll()
        dice = self._as_judged(reading.dice)
        side = right_hand_half(roller.value, self.settings.mirrored)
        if len(dice) != 2 or not judge_dice(dice, roller.value, side)[0]:
            return False
        roll = (max(d.value for d in dice), min(d.value for d in dice))
        if not _leads_to(self.table.position, roll, raw_board(reading, roller)):
            return False
        self._accept_roll(reading, dice, out)
        self._playing(reading, out)
        return True

    def _doubled(self, reading: Reading, out: _Out) -> None:
        table = self.table
        offered = table.match.cube.offered_by
        if reading.dice and offered is not None:
            out.say(
                Kind.WARNING,
                f"{offered} doubled: {offered.opponent} takes or drops first",
                "press take or drop",
            )
        doubler = self._on_roll()
        expected = table.position.to_absolute(doubler)
        if not same_board(reading, expected):
            instruction = put_back(reading, expected, doubler)
            if _some_roll_leads_to(table.position, raw_board(reading, doubler)):
                # A take not pressed, then a roll the camera missed: the take comes first.
                instruction = (
                    f"if {doubler.opponent} took and {doubler} rolled, press take, then put the "
                    f"dice back on {doubler}'s right-hand side showing the roll; otherwise "
                    f"{instruction}"
                )
            out.say(Kind.WARNING, "the board changed while no dice are down", instruction)

    def _opponent_rolled(self, reading: Reading, roller: Colour) -> bool:
        """Two dice, both in the half that is the roller's opponent's right-hand side."""
        theirs = right_hand_half(roller.opponent.value, self.settings.mirrored)
        return len(reading.dice) == 2 and all(d.half == theirs for d in reading.dice)

    def _playing(self, reading: Reading, out: _Out) -> None:
        table = self.table
        roller = self._on_roll()
        dice = table.dice
        assert dice is not None  # the playing phase always has the roll
        key = dice_key(reading)
        new_roll = self._opponent_rolled(reading, roller)
        # Other numbers after a finished play are the opponent's roll even where it landed on
        # the wrong side, when the camera missed the dice being picked up in between.
        other_numbers = len(reading.dice) == 2 and sorted(d.value for d in reading.dice) != sorted(
            dice
        )
        if len(reading.dice) >= 2 and key != table.roll_seen:
            if not new_roll and other_numbers and self._pending is None:
                self._pending = self._plays_now().get(raw_board(reading, roller))
            if not new_roll and other_numbers and self._pending is not None:
                self._commit(out)
                if self.table.phase is Phase.ROLLING:
                    self._stable(reading, out)
                return
            if new_roll:
                # The opponent rolled: the roller's turn ended with the play on the board.
                if self._pending is None:
                    self._pending = self._plays_now().get(raw_board(reading, roller))
                if self._pending is not None:
                    self._commit(out)
                    if self.table.phase is Phase.ROLLING:
                        self._stable(reading, out)
                    return
                out.say(
                    Kind.WARNING,
                    f"{roller.opponent} rolled before {roller} finished playing {_dice_text(dice)}",
                    player=roller.value,
                )
            else:
                out.say(
                    Kind.WARNING,
                    f"a die moved: {roller}'s roll of {_dice_text(dice)} stands",
                    player=roller.value,
                )
        if not reading.dice and self._dice_down:
            self._dice_down = False
            if self._pending is not None and self._board_is(reading, self._pending):
                self._commit(out)
                return
        before = table.position.to_absolute(roller)
        if same_board(reading, before):
            if self._pending is not None and self._pending.play.moves:
                out.say(
                    Kind.INFO,
                    f"takeback: {roller}'s {self._pending.play} is taken back",
                    f"{roller} to play {_dice_text(dice)}",
                    player=roller.value,
                )
                self._pending = None
            elif self._pending is None and not self._dice_down and self._plays_now():
                out.say(
                    Kind.WARNING,
                    f"{roller} picked up the dice without playing {_dice_text(dice)}",
                    "put the dice back and play",
                    player=roller.value,
                )
            elif self._pending is not None and not self._dice_down:
                self._commit(out)  # a forfeited roll ends when the dice are picked up
            return
        board = raw_board(reading, roller)
        found = self._plays_now().get(board)
        if found is not None:
            play = str(found.play)
            if found is not self._pending:  # a play already announced is not announced again
                out.say(Kind.LEGAL, f"{roller} plays {play}", player=roller.value, play=play)
            self._pending = found
            if game_result(found.after) is not None or not self._dice_down:
                self._commit(out)
            return
        pending = self._pending
        if pending is not None and _some_roll_leads_to(
            pending.after.flip(), raw_board(reading, roller.opponent)
        ):
            # The opponent has played on from the roller's play: the camera missed the pickup
            # and the opponent's dice. The roller's play stands; the opponent's turn is judged
            # as a board changed without dice (putting the dice back shows the roll).
            self._commit(out)
            if self.table.phase is Phase.ROLLING:
                self._stable(reading, out)
            return
        self._pending = None
        verdict = judge(table.position, dice, board, on_roll=roller)
        impossible = verdict.rule in DISTURBED_RULES
        target = before
        if verdict.closest and not impossible:
            nearest = judge(table.position, dice, verdict.closest[0]).after
            if nearest is not None:
                target = nearest.to_absolute(roller)
        instruction = put_back(reading, target, roller)
        headline = ("impossible board: " if impossible else "illegal: ") + verdict.reason
        closest = ", ".join(verdict.closest)
        detail = instruction + (f" (nearest legal play: {closest})" if closest else "")
        self._emit(
            out,
            ev.ILLEGAL,
            player=roller.value,
            dice=list(dice),
            rule=verdict.rule,
            reason=verdict.reason,
            put_back=instruction,
            closest=list(verdict.closest),
        )
        out.say(
            Kind.ILLEGAL,
            headline,
            detail,
            player=roller.value,
            rule=verdict.rule,
            put_back=instruction,
        )

    # -- turns -------------------------------------------------------------------------------

    def _turn_opened(self, out: _Out) -> None:
        """A roll was accepted: a roll with no legal play is forfeited at once."""
        table = self.table
        self._pending = None
        plays = self._plays_now()
        if not plays:
            dice = table.dice
            assert dice is not None
            roller = self._on_roll()
            self._pending = LegalPlay((), table.position, ())
            out.say(
                Kind.INFO,
                f"{roller} cannot move with {_dice_text(dice)}: the roll is forfeited",
                "pick up the dice",
                player=roller.value,
            )

    def _commit(self, out: _Out) -> None:
        pending = self._pending
        assert pending is not None
        table = self.table
        roller = self._on_roll()
        dice = table.dice
        assert dice is not None
        result = game_result(pending.after)
        points = table.match.points_for(result) if result is not None else 0
        moves = sorted(pending.play.moves, key=lambda m: (-m.source, -m.destination))
        self._emit(
            out,
            ev.MOVE,
            player=roller.value,
            dice=list(dice),
            play=str(pending.play),
            moves=[[m.source, m.destination, m.hit] for m in moves],
            position_id=position_id.encode(table.position),
            after_position_id=position_id.encode(pending.after),
            match_id=to_match_id(table.match),
        )
        self._pending = None
        self._dice_down = False
        if result is not None:
            self._game_over(out, roller, points, result=result)
        else:
            out.say(
                Kind.WAITING,
                f"{roller.opponent} to roll",
                f"{roller} played {pending.play or 'nothing'}",
                player=roller.opponent.value,
            )

    def _game_over(
        self,
        out: _Out,
        winner: Colour,
        points: int,
        result: GameResult | None = None,
        dropped_by: Colour | None = None,
    ) -> None:
        match = self.table.match
        score = f"white {match.white_score}, black {match.black_score}"
        done = match.is_over
        self._emit(
            out,
            ev.GAME_OVER,
            winner=winner.value,
            points=points,
            white_score=match.white_score,
            black_score=match.black_score,
            match_over=done,
        )
        won = f"{points} point{'s' if points != 1 else ''}"
        if dropped_by is not None:
            headline = f"{dropped_by} drops: {winner} wins {won}"
        else:
            headline = f"{winner} wins a {result_name(result or GameResult.SINGLE)}: {won}"
        ending = f"{winner} wins the match" if done else f"set up for game {self.table.game}"
        out.say(
            Kind.GAME_OVER,
            headline,
            f"score {score}; {ending}",
            player=winner.value,
        )

    def _board_is(self, reading: Reading, play: LegalPlay) -> bool:
        return raw_board(reading, self._on_roll()) == (play.after.mover, play.after.opponent)

    def _plays_now(self) -> dict[RawBoard, LegalPlay]:
        """The legal plays of the roll keyed by the board they leave (computed once a roll)."""
        table = self.table
        dice = table.dice
        if dice is None:
            return {}
        key = (table.position, dice)
        if self._plays_for != key:
            self._plays_for = key
            self._plays = {
                (p.after.mover, p.after.opponent): p for p in generate_plays(table.position, dice)
            }
        return self._plays

    # -- cube and undo -----------------------------------------------------------------------

    def _cube(self, command: Command, out: _Out) -> None:
        table = self.table
        match = table.match
        if command is Command.DOUBLE:
            if self._doubled_after_a_finished_play():
                # Only the opponent may double now: the roller's turn is over with the play on
                # the board, though the camera missed the dice being picked up.
                self._commit(out)
                match = self.table.match
            roller = match.on_roll
            if roller is None:
                raise IllegalAction("no game is going on")
            refusal = match.double_refusal(roller)
            if refusal:
                raise IllegalAction(refusal)
            value = match.cube.value * 2
            self._emit(out, ev.DOUBLE, player=roller.value, cube=value)
            out.say(
                Kind.WAITING,
                f"{roller} doubles to {value}",
                f"{roller.opponent}: take or drop",
                player=roller.opponent.value,
            )
            return
        offered = match.cube.offered_by
        if offered is None:
            raise IllegalAction(f"there is no double to {command.value}")
        taker = offered.opponent
        if command is Command.DROP:
            points = match.cube.value
            self._emit(out, ev.DROP, player=taker.value, points=points)
            self._game_over(out, offered, points, dropped_by=taker)
            return
        kind = ev.TAKE if command is Command.TAKE else ev.BEAVER
        if command is Command.BEAVER and not (match.is_money and match.beavers):
            raise IllegalAction("beavers are allowed only in money games played with beavers")
        value = match.cube.value * (2 if command is Command.TAKE else 4)
        self._emit(out, kind, player=taker.value, cube=value)
        verb = "takes" if command is Command.TAKE else "beavers"
        out.say(
            Kind.INFO,
            f"{taker} {verb}: the cube is at {value}, {taker} owns it",
            f"{offered} to roll",
            player=offered.value,
        )

    def _doubled_after_a_finished_play(self) -> bool:
        """A double pressed while a legal play (or a forfeited roll) lies on the board with its
        dice: the roller cannot double now, so it is the opponent's, and the turn is over."""
        table = self.table
        match = table.match
        if table.phase is not Phase.PLAYING or self._pending is None or match.on_roll is None:
            return False
        if game_result(self._pending.after) is not None or match.crawford:
            return False
        return match.cube.double_refusal(match.on_roll.opponent) is None

    def _undo(self, out: _Out) -> None:
        if not self.history:
            raise IllegalAction("nothing has been accepted yet in this match")
        self._emit(out, ev.UNDO)
        self._pending = None
        self._dice_down = False
        table = self.table
        if table.phase is Phase.PLAYING and table.dice is not None:
            roller = self._on_roll()
            text = f"{roller} to play {_dice_text(table.dice)} again"
            if self._last_stable is not None:
                self._pending = self._plays_now().get(raw_board(self._last_stable, roller))
            if self._pending is not None:
                text = f"the board shows {self._pending.play}: it stands unless changed"
            out.say(Kind.INFO, f"undo: {roller}'s turn is open again", text, player=roller.value)
        else:
            next_up = table.on_roll
            out.say(
                Kind.INFO,
                "undo: the last action is taken back",
                f"{next_up} to roll" if next_up else "",
            )

    # -- helpers -----------------------------------------------------------------------------

    def _on_roll(self) -> Colour:
        colour = self.table.on_roll
        if colour is None:
            raise IllegalAction("no game is going on")
        return colour

    def _as_judged(self, dice: tuple[DieReading, ...]) -> tuple[DieReading, ...]:
        """Dice as the rules count them: with the 2016 allowance a die level on a checker is
        flat."""
        if not self.settings.die_on_checker_is_flat:
            return dice
        return tuple(replace(d, on_checker=False) if d.flat else d for d in dice)

    def _emit(self, out: _Out, kind: str, **data: object) -> None:
        event = Event(kind, data, out.now)
        if event.stateful:
            self._table = apply(self._table, event, self.history)
            self._board_warned = False  # a warning is about the table as it was
        out.events.append(event)


__all__ = ["InvalidSettings", "Referee", "Settings", "Step"]
