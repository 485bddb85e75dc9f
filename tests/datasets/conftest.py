"""Small fixtures for the data-generator tests: one or two decks rendered into a temp cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardref.datasets import backgrounds, faces

FIXTURE_DESIGNS = ("aisleriot-anglo", "kde-nicu-white")


@pytest.fixture(scope="session")
def face_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("faces")


@pytest.fixture()
def small_library(face_cache: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The face library limited to two decks, cached in a temp folder; photo backgrounds off."""
    sources = [s for s in faces._sources() if s.name in FIXTURE_DESIGNS]
    if len(sources) < len(FIXTURE_DESIGNS):
        pytest.fail("the Debian card-deck packages (gnome-cards-data, kdegames-card-data-kf5) are not installed: "
                    "run tools/setup.sh")
    monkeypatch.setattr(faces, "CACHE_DIR", face_cache)
    monkeypatch.setattr(faces, "_sources", lambda: sources)
    faces._all_meta.cache_clear()
    faces.get_faces.cache_clear()
    monkeypatch.setattr(backgrounds, "photo_paths", lambda: ())
    yield list(FIXTURE_DESIGNS)
    faces._all_meta.cache_clear()
    faces.get_faces.cache_clear()

