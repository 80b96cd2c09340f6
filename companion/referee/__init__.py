"""The referee of a physical game: Readings and controls in, verdicts and journal events out.

* :mod:`~companion.referee.stability` — a state counts once it has been read the same for a
  while; frames with hands are ignored.
* :mod:`~companion.referee.table` — the game as a frozen value and the fold that moves it
  through events (the same fold rebuilds a game from its journal).
* :mod:`~companion.referee.machine` — the :class:`Referee` state machine.
* :mod:`~companion.referee.board` — boards read by the camera and "put back" instructions.
* :mod:`~companion.referee.events` — :class:`Verdict` (for the table), :class:`Event` (for the
  journal), :class:`Command` (buttons and keys).
"""

from companion.referee.board import put_back, raw_board, same_board
from companion.referee.events import Command, Event, Kind, Verdict
from companion.referee.machine import Referee, Settings, Step
from companion.referee.stability import InvalidSettings, StabilityFilter
from companion.referee.table import Phase, Table, replay

__all__ = [
    "Command",
    "Event",
    "InvalidSettings",
    "Kind",
    "Phase",
    "Referee",
    "Settings",
    "StabilityFilter",
    "Step",
    "Table",
    "Verdict",
    "put_back",
    "raw_board",
    "replay",
    "same_board",
]
