"""The corner detector behind three interchangeable runtimes.

Every backend implements :class:`CornerDetector`: a BGR frame in, the corner indices the
model saw out (:class:`~cardref.vision.types.CornerDetection`, one per index, not yet merged
into cards).  ``TorchBackend`` runs the ultralytics ``.pt`` network in PyTorch;
``OnnxBackend`` (ONNX Runtime) and ``OpenVinoBackend`` (OpenVINO, reading the same ``.onnx``
or an IR folder) run its export.  All three share the numpy pre/post-processing of
:mod:`.decode` (letterbox, YOLO head decoding, class-agnostic NMS), which mirrors
ultralytics' predictor (a test checks it against ultralytics' own predictions), and the
same fixed input shape, so they differ only by their runtimes' arithmetic.

Threads: each backend uses every core the process may run on (2 here).  OpenVINO runs in
its latency mode, in bf16 on CPUs with bf16 units (its default there) unless asked for f32.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from ..classes import CORNER_CLASS_NAMES, NON_CARD_NAMES, UNNAMED
from ..types import CornerDetection
from .cpu import openvino_config
from .decode import Letterbox, decode_yolo, letterbox, letterbox_image
from .errors import BackendUnavailableError, DetectorError, ModelFileError

DEFAULT_CONF = 0.1  # best card F1 on the held-out designs (models/README.md, eval-detector)
DEFAULT_IOU = 0.7
#: Network input long side of the PyTorch backend (the exports fix theirs at export time).
DEFAULT_LONG_SIDE = 1280


@runtime_checkable
class CornerDetector(Protocol):
    """Finds card corner indices in a frame."""

    name: str
    model_path: Path
    names: tuple[str, ...]

    def detect_corners(self, frame_bgr: np.ndarray) -> list[CornerDetection]: ...


def default_threads() -> int:
    """Use every core the process may run on (2 on the reference machine)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _card_names(names: Sequence[str] | Mapping[int, str], source: Path) -> tuple[str, ...]:
    """Class names as card codes; non-card classes (card backs) become '' and are never reported.

    A class-agnostic corner finder's one class becomes :data:`UNNAMED` (the namer names it).
    """
    from cardref.engine.cards import parse_card

    items = sorted(names.items()) if isinstance(names, Mapping) else list(enumerate(names))
    if [i for i, _ in items] != list(range(len(items))):
        raise ModelFileError(source, "class ids in the model metadata are not 0..n-1")
    out = []
    for _, name in items:
        key = str(name).strip().upper()
        if key in NON_CARD_NAMES:
            out.append("")
            continue
        if key in CORNER_CLASS_NAMES:
            out.append(UNNAMED)
            continue
        try:
            out.append(parse_card(key).code)
        except ValueError as exc:
            raise ModelFileError(source, f"class {name!r} in the model is not a card code") from exc
    return tuple(out)


def _check_frame(frame_bgr: np.ndarray) -> None:
    if not isinstance(frame_bgr, np.ndarray) or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 \
            or frame_bgr.dtype != np.uint8 or min(frame_bgr.shape[:2]) < 1:
        shape = getattr(frame_bgr, "shape", None)
        raise DetectorError(f"expected a BGR uint8 frame (h, w, 3), got {type(frame_bgr).__name__} {shape}")


class _ExportedBackend(ABC):
    """Shared body of the backends: letterbox, run the network, decode, map boxes back."""

    name = "exported"

    def __init__(self, model_path: Path, names: tuple[str, ...], input_shape: tuple[int, int],
                 conf: float, iou: float) -> None:
        self.model_path = model_path
        self.names = names
        self.input_shape = input_shape  # (height, width)
        self.conf = conf
        self.iou = iou

    def _prepare(self, frame_bgr: np.ndarray) -> tuple[np.ndarray, Letterbox]:
        """The network input for a frame: an NCHW float32 RGB blob in 0..1."""
        return letterbox(frame_bgr, self.input_shape)

    @abstractmethod
    def _run(self, blob: np.ndarray) -> np.ndarray:
        """Raw network output ``(1, 4 + nc, n)`` for the prepared input."""

    def at_shape(self, shape: tuple[int, int]) -> _ExportedBackend | None:
        """This finder with the network input ``shape`` (height, width), for the tiles a video
        stream looks at again (:mod:`.regions`); ``None`` when the model has one fixed shape."""
        return None

    def detect_corners(self, frame_bgr: np.ndarray) -> list[CornerDetection]:
        _check_frame(frame_bgr)
        blob, lb = self._prepare(frame_bgr)
        out = self._run(blob)
        if out.ndim != 3 or out.shape[1] != 4 + len(self.names):
            raise DetectorError(f"{self.model_path}: output shape {out.shape} does not fit "
                                f"{len(self.names)} classes (expected (1, {4 + len(self.names)}, n))")
        boxes, scores, cls = decode_yolo(out, self.conf, self.iou)
        boxes = lb.to_frame(boxes)
        return [CornerDetection(self.names[c], float(s), tuple(float(v) for v in b))
                for b, s, c in zip(boxes, scores, cls, strict=True) if self.names[c]]


def read_onnx_metadata(path: Path) -> dict[str, str]:
    """The ultralytics metadata stored in an ONNX file (names, imgsz, stride...)."""
    try:
        import onnx
    except ImportError:  # onnxruntime can read it too
        try:
            import onnxruntime as ort
        except ImportError as exc:
            raise BackendUnavailableError("onnx", "neither onnx nor onnxruntime is installed") from exc
        sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        return dict(sess.get_modelmeta().custom_metadata_map)
    try:
        proto = onnx.load(str(path), load_external_data=False)
    except Exception as exc:  # noqa: BLE001 - onnx raises several types for a bad file
        raise ModelFileError(path, f"not a readable ONNX model ({exc.__class__.__name__})") from exc
    return {p.key: p.value for p in proto.metadata_props}


def _names_and_shape(meta: Mapping[str, object], source: Path, static_shape: Sequence[int] | None,
                     ) -> tuple[tuple[str, ...], tuple[int, int]]:
    from ..classes import CLASS_NAMES

    raw_names = meta.get("names")
    if isinstance(raw_names, str):
        raw_names = ast.literal_eval(raw_names)
    names = _card_names(raw_names, source) if raw_names else CLASS_NAMES
    if static_shape is not None and all(isinstance(v, int) and v > 0 for v in static_shape):
        return names, (int(static_shape[0]), int(static_shape[1]))
    imgsz = meta.get("imgsz")
    if isinstance(imgsz, str):
        imgsz = ast.literal_eval(imgsz)
    if not imgsz:
        raise ModelFileError(source, "the model has a dynamic input shape and no imgsz metadata")
    imgsz = [imgsz, imgsz] if isinstance(imgsz, int) else list(imgsz)
    return names, (int(imgsz[0]), int(imgsz[1]))


class OnnxBackend(_ExportedBackend):
    """ONNX Runtime on the CPU."""

    name = "onnx"

    def __init__(self, model_path: str | Path, conf: float = DEFAULT_CONF, iou: float = DEFAULT_IOU,
                 threads: int | None = None) -> None:
        try:
            import onnxruntime as ort
        except ImportError as exc:
            raise BackendUnavailableError(self.name, "onnxruntime is not installed") from exc
        path = Path(model_path)
        if not path.is_file():
            raise ModelFileError(path, "ONNX model not found")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or default_threads()
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own exception types
            raise ModelFileError(path, f"ONNX Runtime cannot load the model ({exc})") from exc
        inp = self.session.get_inputs()[0]
        self._input_name = inp.name
        meta = dict(self.session.get_modelmeta().custom_metadata_map)
        names, shape = _names_and_shape(meta, path, inp.shape[2:])
        self._free_shape = not all(isinstance(v, int) for v in inp.shape[2:])
        super().__init__(path, names, shape, conf, iou)

    def _run(self, blob: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self._input_name: blob})[0]

    def at_shape(self, shape: tuple[int, int]) -> OnnxBackend | None:
        if not self._free_shape:
            return None
        twin = copy.copy(self)  # the same session: ONNX Runtime takes any size for free dimensions
        twin.input_shape = (int(shape[0]), int(shape[1]))
        return twin


def _openvino_files(path: Path) -> tuple[Path, dict[str, object]]:
    """The file OpenVINO should read and the metadata that goes with it."""
    if path.is_dir():  # an ultralytics "<name>_openvino_model" folder
        xmls = sorted(path.glob("*.xml"))
        if not xmls:
            raise ModelFileError(path, "no OpenVINO .xml model in the folder")
        path = xmls[0]
    if not path.is_file():
        raise ModelFileError(path, "OpenVINO model not found")
    if path.suffix == ".onnx":
        return path, dict(read_onnx_metadata(path))
    meta_file = path.parent / "metadata.yaml"
    meta: dict[str, object] = {}
    if meta_file.is_file():
        import yaml

        meta = yaml.safe_load(meta_file.read_text(encoding="utf-8")) or {}
    return path, meta


class OpenVinoBackend(_ExportedBackend):
    """OpenVINO on the CPU, compiled for low latency.  Reads ``.onnx`` or an IR (``.xml``/folder).

    ``precision`` is OpenVINO's inference precision hint: ``None`` keeps the runtime's
    default (bf16 on CPUs with bf16 units, which is what makes OpenVINO fast there), ``"f32"``
    forces full precision.
    """

    name = "openvino"

    def __init__(self, model_path: str | Path, conf: float = DEFAULT_CONF, iou: float = DEFAULT_IOU,
                 threads: int | None = None, precision: str | None = None) -> None:
        try:
            import openvino as ov
        except ImportError as exc:
            raise BackendUnavailableError(self.name, "openvino is not installed") from exc
        path, meta = _openvino_files(Path(model_path))
        core = ov.Core()
        try:
            model = core.read_model(str(path))
        except Exception as exc:  # noqa: BLE001 - openvino raises RuntimeError subclasses
            raise ModelFileError(path, f"OpenVINO cannot read the model ({exc})") from exc
        pshape = model.inputs[0].get_partial_shape()
        static = [d.get_length() if d.is_static else None for d in pshape][2:] if pshape.rank.is_static else None
        names, shape = _names_and_shape(meta, path, static)
        self._core, self._free_model = core, None
        if static is None or None in static:
            self._free_model = model.clone()  # kept to compile copies at other shapes (at_shape)
        config: dict[str, object] = {"PERFORMANCE_HINT": "LATENCY",
                                     "INFERENCE_NUM_THREADS": threads or default_threads()}
        config = openvino_config(config, path)  # emulated AVX2 and INT8 copies run f32 (cpu.py)
        if precision:
            config["INFERENCE_PRECISION_HINT"] = precision
        self._config = config
        self._compile(ov, model, shape, reshape=self._free_model is not None)
        hint = self.compiled.get_property("INFERENCE_PRECISION_HINT")
        self.precision = str(getattr(hint, "type_name", hint))  # "bf16" or "f32"
        super().__init__(path, names, shape, conf, iou)

    def _compile(self, ov, model, shape: tuple[int, int], reshape: bool) -> None:  # noqa: ANN001 - openvino types
        if reshape:
            model.reshape({model.inputs[0].any_name: [1, 3, *shape]})
        self.compiled = self._core.compile_model(self._with_preprocessing(ov, model), "CPU", self._config)
        self._request = self.compiled.create_infer_request()

    def at_shape(self, shape: tuple[int, int]) -> OpenVinoBackend | None:
        """A copy compiled at ``shape`` (a few seconds: OpenVINO plans the network for it)."""
        if self._free_model is None:
            return None
        import openvino as ov

        twin = copy.copy(self)
        twin.input_shape = (int(shape[0]), int(shape[1]))
        twin._compile(ov, self._free_model.clone(), twin.input_shape, reshape=True)
        return twin

    @staticmethod
    def _with_preprocessing(ov, model):  # noqa: ANN001, ANN205 - openvino types are optional imports
        """Let OpenVINO take the padded uint8 BGR image and normalise it inside the compiled graph."""
        from openvino.preprocess import ColorFormat, PrePostProcessor

        ppp = PrePostProcessor(model)
        inp = ppp.input(0)
        inp.tensor().set_element_type(ov.Type.u8).set_layout(ov.Layout("NHWC")).set_color_format(ColorFormat.BGR)
        inp.model().set_layout(ov.Layout("NCHW"))
        inp.preprocess().convert_element_type(ov.Type.f32).convert_color(ColorFormat.RGB).scale(255.0)
        return ppp.build()

    def _prepare(self, frame_bgr: np.ndarray) -> tuple[np.ndarray, Letterbox]:
        img, lb = letterbox_image(frame_bgr, self.input_shape)
        return img[None], lb

    def _run(self, blob: np.ndarray) -> np.ndarray:
        self._request.infer({0: blob})
        return self._request.get_output_tensor(0).data


class TorchBackend(_ExportedBackend):
    """The ultralytics ``.pt`` network run by PyTorch on the CPU.

    It sees exactly the input the exported backends see (same letterbox, same fixed input
    shape) and its output goes through the same decoding, so the three backends differ only
    by their runtimes' arithmetic.  The input shape is that of the ONNX export beside the
    weights when there is one; else ``imgsz`` is its long side, 16:9 (default 1280: a
    1280x720 frame runs at its own resolution, 1280x736 like the shipped export).
    """

    name = "torch"

    def __init__(self, model_path: str | Path, conf: float = DEFAULT_CONF, iou: float = DEFAULT_IOU,
                 imgsz: int | None = None, threads: int | None = None) -> None:
        path = Path(model_path)
        if not path.is_file():
            raise ModelFileError(path, "PyTorch weights not found")
        os.environ.setdefault("YOLO_OFFLINE", "1")
        # ultralytics greets a machine it has not seen ("Creating new Ultralytics Settings")
        # on stdout, which would break `cardref detect --json`: its words go to stderr
        with contextlib.redirect_stdout(sys.stderr):
            try:
                import torch
                from ultralytics import YOLO
            except ImportError as exc:
                raise BackendUnavailableError(self.name, f"{exc.name} is not installed") from exc
            torch.set_num_threads(threads or default_threads())
            try:
                yolo = YOLO(str(path), task="detect")
            except Exception as exc:  # noqa: BLE001 - torch.load raises many types for a bad file
                raise ModelFileError(path, f"cannot load the PyTorch weights ({exc.__class__.__name__}: {exc})") from exc
        self._torch = torch
        self.net = yolo.model.float().eval()
        stride = int(max(getattr(self.net, "stride", [32])))
        shape = self._sibling_shape(path) if imgsz is None else None
        if shape is None:
            side = int(imgsz or DEFAULT_LONG_SIDE)
            shape = (int(np.ceil(side * 9 / 16 / stride) * stride), int(np.ceil(side / stride) * stride))
        super().__init__(path, _card_names(yolo.names, path), shape, conf, iou)

    @staticmethod
    def _sibling_shape(path: Path) -> tuple[int, int] | None:
        """The input shape of the ONNX export beside the weights, so both see the same input."""
        onnx_path = path.with_suffix(".onnx")
        if not onnx_path.is_file():
            return None
        try:
            imgsz = ast.literal_eval(read_onnx_metadata(onnx_path).get("imgsz", "None"))
        except (DetectorError, ValueError, SyntaxError):
            return None
        if isinstance(imgsz, int):
            return (imgsz, imgsz)
        if isinstance(imgsz, (list, tuple)) and len(imgsz) == 2:
            return (int(imgsz[0]), int(imgsz[1]))
        return None

    def at_shape(self, shape: tuple[int, int]) -> TorchBackend:
        twin = copy.copy(self)  # PyTorch runs the network at any size
        twin.input_shape = (int(shape[0]), int(shape[1]))
        return twin

    def _run(self, blob: np.ndarray) -> np.ndarray:
        with self._torch.inference_mode():
            out = self.net(self._torch.from_numpy(blob))
        return (out[0] if isinstance(out, (list, tuple)) else out).numpy()
