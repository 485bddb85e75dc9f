"""The suite's sandbox (tests/conftest.py): the paths the code resolves for the user's store,
cache and configuration lie in the run's temporary folder, never in the user's home."""

from __future__ import annotations

import os
from pathlib import Path

from cardref.recorder.paths import default_db, resolve_db
from cardref.vision.detector.int8_check import cache_file


def test_the_default_store_and_the_int8_cache_lie_in_the_sandbox(sandbox: Path) -> None:
    home = Path(os.path.expanduser("~")).resolve()
    for path in (Path(default_db()), Path(resolve_db(None)), cache_file()):
        assert path.resolve().is_relative_to(sandbox.resolve()), path
        assert not path.resolve().is_relative_to(home / ".local") and not path.resolve().is_relative_to(home / ".cache")
    assert Path(os.environ["XDG_CONFIG_HOME"]).resolve().is_relative_to(sandbox.resolve())


def test_opening_the_default_store_writes_only_in_the_sandbox(sandbox: Path) -> None:
    from cardref.recorder import open_store

    store = open_store(resolve_db(None))
    try:
        assert Path(default_db()).is_file()
    finally:
        close = getattr(store, "close", None)
        if close is not None:
            close()
    assert Path(default_db()).resolve().is_relative_to(sandbox.resolve())
