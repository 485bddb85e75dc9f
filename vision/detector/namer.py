"""The corner namer: a small classifier that names each corner index the detector found.

The YOLO detector is good at *finding* the rank-and-suit indices and weak at telling 54
look-alike classes apart from a few pixels; so the shipped detector is class-agnostic
(one class, ``corner``) and this second stage names every box it finds.  Each box is cut
out as a square patch (:func:`crop_corner`, the same code at training and at run time),
scaled to :data:`CROP_SIZE` pixels and classified into the 54 card codes plus
:data:`NOT_A_CORNER`, which rejects boxes that are not an index at all.

The network is trained by :mod:`cardref.datasets.namer_train` and shipped as ONNX
(``models/corner-namer.onnx``), run by OpenVINO (or ONNX Runtime when OpenVINO is
missing) on every box of a frame in one batch.

A namer exported with a second output, ``features`` (the pooled 160-number description of
a patch the classifier reads), can also be taught one deck (:mod:`.deck`): its readings are
then weighed against that deck's own enrolled corners.

The reading itself lives in :mod:`.namer_core` (:class:`~.namer_core.FileNamer`, which the
INT8 load-time check uses); :class:`CornerNamer` adds the choice of the file that runs.
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
