"""Legal plays: every distinct way to play a roll, distinct by the position it leaves.

A camera sees only end positions, so legality here is the set of reachable end positions, as in
GNU Backgammon: generate the plays recursively, keep those that use the most dice, and among
plays of a single die the higher die when it can be played. The die-order rule (a die playable
only after the other forces that order) falls out of trying both orders.

Conventions: positions are seen from the player on roll (``companion.rules.position``); a move
goes from a higher point to a lower one, 25 is the bar and 0 is off.

Speed matters (the referee judges every settled board, and benchmarks/rules.py measures this
module), so the inner loops work on plain lists and integers and build value objects only for
the distinct results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.errors import InvalidDice
from companion.rules.position import BAR, OFF, Position

RawMove = tuple[int, int, bool]
"""``(from, to, hit)`` in the mover's numbering: the inner loop's cheap form of a move."""


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """One checker moved by one die (or a merged run of one checker, in parsed notation)."""

    source: int
    destination: int
    hit: bool = False

    @property
    def distance(self) -> int:
        return self.source - self.destination


@dataclass(frozen=True, slots=True)
class Play:
    """The moves of one turn in the order they were made; ``str()`` gives GNU notation."""

    moves: tuple[Move, ...]

    def __str__(self) -> str:
        from companion.rules.notation import format_play

        return format_play(self)

    def __len__(self) -> int:
        return len(self.moves)


class LegalPlay:
    """A legal way to play the roll and the position it leaves (still seen from the mover).

    The :class:`Play` is built only when asked for: the referee mostly compares end positions,
    and building notation objects for hundreds of doubles plays would dominate the time.
    """

    __slots__ = ("_play", "_raw", "after", "dice_used")

    def __init__(
        self, raw: tuple[RawMove, ...], after: Position, dice_used: tuple[int, ...]
    ) -> None:
        self._raw = raw
        self._play: Play | None = None
        self.after = after
        self.dice_used = dice_used

    @property
    def play(self) -> Play:
        if self._play is None:
            self._play = Play(tuple(Move(s, d, h) for s, d, h in self._raw))
        return self._play

    def __str__(self) -> str:
        return str(self.play)

    def __repr__(self) -> str:
        return f"LegalPlay({str(self.play)!r})"


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Validates a roll: exactly two dice, each 1-6. Raises :class:`InvalidDice`."""
    values = tuple(dice)
    if len(values) != 2:
        raise InvalidDice(f"a roll is two dice, got {len(values)}: give two numbers from 1 to 6")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise InvalidDice(f"a die shows 1 to 6, got {value!r}")
    return values[0], values[1]


class _Board:
    """Mutable scratch board for the generator: the mover's counts plus what blocks and hits."""

    __slots__ = ("blocked", "blot", "mover", "opponent")

    def __init__(self, position: Position) -> None:
        self.mover = list(position.mover)
        self.opponent = position.opponent
        opponent = position.opponent
        # Indexed by the mover's point numbers; index 0 (off) never blocks.
        self.blocked = [False] + [opponent[25 - p] >= 2 for p in range(1, 25)] + [False]
        self.blot = [False] + [opponent[25 - p] == 1 for p in range(1, 25)] + [False]

    def single_moves(self, die: int, highest_source: int = BAR) -> list[tuple[int, int]]:
        """Every ``(from, to)`` one die allows, from points no higher than ``highest_source``."""
        mover = self.mover
        if mover[BAR]:
            destination = BAR - die
            return [] if self.blocked[destination] else [(BAR, destination)]
        highest = 24
        while highest and not mover[highest]:
            highest -= 1
        bearing_off = highest <= 6
        blocked = self.blocked
        found = []
        for source in range(min(highest, highest_source), 0, -1):
            if mover[source]:
                destination = source - die
                if destination > 0:
                    if not blocked[destination]:
                        found.append((source, destination))
                elif bearing_off and (destination == 0 or source == highest):
                    found.append((source, OFF))
        return found


def _result_key(mover: list[int], hits: int) -> tuple[tuple[int, ...], int]:
    return tuple(mover), hits


def generate_plays(position: Position, dice: Sequence[int]) -> list[LegalPlay]:
    """Every legal play of ``dice`` in ``position``, one per distinct resulting position.

    An empty list means no checker can move and the roll is forfeited. Raises
    :class:`InvalidDice` for a roll that is not two dice of 1-6.

    >>> from companion.rules.position import Position
    >>> sorted(str(p) for p in generate_plays(Position.opening(), (6, 5)))[:3]
    ['13/2', '13/7 8/3', '13/8 13/7']
    >>> len(generate_plays(Position.opening(), (4, 3)))
    17
    """
    first, second = check_dice(dice)
    board = _Board(position)
    if first == second:
        found = _doubles(board, first)
    else:
        found = _non_doubles(board, max(first, second), min(first, second))
    opponent = position.opponent
    after_hits = {0: opponent}
    trusted = Position.trusted
    plays = []
    for (mover, hits), (moves, used) in found.items():
        theirs = after_hits.get(hits)
        if theirs is None:
            theirs = after_hits[hits] = _after_hits(opponent, hits)
        plays.append(LegalPlay(moves, trusted(mover, theirs), used))
    return plays


def _after_hits(opponent: tuple[int, ...], hits: int) -> tuple[int, ...]:
    if not hits:
        return opponent
    counts = list(opponent)
    for point in range(1, 25):
        if hits >> point & 1:
            counts[25 - point] -= 1
            counts[BAR] += 1
    return tuple(counts)


Found = dict[tuple[tuple[int, ...], int], tuple[tuple[RawMove, ...], tuple[int, ...]]]


def _non_doubles(board: _Board, high: int, low: int) -> Found:
    mover = board.mover
    blot = board.blot
    both: Found = {}
    single: dict[int, Found] = {high: {}, low: {}}
    for die, other in ((high, low), (low, high)):
        for source, destination in board.single_moves(die):
            hit = blot[destination]
            mover[source] -= 1
            mover[destination] += 1
            hits = (1 << destination) if hit else 0
            first_move = (source, destination, hit)
            follow_ups = board.single_moves(other)
            if follow_ups:
                for source2, destination2 in follow_ups:
                    hit2 = blot[destination2] and not hits >> destination2 & 1
                    mover[source2] -= 1
                    mover[destination2] += 1
                    key = (tuple(mover), hits | (1 << destination2) if hit2 else hits)
                    if key not in both:
                        both[key] = ((first_move, (source2, destination2, hit2)), (die, other))
                    mover[source2] += 1
                    mover[destination2] -= 1
            elif not both:
                key = (tuple(mover), hits)
                if key not in single[die]:
                    single[die][key] = ((first_move,), (die,))
            mover[source] += 1
            mover[destination] -= 1
    if both:
        return both
    return single[high] or single[low]


def _doubles(board: _Board, die: int) -> Found:
    """Doubles: four moves of one number, sources taken in non-increasing order.

    Any play of doubles can be reordered so that its sources never increase (entering from the
    bar comes first, checkers brought home early only help bearing off), so this order reaches
    every result once without trying all permutations. Blocks never change during a turn, so
    the candidate moves are listed once, highest source first, and each level of the search
    resumes the list where its parent stood.
    """
    mover = board.mover
    blot = board.blot
    blocked = board.blocked
    candidates = [(s, s - die) for s in range(24, die, -1) if not blocked[s - die]]
    candidates += [(s, OFF) for s in range(min(die, 6), 0, -1)]
    count = len(candidates)
    full: Found = {}
    partial: list[Found] = [{}, {}, {}, {}]
    moves: list[RawMove] = []
    outside = sum(mover[7:26])

    def record_partial(depth: int, hits: int) -> None:
        if depth and not full:
            key = (tuple(mover), hits)
            if key not in partial[depth]:
                partial[depth][key] = (tuple(moves), (die,) * depth)

    def extend(start: int, hits: int, depth: int) -> None:
        nonlocal outside
        if depth == 4:
            key = (tuple(mover), hits)
            if key not in full:
                full[key] = (tuple(moves), (die, die, die, die))
            return
        if mover[BAR]:
            entry = BAR - die
            if blocked[entry]:
                record_partial(depth, hits)
                return
            hit = blot[entry] and not hits >> entry & 1
            mover[BAR] -= 1
            mover[entry] += 1
            moves.append((BAR, entry, hit))
            if entry <= 6:
                outside -= 1
            extend(0, hits | (1 << entry) if hit else hits, depth + 1)
            if entry <= 6:
                outside += 1
            moves.pop()
            mover[BAR] += 1
            mover[entry] -= 1
            return
        moved = False
        for index in range(start, count):
            source, destination = candidates[index]
            if not mover[source]:
                continue
            if destination == OFF:
                if outside:
                    continue
                if source != die:
                    highest = 6
                    while not mover[highest]:
                        highest -= 1
                    if source != highest:
                        continue
            moved = True
            hit = blot[destination] and not hits >> destination & 1
            mover[source] -= 1
            mover[destination] += 1
            if depth == 3:
                # The fourth move ends the play: record it here rather than in a call.
                key = (tuple(mover), hits | (1 << destination) if hit else hits)
                if key not in full:
                    full[key] = ((*moves, (source, destination, hit)), (die, die, die, die))
                mover[source] += 1
                mover[destination] -= 1
                continue
            moves.append((source, destination, hit))
            arrives_home = source > 6 >= destination
            if arrives_home:
                outside -= 1
            extend(index, hits | (1 << destination) if hit else hits, depth + 1)
            if arrives_home:
                outside += 1
            moves.pop()
            mover[source] += 1
            mover[destination] -= 1
        if not moved:
            record_partial(depth, hits)

    extend(0, 0, 0)
    if full:
        return full
    for depth in (3, 2, 1):
        if partial[depth]:
            return partial[depth]
    return {}


def legal_results(position: Position, dice: Sequence[int]) -> set[Position]:
    """The set of positions the roll can legally produce (the camera's view of legality)."""
    return {play.after for play in generate_plays(position, dice)}


def apply_moves(position: Position, moves: Iterable[Move]) -> Position:
    """Makes the moves in order, hitting any blot a checker lands on; checks only physics.

    Used to turn a typed play into the board it describes before judging it, so it accepts
    moves the rules forbid (a checker landing on a blocked point gives a position with a shared
    point, which the judge then explains) but refuses moves from an empty point.
    Raises :class:`companion.errors.InvalidPlay`.
    """
    from companion.errors import InvalidPlay

    mover = list(position.mover)
    opponent = list(position.opponent)
    for move in moves:
        if not 0 <= move.destination < move.source <= BAR:
            raise InvalidPlay(
                f"{_name(move.source)}/{_name(move.destination)} does not move toward home: "
                "checkers move from higher to lower points"
            )
        if mover[move.source] == 0:
            raise InvalidPlay(
                f"there is no checker to move on the {_name(move.source)}",
                part=f"{_name(move.source)}/{_name(move.destination)}",
            )
        mover[move.source] -= 1
        mover[move.destination] += 1
        if move.destination != OFF and opponent[25 - move.destination] == 1:
            opponent[25 - move.destination] = 0
            opponent[BAR] += 1
    return Position.trusted(tuple(mover), tuple(opponent))


def _name(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)
