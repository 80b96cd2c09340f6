"""Properties every legal play keeps, on random positions, against a plain second engine.

The reference generator below is written straight from the rule book, as slowly and simply as
possible (every order of the dice, every checker, then the rules' filters), so that the fast
engine is checked against the rules rather than against a list of known cases.
"""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import Position, apply_moves, generate_plays, judge
from companion.rules.position import BAR, OFF


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Random sound positions, weighted toward the tricky parts: bar, blocks, bearing off."""
    mover = [0] * 26
    opponent = [0] * 26
    late = draw(st.booleans())
    top = 9 if late else 25
    for side, other in ((mover, opponent), (opponent, mover)):
        left = 15
        while left:
            # Checkers go in small groups, so that made points (blocks) are common.
            group = min(left, draw(st.integers(1, 3)))
            left -= group
            where = draw(st.integers(0, top))
            if where not in (OFF, BAR) and other[25 - where]:
                where = OFF
            side[where] += group
    return Position(tuple(mover), tuple(opponent))


dice_strategy = st.tuples(st.integers(1, 6), st.integers(1, 6))


def reference_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """Legal end positions by the rule book, without any of the engine's shortcuts."""
    orders = [dice * 2] if dice[0] == dice[1] else list(permutations(dice))
    ends: list[tuple[Position, tuple[int, ...]]] = []

    def step(board: Position, remaining: tuple[int, ...], used: tuple[int, ...]) -> None:
        moved = False
        if remaining:
            die = remaining[0]
            for source in range(25, 0, -1):
                if not board.mover[source]:
                    continue
                if board.mover[BAR] and source != BAR:
                    continue
                target = source - die
                if target <= 0:
                    home = not any(board.mover[7:26])
                    higher = any(board.mover[p] for p in range(source + 1, 7))
                    if not home or (target < 0 and higher):
                        continue
                    target = OFF
                elif board.opponent[25 - target] >= 2:
                    continue
                moved = True
                mover = list(board.mover)
                opponent = list(board.opponent)
                mover[source] -= 1
                mover[target] += 1
                if target != OFF and opponent[25 - target] == 1:
                    opponent[25 - target] = 0
                    opponent[BAR] += 1
                step(Position(tuple(mover), tuple(opponent)), remaining[1:], (*used, die))
        if not moved:
            ends.append((board, used))

    for order in orders:
        step(position, tuple(order), ())
    most = max(len(used) for _, used in ends)
    kept = [(board, used) for board, used in ends if len(used) == most]
    if most == 1 and dice[0] != dice[1]:
        high = max(dice)
        if any(used == (high,) for _, used in kept):
            kept = [(board, used) for board, used in kept if used == (high,)]
    if most == 0:
        return set()
    return {board for board, _ in kept}


@settings(max_examples=400, deadline=None)
@given(positions(), dice_strategy)
def test_the_engine_agrees_with_the_rule_book_on_random_positions(
    position: Position, dice: tuple[int, int]
) -> None:
    ours = [play.after for play in generate_plays(position, dice)]
    assert len(ours) == len(set(ours)), "plays must be distinct by resulting position"
    assert set(ours) == reference_results(position, dice)


@settings(max_examples=300, deadline=None)
@given(positions(), dice_strategy)
def test_every_play_keeps_fifteen_a_side_and_moves_exactly_the_dice(
    position: Position, dice: tuple[int, int]
) -> None:
    for play in generate_plays(position, dice):
        after = play.after
        assert after.defects() == []
        assert apply_moves(position, play.play.moves) == after
        moved = position.pip_counts()[0] - after.pip_counts()[0]
        overshoot = any(m.destination == OFF and m.distance < 7 for m in play.play.moves)
        if overshoot:
            assert moved <= sum(play.dice_used)
        else:
            assert moved == sum(play.dice_used)
        assert judge(position, dice, after).legal


@given(positions())
def test_flip_twice_is_the_identity_and_keeps_pip_counts(position: Position) -> None:
    assert position.flip().flip() == position
    assert position.flip().pip_counts() == position.pip_counts()[::-1]


@given(positions(), st.sampled_from(["white", "black"]))
def test_absolute_conversion_round_trips(position: Position, colour: str) -> None:
    board = position.to_absolute(colour)
    assert Position.from_absolute(board.points, board.bar, board.off, colour) == position
