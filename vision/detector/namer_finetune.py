"""What the corner namer's deck adaptation (:mod:`.deck_adapt`) runs at enrolment, and the
namer's trainer (:mod:`cardref.datasets.namer_train`) shares with it: the namer's network,
the augmentations of its patches, and the ONNX export with the class list in the metadata.

Runtime code: the trainers in :mod:`cardref.datasets` import these from here, never the
reverse.  PyTorch and ONNX are imported lazily, by the functions that need them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .namer import CROP_SIZE, NAMER_CLASSES


def build_net():  # noqa: ANN201 - torch is imported lazily
    import torch.nn as nn

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(3, 24), *block(24, 24), nn.MaxPool2d(2),          # 16
        *block(24, 48), *block(48, 48), nn.MaxPool2d(2),         # 8
        *block(48, 96), *block(96, 96), nn.MaxPool2d(2),         # 4
        *block(96, 160), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Dropout(0.2), nn.Linear(160, len(NAMER_CLASSES)),
    )


def light_and_colour(x, gen, gain: float = 0.5, cast: float = 0.2, bias: float = 0.2, contrast: float = 0.6):  # noqa: ANN001, ANN201
    """Brightness, colour cast, offset and contrast drawn per patch (tensors ``(n, 3, s, s)`` in 0..1)."""
    import torch

    n = x.shape[0]
    g = 1 + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * gain
    c = 1 + (torch.rand(n, 3, 1, 1, generator=gen) - 0.5) * cast
    b = (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * bias
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    k = 1 + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * contrast
    return ((x - mean) * k + mean) * g * c + b


def quarter_turned(x, gen):  # noqa: ANN001, ANN201
    """Each patch at a quarter turn drawn for it (a card lies any way up; never a mirror image)."""
    import torch

    k = torch.randint(0, 4, (x.shape[0],), generator=gen)
    return torch.stack([torch.rot90(x[i], int(k[i]), dims=(1, 2)) for i in range(x.shape[0])])


def warped(x, gen, p: float = 0.5, turn: float = 0.9, shear: float = 0.6, scale: tuple[float, float] = (0.9, 1.15),  # noqa: ANN001, ANN201
           shift: float = 0.0):
    """A share ``p`` of the patches turned (up to ``turn``/2 radians either way), sheared,
    scaled and, with ``shift``, moved (up to ``shift``/2 of the patch either way): a card
    seen obliquely, a box that fits its index loosely."""
    import torch

    n = x.shape[0]
    warp = torch.rand(n, generator=gen) < p
    if warp.any():
        m = int(warp.sum())
        ang = (torch.rand(m, generator=gen) - 0.5) * turn
        sh = (torch.rand(m, generator=gen) - 0.5) * shear
        sc = scale[0] + torch.rand(m, generator=gen) * (scale[1] - scale[0])
        tx = ty = torch.zeros(m)
        if shift:
            tx = (torch.rand(m, generator=gen) - 0.5) * shift
            ty = (torch.rand(m, generator=gen) - 0.5) * shift
        cos, sin = torch.cos(ang) / sc, torch.sin(ang) / sc
        theta = torch.stack([torch.stack([cos, -sin + sh * cos, tx], 1),
                             torch.stack([sin, cos + sh * sin, ty], 1)], 1)
        grid = torch.nn.functional.affine_grid(theta, list(x[warp].shape), align_corners=False)
        x[warp] = torch.nn.functional.grid_sample(x[warp], grid, padding_mode="border", align_corners=False)
    return x


def softened(x, gen, most: float = 0.8):  # noqa: ANN001, ANN201
    """Each patch mixed with its 3x3 box blur, at a weight drawn up to ``most`` (focus and
    motion vary from frame to frame)."""
    import torch

    box = torch.nn.functional.avg_pool2d(torch.nn.functional.pad(x, (1, 1, 1, 1), mode="replicate"), 3, 1)
    w = torch.rand(x.shape[0], 1, 1, 1, generator=gen) * most
    return x * (1 - w) + box * w


def noisy(x, gen, sigma: float = 0.03):  # noqa: ANN001, ANN201
    """Sensor noise of a per-patch strength up to ``sigma``, clipped to 0..1."""
    import torch

    n = x.shape[0]
    return (x + torch.randn(x.shape, generator=gen) * (torch.rand(n, 1, 1, 1, generator=gen) * sigma)).clamp(0, 1)


def export_classifier(net: Any, path: Path, size: int, classes: Sequence[str], names: Sequence[str] = ("logits",)) -> Path:
    """Export ``net`` (input ``patches`` of ``size`` x ``size``, outputs ``names``, all with a
    free batch axis) to ONNX with ``classes`` in its metadata."""
    import onnx
    import torch

    net.eval()
    dummy = torch.zeros(1, 3, size, size)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.onnx")
    axes = {n: {0: "n"} for n in ("patches", *names)}
    torch.onnx.export(net, dummy, str(tmp), input_names=["patches"], output_names=list(names),
                      dynamic_axes=axes, opset_version=17, dynamo=False)
    model = onnx.load(str(tmp))
    entry = model.metadata_props.add()
    entry.key, entry.value = "classes", json.dumps(list(classes))
    onnx.save(model, str(path))
    tmp.unlink()
    return path


def with_features(net):  # noqa: ANN001, ANN201 - torch modules
    """The :func:`build_net` network answering ``(logits, features)``: the features are the
    pooled description the last layer reads (the deck enrolment compares them,
    :mod:`cardref.vision.detector.deck`)."""
    import torch.nn as nn

    class WithFeatures(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body, self.head = net[:-2], net[-1]  # the dropout between them is off at inference

        def forward(self, x):  # noqa: ANN001, ANN202
            f = self.body(x)
            return self.head(f), f

    return WithFeatures()


def export_onnx(net, path: Path) -> Path:  # noqa: ANN001
    """Export ``net`` with its class list in the metadata; a :func:`build_net` network also
    gets its ``features`` output."""
    import torch

    names: tuple[str, ...] = ("logits",)
    if isinstance(net, torch.nn.Sequential) and isinstance(net[-1], torch.nn.Linear):
        net = with_features(net)
        names = ("logits", "features")
    return export_classifier(net, path, CROP_SIZE, NAMER_CLASSES, names)
