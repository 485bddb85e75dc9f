"""Fixtures shared by the watch tests: one short simulated clip per test run."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardref.cli import main


@pytest.fixture(scope="session")
def small_clip(tmp_path_factory) -> Path:
    """An 8-play 刮风 deal at 640x360 (``cardref simulate``: video, truth, frames for the oracle)."""
    out = tmp_path_factory.mktemp("small-clip") / "clip"
    assert main(["simulate", "--game", "guafeng-zibo", "--seed", "7", "--max-plays", "8", "--resolution", "640x360",
                 "--out", str(out)]) == 0
    return out
