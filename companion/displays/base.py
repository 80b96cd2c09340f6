"""What every display receives, the ``Display`` interface, and the fan-out to many displays.

Displays are edges: they show what the referee decided and never decide anything themselves.
The values here are independent of the referee so that a display can be built, tested and
wired before the referee exists; the referee turns its own verdicts into a :class:`Verdict`.

Colours are ``"white"`` and ``"black"`` (see ``DESIGN.md``); scores and pip counts are always
keyed or ordered white first.

A display failure never stops the game: :class:`FanOut` catches what a display raises, logs it
once, counts it and carries on with the other displays.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from companion.errors import CompanionError, InvalidDice
from companion.referee.events import Command, Kind
from companion.rules.position import AbsoluteBoard, Colour, Position

logger = logging.getLogger(__name__)


class DisplayUnavailable(CompanionError, OSError):
    """A display whose hardware is missing (no GPIO pins, no such serial port).

    The message says how to run without it, e.g. with ``--display console``.
    """


class DisplayConfigError(CompanionError, ValueError):
    """A display setting (in ``companion.toml`` or ``--display``) that cannot be used."""


class InvalidDisplayValue(CompanionError, ValueError):
    """A value no game can produce (a negative pip count, a score past 999) sent to a display."""


Status = Kind
"""The kind of a verdict; LED patterns and display colours key on it.

It is the referee's own :class:`~companion.referee.events.Kind` (LEGAL, ILLEGAL, WAITING,
REROLL, GAME_OVER, INFO, WARNING), so a display shows exactly what the referee decided; WARNING
is something wrong at the table that is not an illegal play (a checker knocked over, a die off
the board).
"""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One judgement to show at the table.

    ``headline`` is what a glance should catch (``"legal: 24/18 13/10"``, ``"illegal: a checker
    on the bar must enter first"``); ``detail`` is the optional second line (the closest legal
    plays, who won, what to do next).

    >>> Verdict(Status.LEGAL, "legal: 24/18 13/10").status.value
    'legal'
    """

    status: Status
    headline: str
    detail: str = ""


Control = Command
"""What a player asks for by pressing a button at the table: the referee's own
:class:`~companion.referee.events.Command`, so a button sends exactly what the referee takes."""


Board = Position | AbsoluteBoard
"""A board picture: a :class:`Position` (seen from ``on_roll``) or an :class:`AbsoluteBoard`."""


@runtime_checkable
class Display(Protocol):
    """Everything the game can show; each display shows what it can and ignores the rest.

    Calls come from the game loop and must return quickly: a display that talks to slow
    hardware hands the work to a thread of its own.
    """

    name: str

    def show_verdict(self, verdict: Verdict) -> None: ...

    def show_turn(self, colour: Colour | str, player: str = "") -> None: ...

    def show_dice(self, a: int, b: int) -> None: ...

    def show_score(self, scores: Mapping[str, int], match_length: int, crawford: bool) -> None:
        """``scores`` is ``{"white": n, "black": n}``; ``match_length`` 0 means a money game."""
        ...

    def show_pips(self, white: int, black: int) -> None: ...

    def show_board(self, board: Board, on_roll: Colour | str = Colour.WHITE) -> None: ...

    def show_message(self, text: str) -> None: ...

    def clear(self) -> None: ...

    def close(self) -> None: ...


class DisplayBase:
    """A display that shows nothing; real displays override the calls their hardware can show.

    An LED has no way to show a pip count, so ``LedDisplay`` inherits ``show_pips`` from here
    and the game can still call it on every display alike.
    """

    name = "display"

    def show_verdict(self, verdict: Verdict) -> None:
        """Shows nothing: this display has no way to show a verdict."""

    def show_turn(self, colour: Colour | str, player: str = "") -> None:
        """Shows nothing: this display has no way to show whose turn it is."""

    def show_dice(self, a: int, b: int) -> None:
        """Shows nothing: this display has no way to show dice."""

    def show_score(self, scores: Mapping[str, int], match_length: int, crawford: bool) -> None:
        """Shows nothing: this display has no way to show the score."""

    def show_pips(self, white: int, black: int) -> None:
        """Shows nothing: this display has no way to show pip counts."""

    def show_board(self, board: Board, on_roll: Colour | str = Colour.WHITE) -> None:
        """Shows nothing: this display has no way to draw a board."""

    def show_message(self, text: str) -> None:
        """Shows nothing: this display has no way to show text."""

    def clear(self) -> None:
        """Nothing to clear."""

    def close(self) -> None:
        """Nothing to release."""


def check_dice(a: int, b: int) -> tuple[int, int]:
    """The two die values, each 1-6, or :class:`~companion.errors.InvalidDice`."""
    for value in (a, b):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise InvalidDice(f"a die shows 1 to 6, got {value!r}")
    return a, b


def check_count(what: str, value: int, maximum: int = 999) -> int:
    """A pip count, score or match length: a whole number from 0 to ``maximum``.

    >>> check_count("white's pip count", 167)
    167
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise InvalidDisplayValue(
            f"{what} must be a whole number from 0 to {maximum}, got {value!r}"
        )
    return value


def score_line(scores: Mapping[str, int], match_length: int, crawford: bool) -> str:
    """The score as players say it: ``"white 2, black 1 (match to 5, Crawford)"``.

    >>> score_line({"white": 2, "black": 1}, 5, True)
    'white 2, black 1 (match to 5, Crawford)'
    >>> score_line({"white": 3, "black": 0}, 0, False)
    'white 3, black 0 (money game)'
    """
    white, black = scores.get("white", 0), scores.get("black", 0)
    if match_length:
        suffix = f"match to {match_length}" + (", Crawford" if crawford else "")
    else:
        suffix = "money game"
    return f"white {white}, black {black} ({suffix})"


class FanOut(DisplayBase):
    """Sends every call to each display in turn; one failing display stops neither the game nor
    the others.

    A failure is logged the first time a display fails (and again when it recovers), and
    counted in :attr:`failures` so a status line can report a display that keeps failing.
    """

    name = "fan-out"

    def __init__(self, displays: Sequence[Display]) -> None:
        self.displays: tuple[Display, ...] = tuple(displays)
        self.failures: dict[str, int] = {}
        self._failing: set[int] = set()

    def _each(self, call: str, *args: object) -> None:
        for index, display in enumerate(self.displays):
            try:
                getattr(display, call)(*args)
            except Exception as error:
                self.failures[display.name] = self.failures.get(display.name, 0) + 1
                if index not in self._failing:
                    self._failing.add(index)
                    logger.warning(
                        "display %s failed in %s (%s: %s); the game goes on without it",
                        display.name,
                        call,
                        type(error).__name__,
                        error,
                    )
            else:
                if index in self._failing:
                    self._failing.discard(index)
                    logger.warning("display %s works again", display.name)

    def show_verdict(self, verdict: Verdict) -> None:
        self._each("show_verdict", verdict)

    def show_turn(self, colour: Colour | str, player: str = "") -> None:
        self._each("show_turn", colour, player)

    def show_dice(self, a: int, b: int) -> None:
        self._each("show_dice", a, b)

    def show_score(self, scores: Mapping[str, int], match_length: int, crawford: bool) -> None:
        self._each("show_score", scores, match_length, crawford)

    def show_pips(self, white: int, black: int) -> None:
        self._each("show_pips", white, black)

    def show_board(self, board: Board, on_roll: Colour | str = Colour.WHITE) -> None:
        self._each("show_board", board, on_roll)

    def show_message(self, text: str) -> None:
        self._each("show_message", text)

    def clear(self) -> None:
        self._each("clear")

    def close(self) -> None:
        self._each("close")

    def __enter__(self) -> FanOut:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
