"""The committed simulator fixtures: each frame has a complete, self-consistent truth."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sim"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.jpg"))


def test_there_are_fixtures_and_they_are_small() -> None:
    assert len(NAMES) >= 6
    assert all((FIXTURES / f"{name}.jpg").stat().st_size < 300_000 for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_fixture_truth_matches_its_image(name: str) -> None:
    truth = json.loads((FIXTURES / f"{name}.json").read_text())
    image = cv2.imread(str(FIXTURES / f"{name}.jpg"))
    width, height = truth["camera"]["size"]
    assert image.shape == (height, width, 3)
    assert len(truth["points"]) == 24
    for colour, sign in (("white", 1), ("black", -1)):
        on_points = sum(p * sign for p in truth["points"] if p * sign > 0)
        assert on_points + truth["bar"][colour] + truth["off"][colour] == 15
    for x, y in truth["board_corners_px"]:
        assert 0 <= x < width and 0 <= y < height
    for die in truth["dice"]:
        assert 1 <= die["value"] <= 6
        assert die["half"] in ("home", "outer", "bar", "outside")
        u, v = die["center_px"]
        assert 0 <= u < width and 0 <= v < height
    if truth["dice"] and "on_roll" in truth:
        assert truth["dice_valid"] == ("reason" not in truth)
    assert truth["readable"] == (not any(o["covers_board"] for o in truth["occluders"]))
