"""What this CPU offers the detector's runtimes: its instruction-set extensions, read from
``/proc/cpuinfo``.

OpenVINO's INT8 kernels take a different path with and without VNNI (a u8 x s8 dot
product that cannot saturate with it, a 16-bit intermediate sum that can without it), and
it runs float models in bf16 where the CPU has bf16 units; so every detector figure is
given with these flags beside it, and the INT8 check's verdict (:mod:`.int8_check`) is
cached per set of flags.

**An AVX2-only CPU, emulated** (``CARDREF_EMULATE_ISA=AVX2``).  The CPU differs from machine
to machine, and an INT8 copy that reads well with VNNI can be blind without it.  On a CPU with
AVX-512, this switch makes the detector's runtimes behave as on an AVX2-only CPU, so that the
AVX2 path can be checked and tested on any machine: OpenVINO's oneDNN kernels are held to
AVX2 (``ONEDNN_MAX_CPU_ISA``, set before the first model is compiled), float models are
compiled in f32 (an AVX2-only CPU has no bf16 units; OpenVINO would otherwise ask oneDNN for
bf16 kernels that AVX2 lacks), :func:`cpu_flags` drops the AVX-512, VNNI, AMX and bf16 flags
(so the INT8 check caches a verdict of its own) and :func:`isa_line` says it is emulated.
Only OpenVINO (the default backend) is held: ONNX Runtime and PyTorch choose their kernels
by the CPU's own flags.  It takes effect: a compiled model's kernels name the ISA they were built for
(:func:`kernel_isas`), and an INT8 copy with full 8-bit weights, which keeps 88 of 89
corners of the check frames with VNNI, keeps 52 emulated, as it did on a real AVX2-only AMD
EPYC.  A few of OpenVINO's own (non-oneDNN) kernels still use AVX-512, so the emulation
shows what is read on AVX2, not how fast.
"""

from __future__ import annotations

import functools
import os
import platform
import re
from collections import Counter
from pathlib import Path

from .errors import DetectorError
from .int8_names import is_int8_copy

CPUINFO = Path("/proc/cpuinfo")
#: The switch that emulates a CPU with less than this one has (the one value: ``AVX2``).
EMULATE_ENV = "CARDREF_EMULATE_ISA"
#: Emulated ISA -> the oneDNN ceiling it sets, and the cpuinfo flags it hides.
EMULATIONS: dict[str, tuple[str, re.Pattern[str]]] = {
    "AVX2": ("AVX2", re.compile(r"^(avx512.*|amx.*|avx_vnni.*|avx_ne_convert|avx_ifma)$")),
}

#: The extensions reported beside detector figures: name -> the cpuinfo flags that show it.
ISA: dict[str, tuple[str, ...]] = {
    "AVX2": ("avx2",),
    "AVX-512": ("avx512f",),
    "VNNI": ("avx512_vnni", "avx_vnni"),
    "AMX": ("amx_int8", "amx_bf16", "amx_tile"),
    "BF16": ("avx512_bf16", "amx_bf16"),
}


def _read_cpuinfo(path: Path = CPUINFO) -> dict[str, str]:
    """The first processor's ``key: value`` lines of ``/proc/cpuinfo`` ({} where there is none)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            if out:
                break  # the first processor is enough: the flags are the same on every core
            continue
        key, sep, value = line.partition(":")
        if sep:
            out.setdefault(key.strip(), value.strip())
    return out


def emulated_isa() -> str | None:
    """The ISA ``$CARDREF_EMULATE_ISA`` asks to emulate (``None``: this CPU as it is); an
    unknown value is a :class:`DetectorError` naming the variable."""
    raw = os.environ.get(EMULATE_ENV, "").strip()
    if not raw:
        return None
    name = raw.upper()
    if name not in EMULATIONS:
        raise DetectorError(f"{EMULATE_ENV}={raw!r}: cannot emulate that CPU (known: {', '.join(EMULATIONS)})")
    return name


def apply_emulation() -> str | None:
    """Hold oneDNN's kernels to the emulated ISA (before the first model is compiled in this
    process; later compiles keep the kernels chosen first).  Returns the emulated ISA."""
    name = emulated_isa()
    if name is not None:
        os.environ["ONEDNN_MAX_CPU_ISA"] = EMULATIONS[name][0]
    return name


def openvino_config(config: dict[str, object], model_path: str | Path | None = None) -> dict[str, object]:
    """``config`` for compiling ``model_path`` with OpenVINO on this CPU: unchanged, or with
    full precision where a CPU is emulated (:func:`apply_emulation`: no bf16 units) or the
    model is an INT8 copy (``*-int8.onnx``): the float layers of a quantised model run in
    f32, since the bf16 default there converted between types at every quantised layer (the
    INT8 finder of 2026-12-07, stop 57, took 66 ms a 1280x736 frame with the default and 53 ms
    in f32 on a 2-core AMD EPYC with AVX-512, VNNI and BF16).  The finder copy that quantises
    only its convolutions' inputs (stop 59) gains about 5 % from bf16 there (whole frames,
    both copies), too little to move the 15 fps, and its cards are not all the same."""
    emulated = apply_emulation() is not None
    int8_copy = model_path is not None and is_int8_copy(model_path)
    if not (emulated or int8_copy):
        return config
    return {**config, "INFERENCE_PRECISION_HINT": "f32"}


@functools.cache
def _own_flags(path: Path) -> frozenset[str]:
    info = _read_cpuinfo(path)
    return frozenset((info.get("flags") or info.get("Features") or "").split())


def cpu_flags(path: Path = CPUINFO) -> frozenset[str]:
    """The CPU's feature flags (``avx2``, ``avx512_vnni``, ...), less those an emulated ISA
    hides (:func:`emulated_isa`); empty where ``/proc/cpuinfo`` cannot be read (not Linux)."""
    flags = _own_flags(path)
    name = emulated_isa()
    if name is None:
        return flags
    hidden = EMULATIONS[name][1]
    return frozenset(f for f in flags if not hidden.match(f))


def kernel_isas(compiled) -> Counter[str]:  # noqa: ANN001 - an openvino.CompiledModel
    """How many of a compiled OpenVINO model's layers run kernels built for each ISA
    (``avx2``, ``avx512``, ``amx``, ...), read from their primitive types
    (``jit_avx2_I8``, ``brgconv_avx512_amx_I8``): what :func:`apply_emulation` changed."""
    out: Counter[str] = Counter()
    for op in compiled.get_runtime_model().get_ops():
        info = op.get_rt_info()
        kind = str(info["primitiveType"].astype(str)) if "primitiveType" in info else ""
        for isa_name in ("amx", "avx512", "avx2", "sse41"):
            if isa_name in kind:
                out[isa_name] += 1
    return out


@functools.cache
def cpu_name(path: Path = CPUINFO) -> str:
    """The CPU's model name (``platform.processor()`` where ``/proc/cpuinfo`` has none)."""
    return _read_cpuinfo(path).get("model name") or platform.processor() or platform.machine() or "unknown CPU"


def isa(flags: frozenset[str] | None = None) -> dict[str, bool]:
    """For each extension of :data:`ISA`, whether the CPU has it."""
    flags = cpu_flags() if flags is None else flags
    return {name: any(f in flags for f in shows) for name, shows in ISA.items()}


def isa_line(flags: frozenset[str] | None = None) -> str:
    """The extensions in one line: ``AVX2 yes, AVX-512 no, VNNI no, AMX no, BF16 no``
    (``flags unknown`` where the CPU's flags cannot be read)."""
    emulated = emulated_isa() if flags is None else None
    flags = cpu_flags() if flags is None else flags
    if not flags:
        return "CPU flags unknown"
    line = ", ".join(f"{name} {'yes' if has else 'no'}" for name, has in isa(flags).items())
    if emulated is not None:
        own = ", ".join(name for name, has in isa(_own_flags(CPUINFO)).items() if has)
        line += f" ({emulated} emulated for OpenVINO by {EMULATE_ENV} on a CPU with {own})"
    return line
