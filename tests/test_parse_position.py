"""Reading a POSITION argument: every accepted form, and one clear error for everything else."""

from __future__ import annotations

import pytest

from companion.errors import InvalidFormat
from companion.rules.parse import parse_position
from companion.rules.position import Colour, Position

# A position that is not its own mirror: black has a checker on the bar, white one on its ace.
ASYMMETRIC_XGID = "XGID=aA----E-C---eE---c-e----A-:0:0:1:00:0:0:0:0:10"


class TestAcceptedForms:
    @pytest.mark.parametrize("text", ["opening", " Opening ", "start"])
    def test_opening_word(self, text: str) -> None:
        parsed = parse_position(text)
        assert parsed.position == Position.opening()
        assert parsed.on_roll is None and parsed.dice is None

    @pytest.mark.parametrize(
        "text",
        ["4HPwATDgc/ABMA", "Position ID: 4HPwATDgc/ABMA", "position id 4HPwATDgc/ABMA"],
    )
    def test_position_id_alone_does_not_say_who_is_on_roll(self, text: str) -> None:
        parsed = parse_position(text)
        assert parsed.position == Position.opening()
        assert parsed.on_roll is None and parsed.match is None

    def test_position_id_with_match_id_names_the_player_on_roll_and_dice(self) -> None:
        parsed = parse_position("4HPwATDgc/ABMA:QYkqASAAIAAA")
        assert parsed.on_roll is Colour.WHITE  # GNU Backgammon's player 1
        assert parsed.dice == (5, 2)
        assert parsed.match is not None and parsed.match.match_length == 9

    def test_gnu_backgammon_copy_with_labels_on_two_lines(self) -> None:
        text = "GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n            Match ID   : MAAAAAAAAAAA"
        parsed = parse_position(text)
        assert parsed.on_roll is Colour.BLACK and parsed.dice is None

    def test_xgid_names_the_colour_on_roll_and_the_dice(self) -> None:
        parsed = parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:7:10")
        assert parsed.on_roll is Colour.BLACK and parsed.dice == (3, 1)
        assert parsed.xgid is not None and parsed.xgid.match_length == 7

    def test_xgid_board_is_seen_from_the_player_on_roll(self) -> None:
        parsed = parse_position(ASYMMETRIC_XGID)
        assert parsed.position.mover[1] == 1 and parsed.position.opponent[25] == 1
        flipped = parse_position(ASYMMETRIC_XGID.replace(":0:0:1:", ":0:0:-1:"))
        assert flipped.position == parsed.position.flip()


class TestRefusals:
    @pytest.mark.parametrize("text", ["", "   ", "hello", "13/7 8/5", "4HPwATDgc/ABMA 4HPw"])
    def test_unknown_text_lists_the_accepted_forms(self, text: str) -> None:
        with pytest.raises(InvalidFormat) as raised:
            parse_position(text)
        message = str(raised.value)
        assert "opening" in message and "Position ID" in message and "XGID" in message

    def test_nearly_a_position_id_gets_the_precise_complaint(self) -> None:
        with pytest.raises(InvalidFormat, match="14 characters"):
            parse_position("4HPwATDgc/ABM")

    def test_match_id_alone_asks_for_the_position_id(self) -> None:
        with pytest.raises(InvalidFormat, match="holds no board"):
            parse_position("QYkqASAAIAAA")

    def test_broken_match_id_after_a_position_id(self) -> None:
        with pytest.raises(InvalidFormat, match="not a Match ID"):
            parse_position("4HPwATDgc/ABMA:QYkq")

    def test_broken_xgid_gets_the_xgid_complaint(self) -> None:
        with pytest.raises(InvalidFormat, match="the turn must be 1 or -1"):
            parse_position("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10")
