"""The judge on random boards and random text: it never crashes and never calls wrong right.

A camera misreads, a player fumbles, a user types anything: whatever arrives, the judge must
answer with a verdict (or, for text it cannot read, :class:`InvalidPlay`), call a play legal
exactly when the board it leaves is one a legal play leaves, and otherwise name a documented
rule in a sentence.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.errors import InvalidPlay
from companion.rules import Position, generate_plays, judge
from companion.rules.judge import RULES, RawBoard, Verdict
from companion.rules.position import BAR, OFF
from tests.test_rules_properties import dice_strategy, positions

FUZZ = settings(
    max_examples=400,
    deadline=None,
    # Positions with a hit or a reply to play are drawn often enough, but not always.
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

PLACES = st.integers(OFF, BAR)


def legal_boards(position: Position, dice: tuple[int, int]) -> set[RawBoard]:
    return {(p.after.mover, p.after.opponent) for p in generate_plays(position, dice)}


def check_verdict(
    verdict: Verdict, position: Position, dice: tuple[int, int], after: RawBoard | None
) -> None:
    """What every verdict promises, whatever it was asked about."""
    assert isinstance(verdict, Verdict)
    assert verdict.rule in RULES, f"undocumented rule {verdict.rule!r}"
    plays = generate_plays(position, dice)
    results = legal_boards(position, dice)
    unchanged = (position.mover, position.opponent)
    if after is not None:
        expected = after in results or (not plays and after == unchanged)
        assert verdict.legal == expected, (verdict, after)
    if verdict.legal:
        assert verdict.after is not None
        board = (verdict.after.mover, verdict.after.opponent)
        assert board in results or (not plays and board == unchanged)
        if plays:
            assert verdict.play and verdict.rule == ""
        else:
            assert verdict.rule == "forfeit"
        return
    reason = verdict.reason
    assert reason and reason == reason.strip() and not reason[0].isupper(), reason
    assert "None" not in reason and "{" not in reason and "  " not in reason, reason
    assert verdict.rule not in ("", "unreachable"), verdict
    # The closest plays are real legal plays, written so that the judge reads them back.
    assert len(verdict.closest) <= 3
    assert bool(verdict.closest) == bool(plays)
    for text in verdict.closest:
        assert judge(position, dice, text).legal, text


@st.composite
def perturbed(draw: st.DrawFn) -> tuple[Position, tuple[int, int], RawBoard]:
    """A sound position, a roll, and a board near one the roll can legally leave."""
    position = draw(positions())
    dice = draw(dice_strategy)
    plays = generate_plays(position, dice)
    if plays:
        start = draw(st.sampled_from(plays)).after
        board = [list(start.mover), list(start.opponent)]
    else:
        board = [list(position.mover), list(position.opponent)]
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(
            st.sampled_from(
                ["move"] * 4 + ["swap", "opponent_plays", "hit_to_tray", "add", "remove"]
            )
        )
        side = draw(st.integers(0, 1))
        if kind == "move":
            source, destination = draw(PLACES), draw(PLACES)
            board[side][source] -= 1
            board[side][destination] += 1
        elif kind == "add":
            board[side][draw(PLACES)] += draw(st.integers(1, 2))
        elif kind == "remove":
            board[side][draw(PLACES)] -= 1
        elif kind == "swap":
            point = draw(st.integers(1, 24))
            mine, theirs = board[0][point], board[1][25 - point]
            board[0][point], board[1][25 - point] = theirs, mine
        elif kind == "opponent_plays":
            # The other side plays a legal roll of its own from where it stood.
            try:
                their_side = Position(tuple(board[1]), tuple(board[0]))
            except ValueError:
                continue
            replies = generate_plays(their_side, draw(dice_strategy))
            if replies:
                reply = draw(st.sampled_from(replies)).after
                board = [list(reply.opponent), list(reply.mover)]
        else:
            # A blot "hit" and taken off the board instead of put on the bar.
            point = draw(st.integers(1, 24))
            if board[1][point] == 1:
                board[1][point] = 0
                board[1][OFF] += 1
    return position, dice, (tuple(board[0]), tuple(board[1]))


@FUZZ
@given(perturbed())
def test_a_perturbed_board_gets_a_sound_verdict(
    case: tuple[Position, tuple[int, int], RawBoard],
) -> None:
    position, dice, after = case
    check_verdict(judge(position, dice, after), position, dice, after)


@FUZZ
@given(positions(), dice_strategy, st.data())
def test_a_legal_board_and_its_notation_are_both_legal(
    position: Position, dice: tuple[int, int], data: st.DataObject
) -> None:
    plays = generate_plays(position, dice)
    if not plays:
        verdict = judge(position, dice, position)
        assert verdict.legal and verdict.rule == "forfeit"
        return
    play = data.draw(st.sampled_from(plays))
    by_board = judge(position, dice, play.after)
    by_text = judge(position, dice, str(play.play))
    assert by_board.legal and by_text.legal
    assert by_board.play == by_text.play == str(play.play)
    assert by_text.after == play.after


def _run_text(draw: st.DrawFn, position: Position, dice: tuple[int, int]) -> str:
    """One run, mostly from a point the player holds, moving by some of the dice."""
    held = [p for p in range(1, 26) if position.mover[p]] or [24]
    source = draw(st.sampled_from(held) | st.integers(1, 25))
    stops = [source]
    for _ in range(draw(st.integers(1, 3))):
        die = draw(st.sampled_from([*dice, dice[0] + dice[1], 1, 6, 13]))
        stops.append(max(stops[-1] - die, 0))
        if stops[-1] == 0:
            break
    names = [
        "bar" if p == BAR and draw(st.booleans()) else "off" if p == 0 else str(p) for p in stops
    ]
    text = draw(st.sampled_from(["/", "-"])).join(
        name + ("*" if draw(st.integers(0, 5)) == 0 else "") for name in names
    )
    if draw(st.integers(0, 5)) == 0:
        text += f"({draw(st.integers(0, 9))})"
    return text


GARBAGE = [
    "*", "(2)", ",", "/", "-", "bar", "off", "25/", "/off", "99999999/1", "24/18(9)", "6/off*",
    "bar/bar", "0/0", "13//7", "٣/١", "２４/１８", "24/18\u200b", "13/7**", "(4)", "off/3",
    "24/-3", "1e3/2", "24/18(0)", "bar/off", "6/off/3",
]  # fmt: skip


@st.composite
def play_texts(draw: st.DrawFn) -> tuple[Position, tuple[int, int], str]:
    """Typed plays: runs near the position, pieces of legal plays, garbage and any text."""
    position = draw(positions())
    dice = draw(dice_strategy)
    plays = generate_plays(position, dice)
    pieces = sorted({piece for play in plays[:20] for piece in str(play.play).split()})
    tokens = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["run", "run", "run", "legal", "garbage", "text"]))
        if kind == "run":
            tokens.append(_run_text(draw, position, dice))
        elif kind == "legal" and pieces:
            tokens.append(draw(st.sampled_from(pieces)))
        elif kind == "garbage":
            tokens.append(draw(st.sampled_from(GARBAGE)))
        else:
            tokens.append(draw(st.text(max_size=6)))
    separator = draw(st.sampled_from([" ", ",", ", ", "  ", "\t", ""]))
    return position, dice, separator.join(tokens)


@FUZZ
@given(play_texts())
def test_any_play_text_gets_a_verdict_or_a_clear_invalid_play(
    case: tuple[Position, tuple[int, int], str],
) -> None:
    position, dice, text = case
    try:
        verdict = judge(position, dice, text)
    except InvalidPlay as error:
        assert str(error).strip(), text
        return
    check_verdict(verdict, position, dice, None)


@FUZZ
@given(positions(), dice_strategy, st.data())
def test_the_opponent_playing_the_roll_is_always_the_wrong_side(
    position: Position, dice: tuple[int, int], data: st.DataObject
) -> None:
    replies = generate_plays(position.flip(), dice)
    assume(replies)
    reply = data.draw(st.sampled_from(replies)).after
    verdict = judge(position, dice, (reply.opponent, reply.mover))
    assert verdict.rule == "wrong_side" and verdict.impossible
    assert verdict.reason.startswith("the wrong side moved: the opponent played ")


@FUZZ
@given(positions(), dice_strategy, st.data())
def test_misplacing_your_own_checker_never_reads_as_an_impossible_board(
    position: Position, dice: tuple[int, int], data: st.DataObject
) -> None:
    plays = generate_plays(position, dice)
    assume(plays)
    after = data.draw(st.sampled_from(plays)).after
    mover = list(after.mover)
    source = data.draw(st.sampled_from([p for p in range(OFF, BAR + 1) if mover[p]]))
    destination = data.draw(st.integers(OFF, 24))
    mover[source] -= 1
    mover[destination] += 1
    verdict = judge(position, dice, (tuple(mover), after.opponent))
    if verdict.legal:
        return
    assert verdict.rule not in ("checker_count", "wrong_side", "hit_not_on_bar"), verdict
    assert not verdict.impossible or verdict.rule == "too_far"


@settings(FUZZ, max_examples=150)  # most random positions offer no hit: fewer, dearer cases
@given(positions(), dice_strategy, st.data())
def test_a_hit_blot_put_in_the_tray_is_named_as_such(
    position: Position, dice: tuple[int, int], data: st.DataObject
) -> None:
    hits = [
        p for p in generate_plays(position, dice) if p.after.opponent[BAR] > position.opponent[BAR]
    ]
    assume(hits)
    after = data.draw(st.sampled_from(hits)).after
    opponent = list(after.opponent)
    opponent[BAR] -= 1
    opponent[OFF] += 1
    verdict = judge(position, dice, (after.mover, tuple(opponent)))
    assert verdict.rule == "hit_not_on_bar"
    assert verdict.reason.startswith("a hit checker goes on the bar, but the opposing checker")
