"""Making the INT8 copies of the float exports (build time): quantising a float ONNX file
and stamping the copy with its float file's digest.  When a copy runs instead of its float
file is the runtime's choice (:mod:`cardref.vision.detector.int8`, its docstring tells the
quantisation's settings and why).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from cardref.vision.detector.digest import file_digest
from cardref.vision.detector.errors import ModelFileError
from cardref.vision.detector.int8 import SOURCE_KEY


def stamp(int8_path: str | Path, float_path: str | Path) -> None:
    """Record in ``int8_path`` the digest of the float file it was made from."""
    import onnx

    model = onnx.load(str(int8_path))
    for prop in list(model.metadata_props):
        if prop.key == SOURCE_KEY:
            model.metadata_props.remove(prop)
    model.metadata_props.add(key=SOURCE_KEY, value=file_digest(float_path))
    onnx.save(model, str(int8_path))


def _free_input_shape(model) -> bool:  # noqa: ANN001 - onnx.ModelProto
    """Whether the model's first input has a dimension without a fixed size."""
    dims = model.graph.input[0].type.tensor_type.shape.dim
    return any(not d.HasField("dim_value") for d in dims)


#: What ``quantize(..., conv_inputs_only=True)`` asks of ONNX Runtime's quantiser: only the
#: convolutions are quantised, their inputs and weights, never their outputs.  Each
#: activation after a convolution (YOLO's SiLU: a Sigmoid and a Mul) then stays whole
#: between one convolution and the next, and OpenVINO fuses it into the convolution, with
#: the next one's quantisation.  Quantising every op's outputs (the quantiser's default) put
#: a quantise and a dequantise after the convolution, after its Sigmoid and after its Mul:
#: OpenVINO ran each SiLU and its three roundings as a separate element-wise step (24 ms of
#: the finder's 55 on a 2-core AMD EPYC with AVX-512, VNNI and BF16, 2026-12-07).
CONV_INPUTS_ONLY = {"op_types_to_quantize": ["Conv"],
                    "extra_options": {"OpTypesToExcludeOutputQuantization": ["Conv"]}}


def quantize(float_path: str | Path, out: str | Path, batches: Iterable[np.ndarray],
             exclude: Sequence[str] = (), reduce_range: bool = True, conv_inputs_only: bool = False) -> Path:
    """Write the INT8 copy of the ONNX model ``float_path`` to ``out``, calibrated on
    ``batches`` (inputs of the model's first input), the nodes named in ``exclude`` kept
    float, and stamp it (:func:`stamp`).  Weights stored as float16 are read back first.
    ``reduce_range`` quantises the weights to 7 bits (see :mod:`cardref.vision.detector.int8`).
    ``conv_inputs_only`` quantises only what the convolutions read (:data:`CONV_INPUTS_ONLY`)."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from .onnx_weights import float_weights

    float_path, out = Path(float_path), Path(out)
    if not float_path.is_file():
        raise ModelFileError(float_path, "ONNX model not found")
    model = float_weights(float_path)
    input_name = model.graph.input[0].name
    blobs = iter(batches)

    class _Reader(CalibrationDataReader):
        def get_next(self) -> dict | None:
            blob = next(blobs, None)
            return None if blob is None else {input_name: blob}

    with tempfile.TemporaryDirectory(prefix="cardref-int8-") as tmp:
        plain, pre = Path(tmp) / "float.onnx", Path(tmp) / "pre.onnx"
        onnx.save(model, str(plain))
        # ONNX Runtime's symbolic shape inference gives up on a finder whose height and
        # width are free (``Incomplete symbolic shape inference``); ONNX's own runs anyway
        quant_pre_process(str(plain), str(pre), skip_symbolic_shape=_free_input_shape(model))
        out.parent.mkdir(parents=True, exist_ok=True)
        quantize_static(str(pre), str(out), _Reader(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        nodes_to_exclude=list(exclude), reduce_range=reduce_range,
                        **(CONV_INPUTS_ONLY if conv_inputs_only else {}))
    stamp(out, float_path)
    return out
