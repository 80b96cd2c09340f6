"""GNU Backgammon Match ID: the manual's examples, exact round trips and clear refusals."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import InvalidFormat
from companion.rules import match_id
from companion.rules.match_id import GameState, MatchIdState, Resignation
from companion.rules.position import Colour


def key_to_id(key: int) -> str:
    return base64.b64encode(key.to_bytes(9, "little")).decode()


def id_to_key(text: str) -> int:
    return int.from_bytes(base64.b64decode(text), "little")


class TestManualExamples:
    def test_score_2_4_to_9_player_0_owns_a_2_cube_player_1_rolled_52(self) -> None:
        # GNU Backgammon manual, "A technical description of the Match ID".
        state = MatchIdState(
            cube_value=2,
            cube_owner=0,
            player_on_roll=1,
            game_state=GameState.PLAYING,
            turn=1,
            dice=(5, 2),
            match_length=9,
            score=(2, 4),
        )
        assert match_id.encode(state) == "QYkqASAAIAAA"
        assert match_id.decode("QYkqASAAIAAA") == state

    def test_manual_bit_string_matches_the_fields(self) -> None:
        # The manual spells the key as 1000 00 1 0 100 1 0 00 101 010 then the 15-bit fields.
        bits = "100000101001000101010"
        bits += "100100000000000010000000000000001000000000000"
        assert key_to_id(int(bits[::-1], 2)) == "QYkqASAAIAAA"

    def test_money_game_before_the_first_roll(self) -> None:
        state = match_id.decode("MAAAAAAAAAAA")
        assert state == MatchIdState()
        assert state.cube_owner is None and state.match_length == 0

    def test_player_1_on_roll_in_a_new_money_game(self) -> None:
        state = match_id.decode("cAkAAAAAAAAA")
        assert (state.player_on_roll, state.turn, state.game_state) == (1, 1, GameState.PLAYING)

    def test_jacoby_off_is_the_67th_bit(self) -> None:
        off = MatchIdState(jacoby=False)
        assert id_to_key(match_id.encode(off)) == 0b11 << 4 | 1 << 66
        assert match_id.decode(match_id.encode(off)).jacoby is False

    def test_white_is_player_1(self) -> None:
        assert match_id.PLAYER_OF_COLOUR[Colour.WHITE] == 1
        assert match_id.COLOUR_OF_PLAYER[0] is Colour.BLACK


class TestMalformedIds:
    @pytest.mark.parametrize("text", ["", "QYkqASAAIAA", "QYkqASAAIAAAA"])
    def test_wrong_length(self, text: str) -> None:
        with pytest.raises(InvalidFormat, match="12 characters") as raised:
            match_id.decode(text)
        assert "cAkAAAAAAAAA" in str(raised.value)

    def test_characters_outside_base64(self) -> None:
        with pytest.raises(InvalidFormat, match=r"outside base64 \('\?'\)"):
            match_id.decode("QYkqASAAIA?A")

    def test_cube_owner_2_does_not_exist(self) -> None:
        key = id_to_key("MAAAAAAAAAAA") & ~(0b11 << 4) | (0b10 << 4)
        with pytest.raises(InvalidFormat, match="cube owner field is 2"):
            match_id.decode(key_to_id(key))

    def test_game_state_above_4_does_not_exist(self) -> None:
        with pytest.raises(InvalidFormat, match="game state field is 5"):
            match_id.decode(key_to_id(id_to_key("MAAAAAAAAAAA") | 5 << 8))

    def test_die_of_7(self) -> None:
        with pytest.raises(InvalidFormat, match="dice"):
            match_id.decode(key_to_id(id_to_key("MAAAAAAAAAAA") | 7 << 15 | 1 << 18))

    def test_one_die_rolled_and_one_not(self) -> None:
        with pytest.raises(InvalidFormat, match="one die rolled"):
            match_id.decode(key_to_id(id_to_key("MAAAAAAAAAAA") | 3 << 15))

    def test_score_past_the_match_length(self) -> None:
        with pytest.raises(InvalidFormat, match="past the match length"):
            match_id.decode(key_to_id(id_to_key("MAAAAAAAAAAA") | 5 << 21 | 6 << 36))

    def test_crawford_in_a_money_game(self) -> None:
        with pytest.raises(InvalidFormat, match="money game has no Crawford"):
            match_id.decode(key_to_id(id_to_key("MAAAAAAAAAAA") | 1 << 7))

    def test_bits_past_the_67_used(self) -> None:
        with pytest.raises(InvalidFormat, match="past the 67"):
            match_id.decode(key_to_id(id_to_key("MAAAAAAAAAAA") | 1 << 70))

    @pytest.mark.parametrize(
        ("fields", "complaint"),
        [
            ({"cube_value": 3}, "power of two"),
            ({"cube_value": 1 << 16}, "power of two"),
            ({"cube_owner": 2}, "cube owner"),
            ({"turn": 2}, "turn"),
            ({"match_length": 1 << 15}, "match length"),
        ],
    )
    def test_states_no_id_can_hold_are_refused(
        self, fields: dict[str, int], complaint: str
    ) -> None:
        with pytest.raises(InvalidFormat, match=complaint):
            MatchIdState(**fields)  # type: ignore[arg-type]


@st.composite
def match_id_states(draw: st.DrawFn) -> MatchIdState:
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 11, 25, 32767]))
    top = length if length else 32767
    rolled = draw(st.booleans())
    return MatchIdState(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        player_on_roll=draw(st.integers(0, 1)),
        crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.sampled_from(list(GameState))),
        turn=draw(st.integers(0, 1)),
        double_offered=draw(st.booleans()),
        resignation=draw(st.sampled_from(list(Resignation))),
        dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else (0, 0),
        match_length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        jacoby=draw(st.booleans()),
    )


@given(match_id_states())
def test_every_state_round_trips(state: MatchIdState) -> None:
    text = match_id.encode(state)
    assert len(text) == 12
    assert match_id.decode(text) == state


@given(st.binary(min_size=9, max_size=9))
def test_any_nine_bytes_decode_exactly_or_fail_clearly(raw: bytes) -> None:
    text = base64.b64encode(raw).decode()
    try:
        state = match_id.decode(text)
    except InvalidFormat as error:
        assert "Match ID" in str(error)
    else:
        assert match_id.encode(state) == text
