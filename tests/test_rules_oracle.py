"""The engine agrees with GNU Backgammon on every shared reference case: same set of results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from companion.rules import Position, generate_plays, position_id
from tests.conftest import shared_path


def oracle_cases() -> Iterator[dict[str, Any]]:
    with shared_path("oracle", "cases.jsonl").open(encoding="utf-8") as stream:
        for line in stream:
            yield json.loads(line)


def test_every_oracle_case_has_exactly_the_same_legal_results() -> None:
    disagreements = []
    count = 0
    for case in oracle_cases():
        count += 1
        position = Position(tuple(case["mover"]), tuple(case["opponent"]))
        assert position_id.encode(position) == case["position_id"], case["id"]
        ours = sorted(position_id.encode(p.after) for p in generate_plays(position, case["dice"]))
        if ours != case["result_ids"]:
            missing = set(case["result_ids"]) - set(ours)
            extra = set(ours) - set(case["result_ids"])
            disagreements.append(f"{case['id']}: missing {sorted(missing)}, extra {sorted(extra)}")
    assert count >= 1000
    assert not disagreements, "\n".join(disagreements[:20])


def test_every_oracle_play_is_written_as_gnu_backgammon_writes_it() -> None:
    differences = []
    for case in oracle_cases():
        position = Position(tuple(case["mover"]), tuple(case["opponent"]))
        ours = {
            position_id.encode(p.after): str(p.play) for p in generate_plays(position, case["dice"])
        }
        for play in case["plays"]:
            if ours.get(play["result_id"]) != play["move"]:
                differences.append(
                    f"{case['id']}: {play['move']!r} vs {ours.get(play['result_id'])!r}"
                )
    assert not differences, "\n".join(differences[:20])


@pytest.mark.parametrize("tag", ["bar_dance", "no_move"])
def test_oracle_forfeits_are_empty_play_lists(tag: str) -> None:
    cases = [c for c in oracle_cases() if tag in c["tags"]]
    assert cases
    for case in cases:
        position = Position(tuple(case["mover"]), tuple(case["opponent"]))
        assert len(generate_plays(position, case["dice"])) == case["num_plays"]
