"""eXtreme Gammon's XGID: board, cube, turn, dice, score and rules on one line.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10`` has ten fields split by colons:

1. the board, 26 characters, always seen from XG's bottom player ("X") whoever is on roll:
   character 0 is the top player's bar, 1-24 are the points numbered as the bottom player
   counts them (the bottom player moves 24 -> 1), 25 is the bottom player's bar. ``-`` is an
   empty point, ``A``-``O`` one to fifteen bottom checkers, ``a``-``o`` top checkers; borne-off
   checkers are those missing from fifteen;
2. the cube as a base-2 logarithm (0 = 1, 1 = 2, ...);
3. the cube's owner: 1 bottom, -1 top, 0 centred;
4. the turn: 1 bottom, -1 top; the player on roll, and with a double pending the doubler;
5. the dice: two digits (XG writes the higher first), ``00`` not rolled yet, ``D`` a double
   offered, ``B`` beavered, ``R`` raccooned (the cube answers pending);
6. and 7. the bottom player's and the top player's scores (points won);
8. in a match 1 if this is the Crawford game; in a money game 1 for the Jacoby rule plus 2 for
   beavers;
9. the match length, 0 for a money game;
10. the highest cube allowed, as a base-2 logarithm (XG writes 10 for 1024).

**Colours.** XG's bottom player "X" is our **white**: both move 24 -> 1 and number the points
the same way, so an XGID's points are our absolute points (``DESIGN.md``), and its bottom
player's score, cube and turn are white's. The top player "o" is black. This is also how GNU
Backgammon reads an XGID (its player 1, shown at the bottom, is XG's X).

>>> state = decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
>>> state.on_roll, state.dice, state.match_length
(<Colour.WHITE: 'white'>, (5, 2), 7)
>>> state.position == Position.opening()
True
>>> encode(state)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from companion.errors import InvalidFormat, InvalidPosition
from companion.rules.position import BAR, CHECKERS_PER_SIDE, OFF, Colour, Position

PREFIX = "XGID="
DEFAULT_MAX_CUBE = 1024
_EXAMPLE = (
    "a valid XGID looks like XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10 "
    "(board:cube:owner:turn:dice:score1:score2:crawford-or-jacoby:length:max-cube)"
)
_INTEGER = re.compile(r"-?[0-9]+")


class CubeOffer(StrEnum):
    """The dice field when it holds a cube action instead of a roll."""

    NONE = "00"  # the player on roll has not rolled (and may double)
    DOUBLE = "D"  # the player on roll doubled; the other must take or pass
    BEAVER = "B"  # ... and was beavered
    RACCOON = "R"  # ... and raccooned back


@dataclass(frozen=True, slots=True)
class XgidState:
    """Everything an XGID says, with the board seen from the player on roll (``on_roll``).

    ``dice`` is ``None`` when nothing has been rolled, and otherwise keeps the order written
    (XG writes the higher die first). ``cube_owner`` is ``None`` for a centred cube. A match has
    ``match_length`` > 0 and may be the Crawford game; a money game (length 0) may use the Jacoby
    rule and beavers. ``max_cube`` is a cube value (1024), not its logarithm.
    """

    position: Position
    on_roll: Colour
    dice: tuple[int, int] | None = None
    cube_offer: CubeOffer = CubeOffer.NONE
    cube_value: int = 1
    cube_owner: Colour | None = None
    white_score: int = 0
    black_score: int = 0
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = DEFAULT_MAX_CUBE

    def __post_init__(self) -> None:
        object.__setattr__(self, "on_roll", Colour(self.on_roll))
        object.__setattr__(self, "cube_offer", CubeOffer(self.cube_offer))
        if self.cube_owner is not None:
            object.__setattr__(self, "cube_owner", Colour(self.cube_owner))
        if self.dice is not None:
            object.__setattr__(self, "dice", tuple(self.dice))
        problems = self.defects()
        if problems:
            raise InvalidFormat("an XGID cannot hold this state: " + "; ".join(problems))

    def defects(self) -> list[str]:
        """Every value here that an XGID cannot hold, or that contradicts another."""
        problems = []
        if self.dice is not None:
            if len(self.dice) != 2 or any(not 1 <= die <= 6 for die in self.dice):
                problems.append(f"dice {self.dice!r} are not two values from 1 to 6")
            if self.cube_offer is not CubeOffer.NONE:
                problems.append("the dice cannot be rolled while a double is pending")
        for name, value in (("cube", self.cube_value), ("max cube", self.max_cube)):
            if value < 1 or value & (value - 1):
                problems.append(f"the {name} is {value}, not a power of two")
        if self.cube_value > self.max_cube:
            problems.append(f"the cube {self.cube_value} is above the max cube {self.max_cube}")
        if self.white_score < 0 or self.black_score < 0 or self.match_length < 0:
            problems.append("scores and the match length cannot be negative")
        if self.match_length:
            if max(self.white_score, self.black_score) >= self.match_length:
                problems.append(
                    f"score {self.white_score}-{self.black_score} has already won a "
                    f"{self.match_length}-point match"
                )
            if self.jacoby or self.beavers:
                problems.append("the Jacoby rule and beavers belong to money games, not matches")
            if self.crawford and self.match_length - 1 not in (self.white_score, self.black_score):
                problems.append(
                    "a Crawford game needs a player one point from winning the match, "
                    f"not {self.white_score}-{self.black_score} to {self.match_length}"
                )
        elif self.crawford:
            problems.append("a money game has no Crawford game")
        if self.cube_offer in (CubeOffer.BEAVER, CubeOffer.RACCOON) and not self.beavers:
            problems.append("a beaver or raccoon needs a money game played with beavers")
        return problems


def encode(state: XgidState) -> str:
    """The XGID of ``state``, starting ``XGID=``."""
    board = state.position.to_absolute(state.on_roll)
    cells = [_cell(-board.bar["black"])]
    cells += [_cell(count) for count in board.points]
    cells.append(_cell(board.bar["white"]))
    rules = (
        int(state.crawford) if state.match_length else int(state.jacoby) + 2 * int(state.beavers)
    )
    dice = f"{state.dice[0]}{state.dice[1]}" if state.dice else state.cube_offer.value
    fields = [
        "".join(cells),
        str(state.cube_value.bit_length() - 1),
        str(_side_number(state.cube_owner)),
        str(_side_number(state.on_roll)),
        dice,
        str(state.white_score),
        str(state.black_score),
        str(rules),
        str(state.match_length),
        str(state.max_cube.bit_length() - 1),
    ]
    return PREFIX + ":".join(fields)


def decode(text: str) -> XgidState:
    """The state an XGID describes; the ``XGID=`` prefix is optional.

    Raises :class:`InvalidFormat` naming the field that is wrong and showing a valid XGID.
    """
    stripped = text.strip()
    body = stripped[len(PREFIX) :] if stripped.upper().startswith(PREFIX) else stripped
    fields = body.split(":")
    if len(fields) != 10:
        raise InvalidFormat(f"XGID {stripped!r} has {len(fields)} fields, not 10; {_EXAMPLE}")
    cells, cube, owner, turn, dice, score_1, score_2, rules, length, max_cube = fields
    white, black = _board(cells, stripped)
    numbers = {
        "cube": _integer(cube, "cube", stripped, 0, 15),
        "cube owner": _integer(owner, "cube owner", stripped, -1, 1),
        "turn": _integer(turn, "turn", stripped, -1, 1),
        "score 1": _integer(score_1, "first score", stripped, 0, None),
        "score 2": _integer(score_2, "second score", stripped, 0, None),
        "rules": _integer(rules, "Crawford/Jacoby", stripped, 0, 3),
        "length": _integer(length, "match length", stripped, 0, None),
        "max cube": _integer(max_cube, "max cube", stripped, 0, 15),
    }
    if numbers["turn"] == 0:
        raise InvalidFormat(f"XGID {stripped!r}: the turn must be 1 or -1, not 0; {_EXAMPLE}")
    on_roll = Colour.WHITE if numbers["turn"] == 1 else Colour.BLACK
    rolled, offer = _dice(dice, stripped)
    match_play = numbers["length"] > 0
    if match_play and numbers["rules"] > 1:
        raise InvalidFormat(
            f"XGID {stripped!r}: in a match the Crawford field is 0 or 1, not "
            f"{numbers['rules']}; {_EXAMPLE}"
        )
    try:
        position = Position(tuple(white), tuple(black))  # white's own frame, then flipped below
        if on_roll is Colour.BLACK:
            position = position.flip()
        return XgidState(
            position=position,
            on_roll=on_roll,
            dice=rolled,
            cube_offer=offer,
            cube_value=1 << numbers["cube"],
            cube_owner={1: Colour.WHITE, -1: Colour.BLACK}.get(numbers["cube owner"]),
            white_score=numbers["score 1"],
            black_score=numbers["score 2"],
            match_length=numbers["length"],
            crawford=match_play and numbers["rules"] == 1,
            jacoby=not match_play and bool(numbers["rules"] & 1),
            beavers=not match_play and bool(numbers["rules"] & 2),
            max_cube=1 << numbers["max cube"],
        )
    except (InvalidFormat, InvalidPosition) as error:
        raise InvalidFormat(f"XGID {stripped!r}: {error}; {_EXAMPLE}") from error


def is_xgid(text: str) -> bool:
    """Whether ``text`` looks like an XGID (a prefix or ten colon-separated fields)."""
    stripped = text.strip()
    return stripped.upper().startswith(PREFIX) or stripped.count(":") == 9


def _cell(count: int) -> str:
    """``+n`` bottom (white) checkers as ``A``.., ``-n`` top (black) as ``a``.., 0 as ``-``."""
    if count > 0:
        return chr(ord("A") + count - 1)
    if count < 0:
        return chr(ord("a") - count - 1)
    return "-"


def _side_number(colour: Colour | None) -> int:
    return {Colour.WHITE: 1, Colour.BLACK: -1, None: 0}[colour]


def _board(cells: str, text: str) -> tuple[list[int], list[int]]:
    """White's and black's 26-entry arrays, each in its own frame, from the 26 board cells."""
    if len(cells) != 26:
        raise InvalidFormat(
            f"XGID {text!r}: the board has {len(cells)} characters, not 26; {_EXAMPLE}"
        )
    white = [0] * (BAR + 1)
    black = [0] * (BAR + 1)
    for index, char in enumerate(cells):
        if char == "-":
            continue
        if "A" <= char <= "O":
            if index == 0:
                raise InvalidFormat(
                    f"XGID {text!r}: the first character is the top (black) player's bar, "
                    f"so it cannot hold bottom checkers ({char!r}); {_EXAMPLE}"
                )
            white[index] = ord(char) - ord("A") + 1  # index 25 is white's bar
        elif "a" <= char <= "o":
            if index == 25:
                raise InvalidFormat(
                    f"XGID {text!r}: the last character is the bottom (white) player's bar, "
                    f"so it cannot hold top checkers ({char!r}); {_EXAMPLE}"
                )
            black[BAR if index == 0 else 25 - index] = ord(char) - ord("a") + 1
        else:
            raise InvalidFormat(
                f"XGID {text!r}: board character {index + 1} is {char!r}; use '-', A-O for "
                f"bottom checkers and a-o for top checkers; {_EXAMPLE}"
            )
    for name, side in (("white (bottom, upper case)", white), ("black (top, lower case)", black)):
        if sum(side) > CHECKERS_PER_SIDE:
            raise InvalidFormat(
                f"XGID {text!r}: {name} has {sum(side)} checkers on the board, more than "
                f"{CHECKERS_PER_SIDE}; {_EXAMPLE}"
            )
        side[OFF] = CHECKERS_PER_SIDE - sum(side)
    return white, black


def _integer(field: str, name: str, text: str, low: int, high: int | None) -> int:
    if not _INTEGER.fullmatch(field):
        raise InvalidFormat(
            f"XGID {text!r}: the {name} field {field!r} is not a whole number; {_EXAMPLE}"
        )
    value = int(field)
    if value < low or (high is not None and value > high):
        limit = f"{low} to {high}" if high is not None else f"at least {low}"
        raise InvalidFormat(
            f"XGID {text!r}: the {name} field is {value}, it must be {limit}; {_EXAMPLE}"
        )
    return value


def _dice(field: str, text: str) -> tuple[tuple[int, int] | None, CubeOffer]:
    if field in {offer.value for offer in CubeOffer}:
        return None, CubeOffer(field)
    if len(field) == 2 and all(char in "123456" for char in field):
        return (int(field[0]), int(field[1])), CubeOffer.NONE
    raise InvalidFormat(
        f"XGID {text!r}: the dice field {field!r} must be two dice 1-6 (like 52), 00 before "
        f"the roll, or D, B or R for a pending double; {_EXAMPLE}"
    )
