"""The judge names the play when it is legal and the broken rule, in plain words, when not."""

from __future__ import annotations

import pytest

from companion.errors import InvalidPlay
from companion.rules import BAR, Colour, Position, Verdict, generate_plays, judge
from companion.rules.judge import IMPOSSIBLE_RULES, RULES


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


def changed(
    position: Position, mine: dict[int, int], theirs: dict[int, int] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The raw board after adding ``{place: change}`` to each side (own numbering, 0 = off)."""
    mover, opponent = list(position.mover), list(position.opponent)
    for place, change in mine.items():
        mover[place] += change
    for place, change in (theirs or {}).items():
        opponent[place] += change
    return tuple(mover), tuple(opponent)


WHITE = Colour.WHITE


class TestEachRuleHasItsWords:
    """One test per ``Verdict.rule``, named after it, checking the words a player reads."""

    def test_rules_are_all_documented_on_the_verdict(self) -> None:
        doc = Verdict.__doc__ or ""
        for rule in RULES:
            assert not rule or f"``{rule}``" in doc, rule
        assert IMPOSSIBLE_RULES <= set(RULES)

    def test_forfeit_when_something_moved_although_nothing_can(self) -> None:
        closed = board({25: 1, 13: 14}, {p: 2 for p in range(1, 7)})
        verdict = judge(closed, (6, 6), changed(closed, {13: -1, 7: 1}))
        assert (verdict.legal, verdict.rule) == (False, "forfeit")
        assert verdict.reason == (
            "no checker can move with 6-6: the roll is forfeited and the board must stay as it was"
        )
        assert verdict.closest == ()

    def test_checker_count_names_a_negative_count_and_its_point(self) -> None:
        verdict = judge(OPENING, (6, 3), changed(OPENING, {1: -1, 2: 1}), on_roll=WHITE)
        assert verdict.rule == "checker_count" and verdict.impossible
        assert verdict.reason == (
            "checkers appeared or vanished: white has a negative count (-1) on the 1-point"
        )

    @pytest.mark.parametrize(
        ("tray", "where"),
        [(1, "put with the borne-off checkers"), (0, "taken off the board")],
    )
    def test_hit_not_on_bar_when_the_hit_blot_went_elsewhere(self, tray: int, where: str) -> None:
        position = board({13: 15}, {20: 1, 1: 14})  # a black blot on our 5-point
        after = changed(position, {13: -1, 5: 1}, {20: -1, 0: tray})
        verdict = judge(position, (6, 2), after, on_roll=WHITE)
        assert verdict.rule == "hit_not_on_bar" and not verdict.impossible
        assert verdict.reason == (
            f"a hit checker goes on the bar, but the black checker hit on the 5-point was {where}"
        )
        assert verdict.closest[0] == "13/5*"

    def test_hit_not_on_bar_for_a_blot_hit_on_the_way(self) -> None:
        position = board({13: 14, 6: 1}, {18: 1, 15: 2})  # a blot on our 7, our 10 blocked
        after = changed(position, {13: -1, 4: 1}, {18: -1, 0: 1})
        verdict = judge(position, (6, 3), after, on_roll=WHITE)
        assert verdict.rule == "hit_not_on_bar"
        assert verdict.reason == (
            "a hit checker goes on the bar, but the black checker hit on the 7-point was put "
            "with the borne-off checkers"
        )

    def test_wrong_side_quotes_the_play_when_the_opponent_played_the_roll(self) -> None:
        # Black plays 24/18 13/10 on white's roll: the right pips, the wrong colour.
        after = changed(OPENING, {}, {24: -1, 18: 1, 13: -1, 10: 1})
        verdict = judge(OPENING, (6, 3), after, on_roll=WHITE)
        assert verdict.rule == "wrong_side" and verdict.impossible
        assert verdict.reason == (
            "the wrong side moved: black played 24/18 13/10 (counted from black's side), but it "
            "is white's turn to play 6-3"
        )

    def test_wrong_side_names_opposing_points_in_the_movers_numbering(self) -> None:
        # Black's checker from its 24-point (white's 1-point) to white's 5-point.
        after = changed(OPENING, {24: -1, 18: 1, 13: -1, 10: 1}, {24: -1, 20: 1})
        verdict = judge(OPENING, (6, 3), after, on_roll=WHITE)
        assert verdict.rule == "wrong_side"
        assert verdict.reason == (
            "black's checkers moved, and only white moves this turn (a black checker moved from "
            "the 1-point to the 5-point)"
        )

    def test_blocked_entry_names_the_point_from_the_bar(self) -> None:
        position = board({25: 1, 13: 14}, {6: 2, 1: 13})  # black holds our 19-point
        after = changed(position, {25: -1, 19: 1, 13: -1, 10: 1})
        verdict = judge(position, (6, 3), after, on_roll=WHITE)
        assert verdict.rule == "blocked"
        assert verdict.reason == (
            "a checker on the bar cannot enter on the 19-point: it is blocked (two black checkers)"
        )
        assert set(verdict.closest) == {"bar/16", "bar/22 13/7"}
        typed = judge(position, (6, 3), "bar/19 13/10", on_roll=WHITE)
        assert (
            typed.reason == "bar/19 cannot be played: the 19-point is blocked (two black checkers)"
        )

    def test_blocked_on_the_way_when_every_route_stops_on_a_made_point(self) -> None:
        position = board({13: 14, 6: 1}, {18: 2, 15: 2})  # our 7 and 10 are blocked
        verdict = judge(position, (6, 3), changed(position, {13: -1, 4: 1}))
        assert verdict.rule == "blocked"
        assert verdict.reason == (
            "the 10-point and the 7-point are blocked: every way to make these moves stops on one"
        )

    def test_bar_without_hit_for_a_checker_of_the_player_on_roll(self) -> None:
        verdict = judge(
            OPENING, (6, 3), changed(OPENING, {13: -1, 10: 1, 6: -1, 25: 1}), on_roll=WHITE
        )
        assert verdict.rule == "bar_without_hit"
        assert verdict.reason == (
            "one of white's checkers was put on the bar, but only a hit sends a checker there"
        )

    def test_bar_without_hit_for_an_opposing_checker(self) -> None:
        after = changed(OPENING, {24: -1, 18: 1, 13: -1, 10: 1}, {6: -1, 25: 1})
        verdict = judge(OPENING, (6, 3), after, on_roll=WHITE)
        assert verdict.rule == "bar_without_hit"
        assert verdict.reason == (
            "a black checker was put on the bar from the 19-point, but no checker hit it: only "
            "a hit sends a checker to the bar"
        )
        assert verdict.closest[0] == "24/18 13/10"

    def test_a_hit_on_the_way_is_not_bar_without_hit(self) -> None:
        # 13/7*/4: the blot on the 7-point is hit by the checker passing through.
        position = board({13: 15}, {18: 1, 15: 2})
        after = judge(position, (6, 3), "13/7*/4").after
        assert after is not None and after.opponent[BAR] == 1
        assert judge(position, (6, 3), after).legal

    def test_not_hit_when_a_blot_is_left_under_the_checker(self) -> None:
        position = board({13: 15}, {20: 1, 1: 14})
        verdict = judge(position, (6, 2), changed(position, {13: -1, 5: 1}))
        assert verdict.rule == "not_hit"
        assert verdict.reason == (
            "a checker landed on the blot on the 5-point but did not hit it: a hit checker goes "
            "on the bar"
        )

    def test_not_hit_when_the_blot_on_the_way_stays(self) -> None:
        position = board({13: 15}, {18: 1, 15: 2})  # a blot on our 7, our 10 blocked
        verdict = judge(position, (6, 3), changed(position, {13: -1, 4: 1}))
        assert verdict.rule == "not_hit"
        assert verdict.reason == (
            "the checker that stopped on the 7-point on its way hit the blot there, and a hit "
            "checker goes on the bar"
        )
        assert verdict.closest == ("13/7*/4",)

    def test_no_move_quotes_a_legal_play(self) -> None:
        verdict = judge(OPENING, (6, 3), OPENING)
        assert verdict.rule == "no_move"
        quoted = verdict.reason.removeprefix("no checker moved, but 6-3 can be played: ")
        assert judge(OPENING, (6, 3), quoted.removesuffix(" is legal")).legal

    def test_backward_names_the_point_and_a_checker_entering_is_not_backward(self) -> None:
        verdict = judge(OPENING, (3, 3), changed(OPENING, {6: -1, 9: 1}))
        assert verdict.rule == "backward"
        assert verdict.reason == (
            "a checker moved backward, onto the 9-point: checkers move from higher to lower points"
        )
        position = board({25: 2, 6: 13}, {})
        entered = judge(position, (2, 1), changed(position, {25: -2, 24: 1, 23: 1}))
        assert entered.legal and entered.play == "bar/24 bar/23"

    def test_backward_when_a_borne_off_checker_comes_back(self) -> None:
        position = board({6: 10}, {})
        verdict = judge(position, (6, 1), changed(position, {0: -1, 3: 1, 6: -1, 5: 1}))
        assert verdict.rule == "backward"
        assert verdict.reason.startswith("a borne-off checker came back onto the board")

    def test_bar_first_when_a_second_checker_stays_on_the_bar(self) -> None:
        position = board({25: 2, 13: 13}, {1: 13, 6: 2})  # our 19-point is blocked
        verdict = judge(position, (6, 3), "bar/22 13/10")
        assert verdict.rule == "bar_first"
        assert verdict.closest == ("bar/22",)

    def test_bear_off_not_home_after_entering_from_the_bar(self) -> None:
        # The checker that entered on the 20-point is not home yet: the 6 cannot bear off.
        position = board({25: 1, 6: 14}, {})
        verdict = judge(position, (6, 5), "bar/20 6/off")
        assert verdict.rule == "bear_off_not_home"
        assert verdict.reason == "bearing off is not allowed while a checker stands on the 20-point"
        on_the_bar = judge(position, (6, 5), changed(position, {6: -1, 0: 1}))
        assert on_the_bar.rule == "bar_first"

    def test_bear_off_not_home_when_no_order_of_the_dice_brings_the_last_checker_home(
        self,
    ) -> None:
        # 9/8 then 6/off: the 1 leaves the checker on the 8-point, so the 6 cannot bear off
        # in either order.
        position = board({9: 1, 6: 14}, {})
        verdict = judge(position, (6, 1), changed(position, {9: -1, 8: 1, 6: -1, 0: 1}))
        assert verdict.rule == "bear_off_not_home"
        assert verdict.reason == "bearing off is not allowed while a checker stands on the 8-point"

    def test_too_far_calls_a_teleported_checker_impossible(self) -> None:
        verdict = judge(OPENING, (6, 3), changed(OPENING, {24: -1, 10: 1}))
        assert verdict.rule == "too_far" and verdict.impossible
        assert verdict.to_json()["impossible"] is True
        assert verdict.reason == (
            "this board cannot follow from any play of 6-3: the checkers moved 14 pips (24/10), "
            "and 6-3 moves at most 9"
        )

    def test_pips_with_a_double(self) -> None:
        verdict = judge(OPENING, (5, 5), changed(OPENING, {13: -1, 7: 1}))
        assert verdict.rule == "pips"
        assert verdict.reason == "the move used 6 pips but the dice show 5-5"

    def test_dice_mismatch_on_a_board_names_the_moves(self) -> None:
        # Nine pips like 6-3, but as a 4 and a 5.
        verdict = judge(OPENING, (6, 3), changed(OPENING, {24: -1, 20: 1, 13: -1, 8: 1}))
        assert verdict.rule == "dice_mismatch"
        assert verdict.reason == "the moves do not fit the dice 6-3: 24/20 moves 4, 13/8 moves 5"

    def test_dice_mismatch_when_a_double_is_played_five_times(self) -> None:
        verdict = judge(OPENING, (6, 6), "24/18(2) 13/7(3)")
        assert verdict.rule == "dice_mismatch"
        assert verdict.reason == "the play needs at least five moves, and 6-6 gives four moves"

    def test_no_checker_on_the_point_a_typed_move_starts_from(self) -> None:
        verdict = judge(OPENING, (6, 3), "23/17 13/10")
        assert verdict.rule == "no_checker"
        assert verdict.reason == "23/17 moves a checker from the 23-point, where you have none"

    def test_bear_off_higher_point_names_the_die(self) -> None:
        position = board({6: 1, 5: 2, 3: 1}, {})
        verdict = judge(position, (6, 5), "5/off 5/off")
        assert verdict.rule == "bear_off_higher_point"
        assert verdict.reason == (
            "a 6 bears off from the 5-point only when no checker stands on a higher point, and "
            "one stands on the 6-point"
        )
        assert judge(position, (6, 5), "6/off 5/off").legal

    def test_use_both_dice_quotes_the_nearest_legal_play(self) -> None:
        verdict = judge(OPENING, (6, 3), changed(OPENING, {24: -1, 18: 1}))
        assert verdict.rule == "use_both_dice"
        assert verdict.reason == "both dice can be played: 24/18 13/10 is legal"

    def test_use_all_dice_when_bearing_off_with_a_double(self) -> None:
        position = board({6: 4, 5: 4, 4: 4}, {})
        verdict = judge(position, (6, 6), "6/off(2)")
        assert verdict.rule == "use_all_dice"
        assert verdict.reason == "four 6s can be played: 6/off(4) is legal"

    def test_use_all_dice_when_a_double_is_partly_played(self) -> None:
        verdict = judge(OPENING, (6, 6), "24/18(2)")
        assert verdict.rule == "use_all_dice"
        assert verdict.reason.startswith("four 6s can be played: 24/18(2) ")

    def test_higher_die_on_a_board(self) -> None:
        position = board({24: 1, 1: 14}, {10: 2})  # our 15-point is blocked
        verdict = judge(position, (6, 3), changed(position, {24: -1, 21: 1}))
        assert verdict.rule == "higher_die"
        assert verdict.closest == ("24/18",)

    def test_an_order_of_the_dice_that_is_blocked_is_not_held_against_the_player(self) -> None:
        # 24/21/15 names a blocked stop, but 24/18/15 leaves the same board: the play stands.
        position = board({24: 1, 13: 14}, {4: 2})  # black holds our 21-point
        assert judge(position, (6, 3), "24/21/15").play == "24/15"
        assert judge(position, (6, 3), "24/15").play == "24/15"

    def test_an_unmarked_run_prefers_the_way_without_a_hit(self) -> None:
        # 12/3 with 5-4: by the 8-point it hits, by the 7-point it does not; both are legal
        # and GNU Backgammon writes the quiet one "12/3".
        position = board({12: 1, 1: 14}, {17: 1})  # a black blot on our 8-point
        assert judge(position, (5, 4), "12/3").play == "12/3"
        assert judge(position, (5, 4), "12/8*/3").play == "12/8*/3"
