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
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .backends import CornerDetector
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


@dataclass
class Agreement:
    """How two corner detectors compare on the same frames."""

    names: tuple[str, str]
    frames: int = 0
    matched: int = 0
    #: corners only one backend found, with a confidence clearly above the threshold
    only: list[int] = field(default_factory=lambda: [0, 0])
    #: corners only one backend found, within ``margin`` of the confidence threshold
    borderline: int = 0
    max_conf_diff: float = 0.0
    min_iou: float = 1.0

    @property
    def agree(self) -> bool:
        return self.only == [0, 0]

    def summary(self) -> str:
        verdict = ("agree" if self.matched else "nothing detected, agreement untested") if self.agree else "DISAGREE"
        return (f"{self.names[0]} vs {self.names[1]} on {self.frames} frames: {verdict}; "
                f"{self.matched} corners matched (largest confidence gap {self.max_conf_diff:.3f}, "
                f"smallest box IoU {self.min_iou:.3f}), only {self.names[0]}: {self.only[0]}, "
                f"only {self.names[1]}: {self.only[1]}, borderline: {self.borderline}")


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def compare_corners(a: CornerDetector, b: CornerDetector, frames: list[np.ndarray], min_iou: float = 0.8,
                    margin: float = 0.05) -> Agreement:
    """Match the corners two backends find (same code, box IoU >= ``min_iou``) frame by frame.

    A corner only one backend found counts as borderline when its confidence is within
    ``margin`` of that backend's threshold (a rounding difference can flip it), else as a
    disagreement.
    """
    names = (a.name, b.name) if a.name != b.name else (a.model_path.name, b.model_path.name)
    report = Agreement(names=names)
    thresholds = (getattr(a, "conf", 0.0), getattr(b, "conf", 0.0))
    for frame in frames:
        report.frames += 1
        ca, cb = a.detect_corners(frame), b.detect_corners(frame)
        pairs = sorted(((_iou(x.box, y.box), i, j) for i, x in enumerate(ca) for j, y in enumerate(cb)
                        if x.card == y.card), reverse=True)
        used_a: set[int] = set()
        used_b: set[int] = set()
        for iou, i, j in pairs:
            if iou < min_iou or i in used_a or j in used_b:
                continue
            used_a.add(i)
            used_b.add(j)
            report.matched += 1
            report.max_conf_diff = max(report.max_conf_diff, abs(ca[i].conf - cb[j].conf))
            report.min_iou = min(report.min_iou, iou)
        for side, found, used in ((0, ca, used_a), (1, cb, used_b)):
            for k, corner in enumerate(found):
                if k in used:
                    continue
                if corner.conf < thresholds[side] + margin:
                    report.borderline += 1
                else:
                    report.only[side] += 1
    return report


def compare_backends(weights: str | Path, onnx_path: str | Path, frames: list[np.ndarray] | None = None,
                     frame_shape: tuple[int, int] = (720, 1280), conf: float = 0.05) -> Agreement:
    """Compare the PyTorch weights with their ONNX export (ONNX Runtime) on table frames.

    The threshold is low (``conf``) so that many boxes, weak ones included, are compared.
    """
    from .backends import OnnxBackend, TorchBackend
    from .frames import table_frames

    onnx = OnnxBackend(onnx_path, conf=conf)
    torch_backend = TorchBackend(weights, imgsz=max(onnx.input_shape), conf=conf)
    if frames is None:
        frames = table_frames(2, width=frame_shape[1], height=frame_shape[0])
    return compare_corners(torch_backend, onnx, frames)


def export_int8(onnx_path: str | Path, out: str | Path, frames: list[np.ndarray] | None = None,
                n_frames: int = 16) -> Path:
    """Quantise an exported ONNX model to INT8 (QDQ, static, calibrated on table frames).

    Uses ONNX Runtime's quantiser (no extra package); OpenVINO runs the QDQ graph with INT8
    kernels.  Weights per channel (int8), activations per tensor (uint8).  Check the
    accuracy of the result before shipping it (``cardref export-detector --int8`` compares
    it with the float model).
    """
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from .backends import OnnxBackend
    from .decode import letterbox
    from .frames import table_frames

    onnx_path, out = Path(onnx_path), Path(out)
    if not onnx_path.is_file():
        raise ModelFileError(onnx_path, "ONNX model not found")
    ref = OnnxBackend(onnx_path)
    if frames is None:
        h, w = ref.input_shape
        frames = table_frames(n_frames, width=w, height=round(w * 9 / 16), seed=100)
    blobs = [letterbox(f, ref.input_shape)[0] for f in frames]
    input_name = ref.session.get_inputs()[0].name

    class _Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self._it = iter(blobs)

        def get_next(self) -> dict | None:
            blob = next(self._it, None)
            return None if blob is None else {input_name: blob}

    with tempfile.TemporaryDirectory(prefix="cardref-int8-") as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(onnx_path), str(pre))
        quantize_static(str(pre), str(out), _Reader(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        nodes_to_exclude=_head_decoding_nodes(pre))
    return out


def _head_decoding_nodes(onnx_path: Path) -> list[str]:
    """The detection head's decoding nodes, kept in float.

    The head ends in one tensor that concatenates box coordinates (pixels, up to 1280) with
    class scores (0..1): quantised per tensor to 8 bits, every score would round to 0.  Its
    convolutions stay INT8; the box decoding (DFL softmax, anchors, strides), the score
    sigmoid and the final concatenation stay float.
    """
    import onnx

    graph = onnx.load(str(onnx_path), load_external_data=False).graph
    output = graph.output[0].name
    producer = next(n for n in graph.node if output in n.output)
    prefix = producer.name.rsplit("/", 1)[0] + "/"  # e.g. "/model.23/"
    return [n.name for n in graph.node if n.name.startswith(prefix) and n.op_type != "Conv"]
