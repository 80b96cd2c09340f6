"""The Jellyfish ``.mat`` match format, as GNU Backgammon's ``export match mat`` writes it.

GNU Backgammon, eXtreme Gammon, Snowie and BGBlitz all import it. The layout (GNU Backgammon
1.07, ``ExportGameJF``)::

    ; [EventDate "2026.11.30"]

     3 point match

     Game 1
     Ann : 0                        Bob : 0
      1)                             31: 8/5 6/5
      2) 64: 24/18 18/14              Doubles => 2
      3)  Takes                      66: 24/18 24/18 13/7 13/7
      4)  Doubles => 4                Drops
          Wins 2 points

* The first player (left column, 27 characters wide after ``"%3d) "``) is white here, the
  second (from column 33) black. Actions alternate between the columns; when the second player
  starts a game, line 1 has an empty left column.
* A move is ``DD: `` and one ``from/to`` per die (not merged), each followed by a space except
  the fourth; points are the mover's, the bar is ``25``, off is ``0``, and a hit is marked ``*``
  on the first checker to land on the blot. A roll that cannot be played is ``DD: `` alone.
* ``Doubles => N`` (the new cube value), ``Takes``, ``Drops`` followed by ``Wins N point(s)``.
  A game won by bearing off ends with ``Wins N point(s)`` on a line of its own, in the
  winner's column; so does a resignation.

:func:`from_events` turns journal events into a :class:`MatchRecord`, :func:`write_mat` writes
it, and :func:`read_mat` parses any such file back (tolerating ``bar``/``off``, ``(n)`` counts
and comment lines that other programs write).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from companion.errors import InvalidFormat
from companion.referee import events as ev
from companion.referee.events import Event
from companion.rules import Colour

ActionKind = Literal["move", "double", "take", "beaver", "drop"]
Ending = Literal["bearoff", "drop", "resign", ""]
Step = tuple[int, int, bool]
"""One checker moved by one die: ``(from, to, hit)`` in the mover's numbering (25 bar, 0 off)."""

_CUBE_ACTIONS: dict[str, ActionKind] = {
    ev.DOUBLE: "double",
    ev.BEAVER: "beaver",
    ev.TAKE: "take",
    ev.DROP: "drop",
}

RIGHT_COLUMN = 33
"""Where the second player's column starts (``"%3d) "`` + 27 characters + a space)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game: a roll and its play, or a cube action.

    ``dice`` and ``moves`` are for moves; ``cube`` is the value after a double or a beaver.
    """

    kind: ActionKind
    player: Colour
    dice: tuple[int, int] | None = None
    moves: tuple[Step, ...] = ()
    cube: int = 0

    def text(self) -> str:
        """The entry as GNU Backgammon writes it (without the column padding)."""
        if self.kind == "move":
            assert self.dice is not None
            steps = [
                f"{source}/{destination}{'*' if hit else ''}"
                for source, destination, hit in self.moves
            ]
            words = "".join(s + (" " if i < 3 else "") for i, s in enumerate(steps))
            return f"{self.dice[0]}{self.dice[1]}: {words}"
        if self.kind == "double":
            return f" Doubles => {self.cube}"
        if self.kind == "beaver":
            return f" Beavers => {self.cube}"
        if self.kind == "take":
            return " Takes"
        return " Drops"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: the score before it (white, black), its actions and how it ended."""

    white_score: int
    black_score: int
    actions: tuple[Action, ...] = ()
    winner: Colour | None = None
    points: int = 0
    ending: Ending = ""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match (``length`` 0 for money play) between ``white`` and ``black``."""

    length: int
    white: str = "white"
    black: str = "black"
    games: tuple[GameRecord, ...] = ()
    date: str = ""
    """``YYYY.MM.DD``, written as the ``EventDate`` comment when set."""
    comments: tuple[str, ...] = field(default=(), compare=False)


# -- from the journal ---------------------------------------------------------------------------


def from_events(events: Iterable[Event], date: str = "") -> MatchRecord:
    """The match a journal records: accepted actions only, undone ones removed.

    Abandoned games leave no record. Raises :class:`InvalidFormat` when the events hold no
    ``match_start``.
    """
    record: MatchRecord | None = None
    games: list[GameRecord] = []
    current: GameRecord | None = None
    done: list[tuple[GameRecord | None, list[GameRecord]]] = []  # for undo
    for event in events:
        data = event.data
        kind = event.kind
        if kind == ev.MATCH_START:
            record = MatchRecord(
                length=int(data.get("length", 0)),
                white=_clean_name(str(data.get("white", "white"))),
                black=_clean_name(str(data.get("black", "black"))),
                date=date,
            )
            games, current, done = [], None, []
            continue
        if record is None:
            raise InvalidFormat(f"a {kind} event comes before the match_start event")
        if kind == ev.UNDO:
            if done:
                current, games = done.pop()
            continue
        if kind == ev.GAME_START:
            white, black = _scores(games)
            current = GameRecord(white, black)
            continue
        if kind == ev.ABANDON:
            current = None
            continue
        if current is None:
            continue
        action: Action | None = None
        if kind == ev.MOVE:
            moves = tuple((int(m[0]), int(m[1]), bool(m[2])) for m in data.get("moves", []))
            dice = data["dice"]
            action = Action("move", Colour(data["player"]), (int(dice[0]), int(dice[1])), moves)
        elif kind in _CUBE_ACTIONS:
            cube = int(data.get("cube", 0)) if kind in (ev.DOUBLE, ev.BEAVER) else 0
            action = Action(_CUBE_ACTIONS[kind], Colour(data["player"]), cube=cube)
        if action is not None:
            done.append((current, list(games)))
            current = replace(current, actions=(*current.actions, action))
        if kind == ev.GAME_OVER:
            last = current.actions[-1].kind if current.actions else ""
            ending: Ending = "drop" if last == "drop" else "bearoff"
            finished = replace(
                current, winner=Colour(data["winner"]), points=int(data["points"]), ending=ending
            )
            # The game_over note follows the action that ended the game: undoing that action
            # must reopen the game, so the undo entry of the action is rewritten.
            if done:
                done[-1] = (done[-1][0], list(games))
            games.append(finished)
            current = None
    if record is None:
        raise InvalidFormat(
            "the journal holds no match_start event: name a journal (.jsonl) that 'companion run' "
            "or 'companion demo' wrote"
        )
    if current is not None and current.actions:
        games.append(current)
    return replace(record, games=tuple(games))


def _scores(games: list[GameRecord]) -> tuple[int, int]:
    white = black = 0
    for game in games:
        if game.winner is Colour.WHITE:
            white += game.points
        elif game.winner is Colour.BLACK:
            black += game.points
    return white, black


def _clean_name(name: str) -> str:
    """A player's name as the format allows: one line, no colon (it separates the score)."""
    cleaned = " ".join(name.replace(":", " ").split())
    return cleaned or "player"


# -- writing ------------------------------------------------------------------------------------


def write_mat(match: MatchRecord) -> str:
    """The ``.mat`` text of ``match``, line for line as GNU Backgammon exports it."""
    parts: list[str] = []
    if match.date:
        parts.append(f'; [EventDate "{match.date}"]\n\n')
    parts.append(f" {match.length} point match\n\n")
    for number, game in enumerate(match.games, start=1):
        parts.append(_write_game(match, game, number))
    return "".join(parts)


def _wins(points: int) -> str:
    return f"Wins {points} point{'s' if points > 1 else ''}"


def _write_game(match: MatchRecord, game: GameRecord, number: int) -> str:
    out = [f" Game {number}\n"]
    left = f"{match.white} : {game.white_score}"
    out.append(f" {left:<31}{match.black} : {game.black_score}\n")
    i = 0
    cube = 1
    count = len(game.actions)
    for index, action in enumerate(game.actions):
        text = action.text()
        if action.kind in ("double", "beaver"):
            cube = action.cube
        if action.kind == "drop":
            lost = game.points if game.points else cube // 2
            text += ("\n      " if i & 1 else " " * 23) + _wins(lost)
        if i == 0 and action.kind == "move" and action.player is Colour.BLACK:
            out.append("  1)" + " " * 29)
            i += 1
        if i & 1:
            out.append(text + "\n")
        else:
            out.append(f"{(i >> 1) + 1:3d}) {text:<27} ")
        if action.kind == "drop":
            out.append("\n" if i & 1 else "\n\n")
        last = index == count - 1
        if last and game.ending == "bearoff" and action.kind == "move":
            out.append((" " * 34 if i & 1 else "\n      ") + _wins(game.points) + "\n\n")
        i += 1
    if game.ending == "resign" and game.winner is not None:
        if game.winner is Colour.WHITE:
            out.append(("\n" if i & 1 else "") + "      " + _wins(game.points) + "\n\n")
        else:
            out.append((" " if i & 1 else " " * 34) + _wins(game.points) + "\n\n")
    elif not game.ending and i & 1:
        out.append("\n")  # an unfinished game: close the open line
    return "".join(out)


# -- reading ------------------------------------------------------------------------------------

_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORES = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)")
_PLACE = r"(?:\d{1,2}|bar|off)"
_STEP = rf"{_PLACE}\*?/{_PLACE}\*?(?:/{_PLACE}\*?)*(?:\(\d\))?"
"""One move word: ``13/7``, ``8/4*``, ``13/7*/4``, ``bar/22``, ``8/5(2)``."""
_ENTRY = re.compile(
    rf"(?P<roll>[1-6][1-6]):(?P<moves>(?:[ \t]+{_STEP})*)"
    r"|(?P<double>Doubles)\s*=>\s*(?P<cube>\d+)"
    r"|(?P<beaver>Beavers)\s*=>\s*(?P<bcube>\d+)"
    r"|(?P<take>Takes)|(?P<drop>Drops)"
    r"|(?P<wins>Wins)\s+(?P<points>\d+)\s+points?",
    re.IGNORECASE,
)
_EVENT_DATE = re.compile(r'^;\s*\[EventDate\s+"([^"]*)"\]', re.IGNORECASE)


def _place(text: str, line: int) -> int:
    lowered = text.lower()
    if lowered == "bar":
        return 25
    if lowered == "off":
        return 0
    value = int(text)
    if not 0 <= value <= 25:
        raise InvalidFormat(f".mat line {line}: point {value} does not exist (0-25)")
    return value


def _steps(text: str, line: int) -> tuple[Step, ...]:
    steps: list[Step] = []
    for word in text.split():
        repeat = 1
        counted = re.fullmatch(r"(.*)\((\d)\)", word)
        if counted:
            word, repeat = counted.group(1), int(counted.group(2))
        places = word.split("/")
        run: list[Step] = []
        for start, end in itertools.pairwise(places):
            source, destination = _place(start.rstrip("*"), line), _place(end.rstrip("*"), line)
            run.append((source, destination, end.endswith("*")))
        steps.extend(run * repeat)
    return tuple(steps)


def _bore_off_last(action: Action, winner: Colour) -> bool:
    """Whether ``action`` can be the winning bear-off of ``winner`` (a move that bears off)."""
    return (
        action.kind == "move"
        and action.player is winner
        and any(step[1] == 0 for step in action.moves)
    )


def read_mat(text: str) -> MatchRecord:
    """Parses a ``.mat`` file. Raises :class:`InvalidFormat` naming the line that is wrong.

    The player of each entry is taken from its column (left white, right black); the winner
    of a game from the column of its ``Wins`` line.
    """
    length: int | None = None
    names: tuple[str, str] | None = None
    date = ""
    comments: list[str] = []
    games: list[GameRecord] = []
    game: GameRecord | None = None
    expect_scores = False

    def close() -> None:
        nonlocal game
        if game is not None:
            games.append(game)
            game = None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            comments.append(line)
            found_date = _EVENT_DATE.match(line.lstrip())
            if found_date:
                date = found_date.group(1)
            continue
        if length is None:
            found = _LENGTH.match(line)
            if not found:
                raise InvalidFormat(
                    f".mat line {number}: expected the match header ' N point match', got "
                    f"{line.strip()!r}"
                )
            length = int(found.group(1))
            continue
        found_game = _GAME.match(line)
        if found_game:
            close()
            expect_scores = True
            continue
        if game is None:
            scores = _SCORES.match(line)
            if not scores or not expect_scores:
                raise InvalidFormat(
                    f".mat line {number}: expected 'Name : score   Name : score' after the "
                    f"'Game N' line, got {line.strip()!r}"
                )
            expect_scores = False
            names = (scores.group(1), scores.group(3))
            game = GameRecord(int(scores.group(2)), int(scores.group(4)))
            continue
        body_start = 0
        numbered = _NUMBERED.match(line)
        if numbered:
            body_start = numbered.end()
        entries = list(_ENTRY.finditer(line, body_start))
        leftover = _ENTRY.sub("", line[body_start:]).strip()
        if leftover:
            raise InvalidFormat(f".mat line {number}: cannot read {leftover!r}")
        for entry in entries:
            player = Colour.WHITE if entry.start() < RIGHT_COLUMN - 6 else Colour.BLACK
            if entry.group("wins"):
                ending: Ending = "resign"
                if game.actions and game.actions[-1].kind == "drop":
                    ending = "drop"
                elif game.actions and _bore_off_last(game.actions[-1], player):
                    ending = "bearoff"
                game = replace(
                    game, winner=player, points=int(entry.group("points")), ending=ending
                )
                continue
            if entry.group("roll"):
                roll = entry.group("roll")
                action = Action(
                    "move",
                    player,
                    (int(roll[0]), int(roll[1])),
                    _steps(entry.group("moves"), number),
                )
            elif entry.group("double"):
                action = Action("double", player, cube=int(entry.group("cube")))
            elif entry.group("beaver"):
                action = Action("beaver", player, cube=int(entry.group("bcube")))
            elif entry.group("take"):
                action = Action("take", player)
            else:
                action = Action("drop", player)
            game = replace(game, actions=(*game.actions, action))
    close()
    if length is None:
        raise InvalidFormat("an empty .mat file: expected ' N point match' at the top")
    white, black = names if names is not None else ("white", "black")
    return MatchRecord(length, white, black, tuple(games), date, tuple(comments))
