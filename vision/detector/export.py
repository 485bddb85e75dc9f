"""Export the PyTorch detector to ONNX (read by both the ONNX Runtime and OpenVINO backends).

One ONNX file serves two backends: OpenVINO reads ``.onnx`` directly and compiles it for
the CPU at load time, so the repository does not need a second copy of the weights as an
OpenVINO IR.  The export is static (one input shape, 736x1280 for 16:9 frames at 1280):
a fixed shape lets both runtimes plan their memory once; frames of another aspect ratio
are letterboxed into it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .errors import ModelFileError

#: Input shape (height, width) of the shipped export: a 1280x720 frame letterboxed to a
#: multiple of the model stride (32) is 1280x736.
DEFAULT_EXPORT_SHAPE: tuple[int, int] = (736, 1280)


def export_onnx(weights: str | Path, out: str | Path, imgsz: int | tuple[int, int] = DEFAULT_EXPORT_SHAPE,
                opset: int | None = None, simplify: bool = True) -> Path:
    """Write ``weights`` (an ultralytics ``.pt``) as a static-shape ONNX file at ``out``.

    ``imgsz`` is the network input, ``(height, width)`` or one side for a square.  The class
    names, stride and input size travel in the ONNX metadata, where the backends read them.
    """
    weights, out = Path(weights), Path(out)
    if not weights.is_file():
        raise ModelFileError(weights, "PyTorch weights not found")
    os.environ.setdefault("YOLO_OFFLINE", "1")
    from ultralytics import YOLO

    shape = [imgsz, imgsz] if isinstance(imgsz, int) else [int(imgsz[0]), int(imgsz[1])]
    with tempfile.TemporaryDirectory(prefix="cardref-export-") as tmp:
        # ultralytics writes the export next to the weights: work on a copy
        src = Path(tmp) / weights.name
        shutil.copy(weights, src)
        kwargs: dict = {"format": "onnx", "imgsz": shape, "dynamic": False, "simplify": simplify,
                        "device": "cpu", "batch": 1, "verbose": False}
        if opset is not None:
            kwargs["opset"] = opset
        produced = Path(YOLO(str(src)).export(**kwargs))
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(produced), out)
    return out
