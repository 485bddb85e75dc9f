"""INT8 copies of the exports and float exports stored with float16 weights: both runtimes
read them, a stale copy is never run, a deck profile does not care which file runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from cardref.datasets import int8_build
from cardref.datasets.export import _float_nodes
from cardref.datasets.onnx_weights import float_weights, has_half_weights, store_weights_half
from cardref.vision.detector import _openvino_order, int8, load_detector, models_dir
from cardref.vision.detector.namer import NAMER_STEM, CornerNamer, crop_corner, patches_blob

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

SHIPPED_NAMER = models_dir() / f"{NAMER_STEM}.onnx"
SHIPPED_FINDER = models_dir() / "cards-yolo11n.onnx"


def _patches(n: int = 12, seed: int = 0) -> np.ndarray:
    """Patches as the namer sees them: cut from a frame with light and dark marks."""
    rng = np.random.default_rng(seed)
    frame = np.full((120, 200, 3), 235, np.uint8)
    for _ in range(30):
        x, y = int(rng.integers(5, 190)), int(rng.integers(5, 110))
        frame[y:y + 6, x:x + 3] = rng.integers(0, 120, 3)
    boxes = [(float(x), 20.0, float(x) + 14, 44.0) for x in rng.integers(0, 180, n)]
    return np.asarray([crop_corner(frame, b) for b in boxes], np.uint8)


def _run_ort(path: Path, blob: np.ndarray) -> np.ndarray:
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return sess.run(None, {sess.get_inputs()[0].name: blob})[0]


@pytest.fixture
def namer_copy(tmp_path: Path) -> Path:
    if not SHIPPED_NAMER.is_file():
        pytest.skip("no shipped corner namer")
    dst = tmp_path / f"{NAMER_STEM}.onnx"
    shutil.copy(SHIPPED_NAMER, dst)
    return dst


def test_half_weights_halve_the_file_and_compute_the_same(namer_copy: Path, tmp_path: Path) -> None:
    half = tmp_path / "half.onnx"
    converted = store_weights_half(namer_copy, half)
    assert converted > 0 and has_half_weights(half) and not has_half_weights(namer_copy)
    assert half.stat().st_size < 0.6 * namer_copy.stat().st_size
    blob = patches_blob(_patches())
    a, b = _run_ort(namer_copy, blob), _run_ort(half, blob)
    assert np.abs(a - b).max() < 0.05 * np.abs(a).max()  # logits: float16 weights, float32 arithmetic
    assert (a.argmax(axis=1) == b.argmax(axis=1)).all()
    # OpenVINO reads the same file, through the namer as the product runs it
    probs_a = CornerNamer(namer_copy, int8=False).probabilities(_patches())
    probs_b = CornerNamer(half, int8=False).probabilities(_patches())
    assert np.abs(probs_a - probs_b).max() < 0.02
    # nothing left to convert a second time
    assert store_weights_half(half) == 0


def test_float_weights_undo_the_half_storage(namer_copy: Path, tmp_path: Path) -> None:
    half = tmp_path / "half.onnx"
    store_weights_half(namer_copy, half)
    model = float_weights(half)
    assert not any(n.op_type == "Cast" for n in model.graph.node)
    assert all(i.data_type == onnx.TensorProto.FLOAT for i in model.graph.initializer if len(i.dims) > 1)
    names = {i.name for i in onnx.load(str(namer_copy)).graph.initializer}
    assert {i.name for i in model.graph.initializer} == names
    back = tmp_path / "back.onnx"
    onnx.save(model, str(back))
    blob = patches_blob(_patches())
    assert np.allclose(_run_ort(back, blob), _run_ort(half, blob), atol=1e-4)


def test_a_quantised_namer_is_stamped_reads_alike_and_runs_only_while_fresh(
        namer_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    batches = [patches_blob(_patches(16, seed)) for seed in range(3)]
    copy = int8_build.quantize(namer_copy, int8.int8_sibling(namer_copy), batches)
    assert copy.name == f"{NAMER_STEM}-int8.onnx" and copy.stat().st_size < 0.5 * namer_copy.stat().st_size
    assert int8.int8_source(copy) == int8.file_digest(namer_copy)
    assert int8.is_fresh(copy, namer_copy)
    a = CornerNamer(namer_copy, int8=False).probabilities(_patches(seed=7))
    b = CornerNamer(copy, int8=False).probabilities(_patches(seed=7))
    assert (a.argmax(axis=1) == b.argmax(axis=1)).mean() >= 0.75

    monkeypatch.setattr(int8, "prefer_int8", lambda: True)
    monkeypatch.setattr(int8, "passes_check", lambda *a, **k: True)  # the check itself: test_int8_check.py
    namer = CornerNamer(namer_copy)
    assert namer.runtime_path == copy
    assert namer.sha1 == CornerNamer(namer_copy, int8=False).sha1  # a deck profile fits either file
    assert CornerNamer(namer_copy, int8=False).runtime_path == namer_copy
    monkeypatch.setattr(int8, "prefer_int8", lambda: False)  # a CPU with bf16 units
    assert CornerNamer(namer_copy).runtime_path == namer_copy

    # the float namer changes (retrained, exported again): its old copy is stale, never run
    monkeypatch.setattr(int8, "prefer_int8", lambda: True)
    store_weights_half(namer_copy)
    assert not int8.is_fresh(copy, namer_copy)
    assert CornerNamer(namer_copy).runtime_path == namer_copy


def _tiny_model(path: Path) -> Path:
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g", [x], [y])
    onnx.save(helper.make_model(graph), str(path))
    return path


@pytest.mark.parametrize(("prefer", "stamped", "same_source", "expected"), [
    (True, True, True, ["int8", "float"]),   # no bf16 units: the fresh INT8 copy first
    (False, True, True, ["float"]),          # bf16 units: float runs as fast, at float accuracy
    (True, False, True, ["float"]),          # an unstamped copy: where it came from is unknown
    (True, True, False, ["float"]),          # made from another float export: stale
])
def test_openvino_runs_the_int8_finder_only_where_it_is_fast_and_fresh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prefer: bool, stamped: bool, same_source: bool,
        expected: list[str]) -> None:
    float_model = _tiny_model(tmp_path / "finder.onnx")
    copy = _tiny_model(int8.int8_sibling(float_model))
    if stamped:
        int8_build.stamp(copy, float_model)
    if not same_source:
        float_model.write_bytes(float_model.read_bytes() + b"\0")  # not the file it was made from
    monkeypatch.setattr("cardref.vision.detector.prefer_int8", lambda: prefer)
    names = {"int8": copy, "float": float_model}
    assert _openvino_order(float_model, copy) == [names[k] for k in expected]


def test_the_finder_keeps_its_first_and_last_convolutions_float() -> None:
    if not SHIPPED_FINDER.is_file():
        pytest.skip("no shipped finder export")
    kept = _float_nodes(SHIPPED_FINDER)
    convs = [n for n in kept if n.endswith("/Conv")]
    assert convs[-1] == "/model.0/conv/Conv"
    branch_ends = sorted(c for c in convs if c not in ("/model.0/conv/Conv", "/model.23/dfl/conv/Conv"))
    assert branch_ends == sorted(f"/model.23/cv{k}.{s}/cv{k}.{s}.2/Conv" for k in (2, 3) for s in range(3))
    assert any("/model.23/" in n and not n.endswith("Conv") for n in kept)  # the decoding
    assert "/model.23/dfl/conv/Conv" in kept  # the box distributions' expectation: the boxes themselves


def test_the_finder_copy_quantises_what_its_convolutions_read_and_nothing_after_them() -> None:
    """Each SiLU stays whole between two convolutions, so that OpenVINO fuses it into the
    first (int8_build.CONV_INPUTS_ONLY); a quantise after a convolution, its Sigmoid or its
    Mul made it a separate step (24 ms of 55 a frame on an AVX-512 EPYC)."""
    copy = int8.int8_sibling(SHIPPED_FINDER)
    assert copy.is_file(), f"the shipped INT8 finder copy is missing: {copy}"
    import onnx

    graph = onnx.load(str(copy), load_external_data=False).graph
    made_by = {out: node for node in graph.node for out in node.output}
    quantised = [made_by.get(n.input[0]) for n in graph.node if n.op_type == "QuantizeLinear"]
    after = sorted({m.op_type for m in quantised if m is not None and m.op_type in ("Conv", "Sigmoid")})
    assert after == []
    silu_ends = [m for m in quantised if m is not None and m.op_type == "Mul"]
    assert silu_ends, "no convolution's input is quantised at all"
    kept_float = set(_float_nodes(SHIPPED_FINDER))
    reads_int8 = {n.name: made_by[n.input[0]].op_type == "DequantizeLinear"
                  for n in graph.node if n.op_type == "Conv" and n.input[0] in made_by}
    assert reads_int8 and all(v == (name not in kept_float) for name, v in reads_int8.items())


def _quantised_conv_weights(path: Path) -> tuple[dict[str, int], list[str]]:
    """For an INT8 copy in QDQ form: each quantised convolution's largest weight magnitude
    (int8 units), and every convolution in graph order."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path), load_external_data=False).graph
    made_by = {out: node for node in graph.node for out in node.output}
    init = {i.name: i for i in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    largest = {}
    for conv in convs:
        dq = made_by.get(conv.input[1])
        if dq is not None and dq.op_type == "DequantizeLinear" and dq.input[0] in init:
            largest[conv.name] = int(np.abs(numpy_helper.to_array(init[dq.input[0]]).astype(np.int32)).max())
    return largest, [c.name for c in convs]


@pytest.mark.parametrize("float_file", [SHIPPED_FINDER, SHIPPED_NAMER], ids=["finder", "namer"])
def test_the_copies_keep_their_first_convolution_float_and_use_all_8_bits_elsewhere(float_file: Path) -> None:
    """The first convolution reads raw pixels: quantised with 8-bit weights it saturated the
    u8 x s8 sums of CPUs without VNNI, so it stays float; every other quantised convolution
    has per-channel weights reaching +-127 (7-bit weights, reduce_range, stop at 64 and read
    less like the float files on every CPU tried: docs/vision-detector.md, stop 60)."""
    copy = int8.int8_sibling(float_file)
    assert copy.is_file(), f"the shipped INT8 copy is missing: {copy}"
    largest, convs = _quantised_conv_weights(copy)
    assert convs[0] not in largest, f"{copy.name}: its first convolution {convs[0]} is quantised"
    assert len(largest) >= len(convs) // 2, f"{copy.name}: only {len(largest)} of {len(convs)} convolutions quantised"
    seven_bit = sorted(name for name, m in largest.items() if m <= 64)
    assert seven_bit == [], f"{copy.name}: convolutions with 7-bit weights: {seven_bit[:5]}"


def test_shipped_int8_copies_are_fresh_and_the_detector_can_be_told_to_run_float(
        monkeypatch: pytest.MonkeyPatch) -> None:
    finder_copy, namer_copy = int8.int8_sibling(SHIPPED_FINDER), int8.int8_sibling(SHIPPED_NAMER)
    if not (finder_copy.is_file() and namer_copy.is_file()):
        pytest.skip("no shipped INT8 copies")
    assert int8.is_fresh(finder_copy, SHIPPED_FINDER) and int8.is_fresh(namer_copy, SHIPPED_NAMER)
    pytest.importorskip("openvino")
    monkeypatch.setattr(int8, "prefer_int8", lambda: True)
    monkeypatch.setattr("cardref.vision.detector.prefer_int8", lambda: True)
    # both copies pass the load-time check (what it decides on this CPU: test_int8_check.py)
    monkeypatch.setattr(int8, "passes_check", lambda *a, **k: True)
    monkeypatch.setattr("cardref.vision.detector.passes_check", lambda *a, **k: True)
    fast = load_detector("openvino", suit_reader=False)
    assert fast.model_path == finder_copy and fast.namer.runtime_path == namer_copy
    plain = load_detector("openvino", suit_reader=False, int8=False)
    assert plain.model_path == SHIPPED_FINDER and plain.namer.runtime_path == SHIPPED_NAMER


def test_the_shipped_finder_and_its_int8_copy_leave_height_and_width_free(tmp_path: Path) -> None:
    """Exported with free height and width (so a video stream can run a tile-sized copy, see
    vision/detector/regions.py), both run at 736x1280 by default; ONNX Runtime's symbolic
    shape inference gives up on such a finder, so the quantiser skips it for them only."""
    import onnx

    from cardref.vision.detector.backends import OnnxBackend

    for path in (SHIPPED_FINDER, int8.int8_sibling(SHIPPED_FINDER)):
        backend = OnnxBackend(path)
        assert backend.input_shape == (736, 1280)
        assert backend.at_shape((352, 320)).input_shape == (352, 320)
        assert int8_build._free_input_shape(onnx.load(str(path), load_external_data=False))
    fixed = onnx.load(str(_tiny_model(tmp_path / "fixed.onnx")))
    assert not int8_build._free_input_shape(fixed)


def test_the_float_file_of_an_int8_copy_is_the_one_it_was_made_from(tmp_path) -> None:
    float_path = tmp_path / "cards-yolo11n.onnx"
    assert int8.float_of(int8.int8_sibling(float_path)) == float_path
    assert int8.float_of(float_path) == float_path
