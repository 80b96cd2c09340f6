"""GNU Backgammon Position ID: the codec agrees with GNU Backgammon and refuses broken IDs."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import CompanionError, InvalidFormat
from companion.rules import position_id
from companion.rules.position import BAR, OFF, Position
from tests.conftest import shared_path


def oracle_cases() -> list[dict[str, Any]]:
    """The GNU Backgammon reference cases (../shared/oracle): missing fails in CI, else skips."""
    with shared_path("oracle", "cases.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any sound position: fifteen checkers a side, spread over off, points and bar, no point
    held by both."""
    mover = [0] * 26
    for _ in range(15):
        mover[draw(st.integers(0, BAR))] += 1
    # The opponent's point q is the mover's 25 - q: free unless the mover holds it.
    free = [OFF, BAR] + [q for q in range(1, 25) if not mover[25 - q]]
    opponent = [0] * 26
    for _ in range(15):
        opponent[draw(st.sampled_from(free))] += 1
    return Position(tuple(mover), tuple(opponent))


def key_id(bits: str) -> str:
    """The ID of a bit string written in key order (first bit = lowest bit of byte 0)."""
    key = int(bits[::-1], 2) if bits else 0
    return base64.b64encode(key.to_bytes(10, "little")).decode()[:14]


class TestKnownIds:
    def test_opening_position_is_4HPwATDgc_ABMA(self) -> None:
        assert position_id.encode(Position.opening()) == "4HPwATDgc/ABMA"
        assert position_id.decode("4HPwATDgc/ABMA") == Position.opening()

    def test_player_not_on_roll_is_written_first(self) -> None:
        # One checker each: the mover on its 1-point, the opponent on its 2-point. The key
        # starts with the opponent: 0 (point 1), 1 0 (point 2), ...
        position = Position.from_points({1: 1}, {2: 1})
        bits = "0" + "10" + "0" * 23  # opponent: points 1..24 and bar
        bits += "10" + "0" * 24  # mover
        assert position_id.encode(position) == key_id(bits)

    def test_surrounding_spaces_are_ignored(self) -> None:
        assert position_id.decode("  4HPwATDgc/ABMA\n") == Position.opening()

    def test_is_position_id_checks_shape_only(self) -> None:
        assert position_id.is_position_id("4HPwATDgc/ABMA")
        assert not position_id.is_position_id("4HPwATDgc/ABM")
        assert not position_id.is_position_id("4HPwATDgc/AB-A")


class TestAgreesWithGnuBackgammon:
    def test_every_reference_position_encodes_to_its_id(self) -> None:
        for case in oracle_cases():
            position = Position(tuple(case["mover"]), tuple(case["opponent"]))
            assert position_id.encode(position) == case["position_id"], case["id"]
            assert position_id.decode(case["position_id"]) == position, case["id"]

    def test_every_reference_result_id_decodes_to_a_sound_position(self) -> None:
        count = 0
        for case in oracle_cases():
            for result in case["result_ids"]:
                decoded = position_id.decode(result)
                assert decoded.is_valid(), (case["id"], result)
                assert position_id.encode(decoded) == result
                count += 1
        assert count > 1000


class TestMalformedIds:
    @pytest.mark.parametrize("text", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "opening"])
    def test_wrong_length_says_how_long_an_id_is(self, text: str) -> None:
        with pytest.raises(InvalidFormat, match="14 characters"):
            position_id.decode(text)

    @pytest.mark.parametrize("text", ["4HPwATDgc-ABMA", "4HPwATDgc/AB A", "4HPwATDgc/AB=A"])
    def test_characters_outside_base64_are_named(self, text: str) -> None:
        with pytest.raises(InvalidFormat, match="outside base64") as raised:
            position_id.decode(text)
        assert "4HPwATDgc/ABMA" in str(raised.value)

    def test_more_than_fifteen_checkers_for_a_side(self) -> None:
        sixteen = key_id("1" * 16 + "0" * 50)
        with pytest.raises(InvalidFormat, match="more than 15 checkers"):
            position_id.decode(sixteen)

    def test_both_sides_on_one_point(self) -> None:
        # Opponent on its 24-point, mover on its 1-point: the same point of the board.
        bits = "0" * 23 + "10" + "0" + "10" + "0" * 24
        with pytest.raises(InvalidFormat, match="belongs to one side"):
            position_id.decode(key_id(bits))

    def test_bits_after_the_last_point_are_refused(self) -> None:
        bits = "0" * 50 + "1"
        with pytest.raises(InvalidFormat, match="after the last point"):
            position_id.decode(key_id(bits))

    def test_last_character_may_not_carry_bits_past_eighty(self) -> None:
        with pytest.raises(InvalidFormat, match="past the 80"):
            position_id.decode("4HPwATDgc/ABMB")

    def test_errors_are_companion_errors_and_value_errors(self) -> None:
        with pytest.raises(CompanionError):
            position_id.decode("x")
        with pytest.raises(ValueError):
            position_id.decode("x")


@given(positions())
def test_every_position_round_trips(position: Position) -> None:
    text = position_id.encode(position)
    assert len(text) == 14
    assert position_id.decode(text) == position


@given(positions())
def test_flipped_position_has_its_own_id(position: Position) -> None:
    flipped = position_id.decode(position_id.encode(position.flip()))
    assert flipped.flip() == position


@given(st.binary(min_size=10, max_size=10))
def test_any_ten_bytes_decode_to_a_sound_board_or_a_clear_error(raw: bytes) -> None:
    text = base64.b64encode(raw).decode()[:14]
    try:
        decoded = position_id.decode(text)
    except InvalidFormat as error:
        assert "4HPwATDgc/ABMA" in str(error)
    else:
        assert decoded.is_valid()
        assert position_id.encode(decoded) == text


def test_an_id_with_both_sides_on_one_point_names_the_point_and_shows_a_valid_id() -> None:
    with pytest.raises(InvalidFormat) as raised:
        position_id.decode("AAEAAAEEAAAAAA")
    assert "the 16-point" in str(raised.value)
    assert "4HPwATDgc/ABMA" in str(raised.value)
