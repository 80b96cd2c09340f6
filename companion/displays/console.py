"""The console display: the game as lines of text on a terminal (or any text stream).

Each call writes at once and flushes, so the text appears even when the output is a pipe. A
verdict is one line with a fixed-width tag (``[LEGAL]``, ``[ILLEGAL]``, ...) that a glance or
``grep`` finds; the board is drawn by :meth:`Position.diagram` from the side of the player on
roll, white's checkers marked ``W`` and black's ``B``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TextIO

from companion.displays.base import (
    Board,
    DisplayBase,
    Status,
    Verdict,
    check_count,
    check_dice,
    score_line,
)
from companion.rules.position import AbsoluteBoard, Colour, Position

TAGS = {
    Status.LEGAL: "[LEGAL]",
    Status.ILLEGAL: "[ILLEGAL]",
    Status.WAITING: "[WAIT]",
    Status.REROLL: "[REROLL]",
    Status.GAME_OVER: "[GAME OVER]",
    Status.INFO: "[INFO]",
    Status.WARNING: "[WARNING]",
}
SYMBOLS = {Colour.WHITE: "W", Colour.BLACK: "B"}


class ConsoleDisplay(DisplayBase):
    """Writes the game to ``stream`` (standard output by default).

    ``board=False`` leaves out the board pictures (for a terminal beside the real board).
    """

    name = "console"

    def __init__(self, stream: TextIO | None = None, *, board: bool = True) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.board = board

    def _write(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def show_verdict(self, verdict: Verdict) -> None:
        line = f"{TAGS[verdict.status]:<11} {verdict.headline}"
        if verdict.detail:
            line += f"\n{'':<11} {verdict.detail}"
        self._write(line)

    def show_turn(self, colour: Colour | str, player: str = "") -> None:
        on_roll = Colour.parse(str(colour))
        who = f"{player} ({on_roll.value})" if player else on_roll.value
        self._write(f"{who} to play")

    def show_dice(self, a: int, b: int) -> None:
        check_dice(a, b)
        self._write(f"dice: {a}-{b}")

    def show_score(self, scores: Mapping[str, int], match_length: int, crawford: bool) -> None:
        self._write("score: " + score_line(scores, match_length, crawford))

    def show_pips(self, white: int, black: int) -> None:
        check_count("white's pip count", white)
        check_count("black's pip count", black)
        self._write(f"pips: white {white}, black {black}")

    def show_board(self, board: Board, on_roll: Colour | str = Colour.WHITE) -> None:
        if not self.board:
            return
        self._write(board_picture(board, on_roll))

    def show_message(self, text: str) -> None:
        self._write(text)

    def clear(self) -> None:
        self._write("-" * 50)


def board_picture(board: Board, on_roll: Colour | str = Colour.WHITE) -> str:
    """The board as text, from the side of the player on roll, with white ``W`` and black ``B``.

    >>> for line in board_picture(Position.opening(), "white").splitlines()[:2]:
    ...     print(line)
    white on roll (W = white, B = black; points numbered for white)
     13  14  15  16  17  18 | 19  20  21  22  23  24
    """
    colour = Colour.parse(str(on_roll))
    position = (
        Position.from_absolute(board.points, board.bar, board.off, colour)
        if isinstance(board, AbsoluteBoard)
        else board
    )
    mover, opponent = SYMBOLS[colour], SYMBOLS[colour.opponent]
    return (
        f"{colour.value} on roll ({mover} = {colour.value}, {opponent} = "
        f"{colour.opponent.value}; points numbered for {colour.value})\n"
        + position.diagram(mover, opponent)
    )
