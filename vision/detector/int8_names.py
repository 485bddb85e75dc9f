"""How an INT8 copy is named beside its float file (``x.onnx`` -> ``x-int8.onnx``).  No imports
of the package: :mod:`.cpu` needs the name, and :mod:`.int8` (which re-exports these) reaches
:mod:`.cpu` through its load-time check."""

from __future__ import annotations

from pathlib import Path

#: The name of an INT8 copy ends so.
INT8_SUFFIX = "-int8.onnx"


def int8_sibling(float_path: str | Path) -> Path:
    """Where the INT8 copy of ``float_path`` lives: ``x.onnx`` -> ``x-int8.onnx``."""
    p = Path(float_path)
    return p.with_name(p.stem + INT8_SUFFIX)


def float_of(path: str | Path) -> Path:
    """The float file an INT8 copy was made from (``x-int8.onnx`` -> ``x.onnx``); any other
    file is its own."""
    p = Path(path)
    return p.with_name(p.name.removesuffix(INT8_SUFFIX) + ".onnx") if is_int8_copy(p) else p


def is_int8_copy(path: str | Path) -> bool:
    """Whether ``path`` is named as an INT8 copy (:func:`int8_sibling`)."""
    return Path(path).name.endswith(INT8_SUFFIX)
