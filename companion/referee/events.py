"""What the referee says (verdicts, for the players) and records (events, for the journal).

Two kinds of output, because they have two audiences:

* A :class:`Verdict` is for the table: a headline a glance can catch and a detail line. The
  display adapter turns it into display calls; it is never stored.
* An :class:`Event` is for the record: a plain JSON object with a ``kind`` and the facts of one
  thing that happened (a roll, a play with its Position ID and Match ID, a double, a game won).
  Events that change the game (``STATEFUL``) are enough to rebuild the referee after a crash:
  :func:`companion.referee.table.replay` folds them into the game state again. The others are
  notes for the reader of the log (a re-roll asked for, an illegal play refused).

Controls (:class:`Command`) are what players ask for with buttons or keys; the displays'
buttons send them as they are (``companion.displays.base.Control`` is this class).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.errors import InvalidFormat


class Kind(StrEnum):
    """The kind of a verdict (displays call it ``Status``); ``warning`` is for something wrong
    at the table that is not an illegal play."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    WAITING = "waiting"
    REROLL = "reroll"
    GAME_OVER = "game_over"
    INFO = "info"
    WARNING = "warning"


class Command(StrEnum):
    """A player's request from a button or a key."""

    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    UNDO = "undo"
    NEW_GAME = "new_game"

    @classmethod
    def parse(cls, text: str) -> Command:
        """Accepts the names and the one-letter keys of ``companion run`` (d t p b u n)."""
        lowered = text.strip().lower()
        keys = {
            "d": "double",
            "t": "take",
            "p": "drop",
            "pass": "drop",
            "b": "beaver",
            "u": "undo",
            "n": "new_game",
            "new game": "new_game",
        }
        try:
            return cls(keys.get(lowered, lowered))
        except ValueError:
            names = ", ".join(command.value for command in cls)
            raise InvalidFormat(f"unknown control {text!r}: use one of {names}") from None


@dataclass(frozen=True, slots=True)
class Verdict:
    """One thing to show at the table.

    ``rule`` is the judge's short rule name for an illegal play; ``put_back`` says which
    checkers to move to reach the nearest legal board; ``player`` is the colour concerned.
    """

    kind: Kind
    headline: str
    detail: str = ""
    player: str = ""
    rule: str = ""
    play: str = ""
    put_back: str = ""

    def __str__(self) -> str:
        return self.headline + (f" ({self.detail})" if self.detail else "")


# Kinds of events.
MATCH_START = "match_start"
GAME_START = "game_start"
OPENING_ROLL = "opening_roll"
OPENING_TIE = "opening_tie"
ROLL = "roll"
REROLL = "reroll"
MOVE = "move"
ILLEGAL = "illegal"
DOUBLE = "double"
TAKE = "take"
BEAVER = "beaver"
DROP = "drop"
GAME_OVER = "game_over"
ABANDON = "abandon"
UNDO = "undo"
WARNING = "warning"

STATEFUL = frozenset(
    {MATCH_START, GAME_START, OPENING_ROLL, ROLL, MOVE, DOUBLE, TAKE, BEAVER, DROP, ABANDON, UNDO}
)
"""Kinds that change the game; replaying them rebuilds the referee's state."""


@dataclass(frozen=True, slots=True)
class Event:
    """One journal line: ``kind``, the wall-clock ``time`` and the facts in ``data``."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    time: float = 0.0

    @property
    def stateful(self) -> bool:
        return self.kind in STATEFUL

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "time": round(self.time, 3), **self.data}

    @classmethod
    def from_json(cls, data: object) -> Event:
        """Raises :class:`InvalidFormat` for anything that is not an event object."""
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise InvalidFormat("an event is a JSON object with a 'kind' string")
        rest = {key: value for key, value in data.items() if key not in ("kind", "time")}
        time = data.get("time", 0.0)
        if not isinstance(time, (int, float)) or isinstance(time, bool):
            raise InvalidFormat(f"event {data['kind']!r}: 'time' must be a number")
        return cls(kind=data["kind"], data=rest, time=float(time))
