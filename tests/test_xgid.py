"""XGID: XG's bottom player is white, the board reads in white's numbering, round trips exact."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import InvalidFormat
from companion.rules import position_id, xgid
from companion.rules.position import BAR, OFF, Colour, Position
from companion.rules.xgid import CubeOffer, XgidState
from tests.test_position_id import positions

OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


class TestColoursAndBoard:
    def test_opening_with_white_on_roll(self) -> None:
        state = xgid.decode(OPENING)
        assert state.position == Position.opening()
        assert state.on_roll is Colour.WHITE
        assert state.dice is None and state.cube_value == 1 and state.cube_owner is None

    def test_upper_case_checkers_are_white_on_white_numbered_points(self) -> None:
        # White: 2 on its 24-point, 1 on the bar; black: 1 on the bar, 14 off.
        state = xgid.decode("XGID=a" + "-" * 23 + "BA:0:0:1:00:0:0:0:0:10")
        board = state.position.to_absolute(Colour.WHITE)
        assert board.points[23] == 2
        assert board.bar == {"white": 1, "black": 1}
        assert board.off == {"white": 12, "black": 14}

    def test_lower_case_point_1_is_blacks_24_point(self) -> None:
        state = xgid.decode("XGID=-a" + "-" * 24 + ":0:0:-1:00:0:0:0:0:10")
        assert state.on_roll is Colour.BLACK
        assert state.position.mover[24] == 1  # seen from black, on roll
        assert state.position.opponent[OFF] == 15

    def test_black_on_roll_sees_the_board_flipped(self) -> None:
        white_view = xgid.decode("XGID=aA----E-C---eE---c-e----A-:0:0:1:00:0:0:0:0:10")
        black_view = xgid.decode("XGID=aA----E-C---eE---c-e----A-:0:0:-1:00:0:0:0:0:10")
        assert black_view.position == white_view.position.flip()
        assert black_view.position.mover[BAR] == 1  # black's checker on the bar

    def test_position_id_of_the_xgid_opening_is_gnu_backgammons(self) -> None:
        for turn in ("1", "-1"):
            state = xgid.decode(OPENING.replace(":0:0:1:", f":0:0:{turn}:"))
            assert position_id.encode(state.position) == "4HPwATDgc/ABMA"


class TestFields:
    def test_match_score_crawford_and_dice(self) -> None:
        state = xgid.decode("XGID=-b----E-C---eE---c-e----B-:1:-1:1:63:4:6:1:7:10")
        assert (state.white_score, state.black_score, state.match_length) == (4, 6, 7)
        assert state.crawford and not state.jacoby
        assert state.dice == (6, 3)
        assert (state.cube_value, state.cube_owner) == (2, Colour.BLACK)

    def test_money_game_jacoby_and_beavers(self) -> None:
        state = xgid.decode("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
        assert state.jacoby and state.beavers and state.match_length == 0
        assert not xgid.decode(OPENING).jacoby

    def test_double_offered_keeps_the_doubler_on_roll(self) -> None:
        state = xgid.decode("XGID=-b----E-C---eE---c-e----B-:0:0:-1:D:0:0:0:5:10")
        assert state.cube_offer is CubeOffer.DOUBLE and state.dice is None
        assert state.on_roll is Colour.BLACK

    def test_prefix_is_optional_and_always_written(self) -> None:
        state = xgid.decode(OPENING.removeprefix("XGID="))
        assert xgid.encode(state) == OPENING

    @pytest.mark.parametrize(
        "text",
        [
            OPENING,
            "XGID=-b----E-C---eE---c-e----B-:1:-1:1:63:4:6:1:7:10",
            "XGID=-b----E-C---eE---c-e----B-:2:1:-1:D:0:0:3:0:8",
            "XGID=-b----E-C---eE---c-e----B-:2:1:-1:B:0:0:2:0:8",
            "XGID=aA----E-C---eE---c-e----A-:0:0:-1:13:0:0:0:0:10",
        ],
    )
    def test_text_round_trips_exactly(self, text: str) -> None:
        assert xgid.encode(xgid.decode(text)) == text


class TestMalformed:
    @pytest.mark.parametrize(
        ("text", "complaint"),
        [
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "9 fields, not 10"),
            ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "25 characters, not 26"),
            ("XGID=-b----E-C---eE---c-e----B*:0:0:1:00:0:0:0:0:10", "'\\*'"),
            ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "top \\(black\\) player's bar"),
            ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10", "bottom \\(white\\)"),
            ("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10", "'P'"),
            ("XGID=-b----E-C---eE---c-e---BB-:0:0:1:00:0:0:0:0:10", "more than 15"),
            ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn must be 1 or -1"),
            ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "cube owner field is 2"),
            ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "not a whole number"),
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:0:0:10", "dice field '71'"),
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:5:0:0:0:0:10", "dice field '5'"),
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10", "Crawford field is 0 or 1"),
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", "already won"),
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:3:1:7:10", "Crawford game needs"),
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:1:0:10", "beaver"),
            ("XGID=-b----E-C---eE---c-e----B-:4:0:1:00:0:0:0:0:3", "above the max cube"),
        ],
    )
    def test_each_defect_is_named(self, text: str, complaint: str) -> None:
        with pytest.raises(InvalidFormat, match=complaint) as raised:
            xgid.decode(text)
        assert "XGID=-b----E-C---eE---c-e----B-" in str(raised.value)


@st.composite
def xgid_states(draw: st.DrawFn) -> XgidState:
    length = draw(st.sampled_from([0, 1, 3, 7, 25]))
    white = draw(st.integers(0, max(length - 1, 0) if length else 50))
    black = draw(st.integers(0, max(length - 1, 0) if length else 50))
    at_match_point = length and length - 1 in (white, black)
    beavers = not length and draw(st.booleans())
    offers = [CubeOffer.NONE, CubeOffer.DOUBLE] + (
        [CubeOffer.BEAVER, CubeOffer.RACCOON] if beavers else []
    )
    offer = draw(st.sampled_from(offers))
    rolled = offer is CubeOffer.NONE and draw(st.booleans())
    max_log = draw(st.integers(0, 15))
    return XgidState(
        position=draw(positions()),
        on_roll=draw(st.sampled_from(list(Colour))),
        dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else None,
        cube_offer=offer,
        cube_value=1 << draw(st.integers(0, max_log)),
        cube_owner=draw(st.sampled_from([None, Colour.WHITE, Colour.BLACK])),
        white_score=white,
        black_score=black,
        match_length=length,
        crawford=bool(at_match_point) and draw(st.booleans()),
        jacoby=not length and draw(st.booleans()),
        beavers=beavers,
        max_cube=1 << max_log,
    )


@given(xgid_states())
def test_every_state_round_trips(state: XgidState) -> None:
    text = xgid.encode(state)
    assert xgid.decode(text) == state
    assert xgid.encode(xgid.decode(text)) == text


@given(xgid_states())
def test_board_characters_are_the_absolute_board(state: XgidState) -> None:
    cells = xgid.encode(state).removeprefix("XGID=").split(":")[0]
    board = state.position.to_absolute(state.on_roll)
    for point, count in enumerate(board.points, start=1):
        assert signed_count(cells[point]) == count
    assert signed_count(cells[0]) == -board.bar["black"]
    assert signed_count(cells[25]) == board.bar["white"]


def signed_count(char: str) -> int:
    """A board character as the Reading JSON counts it: +n white (A..), -n black (a..)."""
    if char == "-":
        return 0
    if char.isupper():
        return ord(char) - ord("A") + 1
    return -(ord(char) - ord("a") + 1)
