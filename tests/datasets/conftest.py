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


@pytest.fixture()
def fake_real_cards(tmp_path: Path):
    """A function turning a generated set's val split into a stand-in for the shared
    real-cards folder (images/, labels/, data.yaml), every photo named as one deck's."""
    import shutil

    from cardref.vision.classes import CLASS_NAMES

    def make(generated: Path, prefix: str = "phone-iphone-") -> Path:
        src = tmp_path / "real"
        (src / "images").mkdir(parents=True)
        (src / "labels").mkdir()
        (src / "data.yaml").write_text("names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES)))
        for k, img in enumerate(sorted((generated / "images" / "val").iterdir())):
            shutil.copy(img, src / "images" / f"{prefix}{k}.jpg")
            shutil.copy(generated / "labels" / "val" / f"{img.stem}.txt", src / "labels" / f"{prefix}{k}.txt")
        return src

    return make
