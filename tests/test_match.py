"""Game results, the doubling cube and match play, named after the rules they protect."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import IllegalAction, InvalidDice, InvalidFormat
from companion.rules import match_id
from companion.rules.match import (
    MAX_CUBE,
    CubeState,
    GameResult,
    MatchState,
    from_match_id,
    game_result,
    opening_roll,
    to_match_id,
)
from companion.rules.match_id import GameState, MatchIdState, Resignation
from companion.rules.position import Colour, Position

WHITE, BLACK = Colour.WHITE, Colour.BLACK


def white_to_play(state: MatchState) -> MatchState:
    """A game started with white on roll, before white rolls."""
    return state.start_game(4, 2).end_turn().roll((3, 1)).end_turn()


class TestGameResult:
    def test_single_game_when_loser_has_borne_off_a_checker(self) -> None:
        assert game_result(Position.from_points({}, {20: 14})) is GameResult.SINGLE

    def test_gammon_when_loser_has_none_off(self) -> None:
        assert game_result(Position.from_points({}, {6: 10, 12: 5})) is GameResult.GAMMON

    def test_backgammon_when_loser_has_checker_in_winners_home(self) -> None:
        # The loser's 19-24 points are the winner's home board (the winner's 6-1 points).
        for point in range(19, 25):
            position = Position.from_points({}, {point: 1, 6: 14})
            assert game_result(position) is GameResult.BACKGAMMON, point

    def test_backgammon_when_loser_has_checker_on_the_bar(self) -> None:
        assert game_result(Position.from_points({}, {25: 1, 3: 14})) is GameResult.BACKGAMMON

    def test_checker_in_winners_outer_board_is_only_a_gammon(self) -> None:
        assert game_result(Position.from_points({}, {18: 1, 3: 14})) is GameResult.GAMMON

    def test_no_backgammon_once_the_loser_has_borne_off(self) -> None:
        assert game_result(Position.from_points({}, {25: 1, 3: 13})) is GameResult.SINGLE

    def test_no_result_while_both_sides_have_checkers_left(self) -> None:
        assert game_result(Position.opening()) is None
        assert game_result(Position.from_points({1: 1}, {1: 1})) is None

    def test_result_is_the_same_seen_from_either_side(self) -> None:
        position = Position.from_points({}, {22: 2, 5: 13})
        assert game_result(position) is game_result(position.flip()) is GameResult.BACKGAMMON


class TestOpeningRoll:
    def test_higher_die_starts_and_plays_both_numbers(self) -> None:
        assert opening_roll(2, 6) is BLACK
        state = MatchState.new_match(5).start_game(white_die=2, black_die=6)
        assert state.on_roll is BLACK and state.dice == (6, 2)

    def test_tie_means_both_roll_again(self) -> None:
        assert opening_roll(4, 4) is None
        with pytest.raises(IllegalAction, match=r"tie .* roll again"):
            MatchState.new_match(5).start_game(4, 4)

    def test_dice_outside_one_to_six_are_refused(self) -> None:
        with pytest.raises(InvalidDice):
            opening_roll(0, 7)

    def test_no_opening_roll_during_a_game(self) -> None:
        with pytest.raises(IllegalAction, match="game is going on"):
            MatchState.new_match(5).start_game(3, 1).start_game(3, 1)

    def test_the_opening_roll_cannot_be_doubled(self) -> None:
        state = MatchState.new_match(5)
        assert state.double_refusal(WHITE) is not None
        with pytest.raises(IllegalAction, match="opening roll comes first"):
            state.double(WHITE)


class TestDoublingCube:
    def test_player_on_roll_may_double_a_centred_cube_before_rolling(self) -> None:
        state = white_to_play(MatchState.new_match(7))
        assert state.can_double(WHITE)
        assert state.double(WHITE).cube == CubeState(value=1, owner=None, offered_by=WHITE)

    def test_only_the_player_on_roll_may_double(self) -> None:
        state = white_to_play(MatchState.new_match(7))
        with pytest.raises(IllegalAction, match="only the player on roll may double"):
            state.double(BLACK)

    def test_double_only_before_rolling(self) -> None:
        state = white_to_play(MatchState.new_match(7)).roll((5, 5))
        with pytest.raises(IllegalAction, match="before rolling"):
            state.double(WHITE)

    def test_only_the_player_who_owns_the_cube_may_double(self) -> None:
        state = white_to_play(MatchState.new_match(7)).double(WHITE).take(BLACK)
        state = state.roll((6, 5)).end_turn()  # black on roll, white's cube is now black's
        state = state.roll((2, 1)).end_turn()  # white on roll again
        with pytest.raises(IllegalAction, match="only the player who owns the cube may double"):
            state.double(WHITE)

    def test_cube_owner_may_redouble(self) -> None:
        state = white_to_play(MatchState.new_match(7)).double(WHITE).take(BLACK)
        state = state.roll((6, 5)).end_turn().roll((2, 1)).end_turn().roll((4, 4)).end_turn()
        assert state.on_roll is BLACK
        assert state.double(BLACK).take(WHITE).cube == CubeState(value=4, owner=WHITE)

    def test_take_gives_the_cube_at_twice_the_value(self) -> None:
        state = white_to_play(MatchState.new_match(7)).double(WHITE).take(BLACK)
        assert state.cube == CubeState(value=2, owner=BLACK)
        assert state.on_roll is WHITE and state.dice is None  # the doubler now rolls

    def test_pass_loses_the_game_at_the_value_before_the_double(self) -> None:
        state = white_to_play(MatchState.new_match(7)).double(WHITE).take(BLACK)
        state = state.roll((6, 5)).end_turn()  # black on roll, owning the 2-cube
        state = state.double(BLACK).pass_double(WHITE)
        assert (state.white_score, state.black_score) == (0, 2)
        assert not state.in_game and state.cube == CubeState()

    def test_doubler_cannot_answer_their_own_double(self) -> None:
        state = white_to_play(MatchState.new_match(7)).double(WHITE)
        with pytest.raises(IllegalAction, match="only black may take"):
            state.take(WHITE)
        with pytest.raises(IllegalAction, match="only black may pass"):
            state.pass_double(WHITE)

    def test_no_take_without_a_double(self) -> None:
        with pytest.raises(IllegalAction, match="no double to take"):
            white_to_play(MatchState.new_match(7)).take(BLACK)

    def test_no_second_double_while_one_is_pending(self) -> None:
        state = white_to_play(MatchState.new_money_game()).double(WHITE)
        with pytest.raises(IllegalAction, match="already waiting"):
            state.double(BLACK)

    def test_nobody_rolls_while_a_double_is_pending(self) -> None:
        with pytest.raises(IllegalAction, match="taken or passed before anyone rolls"):
            white_to_play(MatchState.new_match(7)).double(WHITE).roll((3, 2))

    def test_game_cannot_end_while_a_double_is_pending(self) -> None:
        with pytest.raises(IllegalAction, match="taken or passed"):
            white_to_play(MatchState.new_match(7)).double(WHITE).finish_game(
                WHITE, GameResult.SINGLE
            )

    def test_cube_cannot_go_past_32768(self) -> None:
        state = MatchState(cube=CubeState(value=MAX_CUBE, owner=WHITE), on_roll=WHITE)
        with pytest.raises(IllegalAction, match="cannot go past 32768"):
            state.double(WHITE)

    def test_points_won_are_result_times_cube(self) -> None:
        state = white_to_play(MatchState.new_match(25)).double(WHITE).take(BLACK)
        assert state.points_for(GameResult.SINGLE) == 2
        assert state.points_for(GameResult.GAMMON) == 4
        assert state.points_for(GameResult.BACKGAMMON) == 6
        assert state.finish_game(WHITE, GameResult.BACKGAMMON).white_score == 6


class TestMoneyGameOptions:
    def test_jacoby_rule_gammons_count_single_until_the_cube_is_turned(self) -> None:
        state = white_to_play(MatchState.new_money_game(jacoby=True))
        assert state.points_for(GameResult.GAMMON) == 1
        assert state.points_for(GameResult.BACKGAMMON) == 1
        doubled = state.double(WHITE).take(BLACK)
        assert doubled.points_for(GameResult.GAMMON) == 4

    def test_without_jacoby_gammons_count_on_a_centred_cube(self) -> None:
        state = white_to_play(MatchState.new_money_game(jacoby=False))
        assert state.points_for(GameResult.GAMMON) == 2

    def test_beaver_keeps_the_cube_with_the_beaverer_at_four_times(self) -> None:
        state = white_to_play(MatchState.new_money_game(beavers=True)).double(WHITE)
        assert state.beaver(BLACK).cube == CubeState(value=4, owner=BLACK)

    def test_no_beavers_unless_the_game_is_played_with_them(self) -> None:
        state = white_to_play(MatchState.new_money_game(beavers=False)).double(WHITE)
        with pytest.raises(IllegalAction, match="beavers are allowed only"):
            state.beaver(BLACK)
        with pytest.raises(IllegalAction, match="beavers are allowed only"):
            white_to_play(MatchState.new_match(5)).double(WHITE).beaver(BLACK)

    def test_no_jacoby_or_beavers_in_a_match(self) -> None:
        with pytest.raises(IllegalAction, match="money games"):
            MatchState(length=5, jacoby=True)

    def test_money_session_never_ends(self) -> None:
        state = white_to_play(MatchState.new_money_game()).finish_game(BLACK, GameResult.GAMMON)
        assert state.black_score == 1 and not state.is_over and state.winner is None
        assert state.start_game(6, 1).on_roll is WHITE


class TestMatchPlay:
    def test_crawford_game_is_the_one_after_first_reaching_match_point(self) -> None:
        state = white_to_play(MatchState.new_match(5)).finish_game(WHITE, GameResult.GAMMON)
        assert state.white_score == 2 and not state.crawford
        state = white_to_play(state).finish_game(WHITE, GameResult.GAMMON)
        assert state.white_score == 4 and state.crawford and not state.post_crawford

    def test_no_doubling_in_the_crawford_game(self) -> None:
        state = MatchState(length=5, white_score=4, crawford=True)
        state = white_to_play(state)
        for player in (WHITE, BLACK):
            assert state.double_refusal(player) == "no doubling in the Crawford game"
        with pytest.raises(IllegalAction, match="no doubling in the Crawford game"):
            state.double(WHITE)

    def test_games_after_the_crawford_game_are_post_crawford_and_allow_doubling(self) -> None:
        state = white_to_play(MatchState(length=5, white_score=4, crawford=True))
        state = state.finish_game(BLACK, GameResult.SINGLE)
        assert state.post_crawford and not state.crawford
        assert white_to_play(state).can_double(WHITE)

    def test_crawford_comes_only_once(self) -> None:
        state = MatchState(length=5, white_score=4, black_score=1, post_crawford=True)
        state = white_to_play(state).finish_game(BLACK, GameResult.GAMMON)
        assert (state.white_score, state.black_score) == (4, 3)
        state = white_to_play(state).finish_game(BLACK, GameResult.SINGLE)
        assert state.black_score == 4 and not state.crawford and state.post_crawford

    def test_match_ends_when_a_player_reaches_the_length(self) -> None:
        state = white_to_play(MatchState(length=3, black_score=2, post_crawford=True))
        state = state.double(WHITE).take(BLACK).finish_game(BLACK, GameResult.GAMMON)
        assert state.is_over and state.winner is BLACK and state.black_score == 6
        with pytest.raises(IllegalAction, match="the match is over: black won it"):
            state.start_game(5, 3)

    def test_winning_at_once_from_below_match_point_skips_crawford(self) -> None:
        state = white_to_play(MatchState(length=3, white_score=1))
        state = state.double(WHITE).take(BLACK).finish_game(WHITE, GameResult.SINGLE)
        assert state.is_over and not state.crawford

    def test_whole_seven_point_match_through_crawford_and_post_crawford(self) -> None:
        # Scripted: (winner, result, doubled?) for each game, with the expected state after.
        script = [
            (WHITE, GameResult.SINGLE, False, (1, 0), "normal"),
            (BLACK, GameResult.GAMMON, True, (1, 4), "normal"),
            (WHITE, GameResult.SINGLE, True, (3, 4), "normal"),
            (BLACK, GameResult.GAMMON, False, (3, 6), "crawford"),
            (WHITE, GameResult.SINGLE, False, (4, 6), "post"),
            (WHITE, GameResult.SINGLE, True, (6, 6), "post"),
            (BLACK, GameResult.SINGLE, False, (6, 7), "over"),
        ]
        state = MatchState.new_match(7)
        for number, (winner, result, doubled, score, stage) in enumerate(script, start=1):
            state = white_to_play(state)
            assert state.can_double(WHITE) is not state.crawford, number
            if doubled:
                state = state.double(WHITE).take(BLACK)
            state = state.finish_game(winner, result)
            assert (state.white_score, state.black_score) == score, number
            assert state.crawford is (stage == "crawford"), number
            assert state.post_crawford is (stage in ("post", "over")), number
            assert state.is_over is (stage == "over"), number
            assert state.games_played == number
        assert state.winner is BLACK

    def test_one_point_match_has_no_crawford_game(self) -> None:
        state = MatchState.new_match(1)
        assert not state.crawford
        assert white_to_play(state).finish_game(WHITE, GameResult.SINGLE).winner is WHITE

    def test_match_point_without_crawford_is_a_contradiction(self) -> None:
        with pytest.raises(IllegalAction, match="Crawford game or a game after it"):
            MatchState(length=7, white_score=6)
        with pytest.raises(IllegalAction, match="one point from winning"):
            MatchState(length=7, white_score=4, crawford=True)

    def test_contradictory_states_are_refused(self) -> None:
        with pytest.raises(IllegalAction, match="at least 1 point"):
            MatchState.new_match(0)
        with pytest.raises(IllegalAction, match="between games"):
            MatchState(length=5, dice=(3, 1))
        with pytest.raises(IllegalAction, match="before the roll"):
            MatchState(on_roll=WHITE, dice=(3, 1), cube=CubeState(offered_by=WHITE))

    def test_away_scores(self) -> None:
        state = MatchState(length=7, white_score=5, black_score=2)
        assert (state.away(WHITE), state.away(BLACK)) == (2, 5)


class TestTurns:
    def test_turn_passes_only_after_rolling(self) -> None:
        state = white_to_play(MatchState.new_match(5))
        with pytest.raises(IllegalAction, match="after the player on roll has rolled"):
            state.end_turn()
        assert state.roll((2, 2)).end_turn().on_roll is BLACK

    def test_no_rolling_twice(self) -> None:
        with pytest.raises(IllegalAction, match="already rolled 5-1"):
            MatchState.new_match(5).start_game(5, 1).roll((3, 3))

    def test_rolled_dice_must_be_one_to_six(self) -> None:
        with pytest.raises(InvalidDice):
            white_to_play(MatchState.new_match(5)).roll((0, 3))


class TestMatchId:
    def test_manual_example_from_a_match_state(self) -> None:
        # Score 2-4 (player 0 = black has 2) to 9, black owns a 2-cube, white rolled 5-2.
        state = MatchState(
            length=9,
            white_score=4,
            black_score=2,
            cube=CubeState(value=2, owner=BLACK),
            on_roll=WHITE,
            dice=(5, 2),
        )
        assert to_match_id(state) == "QYkqASAAIAAA"

    def test_pending_double_gives_the_turn_to_the_other_player(self) -> None:
        state = white_to_play(MatchState.new_match(5)).double(WHITE)
        decoded = match_id.decode(to_match_id(state))
        assert decoded.double_offered and decoded.player_on_roll == 1 and decoded.turn == 0

    def test_finished_match_is_game_over_with_capped_score(self) -> None:
        state = MatchState(length=3, white_score=6, black_score=1, post_crawford=True)
        decoded = match_id.decode(to_match_id(state))
        assert decoded.game_state is GameState.OVER and decoded.score == (1, 3)

    def test_reading_a_match_id_back_gives_the_same_match(self) -> None:
        state = white_to_play(MatchState(length=7, white_score=6, black_score=3, crawford=True))
        later = MatchState(length=7, white_score=6, black_score=4, post_crawford=True)
        for moment in (state, state.roll((6, 1)), later, white_to_play(later).double(WHITE)):
            assert from_match_id(to_match_id(moment)) == moment
        doubled = white_to_play(MatchState.new_money_game(jacoby=True)).double(WHITE)
        assert from_match_id(to_match_id(doubled)) == doubled

    def test_pending_resignation_is_refused_with_what_to_do(self) -> None:
        resigning = MatchIdState(game_state=GameState.PLAYING, resignation=Resignation.GAMMON)
        with pytest.raises(InvalidFormat, match="resignation waiting"):
            from_match_id(match_id.encode(resigning))

    def test_crawford_flag_and_money_jacoby(self) -> None:
        crawford = MatchState(length=5, white_score=4, crawford=True)
        assert match_id.decode(to_match_id(crawford)).crawford
        assert not match_id.decode(to_match_id(MatchState.new_money_game(jacoby=False))).jacoby


@given(
    length=st.integers(1, 15),
    games=st.lists(
        st.tuples(st.sampled_from(list(Colour)), st.sampled_from(list(GameResult)), st.booleans()),
        max_size=40,
    ),
)
def test_any_sequence_of_games_keeps_match_rules(
    length: int, games: list[tuple[Colour, GameResult, bool]]
) -> None:
    state = MatchState.new_match(length)
    crawford_games = 0
    for winner, result, doubled in games:
        if state.is_over:
            break
        before = state
        crawford_games += state.crawford
        state = white_to_play(state)
        if doubled and state.can_double(WHITE):
            state = state.double(WHITE).take(BLACK)
        assert state.crawford == before.crawford
        if state.crawford:
            assert length - 1 in (state.white_score, state.black_score)
            assert not state.can_double(WHITE)
        state = state.finish_game(winner, result)
        assert state.score(winner) > before.score(winner)
        assert state.score(winner.opponent) == before.score(winner.opponent)
        decoded = match_id.decode(to_match_id(state))
        assert decoded.match_length == length and decoded.crawford == state.crawford
        if not state.is_over:
            assert from_match_id(to_match_id(state)) == replace(state, games_played=0)
    assert crawford_games <= 1
