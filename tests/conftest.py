"""Shared test fixtures: where the shared reference data lives, and how to insist on it in CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples on every run, so that a run is red only for a real change;
# developers' runs draw new examples each time and keep finding what CI would not.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

PROJECT = Path(__file__).resolve().parents[1]
SHARED = PROJECT.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ../shared; missing data fails in CI (CI=true) and skips elsewhere."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"{path} is missing: the shared reference data must sit beside the project"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path
