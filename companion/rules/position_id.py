"""GNU Backgammon Position ID: a whole board in 14 characters.

The ID is the one GNU Backgammon shows under its board and accepts in ``set board``. Its key is
a string of 80 bits: for the player *not* on roll and then for the player on roll, walk that
player's points 1..24 and then the bar, writing a ``1`` for each checker and a ``0`` after each
point. Borne-off checkers are implied (fifteen less those on the board), so at most 30 ones and
exactly 50 zeros are written; zeros pad the string to 80 bits. The bits fill ten bytes lowest
bit first, and the bytes are written in base64 without its ``==`` padding.

Conventions are those of :mod:`companion.rules.position`: the decoded position is seen from the
player on roll. An ID does not say which colour is on roll.

>>> from companion.rules.position import Position
>>> encode(Position.opening())
'4HPwATDgc/ABMA'
>>> decode('4HPwATDgc/ABMA') == Position.opening()
True
>>> decode('4HPwATDgc/ABM')
Traceback (most recent call last):
...
companion.errors.InvalidFormat: a Position ID has 14 characters, '4HPwATDgc/ABM' has 13; ...
"""

from __future__ import annotations

import base64
import binascii
import re

from companion.errors import InvalidFormat, InvalidPosition
from companion.rules.position import BAR, CHECKERS_PER_SIDE, OFF, Position

LENGTH = 14
KEY_BITS = 80
_SLOTS = range(1, BAR + 1)  # points 1..24, then the bar (25)
_ALPHABET = re.compile(r"[A-Za-z0-9+/]*")
_EXAMPLE = (
    "a valid ID is 14 characters of A-Z, a-z, 0-9, + and /, like 4HPwATDgc/ABMA (the opening)"
)


def encode(position: Position) -> str:
    """The Position ID of ``position`` (the player on roll is the one who moves next)."""
    key = 0
    bit = 0
    for side in (position.opponent, position.mover):
        for slot in _SLOTS:
            count = side[slot]
            key |= ((1 << count) - 1) << bit  # `count` ones, then the 0 after the point
            bit += count + 1
    return base64.b64encode(key.to_bytes(KEY_BITS // 8, "little")).decode("ascii")[:LENGTH]


def decode(text: str) -> Position:
    """The position a Position ID describes, seen from the player on roll.

    Raises :class:`InvalidFormat` saying what is wrong: a wrong length, a character outside
    base64, more than fifteen checkers for a side, bits past the end of the board, or a point
    held by both sides.
    """
    key = _key(text.strip())
    sides: list[list[int]] = []
    bit = 0
    for owner in ("the player not on roll", "the player on roll"):
        counts = [0] * (BAR + 1)
        for slot in _SLOTS:
            while bit < KEY_BITS and (key >> bit) & 1:
                counts[slot] += 1
                bit += 1
            bit += 1  # the 0 that closes the point
            if sum(counts) > CHECKERS_PER_SIDE or bit > KEY_BITS:
                raise InvalidFormat(
                    f"Position ID {text.strip()!r} gives {owner} more than {CHECKERS_PER_SIDE} "
                    f"checkers; {_EXAMPLE}"
                )
        counts[OFF] = CHECKERS_PER_SIDE - sum(counts)
        sides.append(counts)
    if key >> bit:
        raise InvalidFormat(
            f"Position ID {text.strip()!r} has bits set after the last point: it was not made by "
            f"a Position ID encoder; {_EXAMPLE}"
        )
    try:
        return Position(tuple(sides[1]), tuple(sides[0]))
    except InvalidPosition as error:
        raise InvalidFormat(
            f"Position ID {text.strip()!r} describes an impossible board: {error}; {_EXAMPLE}"
        ) from error


def is_position_id(text: str) -> bool:
    """Whether ``text`` looks like a Position ID (14 base64 characters), without decoding it."""
    stripped = text.strip()
    return len(stripped) == LENGTH and _ALPHABET.fullmatch(stripped) is not None


def _key(text: str) -> int:
    if len(text) != LENGTH:
        raise InvalidFormat(
            f"a Position ID has {LENGTH} characters, {text!r} has {len(text)}; {_EXAMPLE}"
        )
    if _ALPHABET.fullmatch(text) is None:
        bad = sorted({char for char in text if not _ALPHABET.fullmatch(char)})
        raise InvalidFormat(
            f"Position ID {text!r} has characters outside base64 ({''.join(bad)!r}); {_EXAMPLE}"
        )
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except binascii.Error as error:  # pragma: no cover - the alphabet check above rules it out
        raise InvalidFormat(f"Position ID {text!r} is not base64; {_EXAMPLE}") from error
    if raw[KEY_BITS // 8 :] or _low_bits(text[-1]):
        raise InvalidFormat(
            f"Position ID {text!r} ends in {text[-1]!r}, which carries bits past the 80 a "
            f"position uses; {_EXAMPLE}"
        )
    return int.from_bytes(raw[: KEY_BITS // 8], "little")


def _low_bits(char: str) -> int:
    """The last character holds 2 bits of the key and 4 bits that must be zero."""
    value = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".index(char)
    return value & 0b1111
