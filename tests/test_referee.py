"""The referee's rules, each on its own, with scripted Readings (no images).

White sits at the bottom edge; white's right-hand side is the home half and black's the outer
half (an unmirrored board). Every scripted board is shown long enough to become stable.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.errors import IllegalAction, InvalidFormat
from companion.referee import (
    Command,
    Event,
    Kind,
    Phase,
    Referee,
    Settings,
    StabilityFilter,
    Step,
    Table,
    replay,
)
from companion.referee.board import OPENING_BOARD, put_back
from companion.referee.scripted import after_play, die, moved, reading_of
from companion.rules import AbsoluteBoard, Colour, Position
from companion.rules.match import CubeState, MatchState
from companion.vision.reading import DieReading, Reading

WHITE, BLACK = Colour.WHITE, Colour.BLACK
FAST = Settings(stable_frames=2, stable_seconds=0.05)


class Table_:
    """A scripted table: shows boards and dice to a referee as a still camera would."""

    def __init__(self, referee: Referee | None = None, length: int = 3, **options: bool) -> None:
        self.now = 1000.0
        self.events: list[Event] = []
        if referee is None:
            referee = Referee(FAST)
            self.record(referee.start_match(length, ("Ann", "Bob"), now=self.now, **options))
        self.referee = referee
        self.dice: list[DieReading] = []

    def record(self, step: Step) -> Step:
        self.events.extend(step.events)
        return step

    def show(self, board: Position | AbsoluteBoard, on_roll: Colour = WHITE, dice=()) -> Step:
        """Shows one board until it is stable; returns everything the referee said."""
        reading = reading_of(board, on_roll, dice)
        return self.show_reading(reading)

    def show_reading(self, reading: Reading) -> Step:
        events: list[Event] = []
        verdicts = []
        for _ in range(3):
            self.now += 0.05
            step = self.referee.feed(reading, self.now)
            events += step.events
            verdicts += step.verdicts
        return self.record(Step(tuple(events), tuple(verdicts)))

    def press(self, command: str) -> Step:
        self.now += 0.1
        return self.record(self.referee.control(command, self.now))

    def kinds(self) -> list[str]:
        return [event.kind for event in self.events]


def headlines(step: Step) -> list[str]:
    return [verdict.headline for verdict in step.verdicts]


def started(first: Colour = WHITE, dice: tuple[int, int] = (3, 1)) -> Table_:
    """A 3-point match whose first game has just begun with ``first`` on roll."""
    table = Table_()
    table.show(OPENING_BOARD)
    high, low = dice
    white, black = (high, low) if first is WHITE else (low, high)
    table.dice = [die(white, "home"), die(black, "outer")]
    table.show(OPENING_BOARD, dice=table.dice)
    assert table.referee.table.on_roll is first
    return table


def at(position: Position, on_roll: Colour, *, phase: Phase = Phase.ROLLING, **match: object):
    """A table taken over mid-game with ``on_roll`` to roll in ``position``."""
    state = MatchState(length=int(match.pop("length", 5)), on_roll=on_roll, **match)  # type: ignore[arg-type]
    return Table_(Referee.at(Table(match=state, position=position, phase=phase), FAST))


class TestStability:
    def test_a_state_counts_only_after_enough_frames_and_time(self) -> None:
        still = StabilityFilter(frames=3, seconds=0.5)
        board = reading_of(Position.opening())
        assert still.feed(board, 0.0) is None
        assert still.feed(board, 0.1) is None
        assert still.feed(board, 0.2) is None  # three frames, but only 0.2 s
        assert still.feed(board, 0.5) is board
        assert still.feed(board, 0.6) is None  # reported once

    def test_a_change_restarts_the_window(self) -> None:
        still = StabilityFilter(frames=2, seconds=0.0)
        one = reading_of(Position.opening())
        two = reading_of(Position.opening(), dice=[die(3)])
        assert still.feed(one, 0.0) is None
        assert still.feed(two, 0.1) is None
        assert still.feed(one, 0.2) is None
        assert still.feed(one, 0.3) is one

    def test_frames_with_hands_are_ignored(self) -> None:
        still = StabilityFilter(frames=2, seconds=0.0)
        board = reading_of(Position.opening())
        hand = Reading.empty_unreadable(["point 13"])
        assert still.feed(board, 0.0) is None
        assert still.feed(hand, 0.1) is None
        assert still.feed(board, 0.2) is board

    def test_a_resting_die_jittering_in_the_image_stays_stable(self) -> None:
        still = StabilityFilter(frames=2, seconds=0.0)
        a = reading_of(Position.opening(), dice=[die(4)])
        b = replace(a, dice=(replace(a.dice[0], center_px=(401.0, 299.0)),))
        assert still.feed(a, 0.0) is None
        assert still.feed(b, 0.1) is b

    def test_a_rolling_die_is_not_read_until_it_rests(self) -> None:
        still = StabilityFilter(frames=2, seconds=0.0)
        faces = [reading_of(Position.opening(), dice=[die(v)]) for v in (2, 5, 1, 6, 6)]
        reported = [still.feed(face, t / 10) for t, face in enumerate(faces)]
        assert reported[:4] == [None] * 4
        assert reported[4] is faces[4]

    def test_bad_windows_are_refused(self) -> None:
        with pytest.raises(ValueError, match="at least 1 frame"):
            Settings(stable_frames=0)
        with pytest.raises(ValueError, match="negative"):
            StabilityFilter(frames=1, seconds=-1)


class TestSetupAndOpeningRoll:
    def test_the_board_must_show_the_opening_position(self) -> None:
        table = Table_()
        wrong = moved(OPENING_BOARD, {13: -1, 10: +1})
        step = table.show(wrong)
        assert headlines(step) == ["set up the board for game 1"]
        assert (
            step.verdicts[0].detail
            == "move one white checker from the 10-point back to the 13-point"
        )
        assert table.referee.phase is Phase.SETUP
        table.show(OPENING_BOARD)
        assert table.referee.phase is Phase.OPENING

    def test_higher_die_starts_and_plays_both_numbers(self) -> None:
        table = Table_()
        table.show(OPENING_BOARD)
        step = table.show(OPENING_BOARD, dice=[die(2, "home"), die(5, "outer")])
        assert headlines(step) == ["black starts with 5-2"]
        assert table.referee.table.on_roll is BLACK
        assert table.referee.table.dice == (5, 2)
        assert table.referee.phase is Phase.PLAYING

    def test_a_tie_rolls_again(self) -> None:
        table = Table_()
        table.show(OPENING_BOARD)
        step = table.show(OPENING_BOARD, dice=[die(4, "home"), die(4, "outer")])
        assert headlines(step) == ["opening roll tied 4-4: both roll again"]
        assert step.verdicts[0].kind is Kind.REROLL
        table.show(OPENING_BOARD)
        table.show(OPENING_BOARD, dice=[die(6, "home"), die(1, "outer")])
        assert table.referee.table.on_roll is WHITE

    def test_each_player_rolls_into_their_own_side(self) -> None:
        table = Table_()
        table.show(OPENING_BOARD)
        step = table.show(OPENING_BOARD, dice=[die(6, "home"), die(1, "home")])
        assert "both dice are on one side" in headlines(step)[0]
        assert table.referee.phase is Phase.OPENING

    def test_a_cocked_opening_die_rolls_again(self) -> None:
        table = Table_()
        table.show(OPENING_BOARD)
        step = table.show(OPENING_BOARD, dice=[die(6, "home", flat=False), die(1, "outer")])
        assert headlines(step) == ["re-roll the opening: a die is cocked"]

    def test_one_die_down_waits_for_the_other(self) -> None:
        table = Table_()
        table.show(OPENING_BOARD)
        step = table.show(OPENING_BOARD, dice=[die(6, "home")])
        assert step.verdicts[0].kind is Kind.WAITING
        assert table.referee.phase is Phase.OPENING


class TestTurns:
    def test_a_legal_play_is_announced_and_committed_when_the_dice_are_picked_up(self) -> None:
        table = started(WHITE, (3, 1))
        after = after_play(Position.opening(), (3, 1), "8/5 6/5")
        step = table.show(after, WHITE, dice=table.dice)
        assert headlines(step) == ["white plays 8/5 6/5"]
        assert step.verdicts[0].kind is Kind.LEGAL
        assert not step.events  # not committed while the dice are down
        step = table.show(after, WHITE)
        move = step.events[0]
        assert move.kind == "move"
        assert move.data["play"] == "8/5 6/5"
        assert move.data["position_id"] == "4HPwATDgc/ABMA"
        assert move.data["moves"] == [[8, 5, False], [6, 5, False]]
        assert headlines(step) == ["black to roll"]
        assert table.referee.table.on_roll is BLACK
        assert table.referee.table.position == after.flip()

    def test_takeback_before_the_dice_are_picked_up(self) -> None:
        table = started(WHITE, (3, 1))
        dice = table.dice
        first = after_play(Position.opening(), (3, 1), "8/5 6/5")
        second = after_play(Position.opening(), (3, 1), "24/21 6/5")
        table.show(first, WHITE, dice)
        step = table.show(Position.opening(), WHITE, dice)
        assert headlines(step) == ["takeback: white's 8/5 6/5 is taken back"]
        table.show(second, WHITE, dice)
        step = table.show(second, WHITE)
        assert step.events[0].data["play"] == "24/21 6/5"

    def test_changing_the_move_without_going_back_judges_the_new_board(self) -> None:
        table = started(WHITE, (3, 1))
        dice = table.dice
        table.show(after_play(Position.opening(), (3, 1), "8/5 6/5"), WHITE, dice)
        second = after_play(Position.opening(), (3, 1), "13/10 6/5")
        assert headlines(table.show(second, WHITE, dice)) == ["white plays 13/10 6/5"]
        assert table.show(second, WHITE).events[0].data["play"] == "13/10 6/5"

    def test_illegal_play_names_the_rule_and_what_to_put_back_then_waits(self) -> None:
        table = started(BLACK, (6, 4))
        dice = table.dice
        # Black moves one checker 24/18 only: both dice can be played.
        half_played = moved(OPENING_BOARD, {1: +1, 7: -1})
        step = table.show(half_played, BLACK, dice)
        verdict = step.verdicts[0]
        assert verdict.kind is Kind.ILLEGAL
        assert verdict.rule == "use_both_dice"
        assert verdict.headline.startswith("illegal: both dice can be played")
        assert "black checker" in verdict.put_back
        assert [e.kind for e in step.events] == ["illegal"]
        # Picking up the dice does not make it legal.
        step = table.show(half_played, BLACK)
        assert [e.kind for e in step.events] == ["illegal"]
        assert table.referee.phase is Phase.PLAYING
        # Corrected to a legal play: with the dice already up, it is committed at once.
        legal = after_play(Position.opening(), (6, 4), "24/18 13/9")
        step = table.show(legal, BLACK)
        assert [e.kind for e in step.events] == ["move"]
        assert step.events[0].data["play"] == "24/18 13/9"

    def test_put_back_names_the_checkers_that_differ_from_the_nearest_legal_play(self) -> None:
        table = started(WHITE, (6, 3))
        dice = table.dice
        # 24/18 13/9: the 9 is a four, not a three; nearest legal play keeps 24/18.
        wrong = moved(OPENING_BOARD, {24: -1, 18: +1, 13: -1, 9: +1})
        verdict = table.show(wrong, WHITE, dice).verdicts[0]
        assert verdict.kind is Kind.ILLEGAL
        assert verdict.put_back == "move one white checker from the 9-point back to the 10-point"

    def test_back_to_the_position_before_the_move_after_an_illegal_play(self) -> None:
        table = started(WHITE, (6, 3))
        dice = table.dice
        table.show(moved(OPENING_BOARD, {24: -1, 18: +1, 13: -1, 9: +1}), WHITE, dice)
        step = table.show(Position.opening(), WHITE, dice)
        assert step.verdicts == ()  # quietly back where the turn started
        assert table.referee.pending_play is None

    def test_the_opponents_roll_ends_the_turn(self) -> None:
        table = started(WHITE, (3, 1))
        after = after_play(Position.opening(), (3, 1), "8/5 6/5")
        table.show(after, WHITE, table.dice)
        # The camera never saw the dice up: black's roll lands in black's half.
        step = table.show(after, WHITE, [die(6, "outer"), die(5, "outer")])
        assert [e.kind for e in step.events] == ["move", "roll"]
        assert step.events[1].data == {
            "player": "black",
            "dice": [6, 5],
            "dice_seen": [[5, True, "outer", False], [6, True, "outer", False]],
        }
        assert table.referee.table.on_roll is BLACK

    def test_a_die_knocked_while_moving_does_not_end_the_turn(self) -> None:
        table = at(Position.opening(), WHITE)
        dice = [die(5, "home"), die(2, "home")]
        table.show(Position.opening(), WHITE, dice)
        after = after_play(Position.opening(), (5, 2), "13/8 13/11")
        table.show(after, WHITE, dice)
        step = table.show(after, WHITE, [die(5, "home", flat=False), die(2, "home")])
        assert headlines(step) == ["a die moved: white's roll of 5-2 stands"]
        assert not step.events
        assert table.referee.pending_play == "13/11 13/8"
        assert table.show(after, WHITE).events[0].data["play"] == "13/11 13/8"

    def test_a_roll_with_no_legal_play_is_forfeited_when_the_dice_are_picked_up(self) -> None:
        # White is on the bar against a closed board.
        closed = Position.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3})
        table = at(closed, WHITE)
        step = table.show(closed, WHITE, [die(6, "home"), die(2, "home")])
        assert headlines(step)[-1] == "white cannot move with 6-2: the roll is forfeited"
        step = table.show(closed, WHITE)
        assert step.events[0].data["play"] == ""
        assert step.events[0].data["moves"] == []
        assert table.referee.table.on_roll is BLACK

    def test_picking_up_the_dice_without_moving_is_flagged(self) -> None:
        table = started(WHITE, (3, 1))
        step = table.show(Position.opening(), WHITE)
        assert headlines(step) == ["white picked up the dice without playing 3-1"]
        assert table.referee.phase is Phase.PLAYING


class TestDice:
    def test_valid_roll_opens_the_turn(self) -> None:
        table = at(Position.opening(), BLACK)
        step = table.show(Position.opening(), BLACK, [die(5, "outer"), die(2, "outer")])
        assert headlines(step) == ["black rolled 5-2"]
        assert table.referee.phase is Phase.PLAYING

    @pytest.mark.parametrize(
        ("dice", "reason"),
        [
            ([die(5, "home"), die(2, "outer")], "wrong side"),
            ([die(5, "outer", flat=False), die(2, "outer")], "cocked"),
            ([die(5, "outer"), die(2, "bar")], "on the bar"),
            ([die(5, "outer"), die(2, "outside")], "off the board"),
            ([die(5, "outer")], "only one die"),
        ],
    )
    def test_a_bad_roll_is_rolled_again(self, dice, reason) -> None:
        table = at(Position.opening(), BLACK)
        step = table.show(Position.opening(), BLACK, dice)
        assert headlines(step) == [f"re-roll: {reason}"]
        assert step.verdicts[0].kind is Kind.REROLL
        assert [e.kind for e in step.events] == ["reroll"]
        assert table.referee.phase is Phase.ROLLING

    def test_a_die_resting_on_a_checker_is_cocked_unless_the_2016_allowance_is_on(self) -> None:
        dice = [die(5, "home", on_checker=True), die(2, "home")]
        table = at(Position.opening(), WHITE)
        assert headlines(table.show(Position.opening(), WHITE, dice)) == ["re-roll: cocked"]
        lenient = Referee.at(
            Table(MatchState(length=5, on_roll=WHITE), Position.opening(), Phase.ROLLING),
            replace(FAST, die_on_checker_is_flat=True),
        )
        table = Table_(lenient)
        assert headlines(table.show(Position.opening(), WHITE, dice)) == ["white rolled 5-2"]

    def test_a_mirrored_board_swaps_the_right_hand_sides(self) -> None:
        mirrored = Referee.at(
            Table(MatchState(length=5, on_roll=WHITE), Position.opening(), Phase.ROLLING),
            replace(FAST, mirrored=True),
        )
        table = Table_(mirrored)
        step = table.show(Position.opening(), WHITE, [die(5, "home"), die(2, "home")])
        assert headlines(step) == ["re-roll: wrong side"]
        step = table.show(Position.opening(), WHITE, [die(5, "outer"), die(2, "outer")])
        assert headlines(step) == ["white rolled 5-2"]


class TestImpossibleBoards:
    def test_a_board_changed_while_no_dice_are_down_is_flagged(self) -> None:
        table = at(Position.opening(), WHITE)
        nudged = moved(OPENING_BOARD, {8: -1, 7: +1})
        step = table.show(nudged, WHITE)
        assert headlines(step) == ["the board changed while no dice are down"]
        assert (
            step.verdicts[0].detail == "move one white checker from the 7-point back to the 8-point"
        )
        # Dice thrown on a disturbed board are not accepted.
        table.show(nudged, WHITE, [die(5, "home"), die(2, "home")])
        assert table.referee.phase is Phase.ROLLING
        step = table.show(Position.opening(), WHITE)
        assert headlines(step) == ["the board is as it was again"]

    def test_checkers_that_vanished_are_reported(self) -> None:
        table = started(WHITE, (3, 1))
        missing = moved(OPENING_BOARD, {8: -1})
        verdict = table.show(missing, WHITE, table.dice).verdicts[0]
        assert verdict.kind is Kind.ILLEGAL
        assert verdict.headline.startswith("impossible board: checkers appeared or vanished")
        assert verdict.put_back == "put back: one white checker on the 8-point"

    def test_both_colours_moving_is_reported(self) -> None:
        table = started(WHITE, (3, 1))
        after = after_play(Position.opening(), (3, 1), "8/5 6/5").to_absolute(WHITE)
        both = moved(after, {12: +1, 10: -1})  # a black checker from its 15- to its 13-point
        verdict = table.show(both, WHITE, table.dice).verdicts[0]
        assert verdict.rule == "wrong_side"
        assert verdict.headline.startswith("impossible board: ")


class TestCube:
    def test_double_and_take_moves_the_cube_to_the_taker(self) -> None:
        table = at(Position.opening(), WHITE)
        assert headlines(table.press("double")) == ["white doubles to 2"]
        assert table.referee.phase is Phase.DOUBLED
        table.press("take")
        match = table.referee.table.match
        assert match.cube == CubeState(value=2, owner=BLACK)
        assert table.referee.phase is Phase.ROLLING
        # Only the owner may redouble: black owns the cube, white is on roll.
        assert "only the player who owns the cube" in headlines(table.press("double"))[0]

    def test_no_double_after_rolling(self) -> None:
        table = started(WHITE, (3, 1))
        step = table.press(Command.DOUBLE)
        assert step.verdicts[0].kind is Kind.WARNING
        assert "before rolling" in step.verdicts[0].headline

    def test_rolling_while_a_double_waits_is_flagged(self) -> None:
        table = at(Position.opening(), WHITE)
        table.press("double")
        step = table.show(Position.opening(), WHITE, [die(5, "home"), die(2, "home")])
        assert headlines(step) == ["white doubled: black takes or drops first"]

    def test_a_drop_ends_the_game_at_the_value_before_the_double(self) -> None:
        table = at(Position.opening(), WHITE, cube=CubeState(2, WHITE))
        table.press("double")
        step = table.press("drop")
        assert [e.kind for e in step.events] == ["drop", "game_over"]
        assert headlines(step) == ["black drops: white wins 2 points"]
        match = table.referee.table.match
        assert (match.white_score, match.black_score) == (2, 0)
        assert table.referee.phase is Phase.SETUP

    def test_no_doubling_in_the_crawford_game(self) -> None:
        state = MatchState(length=3, white_score=1, on_roll=WHITE)
        table = Table_(Referee.at(Table(state, Position.opening(), Phase.ROLLING), FAST))
        table.press("double")
        table.press("drop")  # white leads 2-0: the next game is the Crawford game
        assert [e.kind for e in table.show(OPENING_BOARD).events] == ["game_start"]
        table.show(OPENING_BOARD, dice=[die(2, "home"), die(5, "outer")])
        table.show(after_play(Position.opening(), (5, 2), "13/8 13/11"), BLACK)
        assert table.referee.phase is Phase.ROLLING
        assert table.referee.table.on_roll is WHITE
        assert headlines(table.press("double")) == [
            "cannot double: no doubling in the Crawford game"
        ]
        assert table.referee.phase is Phase.ROLLING

    def test_crawford_game_refuses_the_double(self) -> None:
        state = MatchState(length=3, white_score=2, crawford=True, on_roll=BLACK)
        table = Table_(Referee.at(Table(state, Position.opening(), Phase.ROLLING), FAST))
        assert headlines(table.press("double")) == [
            "cannot double: no doubling in the Crawford game"
        ]
        after = MatchState(length=3, white_score=2, post_crawford=True, on_roll=BLACK)
        table = Table_(Referee.at(Table(after, Position.opening(), Phase.ROLLING), FAST))
        assert headlines(table.press("double")) == ["black doubles to 2"]

    def test_the_crawford_game_follows_the_first_game_to_reach_match_point(self) -> None:
        state = MatchState(length=3, white_score=1, on_roll=WHITE, cube=CubeState(1))
        table = Table_(Referee.at(Table(state, Position.opening(), Phase.ROLLING), FAST))
        table.press("double")
        table.press("drop")  # white wins 1: 2-0, match point
        assert table.referee.table.match.crawford is True

    def test_beaver_only_in_money_games_with_beavers(self) -> None:
        table = at(Position.opening(), WHITE)
        table.press("double")
        step = table.press("beaver")
        assert headlines(step) == [
            "cannot beaver: beavers are allowed only in money games played with beavers"
        ]
        money = MatchState.new_money_game(beavers=True)
        money = replace(money, on_roll=WHITE)
        table = Table_(Referee.at(Table(money, Position.opening(), Phase.ROLLING), FAST))
        table.press("double")
        assert headlines(table.press("b")) == ["black beavers: the cube is at 4, black owns it"]
        assert table.referee.table.match.cube == CubeState(value=4, owner=BLACK)


class TestGameEnd:
    def bear_off(self, black: dict[int, int], cube: int = 1) -> Table_:
        """White, with one checker left on the ace point, rolls 2-1 and bears it off."""
        position = Position.from_points({1: 1}, black)
        owner = WHITE if cube > 1 else None
        table = at(position, WHITE, cube=CubeState(cube, owner), length=3)
        table.show(position, WHITE, [die(2, "home"), die(1, "home")])
        return table

    def finish(self, table: Table_) -> Step:
        position = table.referee.table.position
        after = after_play(position, (2, 1), "1/off")
        return table.show(after, WHITE, [die(2, "home"), die(1, "home")])

    def test_single_game(self) -> None:
        table = self.bear_off({6: 14})  # black has borne one off
        step = self.finish(table)
        assert [e.kind for e in step.events] == ["move", "game_over"]
        assert headlines(step)[-1] == "white wins a single game: 1 point"
        assert step.events[1].data["points"] == 1

    def test_gammon_times_the_cube(self) -> None:
        table = self.bear_off({6: 15}, cube=2)
        step = self.finish(table)
        assert headlines(step)[-1] == "white wins a gammon: 4 points"
        assert table.referee.table.match.white_score == 4
        assert table.referee.table.match.winner is WHITE
        assert table.referee.phase is Phase.MATCH_OVER

    def test_backgammon(self) -> None:
        # A black checker still in white's home board (black's 20-point = white's 5-point).
        table = self.bear_off({6: 14, 20: 1})
        step = self.finish(table)
        assert headlines(step)[-1] == "white wins a backgammon: 3 points"

    def test_next_game_is_checked_against_the_opening_position(self) -> None:
        table = self.bear_off({6: 14})
        step = self.finish(table)
        assert "set up for game 2" in step.verdicts[-1].detail
        one_off = moved(OPENING_BOARD, {6: -1}).points
        step = table.show(AbsoluteBoard(one_off, OPENING_BOARD.bar, {"white": 1, "black": 0}))
        assert headlines(step) == ["set up the board for game 2"]
        assert step.verdicts[0].detail == (
            "move one white checker from the borne-off tray back to the 6-point"
        )
        assert [e.kind for e in table.show(OPENING_BOARD).events] == ["game_start"]

    def test_match_score_and_crawford_through_games(self) -> None:
        state = MatchState(length=3, black_score=1, on_roll=WHITE)
        position = Position.from_points({1: 1}, {6: 14})
        table = Table_(Referee.at(Table(state, position, Phase.ROLLING), FAST))
        table.show(position, WHITE, [die(2, "home"), die(1, "home")])
        self.finish(table)
        match = table.referee.table.match
        assert (match.white_score, match.black_score, match.crawford) == (1, 1, False)


class TestUndoAndNewGame:
    def test_undo_reverts_the_last_accepted_turn(self) -> None:
        table = started(WHITE, (3, 1))
        after = after_play(Position.opening(), (3, 1), "8/5 6/5")
        table.show(after, WHITE, table.dice)
        table.show(after, WHITE)
        assert table.referee.table.on_roll is BLACK
        step = table.press("undo")
        assert [e.kind for e in step.events] == ["undo"]
        assert table.referee.table.on_roll is WHITE
        assert table.referee.table.dice == (3, 1)
        assert table.referee.pending_play == "8/5 6/5"
        # White changes the play; with the dice already up it is committed when stable.
        other = after_play(Position.opening(), (3, 1), "24/21 6/5")
        step = table.show(other, WHITE)
        assert step.events[0].data["play"] == "24/21 6/5"

    def test_undo_of_a_cube_action(self) -> None:
        table = at(Position.opening(), WHITE)
        table.press("double")
        table.press("undo")
        assert table.referee.phase is Phase.ROLLING
        assert table.referee.table.match.cube == CubeState()

    def test_nothing_to_undo(self) -> None:
        table = Table_()
        assert table.press("undo").verdicts[0].kind is Kind.WARNING

    def test_new_game_abandons_the_game_without_score(self) -> None:
        table = started(WHITE, (3, 1))
        step = table.press("new_game")
        assert [e.kind for e in step.events] == ["abandon"]
        assert table.referee.phase is Phase.SETUP
        assert table.referee.table.match.white_score == 0

    def test_unknown_control_is_refused_clearly(self) -> None:
        with pytest.raises(InvalidFormat, match="unknown control 'resign'"):
            Command.parse("resign")


class TestReplay:
    def test_replaying_the_events_rebuilds_the_same_game(self) -> None:
        table = started(BLACK, (6, 4))
        after = after_play(Position.opening(), (6, 4), "24/14")
        table.show(after, BLACK)
        table.press("double")
        table.press("take")
        rebuilt, history = replay(table.events)
        assert rebuilt == table.referee.table
        assert len(history) == len(table.referee.history)
        resumed = Referee.resume(table.events, FAST)
        assert resumed.table == table.referee.table

    def test_events_round_trip_through_json(self) -> None:
        table = started(WHITE, (3, 1))
        assert [Event.from_json(e.to_json()) for e in table.events] == [
            replace(e, time=round(e.time, 3)) for e in table.events
        ]

    def test_a_resumed_turn_ends_when_the_opponent_rolls(self) -> None:
        table = started(WHITE, (3, 1))
        resumed = Table_(Referee.resume(table.events, FAST))
        after = after_play(Position.opening(), (3, 1), "8/5 6/5")
        step = resumed.show(after, WHITE, [die(6, "outer"), die(2, "outer")])
        assert [e.kind for e in step.events] == ["move", "roll"]
        assert resumed.referee.table.dice == (6, 2)

    def test_the_opponent_rolling_before_the_play_is_finished_is_flagged(self) -> None:
        table = started(WHITE, (3, 1))
        step = table.show(Position.opening(), WHITE, [die(6, "outer"), die(2, "outer")])
        assert headlines(step) == ["black rolled before white finished playing 3-1"]
        assert table.referee.table.on_roll is WHITE

    def test_an_inconsistent_journal_is_refused_with_the_event_named(self) -> None:
        table = started(WHITE, (3, 1))
        table.show(after_play(Position.opening(), (3, 1), "8/5 6/5"), WHITE)
        events = list(table.events)
        bad = replace(events[-1], data={**events[-1].data, "player": "black"})
        with pytest.raises(InvalidFormat, match=r"event \d+ \(move\) cannot be replayed"):
            replay([*events[:-1], bad])
        with pytest.raises(InvalidFormat, match="no match_start"):
            replay([])

    def test_no_match_means_no_table(self) -> None:
        with pytest.raises(IllegalAction):
            Referee().table  # noqa: B018


def test_put_back_in_blacks_words() -> None:
    seen = reading_of(moved(OPENING_BOARD, {1: +1, 7: -1}), WHITE)  # black 24/18
    assert put_back(seen, OPENING_BOARD, BLACK) == (
        "move one black checker from the 18-point back to the 24-point"
    )


def test_put_back_completes_a_half_played_move_and_returns_a_hit_checker() -> None:
    opening = Position.opening()
    # White played 13/8* somewhere it could not, and the nearest legal board is the opening:
    # the hit black checker goes back from the bar and white's checker back to the 13-point.
    hit = moved(OPENING_BOARD, {13: -1, 8: +1})
    board = AbsoluteBoard(hit.points, {"white": 0, "black": 1}, hit.off)
    seen = reading_of(replace_point(board, 1, -1), WHITE)
    assert put_back(seen, opening.to_absolute(WHITE), WHITE) == (
        "move one white checker from the 8-point back to the 13-point, "
        "one black checker from the bar to the 1-point"
    )
    two = reading_of(moved(OPENING_BOARD, {6: -2, 4: +2}), WHITE)
    assert put_back(two, OPENING_BOARD, WHITE) == (
        "move two white checkers from the 4-point back to the 6-point"
    )


def replace_point(board: AbsoluteBoard, point: int, value: int) -> AbsoluteBoard:
    points = list(board.points)
    points[point - 1] = value
    return AbsoluteBoard(tuple(points), board.bar, board.off)


def test_a_wrong_side_roll_after_a_finished_play_ends_the_turn_and_is_void() -> None:
    """The camera missed the pickup; black's next roll lands in white's half with new numbers."""
    table = started(WHITE, (3, 1))
    after = after_play(Position.opening(), (3, 1), "8/5 6/5")
    table.show(after, WHITE, table.dice)
    step = table.show(after, WHITE, [die(6, "home"), die(4, "home")])
    assert [e.kind for e in step.events][:1] == ["move"]
    assert step.events[0].data["play"] == "8/5 6/5"
    assert table.referee.table.on_roll is BLACK
    assert any(v.kind is Kind.REROLL and "wrong side" in v.headline for v in step.verdicts)


def test_the_same_numbers_moved_after_a_play_are_still_the_rollers_dice() -> None:
    table = started(WHITE, (3, 1))
    after = after_play(Position.opening(), (3, 1), "8/5 6/5")
    table.show(after, WHITE, table.dice)
    step = table.show(after, WHITE, [die(3, "home"), die(1, "outer")])
    assert not step.events
    assert table.referee.table.on_roll is WHITE
