"""Boards as the camera reads them, and what to put back to reach the board the rules expect.

A Reading is in absolute colours (white's numbering, ``DESIGN.md``); the rules engine sees
positions from the player on roll. :func:`raw_board` converts without validating, because a
board the camera read may be impossible (a checker vanished under a hand) and the judge is the
one that explains what is wrong with it.

:func:`put_back` compares the board read with the board wanted and says, in the words of the
player who moves, which checkers to put where: ``"put back: one white checker on the
13-point"``. Points are named from the point of view of ``viewer`` (the player on roll), as the
judge and the notation name them.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules import BAR, OFF, AbsoluteBoard, Colour, Position
from companion.rules.judge import NUMBER_WORDS, RawBoard
from companion.vision.reading import Counts, Reading

OPENING_BOARD = Position.opening().to_absolute(Colour.WHITE)


def same_board(reading: Reading, board: AbsoluteBoard) -> bool:
    """Whether the reading shows exactly ``board`` (every point, the bar and the trays)."""
    return (
        tuple(reading.points) == tuple(board.points)
        and reading.bar.white == board.bar["white"]
        and reading.bar.black == board.bar["black"]
        and reading.off.white == board.off["white"]
        and reading.off.black == board.off["black"]
    )


def raw_board(reading: Reading, on_roll: Colour) -> RawBoard:
    """``(mover, opponent)`` 26-entry arrays seen from ``on_roll``, without any validation."""
    white = [0] * 26
    black = [0] * 26
    for index, value in enumerate(reading.points):
        if value > 0:
            white[index + 1] = value
        elif value < 0:
            black[24 - index] = -value
    white[BAR], black[BAR] = reading.bar.white, reading.bar.black
    white[OFF], black[OFF] = reading.off.white, reading.off.black
    if on_roll is Colour.WHITE:
        return tuple(white), tuple(black)
    return tuple(black), tuple(white)


@dataclass(frozen=True, slots=True)
class Difference:
    """``count`` checkers of ``colour`` too many (``count < 0``) or missing at one place.

    ``place`` is in the viewer's numbering: 1-24 a point, 25 the bar, 0 the borne-off tray.
    """

    colour: Colour
    place: int
    count: int


def differences(read: Reading, wanted: AbsoluteBoard, viewer: Colour) -> list[Difference]:
    """Every place where ``read`` differs from ``wanted``, missing checkers first.

    Places are named from ``viewer``'s side: white's point ``p`` is black's ``25 - p``.
    """
    wanted_reading = Reading(
        readable=True,
        points=tuple(wanted.points),
        bar=Counts(wanted.bar["white"], wanted.bar["black"]),
        off=Counts(wanted.off["white"], wanted.off["black"]),
    )
    have = raw_board(read, viewer)
    want = raw_board(wanted_reading, viewer)
    found: list[Difference] = []
    for side, colour in ((0, viewer), (1, viewer.opponent)):
        for index in range(26):
            delta = want[side][index] - have[side][index]
            if delta:
                # The opponent's arrays count from their own side; name places from the viewer's.
                place = index if side == 0 or index in (OFF, BAR) else 25 - index
                found.append(Difference(colour, place, delta))
    order = {BAR: 0, OFF: 26}
    found.sort(key=lambda d: (d.count < 0, d.colour is not viewer, -order.get(d.place, d.place)))
    return found


def put_back(read: Reading, wanted: AbsoluteBoard, viewer: Colour, limit: int = 8) -> str:
    """What to do to turn the board read into ``wanted``, in one sentence ("" when equal).

    A checker missing in one place and one too many of the same colour in another are one
    instruction, "move ... from ... to ..."; a checker missing with none to spare is "put
    back", one too many with nowhere to go is "take away". Nearest places are paired first.

    >>> opening = Position.opening()
    >>> after = opening.to_absolute(Colour.WHITE)
    >>> moved = list(after.points); moved[12] -= 1; moved[9] += 1   # 13/10 by white
    >>> seen = Reading(readable=True, points=tuple(moved))
    >>> put_back(seen, after, Colour.WHITE)
    'move one white checker from the 10-point back to the 13-point'
    >>> moved[9] -= 1   # and the checker vanished from the board
    >>> put_back(Reading(readable=True, points=tuple(moved)), after, Colour.WHITE)
    'put back: one white checker on the 13-point'
    """
    found = differences(read, wanted, viewer)
    moves: list[str] = []
    missing: list[str] = []
    extra: list[str] = []
    for colour in (viewer, viewer.opponent):
        own = colour is viewer

        def order(place: int, own: bool = own) -> int:
            return _order(place, own)

        wants = sorted(
            (d.place for d in found if d.colour is colour for _ in range(d.count)), key=order
        )
        spare = sorted(
            (d.place for d in found if d.colour is colour for _ in range(-d.count)), key=order
        )
        for source, target in zip(spare, wants, strict=False):
            back = " back" if order(target) > order(source) else ""
            moves.append(
                f"one {colour.value} checker from the {_where(source)}{back} to the "
                f"{_where(target)}"
            )
        paired = min(len(wants), len(spare))
        missing += [f"one {colour.value} checker on the {_where(p)}" for p in wants[paired:]]
        extra += [f"one {colour.value} checker from the {_where(p)}" for p in spare[paired:]]
    parts = []
    if moves:
        parts.append("move " + ", ".join(_limited(_grouped(moves), limit)))
    if missing:
        parts.append("put back: " + ", ".join(_limited(_grouped(missing), limit)))
    if extra:
        parts.append("take away: " + ", ".join(_limited(_grouped(extra), limit)))
    return "; ".join(parts)


def _order(place: int, own: bool) -> int:
    """How far back along its own path a checker at ``place`` (the viewer's numbering) is:
    the bar 25, its points 24..1, off 0. The opponent's points count from their side."""
    if place in (BAR, OFF) or own:
        return place
    return 25 - place


def _where(place: int) -> str:
    if place == BAR:
        return "bar"
    if place == OFF:
        return "borne-off tray"
    return f"{place}-point"


def _grouped(items: list[str]) -> list[str]:
    """Identical instructions counted once: "two white checkers from ... to ..."."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    grouped = []
    for item, count in counts.items():
        if count == 1:
            grouped.append(item)
        else:
            word = NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)
            grouped.append(
                item.replace("one ", f"{word} ", 1).replace(" checker ", " checkers ", 1)
            )
    return grouped


def _limited(items: list[str], limit: int) -> list[str]:
    if len(items) <= limit:
        return items
    return [*items[:limit], f"and {len(items) - limit} more"]
