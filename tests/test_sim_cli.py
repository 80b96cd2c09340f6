"""``companion render``: files written, truth readable, bad arguments refused clearly."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main


def test_render_writes_each_frame_and_its_truth(tmp_path: Path) -> None:
    status = main(
        [
            "render",
            "opening",
            "--dice",
            "6",
            "3",
            "--cocked",
            "1",
            "--tilt",
            "20",
            "--seed",
            "4",
            "--count",
            "2",
            "--size",
            "320x180",
            "--format",
            "jpg",
            "--on-roll",
            "white",
            "-o",
            str(tmp_path),
        ]
    )
    assert status == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "frame_000004.jpg",
        "frame_000004.json",
        "frame_000005.jpg",
        "frame_000005.json",
    ]
    truth = json.loads((tmp_path / "frame_000004.json").read_text())
    assert truth["points"][5] == 5 and truth["points"][18] == -5
    assert [d["value"] for d in truth["dice"]] == [6, 3]
    assert truth["dice"][0]["flat"] is False
    assert truth["dice_valid"] is False and truth["reason"] == "cocked"
    assert truth["camera"]["tilt"] == 20
    written = cv2.imread(str(tmp_path / "frame_000004.jpg"))
    assert written is not None and written.shape == (180, 320, 3)


def test_render_game_writes_frames_and_events(tmp_path: Path) -> None:
    assert (
        main(
            [
                "render",
                "--game",
                "--seed",
                "2",
                "--turns",
                "1",
                "--size",
                "160x90",
                "-o",
                str(tmp_path),
            ]
        )
        == 0
    )
    events = json.loads((tmp_path / "events.json").read_text())
    assert events[0]["type"] == "opening_roll"
    assert any(e["type"] == "play" for e in events)
    assert (tmp_path / "frame_00000.png").exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["opening", "--dice", "6", "9"], "dice show 1 to 6"),
        (["nonsense"], "not a position"),
        (["opening", "--cocked", "1"], "needs dice"),
        (["opening", "--on-roll", "green"], "white"),
        (["opening", "--tilt", "50"], "0-35"),
        ([], "give a POSITION"),
        (["opening", "--game"], "leave out POSITION"),
        (["opening", "--dice", "2", "2", "--on-checker", "1", "--dice-where", "bar"], "checker"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(
    arguments: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", *arguments, "-o", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_unwritable_output_is_a_file_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["render", "opening", "--size", "160x90", "-o", str(blocker / "sub")]) == 3
    assert "cannot create" in capsys.readouterr().err


def test_render_demo_writes_the_scripted_episodes(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    assert main(["render", "--demo", "--size", "320x180", "--format", "jpg", "-o", str(out)]) == 0
    events = json.loads((out / "events.json").read_text("utf-8"))
    kinds = [event["type"] for event in events]
    for episode in ("illegal", "reroll", "takeback", "double", "take"):
        assert episode in kinds
    reasons = {event["reason"] for event in events if event["type"] == "reroll"}
    assert reasons == {"cocked", "wrong side"}
    frames = sorted(out.glob("frame_*.jpg"))
    assert len(frames) == len(list(out.glob("frame_*.json"))) > 60
    image = cv2.imread(str(frames[0]))
    assert image is not None and image.shape[:2] == (180, 320)


def test_render_demo_with_a_drop_ends_the_game(tmp_path: Path) -> None:
    out = tmp_path / "drop"
    argv = ["render", "--demo", "--cube-action", "drop", "--size", "320x180", "-o", str(out)]
    assert main(argv) == 0
    events = json.loads((out / "events.json").read_text("utf-8"))
    assert events[-1]["type"] == "game_end"
    assert "drop" in [event["type"] for event in events]


def test_no_clutter_leaves_the_table_bare(tmp_path: Path) -> None:
    """Seed 1 puts things on the table round the board; --no-clutter keeps it bare, and the
    board itself is drawn the same."""
    common = ["render", "opening", "--seed", "1", "--size", "640x360", "--format", "png"]
    assert main([*common, "-o", str(tmp_path / "busy")]) == 0
    assert main([*common, "--no-clutter", "-o", str(tmp_path / "bare")]) == 0
    busy = json.loads((tmp_path / "busy" / "frame_000001.json").read_text())
    bare = json.loads((tmp_path / "bare" / "frame_000001.json").read_text())
    assert busy["table_items"] and not bare.get("table_items")
    assert bare["points"] == busy["points"]
    assert bare["board_corners_px"] == busy["board_corners_px"]


def test_photo_asks_for_the_photo_looks(tmp_path: Path) -> None:
    """--photo draws the same scene (same truth, but for the light's pool and fall-off it
    records) with a shaded lamp's pool and hard shadows, glossy walls and a smooth outline:
    other pixels, nothing else."""
    common = ["render", "opening", "--seed", "2", "--lighting", "lamp", "--tilt", "20"]
    common += ["--size", "640x360", "--format", "png"]
    assert main([*common, "-o", str(tmp_path / "plain")]) == 0
    assert main([*common, "--photo", "-o", str(tmp_path / "photo")]) == 0
    plain = json.loads((tmp_path / "plain" / "frame_000002.json").read_text())
    photo = json.loads((tmp_path / "photo" / "frame_000002.json").read_text())
    assert photo["lighting"].pop("pool") and photo["lighting"].pop("surround")
    assert plain == photo
    a = cv2.imread(str(tmp_path / "plain" / "frame_000002.png"))
    b = cv2.imread(str(tmp_path / "photo" / "frame_000002.png"))
    assert a is not None and b is not None
    assert a.shape == b.shape and bool(np.any(a != b))
