"""The lent GPU machine's kit (datasets/device_kit.py): packed here, unpacked there, and the
face and background libraries working from what it carried, without the Debian packages."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from cardref.cli import main
from cardref.datasets import backgrounds, device_kit, faces
from cardref.datasets.device_kit import TRAVEL_LIMIT, KitError, KitReport, pack, unpack
from cardref.datasets.train import read_results_csv

REPO = Path(__file__).resolve().parents[2]


def _background(path: Path, w: int = 1600, h: int = 1000) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    img = np.zeros((h, w, 3), np.uint8)
    cv2.rectangle(img, (100, 100), (900, 700), (40, 160, 90), -1)
    cv2.imwrite(str(path), img)


@pytest.fixture()
def packed(small_library: list[str], face_cache: Path, tmp_path: Path) -> tuple[Path, list[str]]:
    """The two fixture decks rendered, then packed (no wheels) with one background."""
    designs = faces.list_designs()
    assert designs == sorted(small_library)
    _background(tmp_path / "bg" / "0123456789abcdef.jpg")
    (face_cache / "broken-deck").mkdir(exist_ok=True)  # no meta.json: not a design, left out
    report = pack(tmp_path / "kit", faces_dir=face_cache, bg_dir=tmp_path / "bg", download=False, repo=tmp_path)
    assert report.designs == designs
    assert report.faces == sum(len(list((face_cache / d).glob("*.png"))) for d in designs)
    assert report.backgrounds == 1 and report.wheels == []
    return tmp_path / "kit", designs


def test_pack_writes_webp_faces_meta_and_shrunk_backgrounds(packed: tuple[Path, list[str]], face_cache: Path) -> None:
    kit, designs = packed
    for d in designs:
        assert json.loads((kit / "faces" / d / "meta.json").read_text()) == json.loads((face_cache / d / "meta.json").read_text())
        webps = sorted(p.stem for p in (kit / "faces" / d).glob("*.webp"))
        assert webps == sorted(p.stem for p in (face_cache / d).glob("*.png"))
        packed_bytes = sum(p.stat().st_size for p in (kit / "faces" / d).glob("*.webp"))
        assert packed_bytes < 0.6 * sum(p.stat().st_size for p in (face_cache / d).glob("*.png"))
    bg = cv2.imread(str(kit / "backgrounds" / "0123456789abcdef.jpg"))
    assert max(bg.shape[:2]) == device_kit.BG_SIDE
    manifest = json.loads((kit / "manifest.json").read_text())
    assert manifest["designs"] == designs and manifest["face_quality"] == device_kit.FACE_QUALITY


def test_unpacked_faces_match_the_cache(packed: tuple[Path, list[str]], face_cache: Path, tmp_path: Path) -> None:
    kit, designs = packed
    n, n_bg = unpack(kit, faces_dir=tmp_path / "faces2", bg_dir=tmp_path / "bg2")
    assert (n, n_bg) == (len(designs), 1)
    for d in designs:
        for png in sorted((face_cache / d).glob("*.png"))[:6]:
            a = np.asarray(Image.open(png).convert("RGBA")).astype(int)
            b = np.asarray(Image.open(tmp_path / "faces2" / d / png.name).convert("RGBA")).astype(int)
            assert a.shape == b.shape
            assert np.array_equal(a[..., 3], b[..., 3])  # the card's outline (alpha) is kept exactly
            opaque = a[..., 3] > 0
            assert np.abs(a[..., :3] - b[..., :3])[opaque].mean() < 4.0


def test_unpack_keeps_what_the_cache_already_holds(packed: tuple[Path, list[str]], face_cache: Path,
                                                  tmp_path: Path) -> None:
    """A machine that rendered its own faces keeps them, not the kit's lossy copies."""
    kit, designs = packed
    before = {p: p.read_bytes() for p in sorted((face_cache / designs[0]).glob("*.png"))}
    (tmp_path / "bg2").mkdir()
    (tmp_path / "bg2" / "0123456789abcdef.jpg").write_bytes(b"mine")
    assert unpack(kit, faces_dir=face_cache, bg_dir=tmp_path / "bg2") == (0, 0)
    assert {p: p.read_bytes() for p in sorted((face_cache / designs[0]).glob("*.png"))} == before
    assert (tmp_path / "bg2" / "0123456789abcdef.jpg").read_bytes() == b"mine"


def test_the_library_works_from_a_carried_cache(packed: tuple[Path, list[str]], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine without the deck packages, the unpacked cache is the library."""
    kit, designs = packed
    unpack(kit, faces_dir=tmp_path / "carried", bg_dir=tmp_path / "carried-bg")
    monkeypatch.setattr(faces, "CACHE_DIR", tmp_path / "carried")
    monkeypatch.setattr(faces, "packages_present", lambda: False)

    def no_apt() -> None:
        raise AssertionError("the carried cache must be used without installing packages")

    monkeypatch.setattr(faces, "ensure_packages", no_apt)
    faces._all_meta.cache_clear()
    faces.get_faces.cache_clear()
    assert faces.list_designs() == designs
    assert sorted(faces.list_designs("train") + faces.list_designs("heldout")) == designs
    face = faces.CardFaces(designs[0])
    assert face.image("QH").shape[2] == 4
    from cardref.datasets.scenes import render_scene

    scene = render_scene(3, designs)
    assert scene.labels


def test_the_library_without_packages_or_cache_still_asks_for_the_packages(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(faces, "CACHE_DIR", tmp_path / "empty")
    monkeypatch.setattr(faces, "packages_present", lambda: False)
    called = []
    monkeypatch.setattr(faces, "ensure_packages", lambda: called.append(1))
    monkeypatch.setattr(faces, "_sources", lambda: [])
    faces._all_meta.cache_clear()
    try:
        assert faces.list_designs() == []
        assert called == [1]
    finally:
        faces._all_meta.cache_clear()


def test_carried_backgrounds_are_the_photos_without_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for k in range(2):
        _background(tmp_path / "bg" / f"{k:016x}.jpg", 300, 200)
    for name in ("GNOME_DIR", "PLASMA_DIR", "GIMP_PATTERNS"):
        monkeypatch.setattr(backgrounds, name, tmp_path / "absent" / name)
    monkeypatch.setattr(backgrounds, "CACHE_DIR", tmp_path / "bg")
    monkeypatch.setattr(backgrounds, "ensure_packages", lambda: pytest.fail("no apt-get for a carried cache"))
    backgrounds.photo_paths.cache_clear()
    try:
        assert [p.name for p in backgrounds.photo_paths()] == [f"{k:016x}.jpg" for k in range(2)]
    finally:
        backgrounds.photo_paths.cache_clear()


def test_unpack_refuses_an_incomplete_kit(tmp_path: Path) -> None:
    with pytest.raises(KitError, match="no faces"):
        unpack(tmp_path / "nothing", faces_dir=tmp_path / "f", bg_dir=tmp_path / "b")
    (tmp_path / "kit" / "faces" / "aisleriot-x").mkdir(parents=True)
    with pytest.raises(KitError, match="no meta.json"):
        unpack(tmp_path / "kit", faces_dir=tmp_path / "f", bg_dir=tmp_path / "b")


def test_pack_replaces_a_kit_but_never_another_folder(packed: tuple[Path, list[str]], face_cache: Path,
                                                     tmp_path: Path) -> None:
    kit, designs = packed
    (kit / "faces" / "stale-design").mkdir()
    again = pack(kit, faces_dir=face_cache, bg_dir=tmp_path / "bg", download=False, repo=tmp_path)
    assert again.designs == designs and not (kit / "faces" / "stale-design").exists()
    other = tmp_path / "notes"
    other.mkdir()
    (other / "keep.txt").write_text("mine")
    with pytest.raises(KitError, match="holds no kit"):
        pack(other, faces_dir=face_cache, bg_dir=tmp_path / "bg", download=False, repo=tmp_path)
    assert (other / "keep.txt").read_text() == "mine"


def test_pack_refuses_an_empty_face_cache(tmp_path: Path) -> None:
    with pytest.raises(KitError, match="no usable design"):
        pack(tmp_path / "kit", faces_dir=tmp_path / "none", bg_dir=tmp_path / "bg", download=False, repo=tmp_path)


def test_the_report_says_when_a_call_cannot_carry_it() -> None:
    small = KitReport(designs=["a"], faces=54, kit_bytes=30 * 2**20, tree_bytes=27 * 2**20)
    assert small.fits and "TOO BIG" not in small.summary()
    big = KitReport(designs=["a"], faces=54, kit_bytes=TRAVEL_LIMIT, tree_bytes=1)
    assert not big.fits and big.summary().endswith("TOO BIG")


def test_device_kit_command_reports_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["device-kit", "unpack", "--kit", str(tmp_path / "missing")]) == 2
    assert "holds no faces/" in capsys.readouterr().err


def test_results_csv_is_read_without_polars(tmp_path: Path) -> None:
    """The form Ultralytics keeps in a checkpoint ({column: [values]}), read with csv alone."""
    p = tmp_path / "results.csv"
    p.write_text("epoch,         time,  train/box_loss,metrics/mAP50(B)\n1,12.5,1.25,0.5\n2,  25.0,1.0,0.625\n")
    assert read_results_csv(p) == {"epoch": [1.0, 2.0], "time": [12.5, 25.0], "train/box_loss": [1.25, 1.0],
                                   "metrics/mAP50(B)": [0.5, 0.625]}
    assert read_results_csv(tmp_path / "absent.csv") == {}


def test_the_device_script_parses_and_needs_out() -> None:
    script = REPO / "tools" / "device_train.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    r = subprocess.run(["bash", str(script)], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert r.returncode != 0 and "OUT" in r.stderr
