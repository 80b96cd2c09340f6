"""The judge names the play when it is legal and the broken rule, in plain words, when not."""

from __future__ import annotations

import pytest

from companion.errors import InvalidPlay
from companion.rules import Colour, Position, generate_plays, judge


def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    return Position.from_points(mine, theirs)


OPENING = Position.opening()


class TestLegal:
    @pytest.mark.parametrize(
        ("typed", "written"),
        [
            ("24/18 13/10", "24/18 13/10"),
            ("13/10 24/18", "24/18 13/10"),
            ("24-18, 13-10", "24/18 13/10"),
            ("24/15", "24/15"),
            ("24/18/15", "24/15"),
            ("13/4", "13/4"),
            ("13/7 13/10", "13/10 13/7"),
        ],
    )
    def test_a_legal_play_is_named_in_standard_notation(self, typed: str, written: str) -> None:
        verdict = judge(OPENING, (6, 3), typed)
        assert verdict.legal and verdict.play == written
        assert str(verdict) == f"legal: {written}"

    def test_a_legal_board_is_recognised_whatever_order_the_checkers_moved(self) -> None:
        for play in generate_plays(OPENING, (5, 2)):
            verdict = judge(OPENING, (5, 2), play.after)
            assert verdict.legal and verdict.play == str(play.play)

    def test_an_unmarked_intermediate_hit_still_counts(self) -> None:
        # 13/4 with 6-3 can only go by the 7-point, where a blot stands.
        position = board({13: 15}, {18: 1, 15: 2})  # blot on our 7, our 10 blocked
        verdict = judge(position, (6, 3), "13/4")
        assert verdict.legal and verdict.play == "13/7*/4"

    def test_a_forfeited_roll_is_legal_only_when_nothing_moved(self) -> None:
        closed = board({25: 1, 13: 14}, {p: 2 for p in range(1, 7)})
        verdict = judge(closed, (6, 6), closed)
        assert verdict.legal and "forfeited" in verdict.reason

    def test_pairs_of_doubles_are_written_with_counts(self) -> None:
        assert judge(OPENING, (3, 3), "8/5 8/5 6/3 6/3").play == "8/5(2) 6/3(2)"


class TestIllegal:
    def test_a_checker_on_the_bar_must_enter_first(self) -> None:
        position = board({25: 1, 13: 14}, {})
        verdict = judge(position, (6, 3), "13/7 13/10")
        assert not verdict.legal and verdict.rule == "bar_first"
        assert verdict.reason == "a checker on the bar must enter before any other checker moves"

    def test_landing_on_a_blocked_point_names_the_point_and_its_checkers(self) -> None:
        position = board({13: 15}, {20: 3})  # our 5-point holds three of theirs
        mover = list(position.mover)
        mover[13] -= 1
        mover[5] += 1
        verdict = judge(position, (6, 2), (tuple(mover), position.opponent), on_roll=Colour.WHITE)
        assert verdict.rule == "blocked"
        assert verdict.reason == "the 5-point is blocked (three black checkers)"

    def test_a_typed_run_through_blocked_points_names_them(self) -> None:
        position = board({13: 15}, {18: 2, 15: 2})  # our 7 and 10 are blocked
        verdict = judge(position, (6, 3), "13/4")
        assert verdict.rule == "blocked"
        assert verdict.reason == "13/4 cannot be played: the 10-point and the 7-point are blocked"

    def test_both_dice_must_be_played_names_a_legal_play(self) -> None:
        verdict = judge(OPENING, (6, 3), "13/7")
        assert verdict.rule == "use_both_dice"
        quoted = verdict.reason.removeprefix("both dice can be played: ").removesuffix(" is legal")
        assert "13/7" in quoted.split()
        assert judge(OPENING, (6, 3), quoted).legal

    def test_only_the_higher_die_when_one_can_be_played(self) -> None:
        position = board({24: 1, 1: 14}, {10: 2})
        verdict = judge(position, (6, 3), "24/21")
        assert verdict.rule == "higher_die"
        assert verdict.reason == "only one die can be played, and it must be the higher one (6)"
        assert verdict.closest == ("24/18",)

    def test_bearing_off_with_a_checker_outside_names_the_point(self) -> None:
        position = board({9: 1, 6: 14}, {})
        # Bringing the last checker home first makes the same bear-off legal.
        assert judge(position, (6, 3), "9/6 6/off").play == "9/off"
        verdict = judge(position, (6, 3), "6/off 6/3")
        assert verdict.rule == "bear_off_not_home"
        assert verdict.reason == "bearing off is not allowed while a checker stands on the 9-point"

    def test_pips_that_do_not_match_the_dice(self) -> None:
        after = judge(OPENING, (4, 3), "24/20 13/10").after
        assert after is not None
        verdict = judge(OPENING, (6, 3), after)
        assert verdict.rule == "pips"
        assert verdict.reason == "the move used 7 pips but the dice show 6-3"

    def test_checkers_that_appear_are_counted_by_colour(self) -> None:
        mover = list(OPENING.mover)
        mover[6] += 1
        verdict = judge(OPENING, (6, 3), (tuple(mover), OPENING.opponent), on_roll=Colour.WHITE)
        assert verdict.rule == "checker_count"
        assert verdict.reason == "checkers appeared or vanished: white has 16 checkers, not 15"

    def test_the_wrong_colour_moving_is_called_out(self) -> None:
        opponent = list(OPENING.opponent)
        opponent[24] -= 1
        opponent[18] += 1
        verdict = judge(OPENING, (6, 3), (OPENING.mover, tuple(opponent)), on_roll=Colour.WHITE)
        assert verdict.rule == "wrong_side"
        assert verdict.reason.startswith("the wrong side moved: black's checkers moved")

    def test_a_checker_moving_backward(self) -> None:
        mover = list(OPENING.mover)
        mover[6] -= 1
        mover[9] += 1
        verdict = judge(OPENING, (3, 3), (tuple(mover), OPENING.opponent))
        assert verdict.rule == "backward"

    def test_nothing_moved_when_a_play_exists(self) -> None:
        verdict = judge(OPENING, (6, 3), OPENING)
        assert verdict.rule == "no_move"

    def test_a_lower_point_bearing_off_while_a_higher_one_is_held(self) -> None:
        position = board({5: 1, 2: 1}, {})
        verdict = judge(position, (6, 1), "5/4 2/off")
        assert verdict.rule == "bear_off_higher_point"
        assert "one stands on the 4-point" in verdict.reason

    def test_moves_that_do_not_fit_the_dice(self) -> None:
        verdict = judge(OPENING, (6, 3), "24/21 6/3")
        assert verdict.rule == "dice_mismatch"
        assert verdict.reason == "the moves do not fit the dice 6-3: 24/21 moves 3, 6/3 moves 3"

    def test_a_move_from_an_empty_point(self) -> None:
        verdict = judge(OPENING, (6, 3), "bar/22 13/7")
        assert verdict.rule == "no_checker"
        assert "none of yours is on the bar" in verdict.reason

    def test_illegal_verdicts_list_the_closest_legal_plays(self) -> None:
        verdict = judge(OPENING, (6, 3), "24/18")
        assert verdict.closest[0] == "24/18 13/10"
        assert len(verdict.closest) == 3


class TestUnreadableText:
    @pytest.mark.parametrize(
        ("text", "part"),
        [("24/18 13/x", "13/x"), ("24/18 26/20", "26/20"), ("18/24", "18/24"), ("", "")],
    )
    def test_unparsable_play_text_points_at_the_bad_part(self, text: str, part: str) -> None:
        with pytest.raises(InvalidPlay) as raised:
            judge(OPENING, (6, 3), text)
        assert raised.value.part == part
