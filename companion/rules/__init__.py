"""The rules of backgammon, pure and exact: positions, legal plays, notation and judging.

Everything here is seen from the player on roll (see :mod:`companion.rules.position`) and does
no I/O. The usual entry points:

>>> from companion.rules import Position, generate_plays, judge
>>> len(generate_plays(Position.opening(), (3, 1)))
16
>>> str(judge(Position.opening(), (3, 1), "8/5 6/5"))
'legal: 8/5 6/5'
"""

from companion.rules import match, match_id, position_id, xgid
from companion.rules.judge import Verdict, judge
from companion.rules.match import CubeState, GameResult, MatchState, game_result
from companion.rules.moves import (
    LegalPlay,
    Move,
    Play,
    apply_moves,
    check_dice,
    generate_plays,
    legal_results,
)
from companion.rules.notation import TypedMove, format_play, parse_play
from companion.rules.parse import ParsedPosition, parse_position
from companion.rules.position import BAR, OFF, AbsoluteBoard, Colour, Position

__all__ = [
    "BAR",
    "OFF",
    "AbsoluteBoard",
    "Colour",
    "CubeState",
    "GameResult",
    "LegalPlay",
    "MatchState",
    "Move",
    "ParsedPosition",
    "Play",
    "Position",
    "TypedMove",
    "Verdict",
    "apply_moves",
    "check_dice",
    "format_play",
    "game_result",
    "generate_plays",
    "judge",
    "legal_results",
    "match",
    "match_id",
    "parse_play",
    "parse_position",
    "position_id",
    "xgid",
]
