"""The Jellyfish .mat export: GNU Backgammon's layout, parsed back by our reader and by gnubg."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.errors import InvalidFormat
from companion.formats.mat import Action, GameRecord, MatchRecord, from_events, read_mat, write_mat
from companion.referee import Event, Referee, Settings
from companion.referee.scripted import play_script, scripted_match
from companion.rules import Colour

WHITE, BLACK = Colour.WHITE, Colour.BLACK
GNUBG = "/usr/games/gnubg"

# Written by GNU Backgammon 1.07 ("export match mat") after a match it played against itself
# (its first three games; "|" marks the end of a line that ends in a space).
GNUBG_EXPORT = """\
; [EventDate "2026.11.30"]

 5 point match

 Game 1
 gnubg : 0                      root : 0
  1)                             21: 13/11 24/23 |
  2) 52: 13/8 24/22              63: 8/5 11/5 |
  3) 53: 8/3 6/3                 62: 13/7 7/5 |
  4) 42: 8/4 6/4                 41: 13/9 9/8 |
  5) 31: 22/21 24/21             21: 5/3 6/5 |
  6) 43: 13/10 10/6              65: 23/18 24/18 |
  7) 52: 6/1 3/1                 33: 18/15 18/15 13/10 13/10
  8) 51: 6/5 8/3                 52: 3/1 6/1 |
  9) 65: 13/7 7/2                32: 5/3 6/3 |
 10) 63: 5/2 8/2                 62: 8/2 3/1 |
 11) 51: 2/1 21/16               42: 8/4* 4/2 |
 12) 66:                         22: 15/13 13/11 11/9* 3/1
 13) 54: 25/21                    Doubles => 2
 14)  Drops                       Wins 1 point |

 Game 2
 gnubg : 0                      root : 1
  1)                             31: 8/5 6/5 |
  2) 43: 13/9 24/21              53: 24/21 21/16* |
  3) 52: 25/23 13/8               Doubles => 2
  4)  Takes                      31: 16/13 6/5 |
  5) 32: 23/21 24/21             43: 13/10 10/6 |
  6) 63: 13/10 21/15             33: 24/21 21/18 18/15* 13/10*
  7) 32: 25/22 25/23             63: 13/7 10/7 |
  8) 65: 22/16 16/11             22: 15/13 13/11 11/9 9/7
  9) 41: 8/4 6/5                 21: 13/11 6/5 |
 10) 43: 8/5 8/4                 32: 11/8 8/6 |
 11) 42: 11/7 6/4                63: 5/2* 8/2 |
 12) 33: 25/22 13/10 13/10 10/7  53: 8/3* 6/3 |
 13) 63:                         65: 7/1 6/1 |
 14) 32:                         52: 13/8 8/6 |
 15) 43: 25/21 8/5               43: 13/10 10/6 |
 16) 44: 21/17 17/13 7/3 7/3     42: 7/3 7/5 |
 17) 33: 13/10 10/7 10/7 5/2     51: 1/0 5/0 |
 18) 31: 7/6 4/1                 55: 6/1 5/0 5/0 5/0
 19) 54: 21/17 17/12             55: 6/1 6/1 6/1 3/0
 20) 63: 12/6 21/18              65: 3/0 3/0 |
 21) 11: 18/17 17/16 16/15 7/6   42: 2/0 2/0 |
 22) 44: 15/11 11/7 7/3 6/2      62: 1/0 1/0 |
                                  Wins 2 points

 Game 3
 gnubg : 0                      root : 3
  1) 61: 13/7 8/7                63: 24/21 21/15 |
  2) 64: 13/7 24/20              43: 8/5* 15/11 |
  3) 66:                         41: 6/5 24/20 |
  4) 21: 25/23 6/5*              31: 25/22 6/5 |
  5) 55: 8/3* 8/3 7/2 7/2        33: |
  6)  Doubles => 2                Drops
      Wins 1 point

""".replace("|\n", "\n")


def scripted_events(length: int = 5, seed: int = 3) -> list[Event]:
    script = scripted_match(length, seed)
    referee = Referee(Settings(stable_frames=2, stable_seconds=0.0))
    events = list(referee.start_match(length, ("Ann", "Bob")).events)
    for _, step in play_script(referee, script.steps, frames=2):
        events += step.events
    assert referee.table.match == script.final
    return events


class TestLayout:
    def test_gnubg_export_reads_and_writes_back_byte_for_byte(self) -> None:
        record = read_mat(GNUBG_EXPORT)
        assert write_mat(record) == GNUBG_EXPORT

    def test_reader_finds_players_moves_cube_and_results(self) -> None:
        record = read_mat(GNUBG_EXPORT)
        assert (record.length, record.white, record.black, record.date) == (
            5,
            "gnubg",
            "root",
            "2026.11.30",
        )
        first = record.games[0]
        assert first.actions[0] == Action("move", BLACK, (2, 1), ((13, 11, False), (24, 23, False)))
        assert first.actions[-4] == Action(
            "move", BLACK, (2, 2), ((15, 13, False), (13, 11, False), (11, 9, True), (3, 1, False))
        )
        assert first.actions[-5] == Action("move", WHITE, (6, 6), ())  # no legal play
        assert first.actions[-3] == Action("move", WHITE, (5, 4), ((25, 21, False),))
        assert first.actions[-2:] == (Action("double", BLACK, cube=2), Action("drop", WHITE))
        assert (first.winner, first.points, first.ending) == (BLACK, 1, "drop")
        second = record.games[1]
        assert (second.white_score, second.black_score) == (0, 1)
        assert (second.winner, second.points, second.ending) == (BLACK, 2, "bearoff")
        third = record.games[2]
        assert third.actions[-2:] == (Action("double", WHITE, cube=2), Action("drop", BLACK))
        assert (third.winner, third.points) == (WHITE, 1)

    def test_a_game_won_by_the_left_column_bearing_off(self) -> None:
        game = GameRecord(
            0, 0, (Action("move", WHITE, (2, 1), ((1, 0, False),)),), WHITE, 1, "bearoff"
        )
        text = write_mat(MatchRecord(1, "Ann", "Bob", (game,)))
        assert text.endswith("  1) 21: 1/0                     \n      Wins 1 point\n\n")
        assert read_mat(text).games == (game,)

    def test_other_programs_spellings_are_read(self) -> None:
        text = (
            " 3 point match\n\n Game 1\n A : 0    B : 0\n"
            "  1) 31: 8/5(2)                  66: bar/19 13/off\n"
        )
        game = read_mat(text).games[0]
        assert game.actions[0].moves == ((8, 5, False), (8, 5, False))
        assert game.actions[1].moves == ((25, 19, False), (13, 0, False))

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "empty .mat file"),
            (" Game 1\n", "line 1: expected the match header"),
            (" 3 point match\n Game 1\n nonsense\n", "line 3: expected 'Name : score"),
            (" 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 what\n", "line 4: cannot read"),
            (" 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/99\n", "point 99"),
        ],
    )
    def test_bad_files_are_refused_with_the_line(self, text: str, message: str) -> None:
        with pytest.raises(InvalidFormat, match=message):
            read_mat(text)


class TestFromJournal:
    def test_a_scripted_match_parses_back_into_the_same_moves(self) -> None:
        events = scripted_events()
        record = from_events(events, date="2026.11.30")
        assert read_mat(write_mat(record)) == record
        moves = [e for e in events if e.kind == "move"]
        written = [a for g in record.games for a in g.actions if a.kind == "move"]
        assert [
            (a.player.value, list(a.dice or ()), [list(m) for m in a.moves]) for a in written
        ] == [(e.data["player"], e.data["dice"], e.data["moves"]) for e in moves]
        final = [e for e in events if e.kind == "game_over"][-1].data
        last = record.games[-1]
        scores = {WHITE: last.white_score, BLACK: last.black_score}
        assert last.winner is not None
        scores[last.winner] += last.points
        assert (scores[WHITE], scores[BLACK]) == (final["white_score"], final["black_score"])

    def test_undone_actions_are_left_out(self) -> None:
        start = [
            Event("match_start", {"length": 3, "white": "Ann", "black": "Bob"}),
            Event("game_start", {"game": 1}),
        ]
        move = Event("move", {"player": "white", "dice": [3, 1], "moves": [[8, 5, 0], [6, 5, 0]]})
        other = Event(
            "move", {"player": "white", "dice": [3, 1], "moves": [[24, 21, 0], [6, 5, 0]]}
        )
        record = from_events([*start, move, Event("undo"), other])
        assert [a.moves[0][0] for a in record.games[0].actions] == [24]

    def test_undoing_a_drop_reopens_the_game(self) -> None:
        start = [
            Event("match_start", {"length": 3}),
            Event("game_start", {"game": 1}),
            Event("move", {"player": "white", "dice": [3, 1], "moves": [[8, 5, False]]}),
            Event("double", {"player": "black", "cube": 2}),
            Event("drop", {"player": "white", "points": 1}),
            Event("game_over", {"winner": "black", "points": 1}),
            Event("undo"),
            Event("take", {"player": "white", "cube": 2}),
        ]
        record = from_events(start)
        assert len(record.games) == 1
        assert [a.kind for a in record.games[0].actions] == ["move", "double", "take"]
        assert record.games[0].winner is None

    def test_names_are_made_safe_for_the_format(self) -> None:
        record = from_events([Event("match_start", {"length": 1, "white": "A: B", "black": ""})])
        assert (record.white, record.black) == ("A B", "player")

    def test_no_match_start_is_refused(self) -> None:
        with pytest.raises(InvalidFormat, match="match_start"):
            from_events([Event("game_start", {"game": 1})])


GNUBG_SCRIPT = """
import gnubg, json
gnubg.command("import mat {mat}")
json.dump(gnubg.match(analysis=0, boards=0, statistics=0, verbose=0), open("{out}", "w"))
gnubg.command("export match mat {again}")
"""


@pytest.mark.skipif(not os.path.exists(GNUBG), reason="GNU Backgammon is not installed")
def test_gnu_backgammon_imports_the_export(tmp_path: Path) -> None:
    record = from_events(scripted_events(), date="2026.11.30")
    mat = tmp_path / "match.mat"
    mat.write_text(write_mat(record))
    script = tmp_path / "check.py"
    out, again = tmp_path / "imported.json", tmp_path / "again.mat"
    script.write_text(GNUBG_SCRIPT.format(mat=mat, out=out, again=again))
    home = tmp_path / "home"  # gnubg writes its settings under $HOME
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    subprocess.run(
        [shutil.which(GNUBG) or GNUBG, "-t", "-q", "-p", str(script)],
        env=env,
        capture_output=True,
        timeout=120,
        check=True,
    )
    imported = json.loads(out.read_text())
    assert imported["match-info"]["match-length"] == record.length
    assert imported["match-info"]["X"]["name"] == "Ann"
    assert len(imported["games"]) == len(record.games)
    colour = {"X": WHITE, "O": BLACK}
    for ours, theirs in zip(record.games, imported["games"], strict=True):
        info = theirs["info"]
        assert (info["score-X"], info["score-O"]) == (ours.white_score, ours.black_score)
        assert (colour[info["winner"]], info["points-won"]) == (ours.winner, ours.points)
        actions = [
            (
                colour[a["player"]],
                a["action"],
                tuple(a.get("dice", ())),
                tuple(tuple(m) for m in a.get("move", ())),
            )
            for a in theirs["game"]
        ]
        expected = [
            (a.player, a.kind, a.dice or (), tuple((s, d) for s, d, _ in a.moves))
            for a in ours.actions
        ]
        assert actions == expected
    # And GNU Backgammon writes the match back exactly as we wrote it.
    assert again.read_text() == mat.read_text()
