"""The game at the table as one frozen value, and the pure fold that moves it through events.

:class:`Table` is what is true between two events: the match (score, cube, who is on roll,
the dice), the position (seen from the player on roll, as the rules engine sees it; the
opening position between games), and the :class:`Phase` of the turn. :func:`apply` is the only
way a table changes; the live referee and a resume from the journal both go through it, so a
game rebuilt from its log is the game that was played.

Undo needs the tables before each accepted action: :func:`apply` keeps them on a history stack
(``move``, ``double``, ``take``, ``beaver`` and ``drop`` push; ``undo`` pops).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from companion.errors import IllegalAction, InvalidFormat
from companion.referee import events as ev
from companion.referee.events import Event
from companion.referee.stability import DiceKey
from companion.rules import Colour, Position, position_id
from companion.rules.match import CubeState, MatchState, game_result


class Phase(StrEnum):
    """Where the game stands, in the order a turn goes through them."""

    SETUP = "setup"
    """Between games: waiting for the board to show the opening position."""
    OPENING = "opening"
    """The board is set up: each player rolls one die."""
    ROLLING = "rolling"
    """The player on roll may double, then rolls."""
    DOUBLED = "doubled"
    """A double waits for a take, a beaver or a drop."""
    PLAYING = "playing"
    """The dice are accepted: the player on roll moves, and may change the move."""
    MATCH_OVER = "match_over"


HISTORY_KINDS = frozenset({ev.MOVE, ev.DOUBLE, ev.TAKE, ev.BEAVER, ev.DROP})


@dataclass(frozen=True, slots=True)
class Table:
    """The game between two events. ``players`` are the names of white and black."""

    match: MatchState
    position: Position
    phase: Phase = Phase.SETUP
    game: int = 1
    players: tuple[str, str] = ("white", "black")
    roll_seen: DiceKey = ()

    @property
    def on_roll(self) -> Colour | None:
        return self.match.on_roll

    @property
    def dice(self) -> tuple[int, int] | None:
        return self.match.dice

    def name(self, colour: Colour) -> str:
        return self.players[0] if colour is Colour.WHITE else self.players[1]

    def pips(self) -> tuple[int, int]:
        """Pip counts (white, black) of the current position."""
        mover, opponent = self.position.pip_counts()
        if self.on_roll is Colour.BLACK:
            return opponent, mover
        return mover, opponent


def stored_dice_key(data: object) -> DiceKey:
    """The stored ``dice_seen`` of an event as a key (empty when absent)."""
    if not isinstance(data, list):
        return ()
    return tuple(
        (int(d[0]), bool(d[1]), str(d[2]), bool(d[3])) for d in data if isinstance(d, list)
    )


def _ended(table: Table, match: MatchState) -> Table:
    phase = Phase.MATCH_OVER if match.is_over else Phase.SETUP
    return replace(
        table,
        match=match,
        position=Position.opening(),
        phase=phase,
        game=table.game + 1,
        roll_seen=(),
    )


def _need(table: Table, event: Event, *phases: Phase) -> None:
    if table.phase not in phases:
        allowed = " or ".join(p.value for p in phases)
        raise IllegalAction(
            f"a {event.kind} cannot happen in the {table.phase.value} phase (only {allowed})"
        )


def _colour(data: Any, key: str = "player") -> Colour:
    try:
        return Colour(data[key])
    except (KeyError, ValueError):
        raise IllegalAction(f"the event names no colour in {key!r}") from None


def apply(table: Table | None, event: Event, history: list[Table]) -> Table:
    """The table after ``event`` (events that change nothing return it unchanged).

    Raises :class:`IllegalAction` when the event cannot happen now (a move out of turn, a take
    with no double) and :class:`InvalidFormat` when the event's own facts disagree with the
    table (a play from a position that is not the one on the board).
    """
    data = event.data
    if event.kind == ev.MATCH_START:
        length = int(data.get("length", 0))
        match = (
            MatchState.new_match(length)
            if length
            else MatchState.new_money_game(
                jacoby=bool(data.get("jacoby", False)), beavers=bool(data.get("beavers", False))
            )
        )
        history.clear()
        players = (str(data.get("white", "white")), str(data.get("black", "black")))
        return Table(match=match, position=Position.opening(), players=players)
    if table is None:
        raise InvalidFormat(
            f"the first event is {event.kind!r}, not match_start: this is not a game journal"
        )
    if not event.stateful:
        return table
    if event.kind == ev.UNDO:
        if not history:
            raise IllegalAction("there is nothing to undo")
        return history.pop()
    if event.kind in HISTORY_KINDS:
        history.append(table)

    if event.kind == ev.GAME_START:
        _need(table, event, Phase.SETUP)
        return replace(table, phase=Phase.OPENING, position=Position.opening())
    if event.kind == ev.ABANDON:
        match = replace(table.match, on_roll=None, dice=None, cube=CubeState())
        return replace(table, match=match, phase=Phase.SETUP, position=Position.opening())
    if event.kind == ev.OPENING_ROLL:
        _need(table, event, Phase.OPENING)
        match = table.match.start_game(int(data["white"]), int(data["black"]))
        seen = stored_dice_key(data.get("dice_seen"))
        return replace(table, match=match, phase=Phase.PLAYING, roll_seen=seen)
    if event.kind == ev.ROLL:
        _need(table, event, Phase.ROLLING)
        if _colour(data) is not table.on_roll:
            raise IllegalAction(f"{data['player']} rolled, but {table.on_roll} is on roll")
        dice = data["dice"]
        match = table.match.roll((int(dice[0]), int(dice[1])))
        seen = stored_dice_key(data.get("dice_seen"))
        return replace(table, match=match, phase=Phase.PLAYING, roll_seen=seen)
    if event.kind == ev.MOVE:
        _need(table, event, Phase.PLAYING)
        player = _colour(data)
        if player is not table.on_roll:
            raise IllegalAction(f"{player} moved, but {table.on_roll} is on roll")
        before = position_id.decode(str(data["position_id"]))
        if before != table.position:
            raise InvalidFormat(
                f"the move {data.get('play', '')!r} starts from {data['position_id']}, but the "
                f"board is {position_id.encode(table.position)}"
            )
        after = position_id.decode(str(data["after_position_id"]))
        result = game_result(after)
        if result is not None:
            return _ended(table, table.match.finish_game(player, result))
        return replace(
            table,
            match=table.match.end_turn(),
            position=after.flip(),
            roll_seen=(),
            phase=Phase.ROLLING,
        )
    if event.kind == ev.DOUBLE:
        _need(table, event, Phase.ROLLING)
        return replace(table, match=table.match.double(_colour(data)), phase=Phase.DOUBLED)
    if event.kind in (ev.TAKE, ev.BEAVER):
        _need(table, event, Phase.DOUBLED)
        player = _colour(data)
        match = table.match.take(player) if event.kind == ev.TAKE else table.match.beaver(player)
        return replace(table, match=match, phase=Phase.ROLLING)
    if event.kind == ev.DROP:
        _need(table, event, Phase.DOUBLED)
        return _ended(table, table.match.pass_double(_colour(data)))
    raise InvalidFormat(f"unknown event kind {event.kind!r}")


def replay(events: Iterable[Event]) -> tuple[Table, list[Table]]:
    """Folds a journal's events into the table they lead to, with its undo history.

    Raises :class:`InvalidFormat` naming the event (counted from 1) that cannot be replayed.
    """
    table: Table | None = None
    history: list[Table] = []
    for number, event in enumerate(events, start=1):
        try:
            table = apply(table, event, history)
        except (IllegalAction, InvalidFormat, KeyError, TypeError, ValueError) as error:
            message = f"event {number} ({event.kind}) cannot be replayed: {error}"
            raise InvalidFormat(message) from None
    if table is None:
        raise InvalidFormat(
            "the journal holds no match_start event, so no game to continue: name a journal "
            "that 'companion run' wrote, or start a new match without --resume"
        )
    return table, history
