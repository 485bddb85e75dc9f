"""An AVX2-only CPU, emulated (``CARDREF_EMULATE_ISA=AVX2``, vision/detector/cpu.py): the
switch hides the wider flags and says so; in a fresh process it holds OpenVINO's kernels to
AVX2 in f32, where the shipped INT8 namer still reads the check frames as its float file
does, and an INT8 copy with full 8-bit weights, which saturates there as it did on a real
AVX2-only AMD EPYC, is caught by the load-time check.  So the INT8 path of an AVX2-only
machine is tested on whatever CPU runs the suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardref.vision.detector import cpu
from cardref.vision.detector.errors import DetectorError

FLAGS_AVX512 = ("fpu sse4_1 sse4_2 avx avx2 fma avx512f avx512bw avx512vl avx512_vnni avx512_bf16 "
                "amx_tile amx_int8 amx_bf16 avx_vnni")


@pytest.fixture
def cpuinfo(tmp_path: Path) -> Path:
    path = tmp_path / "cpuinfo"
    path.write_text(f"processor\t: 0\nmodel name\t: Test Xeon\nflags\t\t: {FLAGS_AVX512}\n\nprocessor\t: 1\n")
    return path


def test_without_the_switch_the_cpu_is_itself(cpuinfo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cpu.EMULATE_ENV, raising=False)
    assert cpu.emulated_isa() is None
    assert cpu.isa(cpu.cpu_flags(cpuinfo)) == {"AVX2": True, "AVX-512": True, "VNNI": True, "AMX": True,
                                               "BF16": True}
    assert cpu.openvino_config({"INFERENCE_NUM_THREADS": 2}) == {"INFERENCE_NUM_THREADS": 2}


def test_emulated_avx2_hides_the_wider_flags_and_says_so(cpuinfo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.EMULATE_ENV, "avx2")  # any case
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "")  # restored (unset) after the test, as the emulation sets it
    flags = cpu.cpu_flags(cpuinfo)
    assert {"avx2", "avx", "fma", "sse4_2"} <= flags
    assert not {f for f in flags if f.startswith(("avx512", "amx", "avx_vnni"))}
    assert cpu.isa(flags) == {"AVX2": True, "AVX-512": False, "VNNI": False, "AMX": False, "BF16": False}
    assert "AVX2 emulated for OpenVINO by CARDREF_EMULATE_ISA" in cpu.isa_line()
    # OpenVINO compiles in f32 (no bf16 units) with oneDNN held to AVX2, and the runtime
    # therefore weighs the INT8 copies as on an AVX2-only machine
    assert cpu.openvino_config({"INFERENCE_NUM_THREADS": 2}) == {"INFERENCE_NUM_THREADS": 2,
                                                                 "INFERENCE_PRECISION_HINT": "f32"}
    assert os.environ["ONEDNN_MAX_CPU_ISA"] == "AVX2"


def test_an_int8_copy_runs_its_float_layers_in_f32(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a CPU with bf16 units OpenVINO's default would run a quantised model's float layers
    in bf16, converting at every quantised layer (slower: 66 against 53 ms the finder copy on
    an AMD EPYC with AVX-512 BF16); float files keep the default."""
    monkeypatch.delenv(cpu.EMULATE_ENV, raising=False)
    config = {"INFERENCE_NUM_THREADS": 2}
    assert cpu.openvino_config(config, "models/corner-namer-int8.onnx") == {**config, "INFERENCE_PRECISION_HINT": "f32"}
    assert cpu.openvino_config(config, Path("models/corner-namer.onnx")) == config


def test_an_unknown_emulation_is_an_error_naming_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.EMULATE_ENV, "AVX9")
    with pytest.raises(DetectorError, match="CARDREF_EMULATE_ISA='AVX9'.*known: AVX2"):
        cpu.cpu_flags()


# Run in a fresh interpreter: oneDNN keeps the ISA of the first model this process compiled.
EMULATED_CHECK = r"""
import json, sys
from pathlib import Path
import numpy as np
import openvino as ov
from cardref.datasets.int8_build import quantize
from cardref.vision.detector import int8, int8_check, load_detector, models_dir
from cardref.vision.detector.cpu import isa_line, kernel_isas, openvino_config
from cardref.vision.detector.namer import TURNS, crop_corner, patches_blob

out = Path(sys.argv[1])
namer = models_dir() / "corner-namer.onnx"
frames = int8_check.load_check_frames()
det = load_detector("openvino", suit_reader=False)
shipped = int8_check.namer_comparison(namer, int8.int8_sibling(namer), frames)

def batches():
    for f in frames:
        arr = np.asarray([crop_corner(f.image, b) for b in f.boxes], np.uint8)
        yield patches_blob(np.concatenate([np.rot90(arr, k, axes=(1, 2)) for k in range(TURNS)]))

full = quantize(namer, out / "corner-namer-8bit-int8.onnx", batches(), reduce_range=False)
eight = int8_check.namer_comparison(namer, full, frames)
kernels = kernel_isas(ov.Core().compile_model(str(int8.int8_sibling(namer)), "CPU", openvino_config({})))
print(json.dumps({"isa": isa_line(), "kernels": dict(kernels),
                  "runs": [det.model_path.name, det.namer.runtime_path.name],
                  "shipped": [shipped.corner_share, shipped.name_share],
                  "eight_bit": [eight.corner_share, eight.name_share]}))
"""


@pytest.mark.skipif("avx2" not in cpu.cpu_flags(), reason="emulating AVX2 needs a CPU that has it (x86)")
def test_on_emulated_avx2_the_shipped_int8_namer_reads_as_float_and_8_bit_weights_saturate(tmp_path: Path) -> None:
    pytest.importorskip("openvino")
    pytest.importorskip("onnxruntime.quantization")
    env = {**os.environ, cpu.EMULATE_ENV: "AVX2", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("CARDREF_INT8", None)
    done = subprocess.run([sys.executable, "-c", EMULATED_CHECK, str(tmp_path)], env=env, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert "AVX2 emulated" in got["isa"]
    # it takes effect: the INT8 namer's kernels are built for AVX2 (a few of OpenVINO's own
    # kernels keep AVX-512), none for AMX
    assert got["kernels"].get("avx2", 0) > 2 * got["kernels"].get("avx512", 0)
    assert got["kernels"].get("amx", 0) == 0
    # the test: INT8 finds >= 90 % of the float corners and names them alike
    assert got["shipped"][0] >= 0.9 and got["shipped"][1] >= 0.97, got
    # whatever the runtime chose to run here passed the same check (else the float file runs)
    assert got["runs"][0] in ("cards-yolo11n.onnx", "cards-yolo11n-int8.onnx")
    assert got["runs"][1] in ("corner-namer.onnx", "corner-namer-int8.onnx")
    # full 8-bit weights saturate the u8 x s8 kernels without VNNI: the check refuses them
    assert got["eight_bit"][0] < 0.9, got


def test_the_command_refuses_an_unknown_emulation_before_it_runs(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from cardref import cli

    monkeypatch.setenv(cpu.EMULATE_ENV, "neon")
    assert cli.main(["bench", "detect", "--frames", "1"]) == 2
    assert "CARDREF_EMULATE_ISA='neon': cannot emulate that CPU" in capsys.readouterr().err
