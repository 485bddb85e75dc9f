"""Float ONNX files stored with half-precision weights, run in full precision.

The finder's float export holds 2.6 million weights: 10.8 MB in float32, half of the
``models/`` size budget.  :func:`store_weights_half` rewrites such a file so that each large
float32 weight is stored as float16 and turned back into float32 by a ``Cast`` node in
front of the graph: both runtimes fold those casts when they load the model (ONNX Runtime's
constant folding; OpenVINO's weight decompression), so the network still computes in
float32 (or bf16), from weights rounded once to float16.  The shipped PyTorch weights are
float16 already (Ultralytics saves them so); the export only fuses batch norms into them.

:func:`float_weights` undoes it in memory, for tools that want plain float32 initializers
(ONNX Runtime's quantiser).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cardref.vision.detector.errors import ModelFileError

#: Suffix of a float16 initializer that a Cast node turns back into the float32 ``name``.
HALF_SUFFIX = "__fp16"
#: Weights smaller than this stay float32 (biases, scalars: nothing to gain, and shape inputs).
MIN_ELEMENTS = 256


def _load(path: Path):  # noqa: ANN202 - onnx.ModelProto (onnx is imported lazily)
    import onnx

    try:
        return onnx.load(str(path))
    except Exception as exc:  # noqa: BLE001 - onnx raises several types for a bad file
        raise ModelFileError(path, f"not a readable ONNX model ({exc.__class__.__name__})") from exc


def store_weights_half(path: str | Path, out: str | Path | None = None, min_elements: int = MIN_ELEMENTS) -> int:
    """Rewrite ``path`` (to ``out``, default in place) with its large float32 weights stored
    as float16; returns how many weights were converted (0: nothing to do, file untouched)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    path = Path(path)
    model = _load(path)
    graph = model.graph
    casts = []
    kept = []
    converted = 0
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT or int(np.prod(init.dims)) < min_elements:
            kept.append(init)
            continue
        half = numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float16), init.name + HALF_SUFFIX)
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT,
                                      name=init.name + "/cast"))
        converted += 1
    if not converted:
        return 0
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = [*casts, *graph.node]
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.save(model, str(Path(out) if out is not None else path))
    return converted


def float_weights(path: str | Path):  # noqa: ANN201 - onnx.ModelProto
    """The model at ``path`` with every weight stored by :func:`store_weights_half` back as a
    plain float32 initializer (its Cast node removed); other models unchanged."""
    from onnx import TensorProto, numpy_helper

    model = _load(Path(path))
    graph = model.graph
    halves = {i.name: i for i in graph.initializer if i.name.endswith(HALF_SUFFIX)}
    if not halves:
        return model
    restored = {}
    nodes = []
    for node in graph.node:
        if (node.op_type == "Cast" and len(node.input) == 1 and node.input[0] in halves
                and any(a.name == "to" and a.i == TensorProto.FLOAT for a in node.attribute)):
            arr = numpy_helper.to_array(halves[node.input[0]]).astype(np.float32)
            restored[node.input[0]] = numpy_helper.from_array(arr, node.output[0])
        else:
            nodes.append(node)
    inits = [restored.get(i.name, i) for i in graph.initializer]
    del graph.initializer[:]
    graph.initializer.extend(inits)
    del graph.node[:]
    graph.node.extend(nodes)
    return model


def has_half_weights(path: str | Path) -> bool:
    """Whether ``path`` stores weights as :func:`store_weights_half` writes them."""
    import onnx

    model = onnx.load(str(path), load_external_data=False)
    return any(i.name.endswith(HALF_SUFFIX) for i in model.graph.initializer)
