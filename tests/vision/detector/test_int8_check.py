"""The INT8 load-time check: on this CPU the path the runtime chooses reads the shipped check
frames as the float files do; a copy that reads otherwise is refused with one log line; the
verdict is cached per machine in the user's cache folder (a temporary one here), and a
corrupt cache file is replaced."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest

from cardref.datasets import int8_build
from cardref.vision.detector import int8, int8_check, load_detector, models_dir
from cardref.vision.detector.int8_check import MIN_CORNER_SHARE, MIN_SAME_NAME, Verdict
from cardref.vision.detector.namer import NAMER_STEM, CornerNamer

pytest.importorskip("openvino")
onnx = pytest.importorskip("onnx")

SHIPPED_FINDER = models_dir() / "cards-yolo11n.onnx"
SHIPPED_NAMER = models_dir() / f"{NAMER_STEM}.onnx"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test has its own empty cache folder and forgets this process's verdicts."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(int8_check.ENV_SWITCH, raising=False)
    int8_check.forget()
    yield tmp_path / "cache"
    int8_check.forget()


def test_the_shipped_check_frames_load_with_their_corner_boxes() -> None:
    frames = int8_check.load_check_frames()
    assert len(frames) >= 3
    assert all(f.image.ndim == 3 and f.image.shape[2] == 3 for f in frames)
    assert sum(len(f.boxes) for f in frames) >= 150  # a deck layout and two table scenes


def test_the_path_the_runtime_chooses_reads_the_check_frames_as_the_float_files() -> None:
    """Whatever this CPU gets (an INT8 copy that passed the check, or the float file), its
    corners and names on the check frames are the float files' (>= 90 % of the float corners
    found again with their code; the codes of the corners both find alike)."""
    det = load_detector("openvino", suit_reader=False)
    assert det.model_path in (SHIPPED_FINDER, int8.int8_sibling(SHIPPED_FINDER))
    assert det.namer.runtime_path in (SHIPPED_NAMER, int8.int8_sibling(SHIPPED_NAMER))
    frames = int8_check.load_check_frames()
    if det.model_path != SHIPPED_FINDER:  # the float file chosen reads as itself
        finder = int8_check.finder_comparison(SHIPPED_FINDER, det.model_path, frames, SHIPPED_NAMER)
        assert finder.corner_share >= MIN_CORNER_SHARE, finder.summary()
        assert finder.name_share >= MIN_SAME_NAME, finder.summary()
    if det.namer.runtime_path != SHIPPED_NAMER:
        namer = int8_check.namer_comparison(SHIPPED_NAMER, det.namer.runtime_path, frames)
        assert namer.corner_share >= MIN_CORNER_SHARE, namer.summary()
        assert namer.name_share >= MIN_SAME_NAME, namer.summary()
    # the verdicts it was chosen on were cached, and follow from their figures
    cached = int8_check.read_cache()
    for chosen, kind in ((det.model_path, "finder"), (det.namer.runtime_path, "namer")):
        if int8.is_int8_copy(chosen):
            assert any(v["kind"] == kind and v["int8"] == chosen.name and v["use_int8"] for v in cached.values())
    for v in cached.values():
        assert v["use_int8"] == (v["figures"]["corner_share"] >= MIN_CORNER_SHARE
                                 and v["figures"]["name_share"] >= MIN_SAME_NAME
                                 and v["figures"]["speedup"] >= int8_check.MIN_SPEEDUP)


@pytest.mark.parametrize("kind", ["finder", "namer"])
def test_each_shipped_int8_copy_reads_the_check_frames_as_its_float_file(kind: str) -> None:
    """Whether or not this CPU runs it, the shipped copy finds >= 90 % of its float file's
    corners again with their code and names >= 97 % of those both have alike: a copy that
    reads otherwise is a defect of the copy (the finder's, with its box decoding partly
    quantised, named 95 % alike), not only of a CPU."""
    frames = int8_check.load_check_frames()
    if kind == "finder":
        found = int8_check.finder_comparison(SHIPPED_FINDER, int8.int8_sibling(SHIPPED_FINDER), frames, SHIPPED_NAMER)
    else:
        found = int8_check.namer_comparison(SHIPPED_NAMER, int8.int8_sibling(SHIPPED_NAMER), frames)
    assert found.float_corners >= 80, found.summary()
    assert found.corner_share >= MIN_CORNER_SHARE, found.summary()
    assert found.name_share >= MIN_SAME_NAME, found.summary()


def _broken_copy(float_path: Path, out: Path) -> Path:
    """A stamped "INT8 copy" that reads otherwise: the float namer with its weights scrambled."""
    from cardref.datasets.onnx_weights import float_weights

    model = float_weights(float_path)
    rng = np.random.default_rng(0)
    for init in model.graph.initializer:
        if len(init.dims) == 4:  # convolution kernels
            w = onnx.numpy_helper.to_array(init)
            init.CopyFrom(onnx.numpy_helper.from_array(rng.permutation(w.ravel()).reshape(w.shape), init.name))
    onnx.save(model, str(out))
    int8_build.stamp(out, float_path)
    return out


def test_a_copy_that_reads_otherwise_is_refused_with_one_log_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    namer = shutil.copy(SHIPPED_NAMER, tmp_path / f"{NAMER_STEM}.onnx")
    copy = _broken_copy(namer, int8.int8_sibling(namer))
    monkeypatch.setattr(int8, "prefer_int8", lambda: True)  # as on a CPU without bf16 units
    with caplog.at_level(logging.INFO, logger="cardref.vision.detector.int8"):
        assert CornerNamer(namer).runtime_path == namer  # the float file runs
        assert CornerNamer(namer).runtime_path == namer  # asked again in this process: no second line
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    text = lines[0].getMessage()
    assert copy.name in text and "not used on this CPU" in text and "reads otherwise" in text
    assert "AVX2" in text or "flags unknown" in text
    (entry,) = int8_check.read_cache().values()
    assert entry["use_int8"] is False and entry["figures"]["corner_share"] < MIN_CORNER_SHARE


def _fake_pair(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "m.onnx", tmp_path / "m-int8.onnx"
    a.write_bytes(b"float model")
    b.write_bytes(b"int8 model")
    return a, b


@pytest.fixture
def counted_check(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The check replaced by one that counts its runs and refuses."""
    runs: list[str] = []

    def run(kind: str, float_path: Path, int8_path: Path, namer_path: Path | None) -> Verdict:
        runs.append(kind)
        return Verdict(False, "it reads otherwise than the float file: 3/40 corners", {"corner_share": 0.075})

    monkeypatch.setattr(int8_check, "_run_check", run)
    return runs


def test_a_cached_verdict_is_used_without_checking_again(tmp_path: Path, own_cache: Path,
                                                          counted_check: list[str]) -> None:
    a, b = _fake_pair(tmp_path)
    first = int8_check.verdict("namer", a, b)
    assert counted_check == ["namer"] and (own_cache / "cardref" / int8_check.CACHE_NAME).is_file()
    int8_check.forget()  # a new process
    again = int8_check.verdict("namer", a, b)
    assert counted_check == ["namer"] and again == first and not again.use_int8
    # another CPU, or another copy, is another key: checked again
    int8_check.forget()
    b.write_bytes(b"int8 model, exported again")
    int8_check.verdict("namer", a, b)
    assert counted_check == ["namer", "namer"]


def test_the_cache_key_holds_the_cpu_flags_openvino_and_compile_settings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = _fake_pair(tmp_path)
    here = int8_check.verdict_key("namer", a, b)
    monkeypatch.setattr(int8_check, "cpu_flags", lambda: frozenset({"avx2", "avx512f", "avx512_vnni"}))
    assert int8_check.verdict_key("namer", a, b) != here
    monkeypatch.undo()
    monkeypatch.setattr(int8_check, "_openvino_version", lambda: "1999.0")
    assert int8_check.verdict_key("namer", a, b) != here
    monkeypatch.undo()
    # a copy compiled otherwise (its float layers in another precision) is checked again
    monkeypatch.setattr(int8_check, "openvino_config",
                        lambda config, path=None: {**config, "INFERENCE_PRECISION_HINT": "bf16"})
    assert int8_check.verdict_key("namer", a, b) != here


@pytest.mark.parametrize("content", [b"{not json", b"[]", b'{"verdicts": 7}', b'{"verdicts": {"k": {"use_int8": "yes"}}}',
                                     b"\xff\xfe\x00"])
def test_a_corrupt_cache_file_is_replaced(tmp_path: Path, own_cache: Path, counted_check: list[str],
                                          content: bytes) -> None:
    a, b = _fake_pair(tmp_path)
    path = own_cache / "cardref" / int8_check.CACHE_NAME
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert int8_check.verdict("namer", a, b).use_int8 is False  # no error: the check runs
    assert counted_check == ["namer"]
    data = json.loads(path.read_text())
    assert data["version"] == int8_check.CHECK_VERSION and len(data["verdicts"]) == 1


def test_an_unwritable_cache_leaves_the_verdict_uncached_not_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted_check: list[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    a, b = _fake_pair(tmp_path)
    assert int8_check.verdict("namer", a, b).use_int8 is False
    int8_check.forget()
    int8_check.verdict("namer", a, b)
    assert counted_check == ["namer", "namer"]


def test_without_check_frames_no_copy_runs_and_nothing_is_cached(tmp_path: Path, own_cache: Path,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(int8_check, "check_dir", lambda: tmp_path / "no-frames")
    a, b = _fake_pair(tmp_path)
    with caplog.at_level(logging.WARNING, logger="cardref.vision.detector.int8"):
        v = int8_check.verdict("finder", a, b)
    assert not v.use_int8 and "no check frames" in v.reason
    assert len(caplog.records) == 1
    assert not (own_cache / "cardref" / int8_check.CACHE_NAME).exists()


def test_cardref_int8_off_never_runs_a_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(int8_check.ENV_SWITCH, "off")
    assert not int8.prefer_int8()
    monkeypatch.setenv(int8_check.ENV_SWITCH, "")
    assert int8.prefer_int8()      # on every CPU the load-time check decides (bf16 units or not)


@pytest.mark.parametrize(("found", "both", "same", "float_ms", "int8_ms", "use"), [
    (95, 98, 97, 100.0, 50.0, True),     # reads alike, twice as fast
    (89, 98, 97, 100.0, 50.0, False),    # fewer than 90 % of the float corners found again
    (95, 98, 94, 100.0, 50.0, False),    # named otherwise
    (95, 98, 97, 100.0, 99.0, False),    # reads alike, not faster
    (0, 0, 0, 100.0, 50.0, False),       # nothing to compare
])
def test_the_verdict_rule(found: int, both: int, same: int, float_ms: float, int8_ms: float, use: bool) -> None:
    c = int8_check.Comparison(float_corners=100 if found else 0, found_again=found, both=both, same_name=same,
                              float_ms=float_ms, int8_ms=int8_ms)
    assert c.verdict().use_int8 is use
