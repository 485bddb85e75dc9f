"""The product's corner namer: :class:`CornerNamer` chooses the ONNX file that runs (a fresh
INT8 copy where it is the fast one and passes the load-time check, :mod:`.int8`) and reads
through :class:`~.namer_core.FileNamer`.  What the namer is, how it reads a corner and how
it is trained: :mod:`.namer_core`.
"""

from __future__ import annotations

from pathlib import Path

from .int8 import runtime_file
from .namer_core import (
    ALT_MIN_PROB,
    ALTS,
    CONTEXT,
    CROP_SIZE,
    INVERTED,
    MIN_PROB,
    NAMER_CLASSES,
    NAMER_STEM,
    NOT_A_CORNER,
    TURNS,
    FileNamer,
    crop_corner,
    light_ink,
    load_onnx_bytes,
    load_onnx_classifier,
    patches_blob,
    softmax,
)

__all__ = ["ALTS", "ALT_MIN_PROB", "CONTEXT", "CROP_SIZE", "INVERTED", "MIN_PROB", "NAMER_CLASSES", "NAMER_STEM",
           "NOT_A_CORNER", "TURNS", "CornerNamer", "FileNamer", "crop_corner", "light_ink", "load_onnx_bytes",
           "load_onnx_classifier", "patches_blob", "softmax"]


class CornerNamer(FileNamer):
    """The product's corner namer: :class:`~.namer_core.FileNamer` on the float ONNX export
    ``model_path``, whose fresh INT8 copy beside it runs instead where :func:`.int8.runtime_file`
    chooses it (on CPUs without bf16 units, once the load-time check passed it;
    ``int8=False``: never)."""

    def __init__(self, model_path: str | Path, min_prob: float = MIN_PROB, threads: int | None = None,
                 min_conf: float = 0.0, turns: int = TURNS, inverted: bool = INVERTED, int8: bool = True) -> None:
        super().__init__(model_path, min_prob, threads, min_conf, turns, inverted,
                         runtime=runtime_file if int8 else None)
