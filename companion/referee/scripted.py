"""Readings made from positions, for scripted games: tests, benchmarks and replays.

A scripted game feeds the referee the Readings a perfect camera would produce, so every rule
of the referee can be exercised without images. Boards are given as rules positions (seen
from the player on roll, as the engine sees them) or as absolute boards, dice by value and
where they rest.

>>> from companion.rules import Colour, Position
>>> seen = reading_of(Position.opening(), Colour.WHITE, [die(3), die(1)])
>>> seen.points[5], seen.points[18], [d.value for d in seen.dice]
(5, -5, [3, 1])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from companion.geometry import Half
from companion.rules import AbsoluteBoard, Colour, Position, apply_moves, generate_plays, judge
from companion.rules.match import MatchState, game_result
from companion.vision.reading import Counts, DieReading, Reading

if TYPE_CHECKING:
    from companion.referee.machine import Referee, Step


def die(
    value: int, half: Half = "home", *, flat: bool = True, on_checker: bool = False
) -> DieReading:
    """A die showing ``value`` resting in ``half`` (pixel centre made up from the value)."""
    return DieReading(
        value=value,
        flat=flat,
        half=half,
        center_px=(100.0 * value, 300.0),
        on_checker=on_checker,
    )


def reading_of(
    board: Position | AbsoluteBoard,
    on_roll: Colour = Colour.WHITE,
    dice: Sequence[DieReading] = (),
) -> Reading:
    """The Reading of ``board`` (a position seen from ``on_roll``, or an absolute board)."""
    absolute = board.to_absolute(on_roll) if isinstance(board, Position) else board
    return Reading(
        readable=True,
        points=tuple(absolute.points),
        bar=Counts(absolute.bar["white"], absolute.bar["black"]),
        off=Counts(absolute.off["white"], absolute.off["black"]),
        dice=tuple(dice),
    )


def after_play(position: Position, dice: tuple[int, int], play: str) -> Position:
    """The position a legal ``play`` leaves, still seen from the player who moved.

    Raises :class:`ValueError` (with the judge's reason) when the play is not legal.
    """
    verdict = judge(position, dice, play)
    if not verdict.legal or verdict.after is None:
        raise ValueError(f"{play!r} with {dice}: {verdict.reason}")
    return verdict.after


def moved(board: AbsoluteBoard, changes: dict[int, int]) -> AbsoluteBoard:
    """``board`` with white's points changed by ``{point: delta}`` (signed like the Reading)."""
    points = list(board.points)
    for point, delta in changes.items():
        points[point - 1] += delta
    return AbsoluteBoard(tuple(points), dict(board.bar), dict(board.off))


Scripted = Reading | str
"""One step of a scripted match: a still board (a Reading) or a control name (``"double"``)."""


def right_half(colour: Colour) -> Half:
    """The roller's right-hand half on an unmirrored board."""
    return "home" if colour is Colour.WHITE else "outer"


class ScriptedMatch(NamedTuple):
    """The steps of a scripted match and the match state they must lead to."""

    steps: list[Scripted]
    final: MatchState


def scripted_match(length: int, seed: int = 1, *, mistakes: bool = True) -> ScriptedMatch:
    """A whole match as the still states a camera would see, and the buttons pressed.

    Each player rolls, plays a random legal play (seeded, so the match is the same every time),
    and picks up the dice; the player on roll sometimes doubles, and the other takes or drops.
    With ``mistakes`` the players also throw a cocked die now and then, play an illegal move
    and correct it, and take a move back, so that every path of the referee is exercised.
    Ends when the match is won.
    """
    rng = random.Random(seed)
    match = MatchState.new_match(length) if length else MatchState.new_money_game()
    steps: list[Scripted] = []
    games = 0
    while not match.is_over and (length or games < 3):
        games += 1
        steps.append(reading_of(Position.opening()))
        while True:
            white, black = rng.randint(1, 6), rng.randint(1, 6)
            dice = [die(white, "home"), die(black, "outer")]
            steps.append(reading_of(Position.opening(), dice=dice))
            steps.append(reading_of(Position.opening()))  # picked up again (a tie) or not
            if white != black:
                steps.pop()
                break
        match = match.start_game(white, black)
        position = Position.opening()
        on_roll = match.on_roll
        assert on_roll is not None
        roll_dice = dice
        first = True
        while True:
            if not first:
                if mistakes and rng.random() < 0.05:
                    cocked = [
                        die(rng.randint(1, 6), right_half(on_roll), flat=False),
                        die(rng.randint(1, 6), right_half(on_roll)),
                    ]
                    steps.append(reading_of(position, on_roll, cocked))
                    steps.append(reading_of(position, on_roll))
                if rng.random() < 0.08 and match.can_double(on_roll):
                    steps.append("double")
                    match = match.double(on_roll)
                    if rng.random() < 0.3:
                        steps.append("drop")
                        match = match.pass_double(on_roll.opponent)
                        break
                    steps.append("take")
                    match = match.take(on_roll.opponent)
                roll = (rng.randint(1, 6), rng.randint(1, 6))
                match = match.roll(roll)
                roll_dice = [die(roll[0], right_half(on_roll)), die(roll[1], right_half(on_roll))]
                steps.append(reading_of(position, on_roll, roll_dice))
            first = False
            assert match.dice is not None
            plays = generate_plays(position, match.dice)
            if plays:
                chosen = plays[rng.randrange(len(plays))]
                if mistakes and rng.random() < 0.1 and len(plays) > 1:
                    other = plays[rng.randrange(len(plays))]
                    steps.append(reading_of(other.after, on_roll, roll_dice))  # then taken back
                    steps.append(reading_of(position, on_roll, roll_dice))
                if mistakes and rng.random() < 0.1 and len(chosen.play.moves) >= 2:
                    # Half the play only: illegal while both dice can be played.
                    half = apply_moves(position, chosen.play.moves[:1])
                    if half not in {p.after for p in plays}:
                        steps.append(reading_of(half, on_roll, roll_dice))
                after = chosen.after
            else:
                after = position
            steps.append(reading_of(after, on_roll, roll_dice))
            steps.append(reading_of(after, on_roll))  # the dice picked up
            result = game_result(after)
            if result is not None:
                match = match.finish_game(on_roll, result)
                break
            match = match.end_turn()
            position = after.flip()
            on_roll = on_roll.opponent
        if match.is_over:
            break
    return ScriptedMatch(steps, match)


def play_script(
    referee: Referee,
    steps: Iterable[Scripted],
    *,
    frames: int = 3,
    start: float = 0.0,
    interval: float = 0.05,
) -> Iterator[tuple[float, Step]]:
    """Feeds a script to ``referee`` as a camera would (each still state for ``frames``
    frames, ``interval`` seconds apart) and yields every non-empty step with its time."""
    now = start
    for item in steps:
        if isinstance(item, str):
            now += interval
            yield now, referee.control(item, now)
            continue
        for _ in range(frames):
            now += interval
            step = referee.feed(item, now)
            if step.events or step.verdicts:
                yield now, step
