"""The one error root of the project.

Every error the program raises on purpose subclasses :class:`CompanionError` *and* the builtin
that describes it best (``ValueError`` for bad input, ``OSError`` for devices and files), so that
callers can catch either. Each carries the fields a caller needs to explain it to a player.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error raised on purpose by the companion."""


class InvalidPosition(CompanionError, ValueError):
    """A position breaks the physical facts of the game.

    ``defects`` lists every problem found, not just the first, so a player fixing a position by
    hand sees everything to fix at once.
    """

    def __init__(self, defects: list[str] | str) -> None:
        self.defects: list[str] = [defects] if isinstance(defects, str) else list(defects)
        super().__init__("; ".join(self.defects))


class InvalidDice(CompanionError, ValueError):
    """Dice values outside 1-6, or not exactly two of them."""


class InvalidPlay(CompanionError, ValueError):
    """A play text that cannot be parsed, or a play that cannot be made in the position.

    ``text`` is the whole text and ``part`` the piece that is wrong, when one piece is to blame.
    """

    def __init__(self, message: str, text: str = "", part: str = "") -> None:
        self.text = text
        self.part = part
        super().__init__(message)


class InvalidFormat(CompanionError, ValueError):
    """A Position ID, Match ID, XGID, journal or other encoded text that cannot be decoded."""


class IllegalAction(CompanionError, ValueError):
    """A game action (double, take, resign, ...) that the rules do not allow at this moment."""
