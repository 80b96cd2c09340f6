"""Positions: where every checker stands at one moment, seen from the player on roll.

Conventions (shared with GNU Backgammon and ``../shared/oracle``):

* A side's checkers are a 26-entry tuple in that side's *own* frame: index 0 = borne off,
  1..24 = its points (1 = the ace point, 24 = the far end of its path), 25 = the bar.
* ``Position.mover`` is the player on roll, ``Position.opponent`` the other; the mover's point
  ``p`` is the opponent's point ``25 - p``. :meth:`Position.flip` swaps the roles.
* Absolute colours live outside the engine: white moves 24 -> 1 and its home board is 1-6; the
  24 absolute points are numbered as white numbers them, ``+n`` for white and ``-n`` for black
  (the Reading JSON of ``DESIGN.md``). :meth:`Position.from_absolute` and
  :meth:`Position.to_absolute` convert, always naming the colour on roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from companion.errors import InvalidPosition

CHECKERS_PER_SIDE = 15
OFF = 0
BAR = 25
POINTS = range(1, 25)

OPENING_SIDE: tuple[int, ...] = (
    0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0,
)  # fmt: skip


class Colour(StrEnum):
    """The two sides; ``white`` has the lighter checkers."""

    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE

    @classmethod
    def parse(cls, text: str) -> Colour:
        """Accepts ``white``/``black`` in any case, or their first letters."""
        lowered = text.strip().lower()
        for colour in cls:
            if lowered in (colour.value, colour.value[0]):
                return colour
        raise ValueError(f"unknown colour {text!r}: say 'white' or 'black'")


@dataclass(frozen=True, slots=True)
class AbsoluteBoard:
    """A board in absolute colours, as the camera sees it and as the Reading JSON writes it.

    ``points[i]`` is white's point ``i + 1``: ``+n`` white checkers, ``-n`` black checkers.
    """

    points: tuple[int, ...]
    bar: Mapping[str, int]
    off: Mapping[str, int]

    def to_json(self) -> dict[str, object]:
        return {"points": list(self.points), "bar": dict(self.bar), "off": dict(self.off)}


def side_defects(side: Sequence[int], name: str) -> list[str]:
    """Every defect of one side's 26-entry array (counts, length, total of fifteen)."""
    if len(side) != 26:
        return [f"{name} needs 26 entries (off, points 1-24, bar), got {len(side)}"]
    defects = []
    for index, count in enumerate(side):
        if not isinstance(count, int) or isinstance(count, bool):
            defects.append(f"{name} {_place(index)} holds {count!r}, not a whole number")
        elif count < 0:
            defects.append(f"{name} {_place(index)} holds a negative count ({count})")
    if not defects and sum(side) != CHECKERS_PER_SIDE:
        on_board = sum(side) - side[OFF]
        defects.append(
            f"{name} has {sum(side)} checkers ({on_board} on the board and bar, "
            f"{side[OFF]} off), not {CHECKERS_PER_SIDE}"
        )
    return defects


def _place(index: int) -> str:
    if index == OFF:
        return "borne-off tray"
    if index == BAR:
        return "bar"
    return f"{index}-point"


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers, seen from the player on roll; immutable and hashable.

    Raises :class:`InvalidPosition` listing every defect: a side without exactly fifteen
    checkers, a negative count, or a point held by both sides.

    >>> Position.opening().pip_counts()
    (167, 167)
    >>> Position.opening().flip() == Position.opening()
    True
    """

    mover: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "mover", tuple(self.mover))
        object.__setattr__(self, "opponent", tuple(self.opponent))
        defects = self.defects()
        if defects:
            raise InvalidPosition(defects)

    @classmethod
    def trusted(cls, mover: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """Builds a position the engine itself derived from a valid one, skipping validation.

        Move generation makes thousands of positions per second; each follows from a valid
        position by a legal move, so checking it again would only cost time.
        """
        position = object.__new__(cls)
        object.__setattr__(position, "mover", mover)
        object.__setattr__(position, "opponent", opponent)
        return position

    @classmethod
    def opening(cls) -> Position:
        return cls.trusted(OPENING_SIDE, OPENING_SIDE)

    @classmethod
    def from_points(
        cls,
        mover_points: Mapping[int, int],
        opponent_points: Mapping[int, int],
        *,
        fill_off: bool = True,
    ) -> Position:
        """Builds a position from ``{point: count}`` maps (25 = bar); the rest are borne off.

        Handy in tests and docs: ``Position.from_points({6: 2}, {19: 1})``.
        """

        def side(points: Mapping[int, int]) -> tuple[int, ...]:
            counts = [0] * 26
            for point, count in points.items():
                if not 1 <= point <= 25:
                    raise InvalidPosition(
                        f"point {point} does not exist: use 1-24, or 25 for the bar"
                    )
                counts[point] += count
            if fill_off:
                counts[OFF] = CHECKERS_PER_SIDE - sum(counts)
            return tuple(counts)

        return cls(side(mover_points), side(opponent_points))

    @classmethod
    def from_absolute(
        cls,
        points: Sequence[int],
        bar: Mapping[str, int],
        off: Mapping[str, int],
        on_roll: Colour | str,
    ) -> Position:
        """Converts a board in absolute colours (white's numbering) to the engine's view.

        >>> board = Position.opening().to_absolute(Colour.WHITE)
        >>> board.points[5], board.points[18]
        (5, -5)
        >>> as_black = Position.from_absolute(board.points, board.bar, board.off, "black")
        >>> as_black == Position.opening()
        True
        """
        colour = Colour(on_roll)
        defects = []
        if len(points) != 24:
            raise InvalidPosition(f"a board has 24 points, got {len(points)} values")
        white = [0] * 26
        black = [0] * 26
        for index, value in enumerate(points):
            if not isinstance(value, int) or isinstance(value, bool):
                defects.append(f"point {index + 1} holds {value!r}, not a whole number")
                continue
            if value > 0:
                white[index + 1] = value
            elif value < 0:
                black[24 - index] = -value
        for name, table in (("bar", bar), ("off", off)):
            for key in table:
                if key not in ("white", "black"):
                    defects.append(f"{name} has an unknown colour {key!r}: use 'white' and 'black'")
        white[BAR], black[BAR] = int(bar.get("white", 0)), int(bar.get("black", 0))
        white[OFF], black[OFF] = int(off.get("white", 0)), int(off.get("black", 0))
        defects += side_defects(white, "white") + side_defects(black, "black")
        if defects:
            raise InvalidPosition(defects)
        if colour is Colour.WHITE:
            return cls(tuple(white), tuple(black))
        return cls(tuple(black), tuple(white))

    def to_absolute(self, on_roll: Colour | str) -> AbsoluteBoard:
        """The same board in absolute colours, given which colour is on roll."""
        colour = Colour(on_roll)
        white, black = (
            (self.mover, self.opponent) if colour is Colour.WHITE else (self.opponent, self.mover)
        )
        points = tuple(white[p] - black[25 - p] for p in POINTS)
        return AbsoluteBoard(
            points=points,
            bar={"white": white[BAR], "black": black[BAR]},
            off={"white": white[OFF], "black": black[OFF]},
        )

    # -- questions about the position -------------------------------------------------------

    def defects(self) -> list[str]:
        """Every reason this position cannot occur on a real board (empty when it is sound)."""
        defects = side_defects(self.mover, "the player on roll") + side_defects(
            self.opponent, "the opponent"
        )
        if defects:
            return defects
        for point in POINTS:
            theirs = self.opponent[25 - point]
            if self.mover[point] and theirs:
                defects.append(
                    f"the {point}-point (of the player on roll) holds {self.mover[point]} of their "
                    f"checkers and {theirs} of the opponent's: a point belongs to one side"
                )
        return defects

    def is_valid(self) -> bool:
        return not self.defects()

    def flip(self) -> Position:
        """The same board seen from the other player (as when the turn passes)."""
        return Position.trusted(self.opponent, self.mover)

    def pip_counts(self) -> tuple[int, int]:
        """Pips each side needs to bear off everything: (player on roll, opponent)."""
        return (
            sum(index * count for index, count in enumerate(self.mover)),
            sum(index * count for index, count in enumerate(self.opponent)),
        )

    def is_race(self) -> bool:
        """True once no contact is possible: every checker of each side has passed the other's."""
        mover_back = max((p for p in range(25, 0, -1) if self.mover[p]), default=0)
        opponent_back = max((p for p in range(25, 0, -1) if self.opponent[p]), default=0)
        return mover_back + opponent_back < 25

    def all_home(self) -> bool:
        """Whether the player on roll may bear off: all fifteen in the home board or off."""
        return not any(self.mover[7:26])

    def __str__(self) -> str:
        return self.diagram()

    def diagram(self, mover_symbol: str = "X", opponent_symbol: str = "O") -> str:
        """A text picture of the board from the mover's side, for consoles and error messages."""

        def cell(point: int) -> str:
            mine, theirs = self.mover[point], self.opponent[25 - point]
            if mine:
                return f"{mine}{mover_symbol}".rjust(3)
            if theirs:
                return f"{theirs}{opponent_symbol}".rjust(3)
            return "  ."

        top = (
            " ".join(cell(p) for p in range(13, 19))
            + " |"
            + " ".join(cell(p) for p in range(19, 25))
        )
        bottom = (
            " ".join(cell(p) for p in range(12, 6, -1))
            + " |"
            + " ".join(cell(p) for p in range(6, 0, -1))
        )
        numbers_top = (
            " ".join(f"{p:>3}" for p in range(13, 19))
            + " |"
            + " ".join(f"{p:>3}" for p in range(19, 25))
        )
        numbers_bottom = (
            " ".join(f"{p:>3}" for p in range(12, 6, -1))
            + " |"
            + " ".join(f"{p:>3}" for p in range(6, 0, -1))
        )
        pips = self.pip_counts()
        return "\n".join(
            [
                numbers_top,
                top,
                f"bar: {mover_symbol} {self.mover[BAR]}  {opponent_symbol} {self.opponent[BAR]}"
                f"    off: {mover_symbol} {self.mover[OFF]}  {opponent_symbol} {self.opponent[OFF]}"
                f"    pips: {mover_symbol} {pips[0]}  {opponent_symbol} {pips[1]}",
                bottom,
                numbers_bottom,
            ]
        )
