"""Dice the camera never read surely (issue 5): the referee asks, waits, and gets back on track.

Vision marks a frame unreadable when it is unsure of anything, the dice included. A turn whose
dice were never read must not derail the game: the referee says once that it cannot read the
dice, takes nothing from those frames, and when the roller has played and picked the dice up
it reports the changed board with the way out (put the dice back showing the roll, or put the
checkers back). White's right-hand side is the home half, black's the outer half.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.referee import Kind, Phase, Referee, Settings, Step, Table, replay
from companion.referee.board import OPENING_BOARD
from companion.referee.machine import DISTURBED_RULES
from companion.referee.scripted import after_play, die, moved, reading_of
from companion.referee.stability import DiceDoubt, unsure_of_dice_only
from companion.rules import AbsoluteBoard, Colour, Position
from companion.rules.judge import IMPOSSIBLE_RULES
from companion.rules.match import MatchState
from companion.vision.reading import DieReading, Reading
from tests.test_referee import FAST, Table_, headlines, started

WHITE, BLACK = Colour.WHITE, Colour.BLACK
DOUBT = replace(FAST, dice_doubt_seconds=0.3)
WHITE_52 = [die(5, "home"), die(2, "home")]
PLAYED_52 = after_play(Position.opening(), (5, 2), "13/8 13/11")
ADVICE = (
    "if white rolled and the camera missed it, put the dice back on white's right-hand side "
    "showing the roll; otherwise "
)


def unsure(
    board: Position | AbsoluteBoard,
    on_roll: Colour = WHITE,
    dice: list[DieReading] | None = None,
    names: tuple[str, ...] = ("the dice",),
) -> Reading:
    """What vision reports when it is unsure of the dice alone: the board it read, the dice
    it half saw (here a perfectly good roll, which must still not be taken), not readable."""
    seen = reading_of(board, on_roll, WHITE_52 if dice is None else dice)
    return replace(seen, readable=False, unreadable=names)


def hold(table: Table_, reading: Reading, seconds: float = 0.6) -> Step:
    """Shows one reading for ``seconds`` at ten frames a second."""
    events, verdicts = [], []
    for _ in range(round(seconds * 10)):
        table.now += 0.1
        step = table.referee.feed(reading, table.now)
        events += step.events
        verdicts += step.verdicts
    return table.record(Step(tuple(events), tuple(verdicts)))


def at(position: Position, on_roll: Colour, phase: Phase = Phase.ROLLING) -> Table_:
    state = MatchState(length=5, on_roll=on_roll)
    return Table_(Referee.at(Table(match=state, position=position, phase=phase), DOUBT))


def white_played_unread() -> Table_:
    """White rolls 5-2 where the camera cannot read it, plays 13/8 13/11 and picks up."""
    table = at(Position.opening(), WHITE)
    table.show(Position.opening(), WHITE)
    hold(table, unsure(Position.opening()))
    hold(table, unsure(PLAYED_52))
    return table


class TestTheCameraSaysItCannotReadTheDice:
    def test_once_as_a_waiting_message_and_nothing_is_taken(self) -> None:
        table = at(Position.opening(), WHITE)
        table.show(Position.opening(), WHITE)
        step = hold(table, unsure(Position.opening()), seconds=2.0)
        assert headlines(step) == ["the camera cannot read the dice clearly"]
        verdict = step.verdicts[0]
        assert verdict.kind is Kind.WAITING
        assert verdict.player == "white"
        assert verdict.detail == (
            "move the dice apart where they lie, keeping the numbers they show, so the camera "
            "can read them"
        )
        assert step.events == ()
        assert table.referee.phase is Phase.ROLLING  # the 5-2 it half saw is not a roll

    def test_a_moment_of_doubt_while_the_dice_settle_says_nothing(self) -> None:
        table = at(Position.opening(), WHITE)
        table.show(Position.opening(), WHITE)
        assert hold(table, unsure(Position.opening()), seconds=0.2).verdicts == ()
        step = table.show(Position.opening(), WHITE, WHITE_52)
        assert headlines(step) == ["white rolled 5-2"]

    def test_the_dice_read_at_last_are_the_roll(self) -> None:
        table = at(Position.opening(), WHITE)
        table.show(Position.opening(), WHITE)
        hold(table, unsure(Position.opening()))
        step = table.show(Position.opening(), WHITE, [die(6, "home"), die(4, "home")])
        assert headlines(step) == ["white rolled 6-4"]
        assert [e.kind for e in step.events] == ["roll"]

    def test_it_asks_again_only_after_the_camera_read_the_table_clearly(self) -> None:
        table = at(Position.opening(), WHITE)
        table.show(Position.opening(), WHITE)
        assert len(hold(table, unsure(Position.opening())).verdicts) == 1
        hand = Reading.empty_unreadable(["the frame (a hand or arm reaching over it)"])
        hold(table, hand, seconds=0.3)
        assert hold(table, unsure(Position.opening())).verdicts == ()
        table.show(Position.opening(), WHITE)  # picked up: the camera reads the board again
        assert len(hold(table, unsure(Position.opening())).verdicts) == 1

    def test_only_one_die_seen_may_be_a_die_off_the_board(self) -> None:
        table = at(Position.opening(), WHITE)
        table.show(Position.opening(), WHITE)
        one = unsure(Position.opening(), names=("the dice (only one die seen)",))
        (verdict,) = hold(table, one).verdicts
        assert verdict.detail.startswith(
            "it sees only one die: if a die left the board, roll again; otherwise move the dice"
        )

    @pytest.mark.parametrize(
        ("name", "start"),
        [
            ("the dice (3 dice-like things seen)", "it sees more than two dice: take the cube"),
            ("the dice (something die-sized not read)", "a die is hard to make out: move the"),
        ],
    )
    def test_what_the_camera_saw_is_said_in_players_words(self, name, start) -> None:
        table = at(Position.opening(), WHITE)
        table.show(Position.opening(), WHITE)
        (verdict,) = hold(table, unsure(Position.opening(), names=(name,))).verdicts
        assert verdict.detail.startswith(start)

    def test_one_opening_die_down_waits_for_the_other(self) -> None:
        table = Table_(Referee(DOUBT))
        table.record(table.referee.start_match(3, now=table.now))
        table.show(OPENING_BOARD)
        one = unsure(OPENING_BOARD, dice=[die(4, "home")], names=("the dice (only one die seen)",))
        assert headlines(hold(table, one)) == [
            "opening roll: one die is down, waiting for the other"
        ]

    def test_nothing_is_said_between_games_or_while_a_double_waits(self) -> None:
        table = Table_(Referee(DOUBT))
        table.record(table.referee.start_match(3, now=table.now))
        assert hold(table, unsure(moved(OPENING_BOARD, {6: -1, 5: +1}))).verdicts == ()
        doubled = at(Position.opening(), WHITE)
        doubled.press("double")
        assert hold(doubled, unsure(Position.opening())).verdicts == ()


class TestAMissedRoll:
    def test_the_played_board_is_reported_with_the_way_out(self) -> None:
        table = white_played_unread()
        step = table.show(PLAYED_52, WHITE)
        assert headlines(step) == ["the board changed while no dice are down"]
        assert step.verdicts[0].detail == ADVICE + (
            "move one white checker from the 8-point back to the 13-point, "
            "one white checker from the 11-point back to the 13-point"
        )
        assert [e.kind for e in step.events] == ["warning"]
        assert table.referee.phase is Phase.ROLLING

    def test_the_dice_put_back_are_the_roll_and_then_the_play(self) -> None:
        table = white_played_unread()
        table.show(PLAYED_52, WHITE)
        step = table.show(PLAYED_52, WHITE, WHITE_52)
        assert headlines(step) == ["white rolled 5-2", "white plays 13/11 13/8"]
        assert [e.kind for e in step.events] == ["roll"]
        assert step.events[0].data["dice"] == [5, 2]
        step = table.show(PLAYED_52, WHITE)
        assert [e.kind for e in step.events] == ["move"]
        assert step.events[0].data["play"] == "13/11 13/8"
        assert headlines(step) == ["black to roll"]
        # The game goes on as usual: black's roll is black's, with no warning left over.
        step = table.show(PLAYED_52, WHITE, [die(6, "outer"), die(4, "outer")])
        assert headlines(step) == ["black rolled 6-4"]
        assert table.kinds() == ["warning", "roll", "move", "roll"]

    def test_the_journal_of_a_recovered_turn_replays_to_the_same_game(self) -> None:
        table = Table_(Referee(DOUBT))
        table.record(table.referee.start_match(3, ("Ann", "Bob"), now=table.now))
        table.show(OPENING_BOARD)
        table.show(OPENING_BOARD, dice=[die(1, "home"), die(2, "outer")])
        black_after = after_play(Position.opening(), (2, 1), "13/11 6/5")
        table.show(black_after, BLACK)  # black starts with 2-1 and picks up
        position = black_after.flip()
        played = after_play(position, (5, 2), "13/8 13/11")
        hold(table, unsure(position))
        table.show(played, WHITE)
        table.show(played, WHITE, WHITE_52)
        table.show(played, WHITE)
        moves = [e.data["play"] for e in table.events if e.kind == "move"]
        assert moves == ["13/11 6/5", "13/11 13/8"]
        rebuilt, _ = replay(table.events)
        assert rebuilt == table.referee.table
        assert rebuilt.position == played.flip()
        assert Referee.resume(table.events, DOUBT).table == table.referee.table

    def test_the_opponents_roll_is_not_taken_for_the_missed_roll(self) -> None:
        table = white_played_unread()
        table.show(PLAYED_52, WHITE)
        # Black, seeing white's play, rolls into black's own right-hand side (white's left):
        # the very numbers that fit white's play, and still not white's roll.
        black_52 = [die(5, "outer"), die(2, "outer")]
        step = table.show(PLAYED_52, WHITE, black_52)
        assert headlines(step) == ["black's roll cannot count yet: white's roll was not read"]
        assert step.verdicts[0].detail.startswith(
            "black picks up the dice; if white rolled and the camera missed it, white puts the "
            "dice back on their right-hand side showing the roll; otherwise move one white"
        )
        assert [e.kind for e in step.events] == ["warning"]
        assert table.referee.table.on_roll is WHITE
        assert table.referee.phase is Phase.ROLLING
        table.show(PLAYED_52, WHITE)  # black picks up
        step = table.show(PLAYED_52, WHITE, WHITE_52)
        assert headlines(step) == ["white rolled 5-2", "white plays 13/11 13/8"]

    def test_on_a_mirrored_board_the_sides_are_swapped(self) -> None:
        state = MatchState(length=5, on_roll=WHITE)
        mirrored = Referee.at(
            Table(state, Position.opening(), Phase.ROLLING), replace(DOUBT, mirrored=True)
        )
        table = Table_(mirrored)
        table.show(Position.opening(), WHITE)
        hold(table, unsure(PLAYED_52))
        table.show(PLAYED_52, WHITE)
        step = table.show(PLAYED_52, WHITE, [die(5, "home"), die(2, "home")])  # black's side
        assert headlines(step) == ["black's roll cannot count yet: white's roll was not read"]
        table.show(PLAYED_52, WHITE)
        step = table.show(PLAYED_52, WHITE, [die(5, "outer"), die(2, "outer")])
        assert headlines(step) == ["white rolled 5-2", "white plays 13/11 13/8"]

    def test_dice_that_do_not_fit_the_play_are_not_taken(self) -> None:
        table = white_played_unread()
        table.show(PLAYED_52, WHITE)
        step = table.show(PLAYED_52, WHITE, [die(6, "home"), die(1, "home")])
        assert headlines(step) == ["the board changed while no dice are down"]
        assert table.referee.phase is Phase.ROLLING

    def test_restoring_the_board_still_works(self) -> None:
        table = white_played_unread()
        table.show(PLAYED_52, WHITE)
        step = table.show(Position.opening(), WHITE)
        assert headlines(step) == ["the board is as it was again"]
        step = table.show(Position.opening(), WHITE, [die(6, "home"), die(4, "home")])
        assert headlines(step) == ["white rolled 6-4"]

    def test_a_warning_does_not_outlive_the_game_it_was_about(self) -> None:
        table = white_played_unread()
        table.show(PLAYED_52, WHITE)
        table.press("new_game")
        table.show(OPENING_BOARD)
        table.show(OPENING_BOARD, dice=[die(3, "home"), die(1, "outer")])
        played = after_play(Position.opening(), (3, 1), "8/5 6/5")
        table.show(played, WHITE)
        step = table.show(played, WHITE, [die(6, "outer"), die(4, "outer")])
        assert headlines(step) == ["black rolled 6-4"]  # not "the board is as it was again"

    def test_a_board_no_roll_can_leave_gets_no_dice_advice(self) -> None:
        table = at(Position.opening(), WHITE)
        step = table.show(moved(OPENING_BOARD, {8: -1, 7: +1}), WHITE)
        assert step.verdicts[0].detail == (
            "move one white checker from the 7-point back to the 8-point"
        )


class TestTheSameDerailmentElsewhere:
    def test_the_opponent_playing_on_after_a_missed_pickup_ends_the_rollers_turn(self) -> None:
        """White's play was announced with the dice down; the camera missed the pickup, and
        black's roll was never read: black played and picked up."""
        table = started(WHITE, (3, 1))
        white_after = after_play(Position.opening(), (3, 1), "8/5 6/5")
        table.show(white_after, WHITE, table.dice)
        hold(table, unsure(white_after, dice=[die(6, "outer"), die(4, "outer")]))
        black_after = after_play(white_after.flip(), (6, 4), "24/18 13/9")
        step = table.show(black_after, BLACK)
        assert [e.kind for e in step.events] == ["move", "warning"]
        assert step.events[0].data["play"] == "8/5 6/5"
        assert headlines(step) == ["black to roll", "the board changed while no dice are down"]
        assert step.verdicts[1].detail.startswith(
            "if black rolled and the camera missed it, put the dice back on black's right-hand"
        )
        step = table.show(black_after, BLACK, [die(6, "outer"), die(4, "outer")])
        assert headlines(step) == ["black rolled 6-4", "black plays 24/18 13/9"]
        assert [e.data["play"] for e in table.show(black_after, BLACK).events] == ["24/18 13/9"]
        assert table.referee.table.on_roll is WHITE

    def test_a_take_not_pressed_before_a_missed_roll(self) -> None:
        table = at(Position.opening(), WHITE)
        table.show(Position.opening(), WHITE)
        table.press("double")
        hold(table, unsure(Position.opening()))
        hold(table, unsure(PLAYED_52))
        step = table.show(PLAYED_52, WHITE)
        assert headlines(step) == ["the board changed while no dice are down"]
        assert step.verdicts[0].detail.startswith(
            "if black took and white rolled, press take, then put the dice back on white's "
            "right-hand side showing the roll; otherwise move one white checker"
        )
        table.press("take")
        step = table.show(PLAYED_52, WHITE, WHITE_52)
        assert headlines(step) == ["white rolled 5-2", "white plays 13/11 13/8"]
        assert table.referee.table.match.cube.value == 2

    def test_a_missed_opening_roll(self) -> None:
        table = Table_(Referee(DOUBT))
        table.record(table.referee.start_match(3, now=table.now))
        table.show(OPENING_BOARD)
        opening_dice = [die(3, "home"), die(1, "outer")]
        assert headlines(hold(table, unsure(OPENING_BOARD, dice=opening_dice))) == [
            "the camera cannot read the dice clearly"
        ]
        played = after_play(Position.opening(), (3, 1), "8/5 6/5")
        hold(table, unsure(played, dice=opening_dice))
        step = table.show(played, WHITE)
        assert headlines(step) == ["the board must show the opening position for the opening roll"]
        assert step.verdicts[0].detail.startswith(
            "if you rolled and the camera missed it, put each die back on its own side showing "
            "the opening roll; otherwise "
        )
        # The wrong way round (white's die the lower) is black's roll: not this play.
        table.show(played, WHITE, [die(1, "home"), die(3, "outer")])
        assert table.referee.phase is Phase.OPENING
        step = table.show(played, WHITE, opening_dice)
        assert headlines(step) == ["white starts with 3-1", "white plays 8/5 6/5"]
        assert [e.kind for e in step.events] == ["opening_roll"]
        assert table.show(played, WHITE).events[0].data["play"] == "8/5 6/5"
        assert table.referee.table.on_roll is BLACK


class TestTooFar:
    def test_a_checker_moved_too_far_is_an_illegal_play_with_the_nearest_play_to_restore(
        self,
    ) -> None:
        """13/5 with 6-1: a slip in counting. No play of 6-1 leaves it (the judge calls it
        impossible), but the players are told the one checker to move, not to start over."""
        table = at(Position.opening(), WHITE)
        table.show(Position.opening(), WHITE, [die(6, "home"), die(1, "home")])
        verdict = table.show(moved(OPENING_BOARD, {13: -1, 5: +1}), WHITE).verdicts[0]
        assert verdict.kind is Kind.ILLEGAL
        assert verdict.rule == "too_far"
        assert verdict.headline.startswith("illegal: this board cannot follow from any play")
        assert verdict.put_back == "move one white checker from the 6-point back to the 7-point"

    def test_the_disturbed_boards_are_among_the_judges_impossible_ones(self) -> None:
        assert DISTURBED_RULES == IMPOSSIBLE_RULES - {"too_far"}


class TestDiceDoubt:
    def board(self, names: tuple[str, ...] = ("the dice",)) -> Reading:
        return unsure(Position.opening(), names=names)

    @pytest.mark.parametrize(
        ("names", "dice_only"),
        [
            (("the dice",), True),
            (("the dice (only one die seen)", "the dice (something die-sized not read)"), True),
            (("the dice", "point 7"), False),
            (("dice rolling",), False),
            (("the frame (a hand or arm reaching over it)",), False),
        ],
    )
    def test_only_frames_unsure_of_the_dice_alone_count(self, names, dice_only) -> None:
        assert unsure_of_dice_only(self.board(names)) is dice_only
        assert not unsure_of_dice_only(reading_of(Position.opening()))

    def test_reported_once_after_the_window_and_restarted_by_a_moved_checker(self) -> None:
        doubt = DiceDoubt(frames=3, seconds=0.5)
        seen = self.board()
        assert [doubt.feed(seen, t / 10) is not None for t in range(8)] == [False] * 5 + [
            True,
            False,
            False,
        ]
        doubt = DiceDoubt(frames=3, seconds=0.5)
        other = unsure(moved(OPENING_BOARD, {6: -1, 5: +1}))
        frames = [seen, seen, seen, other, other, other, other, other, other]
        told = [doubt.feed(r, t / 10) is not None for t, r in enumerate(frames)]
        assert told == [False] * 8 + [True]

    def test_told_again_only_after_clear_frames(self) -> None:
        doubt = DiceDoubt(frames=2, seconds=0.0)
        seen, clear = self.board(), reading_of(Position.opening())
        script = [seen, seen, clear, seen, seen, clear, clear, seen, seen]
        told = [doubt.feed(r, t / 10) is not None for t, r in enumerate(script)]
        assert told == [False, True, False, False, False, False, False, False, True]

    def test_bad_windows_are_refused(self) -> None:
        with pytest.raises(ValueError, match="negative"):
            Settings(dice_doubt_seconds=-1.0)
