"""Reading a position typed by a player, in whichever form they have at hand.

Every command that takes a POSITION argument calls :func:`parse_position`. It accepts:

* ``opening`` (or ``start``): the starting position;
* a GNU Backgammon Position ID, bare (``4HPwATDgc/ABMA``), labelled (``Position ID:
  4HPwATDgc/ABMA``), or paired with a Match ID as GNU Backgammon copies them
  (``4HPwATDgc/ABMA:cAkAAAAAAAAA``, or ``Position ID: ... Match ID: ...``);
* an XGID (``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10``, prefix optional).

The position comes back seen from the player on roll. Who that is, and the dice, are known only
when the text says so: an XGID always names the side on roll; a Match ID names a GNU Backgammon
player (white is player 1, see :mod:`companion.rules.match_id`); a bare Position ID does not.

>>> parsed = parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:7:10")
>>> parsed.position == Position.opening(), parsed.on_roll, parsed.dice
(True, <Colour.BLACK: 'black'>, (3, 1))
>>> parse_position("Position ID: 4HPwATDgc/ABMA").on_roll is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.errors import InvalidFormat
from companion.rules import match_id, position_id, xgid
from companion.rules.match_id import COLOUR_OF_PLAYER, MatchIdState
from companion.rules.position import Colour, Position
from companion.rules.xgid import XgidState

ACCEPTED_FORMS = (
    "'opening'; a GNU Backgammon Position ID like 4HPwATDgc/ABMA (optionally 'Position ID: ...' "
    "or followed by ':' and a Match ID, like 4HPwATDgc/ABMA:cAkAAAAAAAAA); or an XGID like "
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
)
_OPENING_WORDS = {"opening", "start", "starting", "initial"}
_LABELS = re.compile(r"(gnu\s*backgammon|gnubg|position\s*id|match\s*id)\s*:?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ParsedPosition:
    """A position read from text, with what the text said about the turn.

    ``on_roll`` and ``dice`` are ``None`` when the text does not say; ``match`` and ``xgid``
    hold the full Match ID or XGID state when one was given.
    """

    position: Position
    on_roll: Colour | None = None
    dice: tuple[int, int] | None = None
    match: MatchIdState | None = None
    xgid: XgidState | None = None


def parse_position(text: str) -> ParsedPosition:
    """Reads ``opening``, a Position ID (with an optional Match ID) or an XGID.

    Raises :class:`InvalidFormat`: the decoder's own message when the text is recognisably one
    format but broken, or a list of the accepted forms when it is none of them.
    """
    stripped = text.strip()
    if not stripped:
        raise InvalidFormat(f"no position given; write {ACCEPTED_FORMS}")
    if stripped.lower() in _OPENING_WORDS:
        return ParsedPosition(Position.opening())
    if xgid.is_xgid(stripped):
        state = xgid.decode(stripped)
        return ParsedPosition(state.position, state.on_roll, state.dice, xgid=state)
    tokens = [token for token in re.split(r"[\s:]+", _LABELS.sub(" ", stripped)) if token]
    if len(tokens) == 1 and position_id.is_position_id(tokens[0]):
        return ParsedPosition(position_id.decode(tokens[0]))
    if len(tokens) == 2 and position_id.is_position_id(tokens[0]):
        if not match_id.is_match_id(tokens[1]):
            raise InvalidFormat(
                f"{tokens[1]!r} after the Position ID is not a Match ID (12 characters like "
                f"cAkAAAAAAAAA); write {ACCEPTED_FORMS}"
            )
        board = position_id.decode(tokens[0])
        match = match_id.decode(tokens[1])
        dice = match.dice if match.dice != (0, 0) else None
        return ParsedPosition(board, COLOUR_OF_PLAYER[match.player_on_roll], dice, match=match)
    if len(tokens) == 1 and match_id.is_match_id(tokens[0]):
        raise InvalidFormat(
            f"{tokens[0]!r} looks like a Match ID, which holds no board: give the Position ID "
            f"before it, like 4HPwATDgc/ABMA:{tokens[0]}"
        )
    if len(tokens) == 1 and 10 <= len(tokens[0]) <= 18:
        position_id.decode(tokens[0])  # nearly a Position ID: raises its precise complaint
    raise InvalidFormat(
        f"{stripped!r} is not a position this program can read; write {ACCEPTED_FORMS}"
    )
