"""INT8 copies of the float exports (the corner finder, the corner namer): when to run them
instead of the float files.  Making them is build-time work (:mod:`cardref.datasets.int8_build`).

A copy is ``<stem>-int8.onnx`` beside its float file, quantised statically by ONNX Runtime's
quantiser (QDQ: weights int8 per channel, activations uint8 per tensor, calibrated on
rendered table frames; each file's first convolution float) and stamped with the digest of the float
file it was made from: a copy left over from an earlier model (the namer retrained, the finder
exported again) is never run.  OpenVINO runs a copy's float layers in f32
(:func:`.cpu.openvino_config`).

Which file is faster depends on the CPU.  Without bf16 units OpenVINO runs a float file in
f32 and the INT8 copy is the fast one; with AMX bf16 units the float file in bf16 was as fast
as the copy (28 vs 29 ms the finder on the machine of 2026-11-30); with AVX-512 bf16 and no
AMX (a 2-core AMD EPYC, 2026-12-07) the namer's copy was 1.34x as fast as its float file in
bf16.  So no CPU is ruled out beforehand: a copy runs only after the load-time check
(:mod:`.int8_check`) found it reading as its float file does, and faster, on this machine.

On CPUs without VNNI (AVX2 only) OpenVINO's and ONNX Runtime's u8 x s8 kernels add pairs of
products into 16-bit sums, which saturate where a layer's inputs and weights are both large:
with every convolution at 8-bit weights the namer's INT8 copy named a third of the corners
as its float file did on such a CPU (2026-12-02).  The layer that saturated is the first
convolution, which reads raw pixels.  So each copy keeps its first convolution float, and
the other convolutions have full 8-bit weights (since 2026-12-08; until then every weight
had 7 bits, ``reduce_range``, which cost accuracy everywhere: the finder's copy found 0.888
of the float finder's boxes on the real tuning photos, against 0.932 now).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from .digest import file_digest
from .int8_names import float_of as float_of
from .int8_names import int8_sibling as int8_sibling
from .int8_names import is_int8_copy as is_int8_copy

#: Metadata key of an INT8 copy: the digest (:func:`file_digest`) of its float file.
SOURCE_KEY = "cardref.int8_source"


def int8_source(int8_path: str | Path) -> str | None:
    """The float file digest an INT8 copy was stamped with (``None``: unstamped or unreadable)."""
    from .backends import read_onnx_metadata

    try:
        return read_onnx_metadata(Path(int8_path)).get(SOURCE_KEY)
    except Exception:  # noqa: BLE001 - an unreadable copy is as good as none
        return None


def is_fresh(int8_path: str | Path, float_path: str | Path) -> bool:
    """Whether ``int8_path`` exists and was made from the float file as it is now (with no
    float file to check against, a stamped copy is taken as it is)."""
    int8_path, float_path = Path(int8_path), Path(float_path)
    if not int8_path.is_file():
        return False
    source = int8_source(int8_path)
    if source is None:
        return False
    return not float_path.is_file() or source == file_digest(float_path)


def prefer_int8() -> bool:
    """Whether INT8 copies may run here: OpenVINO installed and not switched off
    (``CARDREF_INT8=off``).  Each copy still has to pass :func:`passes_check`, which weighs it
    against the float file as OpenVINO runs that here (bf16 on a CPU with bf16 units)."""
    from .int8_check import int8_switched_off

    return not int8_switched_off() and importlib.util.find_spec("openvino") is not None


def passes_check(kind: str, float_path: str | Path, int8_path: str | Path, namer_path: Path | None = None) -> bool:
    """Whether the load-time check (:mod:`.int8_check`, cached per machine) lets the INT8 copy
    ``int8_path`` of ``float_path`` run here (``kind``: ``"finder"`` or ``"namer"``; a finder's
    corners are named by the float namer ``namer_path``).  A rejection is one log line."""
    from .int8_check import verdict

    return verdict(kind, float_path, int8_path, namer_path).use_int8


def runtime_file(float_path: str | Path) -> Path:
    """The file to run for the corner namer ``float_path``: its fresh INT8 copy where
    :func:`prefer_int8` and the copy passes the load-time check, else the float file itself."""
    int8 = int8_sibling(float_path)
    if prefer_int8() and is_fresh(int8, float_path) and passes_check("namer", float_path, int8):
        return int8
    return Path(float_path)
