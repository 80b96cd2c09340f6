"""GNU Backgammon Match ID: score, cube, turn and dice in 12 characters.

GNU Backgammon shows it next to the Position ID (``4HPwATDgc/ABMA:cAkAAAAAAAAA``). The key is a
string of bits, each field written lowest bit first, packed into nine bytes lowest bit first and
written in base64 (72 bits, 12 characters):

====== ===== ===========================================================================
bits   width field
====== ===== ===========================================================================
0-3    4     cube value, as its base-2 logarithm (0 = 1, 3 = 8; at most 2**15)
4-5    2     cube owner: 0 player 0, 1 player 1, 3 centred
6      1     the player on roll, or who did roll
7      1     the Crawford flag: this game is the Crawford game
8-10   3     game state: 0 none started, 1 playing, 2 over, 3 resigned, 4 ended by a drop
11     1     turn: the player who must decide now (the other one after a double or resign)
12     1     a double is offered
13-14  2     resignation offered: 0 none, 1 single game, 2 gammon, 3 backgammon
15-17  3     die 1 (0 = not rolled)
18-20  3     die 2
21-35  15    match length (0 = money game)
36-50  15    score of player 0
51-65  15    score of player 1
66     1     the Jacoby rule is *not* in use (a later GNU Backgammon addition; 0 = Jacoby)
67-71  5     unused, zero
====== ===== ===========================================================================

Players are GNU Backgammon's player 0 and player 1. Our **white is player 1** and black is
player 0 (:data:`PLAYER_OF_COLOUR`): GNU Backgammon reads an XGID's bottom player, who is our
white (see :mod:`companion.rules.xgid`), as its player 1.

The GNU Backgammon manual's example: the score is 2-4 in a 9-point match, player 0 holds a
2-cube and player 1 has just rolled 5-2:

>>> state = decode("QYkqASAAIAAA")
>>> state.match_length, state.score, state.cube_value, state.cube_owner, state.dice
(9, (2, 4), 2, 0, (5, 2))
>>> state.player_on_roll, state.turn, state.game_state.name
(1, 1, 'PLAYING')
>>> encode(state)
'QYkqASAAIAAA'
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from enum import IntEnum

from companion.errors import InvalidFormat
from companion.rules.position import Colour

LENGTH = 12
MAX_CUBE_LOG2 = 15
MAX_FIELD = (1 << 15) - 1  # match length and scores are 15-bit fields
_ALPHABET = re.compile(r"[A-Za-z0-9+/]*")
_EXAMPLE = "a valid Match ID is 12 characters of A-Z, a-z, 0-9, + and /, like cAkAAAAAAAAA"

# (name, first bit, width) in key order.
_FIELDS = (
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),
    ("player_on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die_1", 15, 3),
    ("die_2", 18, 3),
    ("match_length", 21, 15),
    ("score_0", 36, 15),
    ("score_1", 51, 15),
    ("no_jacoby", 66, 1),
)
_USED_BITS = 67

PLAYER_OF_COLOUR = {Colour.BLACK: 0, Colour.WHITE: 1}
COLOUR_OF_PLAYER = {0: Colour.BLACK, 1: Colour.WHITE}
_CENTRED = 3


class GameState(IntEnum):
    """Where the current game stands, as the Match ID records it."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(IntEnum):
    """What a pending resignation gives up: nothing offered, or the value of the game."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class MatchIdState:
    """Every field of a Match ID, in GNU Backgammon's players 0 and 1.

    ``cube_owner`` is 0 or 1, or ``None`` for a centred cube. ``dice`` is ``(0, 0)`` before the
    roll; GNU Backgammon writes the higher die first, but the order given is kept so that IDs
    round-trip exactly. ``match_length`` 0 is a money game, whose ``score`` counts the points
    of the session. Raises :class:`InvalidFormat` for values no Match ID can hold.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.NONE
    turn: int = 0
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "game_state", GameState(self.game_state))
        object.__setattr__(self, "resignation", Resignation(self.resignation))
        object.__setattr__(self, "dice", tuple(self.dice))
        object.__setattr__(self, "score", tuple(self.score))
        problems = self.defects()
        if problems:
            raise InvalidFormat("a Match ID cannot hold this state: " + "; ".join(problems))

    def defects(self) -> list[str]:
        """Every value here that a Match ID cannot hold, or that contradicts another."""
        problems = []
        value = self.cube_value
        if value < 1 or value & (value - 1) or value > 1 << MAX_CUBE_LOG2:
            problems.append(f"the cube shows {value}, not a power of two from 1 to 32768")
        if self.cube_owner not in (None, 0, 1):
            problems.append(f"cube owner {self.cube_owner!r} is not player 0, 1 or None (centred)")
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                problems.append(f"{name} is {getattr(self, name)!r}, not player 0 or 1")
        if len(self.dice) != 2 or any(not 0 <= die <= 6 for die in self.dice):
            problems.append(f"dice {self.dice!r} are not two values from 1 to 6 (0, 0 unrolled)")
        elif (self.dice[0] == 0) != (self.dice[1] == 0):
            problems.append(f"dice {self.dice!r} show one die rolled and one not")
        if not 0 <= self.match_length <= MAX_FIELD:
            problems.append(f"match length {self.match_length} is outside 0-{MAX_FIELD}")
        if len(self.score) != 2 or any(not 0 <= points <= MAX_FIELD for points in self.score):
            problems.append(f"score {self.score!r} is not two counts from 0 to {MAX_FIELD}")
        elif self.match_length and max(self.score) > self.match_length:
            problems.append(
                f"score {self.score[0]}-{self.score[1]} is past the match length "
                f"{self.match_length}"
            )
        if self.crawford and not self.match_length:
            problems.append("a money game has no Crawford game")
        return problems


def encode(state: MatchIdState) -> str:
    """The Match ID of ``state``."""
    values = {
        "cube_log2": state.cube_value.bit_length() - 1,
        "cube_owner": _CENTRED if state.cube_owner is None else state.cube_owner,
        "player_on_roll": state.player_on_roll,
        "crawford": int(state.crawford),
        "game_state": int(state.game_state),
        "turn": state.turn,
        "double_offered": int(state.double_offered),
        "resignation": int(state.resignation),
        "die_1": state.dice[0],
        "die_2": state.dice[1],
        "match_length": state.match_length,
        "score_0": state.score[0],
        "score_1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }
    key = 0
    for name, first, _width in _FIELDS:
        key |= values[name] << first
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode(text: str) -> MatchIdState:
    """The state a Match ID describes.

    Raises :class:`InvalidFormat` naming the problem: a wrong length, a character outside
    base64, or a field with a value GNU Backgammon never writes.
    """
    stripped = text.strip()
    if len(stripped) != LENGTH:
        raise InvalidFormat(
            f"a Match ID has {LENGTH} characters, {stripped!r} has {len(stripped)}; {_EXAMPLE}"
        )
    if _ALPHABET.fullmatch(stripped) is None:
        bad = "".join(sorted({char for char in stripped if not _ALPHABET.fullmatch(char)}))
        raise InvalidFormat(
            f"Match ID {stripped!r} has characters outside base64 ({bad!r}); {_EXAMPLE}"
        )
    key = int.from_bytes(base64.b64decode(stripped), "little")
    if key >> _USED_BITS:
        raise InvalidFormat(
            f"Match ID {stripped!r} sets bits past the 67 a Match ID uses; {_EXAMPLE}"
        )
    fields = {name: (key >> first) & ((1 << width) - 1) for name, first, width in _FIELDS}
    problems = []
    if fields["cube_owner"] == 2:
        problems.append("the cube owner field is 2 (only 0, 1 and 3 = centred exist)")
    if fields["game_state"] > max(GameState):
        problems.append(f"the game state field is {fields['game_state']} (only 0-4 exist)")
    if problems:
        raise InvalidFormat(f"Match ID {stripped!r}: " + "; ".join(problems) + f"; {_EXAMPLE}")
    try:
        return MatchIdState(
            cube_value=1 << fields["cube_log2"],
            cube_owner=None if fields["cube_owner"] == _CENTRED else fields["cube_owner"],
            player_on_roll=fields["player_on_roll"],
            crawford=bool(fields["crawford"]),
            game_state=GameState(fields["game_state"]),
            turn=fields["turn"],
            double_offered=bool(fields["double_offered"]),
            resignation=Resignation(fields["resignation"]),
            dice=(fields["die_1"], fields["die_2"]),
            match_length=fields["match_length"],
            score=(fields["score_0"], fields["score_1"]),
            jacoby=not fields["no_jacoby"],
        )
    except InvalidFormat as error:
        raise InvalidFormat(f"Match ID {stripped!r}: {error}; {_EXAMPLE}") from error


def is_match_id(text: str) -> bool:
    """Whether ``text`` looks like a Match ID (12 base64 characters), without decoding it."""
    stripped = text.strip()
    return len(stripped) == LENGTH and _ALPHABET.fullmatch(stripped) is not None
