"""One test per rule of play; each builds the smallest board that shows the rule."""

from __future__ import annotations

import pytest

from companion.errors import InvalidDice, InvalidPosition
from companion.rules import Colour, Move, Position, apply_moves, generate_plays


def plays(position: Position, dice: tuple[int, int]) -> set[str]:
    return {str(p.play) for p in generate_plays(position, dice)}


# A board where the opponent holds the points given, with the rest of their checkers borne off.
def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    return Position.from_points(mine, theirs)


class TestPositions:
    def test_opening_has_fifteen_checkers_a_side_and_167_pips(self) -> None:
        opening = Position.opening()
        assert sum(opening.mover) == sum(opening.opponent) == 15
        assert opening.pip_counts() == (167, 167)

    def test_invalid_position_lists_every_defect_at_once(self) -> None:
        mover = list(Position.opening().mover)
        mover[6] += 1  # sixteen checkers
        opponent = list(Position.opening().opponent)
        opponent[1] = -1  # a negative count
        with pytest.raises(InvalidPosition) as raised:
            Position(tuple(mover), tuple(opponent))
        assert len(raised.value.defects) == 2
        assert "16 checkers" in str(raised.value)
        assert "negative" in str(raised.value)
        assert isinstance(raised.value, ValueError)

    def test_a_point_held_by_both_sides_is_a_defect(self) -> None:
        with pytest.raises(InvalidPosition, match="a point belongs to one side"):
            Position.from_points({6: 15}, {19: 15})

    def test_flip_swaps_the_player_on_roll(self) -> None:
        position = board({6: 14, 25: 1}, {1: 15})
        assert position.flip().mover == position.opponent
        assert position.flip().flip() == position

    def test_absolute_colours_follow_whites_numbering(self) -> None:
        position = board({6: 14, 25: 1}, {1: 15})  # white on roll: 14 on white's 6, 1 on bar
        absolute = position.to_absolute(Colour.WHITE)
        assert absolute.points[5] == 14  # white's 6-point
        assert absolute.points[23] == -15  # black's 1-point is white's 24
        assert absolute.bar == {"white": 1, "black": 0}
        as_black = position.flip().to_absolute(Colour.BLACK)
        assert as_black == absolute
        back = Position.from_absolute(absolute.points, absolute.bar, absolute.off, "black")
        assert back == position.flip()

    def test_absolute_board_with_sixteen_checkers_is_refused_with_the_count(self) -> None:
        points = list(Position.opening().to_absolute("white").points)
        points[5] += 1
        with pytest.raises(InvalidPosition, match="white has 16 checkers"):
            Position.from_absolute(points, {}, {}, "white")


class TestDice:
    @pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (1, 2, 3)])
    def test_a_roll_is_two_dice_of_one_to_six(self, dice: tuple[int, ...]) -> None:
        with pytest.raises(InvalidDice):
            generate_plays(Position.opening(), dice)


class TestMovement:
    def test_a_checker_on_the_bar_must_enter_before_any_other_moves(self) -> None:
        position = board({25: 1, 13: 14}, {})
        assert plays(position, (6, 3)) == {"bar/16", "bar/19 13/10", "bar/22 13/7"}

    def test_entry_is_only_onto_a_point_not_held_by_two_opposing_checkers(self) -> None:
        # The opponent holds their 6-point (our 19) and 3-point (our 22).
        position = board({25: 1, 13: 14}, {6: 2, 3: 2})
        assert plays(position, (6, 3)) == set()

    def test_a_closed_board_forfeits_the_roll(self) -> None:
        position = board({25: 1, 13: 14}, {p: 2 for p in range(1, 7)})
        assert generate_plays(position, (6, 6)) == []

    def test_two_checkers_on_the_bar_with_one_entry_move_nothing_else(self) -> None:
        position = board({25: 2, 13: 13}, {6: 2})  # the 6 cannot enter (our 19 is held)
        assert plays(position, (6, 3)) == {"bar/22"}

    def test_landing_on_a_blot_hits_it_to_the_bar(self) -> None:
        position = board({13: 15}, {18: 1})  # their blot on their 18 = our 7
        (hit,) = [p for p in generate_plays(position, (6, 1)) if str(p.play) == "13/7*/6"]
        assert hit.after.opponent[25] == 1
        assert hit.after.opponent[18] == 0

    def test_a_point_with_two_opposing_checkers_is_blocked(self) -> None:
        position = board({13: 15}, {18: 2})  # our 7 is blocked
        # 13/7 is impossible; the 6 can only be played after the 5: 13/8/2.
        assert plays(position, (6, 5)) == {"13/2"}

    def test_doubles_give_four_moves(self) -> None:
        position = board({24: 15}, {})
        assert plays(position, (2, 2)) == {
            "24/16",
            "24/18 24/22",
            "24/20(2)",
            "24/20 24/22(2)",
            "24/22(4)",
        }

    def test_doubles_play_as_many_as_can_be_played(self) -> None:
        position = board({20: 1, 1: 14}, {17: 2})  # our 8 is blocked: three 3s only
        (only,) = generate_plays(position, (3, 3))
        assert str(only.play) == "20/11"
        assert only.dice_used == (3, 3, 3)

    def test_both_dice_must_be_used_when_possible(self) -> None:
        position = board({24: 1, 6: 14}, {})
        result = generate_plays(position, (6, 3))
        assert {str(p.play) for p in result} == {"24/15", "24/18 6/3"}
        assert all(len(p.dice_used) == 2 for p in result)

    def test_higher_die_must_be_used_when_only_one_can(self) -> None:
        # Either die alone can move the back checker, but our 15 is blocked so not both.
        position = board({24: 1, 1: 14}, {10: 2})
        assert plays(position, (6, 3)) == {"24/18"}

    def test_only_the_lower_die_when_the_higher_cannot_be_played(self) -> None:
        position = board({24: 1, 1: 14}, {7: 2, 10: 2})  # our 18 and 15 are blocked
        assert plays(position, (6, 3)) == {"24/21"}

    def test_a_die_playable_only_after_the_other_forces_the_order(self) -> None:
        # Our 18 is blocked, so the 6 cannot be played first, but 24/21/15 works.
        position = board({24: 1, 1: 14}, {7: 2})
        assert plays(position, (6, 3)) == {"24/15"}

    def test_no_checker_can_move_forfeits_the_roll(self) -> None:
        position = board({24: 2, 1: 13}, {7: 2, 4: 2})  # our 18 and 21 are blocked
        assert generate_plays(position, (6, 3)) == []


class TestBearingOff:
    def test_bearing_off_needs_all_fifteen_home(self) -> None:
        # The 6 may bear off only after the 1 has brought the last checker home.
        position = board({7: 1, 6: 14}, {})
        assert plays(position, (6, 1)) == {"7/1 6/5", "7/off"}

    def test_a_hit_checker_stops_bearing_off_until_it_returns(self) -> None:
        position = board({25: 1, 1: 14}, {})
        assert plays(position, (6, 1)) == {"bar/18"}

    def test_a_higher_die_bears_off_from_the_highest_point(self) -> None:
        position = board({3: 1, 2: 1}, {})
        assert plays(position, (6, 5)) == {"3/off 2/off"}

    def test_a_lower_point_may_not_bear_off_with_a_higher_die_while_a_higher_point_is_held(
        self,
    ) -> None:
        # The 6 bears off from the 5-point (the highest); it may not take the 2-point's checker.
        position = board({5: 1, 2: 1}, {})
        assert plays(position, (6, 1)) == {"5/off", "5/off 2/1"}

    def test_exact_die_bears_off_even_with_a_higher_point_held(self) -> None:
        position = board({6: 1, 2: 1}, {})
        assert plays(position, (2, 1)) == {"6/3", "6/4 2/1", "6/5 2/off"}

    def test_a_checker_may_move_inside_the_home_board_instead_of_bearing_off(self) -> None:
        position = board({6: 2, 1: 13}, {})
        assert plays(position, (4, 2)) == {"6/4 6/2", "6/off"}


class TestApplyingPlays:
    def test_apply_moves_hits_the_blot_it_lands_on(self) -> None:
        position = board({13: 15}, {18: 1})
        after = apply_moves(position, [Move(13, 7)])
        assert after.opponent[25] == 1 and after.mover[7] == 1

    def test_every_legal_play_applied_gives_its_own_result(self) -> None:
        position = Position.opening()
        for legal in generate_plays(position, (6, 4)):
            assert apply_moves(position, legal.play.moves) == legal.after
