"""Play notation: writing plays as GNU Backgammon writes them, and reading what players type.

Written form (GNU Backgammon's): moves from the highest point down, separated by spaces; one
checker's run through several points is written once (``13/7/4`` is written ``13/4``) unless it
hits on the way (``13/7*/4``); identical moves are counted (``8/5(2)``); ``bar`` and ``off`` name
the bar and the tray.

Typed form (accepted): any of ``bar``/``BAR``/``25`` for the bar, ``off``/``0`` for off,
``/`` or ``-`` between points, spaces or commas between moves, ``*`` anywhere after a point,
``(n)`` repeats.

Points are the mover's (``companion.rules.position``).

>>> from companion.rules.moves import Move, Play
>>> format_play(Play((Move(13, 10), Move(10, 4))))
'13/4'
>>> format_play(Play((Move(8, 5), Move(6, 5), Move(8, 5), Move(6, 5))))
'8/5(2) 6/5(2)'
>>> format_play(Play((Move(13, 7, True), Move(7, 4))))
'13/7*/4'
>>> [str(m) for m in parse_play("bar-22, 6/0")]
['bar/22', '6/off']
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from companion.errors import InvalidPlay
from companion.rules.moves import Move, Play
from companion.rules.position import BAR, OFF


def point_name(point: int) -> str:
    """``bar``, ``off`` or the point number, as notation writes a place."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def format_play(play: Play) -> str:
    """GNU Backgammon's text for a play; ``""`` for no move (the roll is forfeited)."""
    moves = sorted(play.moves, key=lambda m: (-m.source, -m.destination))
    # Join each checker's consecutive moves into one run: a run continues with a move that
    # starts where it ends.
    runs: list[list[Move]] = []
    used = [False] * len(moves)
    for index, move in enumerate(moves):
        if used[index]:
            continue
        used[index] = True
        run = [move]
        while run[-1].destination != OFF:
            follower = next(
                (
                    j
                    for j in range(len(moves))
                    if not used[j] and moves[j].source == run[-1].destination
                ),
                None,
            )
            if follower is None:
                break
            used[follower] = True
            run.append(moves[follower])
        runs.append(run)
    texts = [
        (
            "/".join(point_name(p) for p in (run[0].source, *(m.destination for m in run))),
            _run_text(run),
        )
        for run in runs
    ]
    # Group identical runs as GNU does ("8/5(2)"): runs through the same points count as
    # identical even when only the first one hit, and are written as the first ("4/2*(2)").
    shown: dict[str, str] = {}
    counts: dict[str, int] = {}
    for plain, text in texts:
        shown.setdefault(plain, text)
        counts[plain] = counts.get(plain, 0) + 1
    return " ".join(
        text if counts[plain] == 1 else f"{text}({counts[plain]})" for plain, text in shown.items()
    )


def _run_text(run: list[Move]) -> str:
    text = point_name(run[0].source)
    for index, move in enumerate(run):
        last = index == len(run) - 1
        if move.hit or last:
            text += "/" + point_name(move.destination) + ("*" if move.hit else "")
    return text


@dataclass(frozen=True, slots=True)
class TypedMove:
    """A move as typed: a checker's run from ``source`` to ``destination``.

    ``via`` holds the points written in between (``13/7/4`` has ``via == (7,)``) and ``hits``
    the points marked with ``*``. The run's dice are worked out later, from the roll.
    """

    source: int
    destination: int
    via: tuple[int, ...] = ()
    hits: tuple[int, ...] = ()

    def __str__(self) -> str:
        return "/".join(point_name(p) for p in (self.source, *self.via, self.destination))

    def steps(self) -> list[Move]:
        """The run cut at the written points, each piece one move."""
        points = (self.source, *self.via, self.destination)
        return [
            Move(points[i], points[i + 1], points[i + 1] in self.hits)
            for i in range(len(points) - 1)
        ]


_PLACE = r"(?:bar|off|\d{1,2})"
_MOVE = re.compile(
    rf"^(?P<path>{_PLACE}\*?(?:[/-]{_PLACE}\*?)+)(?:\((?P<times>\d)\))?$", re.IGNORECASE
)


def _parse_place(text: str, whole: str, part: str) -> int:
    lowered = text.lower()
    if lowered == "bar":
        return BAR
    if lowered == "off":
        return OFF
    value = int(lowered)
    if not 0 <= value <= 25:
        raise InvalidPlay(
            f"{value} in {part!r} is not a place on the board: points are 1-24, "
            "bar (or 25) and off (or 0)",
            text=whole,
            part=part,
        )
    return value


def parse_play(text: str) -> list[TypedMove]:
    """Reads a typed play into runs; raises :class:`InvalidPlay` naming the bad part.

    Checks only the writing (places exist, runs go toward home); whether the dice and the
    position allow it is the judge's question.
    """
    parts = [part for part in re.split(r"[\s,]+", text) if part]
    if not parts:
        raise InvalidPlay("the play is empty: write moves like '24/18 13/10'", text=text)
    moves: list[TypedMove] = []
    for part in parts:
        match = _MOVE.match(part)
        if not match:
            raise InvalidPlay(
                f"cannot read {part!r}: write each move as FROM/TO, e.g. 24/18, bar/22, 6/off, "
                "8/5(2) or 13/7*/4",
                text=text,
                part=part,
            )
        places = re.split(r"[/-]", match["path"])
        points = [_parse_place(place.rstrip("*"), text, part) for place in places]
        hits = tuple(p for place, p in zip(places, points, strict=True) if place.endswith("*"))
        for here, there in itertools.pairwise(points):
            if there >= here:
                raise InvalidPlay(
                    f"{part!r} moves from {point_name(here)} to {point_name(there)}: checkers "
                    "move toward home, to lower points",
                    text=text,
                    part=part,
                )
        if points[0] == OFF:
            raise InvalidPlay(f"{part!r} starts off the board", text=text, part=part)
        if OFF in points[1:-1]:
            raise InvalidPlay(f"{part!r} continues after bearing off", text=text, part=part)
        if BAR in points[1:]:
            raise InvalidPlay(f"{part!r} moves a checker onto the bar", text=text, part=part)
        times = int(match["times"] or 1)
        if not 1 <= times <= 4:
            raise InvalidPlay(
                f"{part!r} repeats a move {times} times: write (2), (3) or (4), as a roll "
                "gives at most four moves",
                text=text,
                part=part,
            )
        typed = TypedMove(points[0], points[-1], tuple(points[1:-1]), hits)
        moves.extend([typed] * times)
    return moves
