"""What this CPU offers the detector's runtimes: its instruction-set extensions, read from
``/proc/cpuinfo``.

OpenVINO's INT8 kernels take a different path with and without VNNI (a u8 x s8 dot
product that cannot saturate with it, a 16-bit intermediate sum that can without it), and
it runs float models in bf16 where the CPU has bf16 units; so every detector figure is
given with these flags beside it, and the INT8 check's verdict (:mod:`.int8_check`) is
cached per set of flags.
"""

from __future__ import annotations

import functools
import platform
from pathlib import Path

CPUINFO = Path("/proc/cpuinfo")

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


@functools.cache
def cpu_flags(path: Path = CPUINFO) -> frozenset[str]:
    """The CPU's feature flags (``avx2``, ``avx512_vnni``, ...); empty where ``/proc/cpuinfo``
    cannot be read (not Linux)."""
    info = _read_cpuinfo(path)
    return frozenset((info.get("flags") or info.get("Features") or "").split())


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
    flags = cpu_flags() if flags is None else flags
    if not flags:
        return "CPU flags unknown"
    return ", ".join(f"{name} {'yes' if has else 'no'}" for name, has in isa(flags).items())
