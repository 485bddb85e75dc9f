"""Export the PyTorch detector to ONNX (read by both the ONNX Runtime and OpenVINO backends).

One ONNX file serves two backends: OpenVINO reads ``.onnx`` directly and compiles it for
the CPU at load time, so the repository does not need a second copy of the weights as an
OpenVINO IR.  The shipped export leaves the input's height and width free (``dynamic``):
its metadata names the default shape (736x1280, a 1280x720 frame), at which the backends
compile it, and a video stream compiles a second copy at the size of the tiles it looks at
again where the table changed (:mod:`cardref.vision.detector.regions`).  OpenVINO runs it compiled at one fixed
shape each time (run with its shape left free, it was 1.7 times slower).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cardref.vision.detector.backends import CornerDetector
from cardref.vision.detector.errors import ModelFileError
from cardref.vision.detector.scale import DEFAULT_EXPORT_SHAPE
from cardref.vision.types import box_iou


def export_onnx(weights: str | Path, out: str | Path, imgsz: int | tuple[int, int] = DEFAULT_EXPORT_SHAPE,
                opset: int | None = None, simplify: bool = True, dynamic: bool = True) -> Path:
    """Write ``weights`` (an ultralytics ``.pt``) as an ONNX file at ``out``.

    ``imgsz`` is the network input, ``(height, width)`` or one side for a square: with
    ``dynamic`` (the default) the default shape only, the height and width left free; without,
    the only shape.  The class names, stride and input size travel in the ONNX metadata,
    where the backends read them.
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
        kwargs: dict = {"format": "onnx", "imgsz": shape, "dynamic": dynamic, "simplify": simplify,
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
        pairs = sorted(((box_iou(x.box, y.box), i, j) for i, x in enumerate(ca) for j, y in enumerate(cb)
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
    from cardref.vision.detector.backends import OnnxBackend, TorchBackend

    from .frames import table_frames

    onnx = OnnxBackend(onnx_path, conf=conf)
    torch_backend = TorchBackend(weights, imgsz=max(onnx.input_shape), conf=conf)
    if frames is None:
        frames = table_frames(2, width=frame_shape[1], height=frame_shape[0])
    return compare_corners(torch_backend, onnx, frames)


def compare_namers(float_namer: str | Path, int8_namer: str | Path, finder_path: str | Path,
                   frames: list[np.ndarray]) -> str:
    """How often two namers (a float one and its INT8 copy) give a corner the same code, on
    the corners ``finder_path`` finds in ``frames``: a one-line summary."""
    from cardref.vision.detector.backends import OnnxBackend
    from cardref.vision.detector.namer import NAMER_CLASSES, CornerNamer, crop_corner

    finder = OnnxBackend(finder_path)
    a, b = CornerNamer(float_namer, int8=False), CornerNamer(int8_namer, int8=False)
    same = total = 0
    gap = 0.0
    for frame in frames:
        patches = [crop_corner(frame, c.box) for c in finder.detect_corners(frame)]
        if not patches:
            continue
        pa, pb = a.probabilities(patches), b.probabilities(patches)
        same += int((pa.argmax(axis=1) == pb.argmax(axis=1)).sum())
        total += len(patches)
        gap = max(gap, float(np.abs(pa - pb).max()))
    return (f"{Path(float_namer).name} vs {Path(int8_namer).name} on {len(frames)} frames: {same}/{total} corners "
            f"given the same of the {len(NAMER_CLASSES)} classes, largest probability gap {gap:.3f}")


def export_int8(onnx_path: str | Path, out: str | Path, frames: list[np.ndarray] | None = None,
                n_frames: int = 16) -> Path:
    """Quantise an exported finder to INT8 (:func:`.int8_build.quantize`), calibrated on rendered
    table frames, and stamp it with the float file's digest.

    The first convolution (it sees the raw image) and the head's last convolutions and its
    decoding stay float (:func:`_float_nodes`).  On held-out real photos through ``cardref
    detect``, card F1 0.8044 with the float finder, 0.8016 with this copy (quantising those
    layers too: 0.7992).  Only the convolutions' inputs are quantised (since 2026-12-07:
    :data:`.int8_build.CONV_INPUTS_ONLY`), so that OpenVINO fuses each activation into its
    convolution.  The weights use the whole 8-bit range (since 2026-12-08, stop 60): with the
    first convolution float no quantised convolution reads raw pixels, so the u8 x s8 sums of
    CPUs without VNNI do not saturate (:mod:`cardref.vision.detector.int8`), and 7-bit weights
    only added rounding: on the real tuning photos the copy's boxes agreed with the float
    finder's 0.888 of the time with 7 bits, 0.932 with 8.  Check the accuracy of a copy before
    shipping it (``cardref export-detector --int8`` compares it with the float model).
    """
    from cardref.vision.detector.backends import OnnxBackend
    from cardref.vision.detector.decode import letterbox

    from .frames import table_frames
    from .int8_build import quantize

    onnx_path = Path(onnx_path)
    if not onnx_path.is_file():
        raise ModelFileError(onnx_path, "ONNX model not found")
    shape = OnnxBackend(onnx_path).input_shape
    if frames is None:
        frames = table_frames(n_frames, width=shape[1], height=round(shape[1] * 9 / 16), seed=100)
    return quantize(onnx_path, out, (letterbox(f, shape)[0] for f in frames), _float_nodes(onnx_path),
                    reduce_range=False, conv_inputs_only=True)


def export_namer_int8(namer_path: str | Path, out: str | Path, finder_path: str | Path,
                      frames: list[np.ndarray] | None = None, n_frames: int = 16) -> Path:
    """Quantise the corner namer to INT8, calibrated on what it reads at run time: the patches
    of the corners the finder (``finder_path``, an ONNX export) finds on rendered table
    frames, at every quarter turn.  On held-out real photos through ``cardref detect``, card
    F1 0.8044 with the float namer, 0.8036 with its INT8 copy (float finder both times).

    Its first convolution stays float and the others get the whole 8-bit range of weights
    (:func:`_namer_float_nodes`; since 2026-12-08, stop 60).  The first convolution reads the
    raw patch, whose bytes run up to 255: that is where 8-bit weights saturated the u8 x s8
    sums of a CPU without VNNI.  Until then every weight had 7 bits instead."""
    from cardref.vision.detector.backends import OnnxBackend
    from cardref.vision.detector.namer import TURNS, crop_corner, patches_blob

    from .int8_build import quantize

    finder = OnnxBackend(finder_path, conf=0.05)
    if frames is None:
        from .frames import table_frames

        frames = table_frames(n_frames, width=1280, height=720, seed=100)

    def batches():  # noqa: ANN202 - a generator of blobs
        for frame in frames:
            corners = finder.detect_corners(frame)
            if corners:
                arr = np.asarray([crop_corner(frame, c.box) for c in corners], np.uint8)
                yield patches_blob(np.concatenate([np.rot90(arr, k, axes=(1, 2)) for k in range(TURNS)]))

    return quantize(namer_path, out, batches(), _namer_float_nodes(Path(namer_path)), reduce_range=False)


def _namer_float_nodes(namer_path: Path) -> list[str]:
    """The namer's nodes an INT8 copy keeps float: its first convolution, which reads the raw
    patch.  Quantised with 8-bit weights, its u8 x s8 pair sums saturate the 16-bit
    intermediates of CPUs without VNNI (AVX2 only): measured on 159 corners of rendered
    frames, OpenVINO's kernels held to AVX2 (``CARDREF_EMULATE_ISA=AVX2``) named 108 as the
    float namer did with every convolution quantised at 8 bits, 151 at 7 bits (the copy
    shipped until 2026-12-08) and 158 with this one float and the others at 8 bits."""
    from .onnx_weights import float_weights

    if not namer_path.is_file():
        raise ModelFileError(namer_path, "ONNX model not found")
    convs = [n.name for n in float_weights(namer_path).graph.node if n.op_type == "Conv"]
    return convs[:1]


def _float_nodes(onnx_path: Path) -> list[str]:
    """The finder's nodes an INT8 copy keeps float: the head's decoding, the last convolution
    of each head branch (box offsets and class scores, ``/model.23/cv3.0/cv3.0.2/Conv``) and
    the first convolution."""
    from .onnx_weights import float_weights

    graph = float_weights(onnx_path).graph
    prefix = _head_prefix(graph)
    convs = [n.name for n in graph.node if n.op_type == "Conv"]
    last = [c for c in convs if c.startswith(prefix) and c.endswith(".2/Conv")]
    return [*_head_decoding_nodes(graph), *last, *convs[:1]]


def _head_prefix(graph) -> str:  # noqa: ANN001 - onnx.GraphProto
    """The name prefix of the node that makes the graph's output (e.g. ``/model.23/``)."""
    output = graph.output[0].name
    producer = next(n for n in graph.node if output in n.output)
    return producer.name.rsplit("/", 1)[0] + "/"


def _head_decoding_nodes(graph) -> list[str]:  # noqa: ANN001 - onnx.GraphProto
    """The detection head's decoding nodes, kept in float: every node of the head outside its
    convolution branches (``cv2``, ``cv3``).

    The head ends in one tensor that concatenates box coordinates (pixels, up to 1280) with
    class scores (0..1): quantised per tensor to 8 bits, every score would round to 0.  The
    box decoding (DFL softmax, its expectation, anchors, strides), the score sigmoid and the
    final concatenation stay float.  The DFL's expectation is a convolution (``dfl/conv``):
    until 2026-12-07 it was quantised with the branches, which rounded its 16-bin softmax to
    uint8 and shifted the boxes, so that the copy's corners were named otherwise than the
    float finder's (95.0 % alike on the check frames, AVX2 emulated; 98.0 % with it float).
    """
    prefix = _head_prefix(graph)
    return [n.name for n in graph.node if n.name.startswith(prefix) and not n.name.startswith(prefix + "cv")]


def write_check_frames(folder: str | Path, scenes: int = 2, quality: int = 90) -> Path:
    """Write the INT8 check frames (:mod:`cardref.vision.detector.int8_check`) to ``folder``: a simulated deck layout
    (54 cards in suit rows) and ``scenes`` rendered table scenes at 1280x720, as JPEG, with
    the boxes of their corner indices in ``frames.json``.  Build-time only: it renders with the
    simulator and the data generator, which the runtime never imports."""
    import json

    import cv2

    from cardref.datasets.faces import list_designs
    from cardref.datasets.scenes import SceneConfig, render_scene
    from cardref.vision.simulate.layout import render_layout

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    frame, truth, design = render_layout(6, 77, design="aisleriot-ornamental")
    entries.append(("layout.jpg", frame, [c.box for d in truth for c in d.corners], f"deck layout, {design}"))
    designs, cfg = list_designs(), SceneConfig(width=1280, height=720)
    for k in range(scenes):
        scene = render_scene(900 + k, designs, cfg)
        entries.append((f"scene-{k}.jpg", cv2.cvtColor(scene.image, cv2.COLOR_RGB2BGR),
                        [lab.box for lab in scene.labels], f"rendered table scene, seed {900 + k}"))
    listing = []
    for name, image, boxes, what in entries:
        cv2.imwrite(str(folder / name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        listing.append({"file": name, "what": what, "boxes": [[round(float(v), 1) for v in b] for b in boxes]})
    (folder / "frames.json").write_text(json.dumps({"frames": listing}, indent=1) + "\n", encoding="utf-8")
    return folder
