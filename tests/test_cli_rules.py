"""The rules commands as a user runs them: output, JSON, exit statuses and clear errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


class TestLegal:
    def test_lists_every_play_with_the_board_it_leaves(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "legal", "opening", "--dice", "4", "3")
        assert status == 0
        assert out.splitlines()[0] == "17 legal plays with 4-3:"
        assert "  24/20 13/10" in out and "-> 4HPwATDgc+IBIQ" in out

    def test_json_gives_plays_and_position_ids(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(capsys, "legal", "4HPwATDgc/ABMA", "--dice", "6", "5", "--json")
        answer = json.loads(out)
        assert status == 0 and answer["position_id"] == "4HPwATDgc/ABMA"
        assert answer["dice"] == [6, 5]
        assert [p["play"] for p in answer["plays"]] == [
            "13/2",
            "13/7 8/3",
            "13/8 13/7",
            "24/13",
            "24/18 13/8",
            "24/18 8/3",
            "8/3 8/2",
        ]
        assert len(answer["plays"]) == len({p["position_id"] for p in answer["plays"]})

    def test_a_forfeited_roll_says_so(self, capsys: pytest.CaptureFixture[str]) -> None:
        # On the bar against a closed board.
        status, out, err = run(capsys, "legal", "27YBAAAA/n8ACA", "--dice", "6", "6")
        assert (status, err) == (0, "")
        assert out.strip() == "no legal play with 6-6: the roll is forfeited"

    def test_batch_answers_each_line_and_survives_bad_ones(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        import io

        lines = "\n".join(
            [
                json.dumps({"position": "opening", "dice": [3, 1]}),
                "not json",
                json.dumps({"position": "4HPwATDgc/ABM!", "dice": [3, 1]}),
                json.dumps({"position": "opening", "dice": [7, 1]}),
                json.dumps({"position": "opening", "dice": [2, 1]}),
            ]
        )
        monkeypatch.setattr(sys, "stdin", io.StringIO(lines + "\n"))
        status, out, _ = run(capsys, "legal", "--batch", "-")
        answers = [json.loads(line) for line in out.splitlines()]
        assert status == 0 and len(answers) == 5
        assert len(answers[0]["plays"]) == 16
        assert answers[1]["line"] == 2 and "not JSON" in answers[1]["error"]
        assert "Position ID" in answers[2]["error"]
        assert "1 to 6" in answers[3]["error"]
        assert answers[4]["dice"] == [2, 1]

    def test_missing_dice_is_a_clear_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, _, err = run(capsys, "legal", "opening")
        assert status == 2
        assert "no dice given: add --dice D1 D2" in err

    def test_a_malformed_position_is_a_clear_error(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, _, err = run(capsys, "legal", "hello", "--dice", "6", "3")
        assert status == 2
        assert err.startswith("companion legal: ") and "Position ID" in err
        assert "Traceback" not in err


class TestJudge:
    def test_legal_play_exits_zero(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys, "judge", "opening", "--dice", "6", "3", "--play", "24/18 13/10"
        )
        assert (status, out.strip()) == (0, "legal: 24/18 13/10")

    def test_illegal_play_exits_one_with_the_rule_and_closest_plays(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, out, _ = run(capsys, "judge", "opening", "--dice", "6", "3", "--play", "24/18")
        assert status == 1
        assert out.splitlines() == [
            "illegal: both dice can be played: 24/18 13/10 is legal",
            "closest legal plays: 24/18 13/10, 24/18 6/3, 24/18 8/5",
        ]

    def test_judge_a_board_as_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, out, _ = run(
            capsys, "judge", "opening", "--dice", "4", "3", "--after", "4HPwATDgc+IBIQ", "--json"
        )
        answer = json.loads(out)
        assert status == 0 and answer["legal"] and answer["play"] == "24/20 13/10"

    def test_unreadable_play_exits_two_and_names_the_part(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        status, _, err = run(capsys, "judge", "opening", "--dice", "6", "3", "--play", "24/18 13/x")
        assert status == 2 and "'13/x'" in err


def test_python_dash_m_companion_runs_the_same_program() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "judge",
            "opening",
            "--dice",
            "6",
            "3",
            "--play",
            "24/18",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout.startswith("illegal: both dice can be played")


def test_demo_rules_replay_judges_the_bundled_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "--rules")
    assert status == 0
    assert "illegal: a checker on the bar must enter before any other checker moves" in out
    assert "legal: no legal move with 5-5: the roll is forfeited" in out
    assert "7 plays accepted, 6 refused." in out
