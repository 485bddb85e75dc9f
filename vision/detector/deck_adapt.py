"""The corner namer adapted to one deck: a copy fine-tuned on the deck's enrolled indices.

The namer was trained on other designs than the table's deck, and some decks draw a suit in
a shape it confuses: it reads every club of aisleriot-plastic (small tight lobes) as a spade.
A deck profile (:mod:`.deck`) can only weigh the namer's features, which do not tell those
two apart.  The enrolment frame, though, shows every index of the deck named by its place
in the layout, so the namer can learn the deck: a copy of it is fine-tuned on those index
cuts (the 5 angles x 3 box sizes of each, :func:`.deck.profile_from_corners`), each drawn
again at a quarter turn with a small turn, shear, scale and shift, blur, light and noise,
for :data:`ADAPT_STEPS` steps.  Boxes of the same frame beside the indices, on the cards'
faces and the table (:func:`negative_patches`), are taught as "not a corner": a namer taught
the deck's indices alone calls pieces of its pictures cards (phantom jokers and court cards
in simulated deals).  The adapted copy travels inside the deck profile (its ONNX
export) and names the corners wherever the profile is used.

Measured on the index boxes of 24 simulated deals of the six held-out designs (each deal's
deck enrolled from a layout frame of it): see the model card ("Deck enrolment").  Needs
PyTorch and the namer's PyTorch weights (``models/corner-namer.pt``), both shipped; about a
minute on two CPU cores.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..types import Box
from .errors import ModelFileError
from .namer import CROP_SIZE, NAMER_CLASSES, NAMER_STEM, crop_corner, patches_blob

#: Optimiser steps of the adaptation (0: no adaptation, the profile alone).
ADAPT_STEPS = 200
#: Patches per step, and the Adam learning rate (every layer learns; batch norm statistics stay).
ADAPT_BATCH = 128
ADAPT_LR = 1e-3
#: "Not a corner" boxes cut beside each enrolled index (:func:`negative_patches`).
NEGATIVES_PER_INDEX = 5


def _overlap(a: Box, b: Box) -> float:
    """The share of box ``a`` that lies in box ``b``."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h) / max((a[2] - a[0]) * (a[3] - a[1]), 1e-9)


def negative_boxes(size: tuple[int, int], boxes: Sequence[Box], per_box: int = NEGATIVES_PER_INDEX,
                   seed: int = 0) -> list[Box]:
    """Boxes of a ``(width, height)`` frame that are no index: for each of ``boxes`` (the
    frame's index boxes), ``per_box`` boxes of its size one to four sizes away in a random
    direction (on its card's face, a neighbour's or the table), inside the frame, each lying
    at most a quarter in any index box."""
    rng = np.random.default_rng(seed)
    w, h = size
    out: list[Box] = []
    for box in boxes:
        bw, bh = box[2] - box[0], box[3] - box[1]
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        made = 0
        for _ in range(per_box * 10):
            if made >= per_box:
                break
            ang = rng.uniform(0, 2 * np.pi)
            reach = rng.uniform(1.0, 4.0) * max(bw, bh)
            x, y = cx + reach * np.cos(ang), cy + reach * np.sin(ang)
            cand = (x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2)
            if cand[0] >= 0 and cand[1] >= 0 and cand[2] <= w and cand[3] <= h \
                    and all(_overlap(cand, b) < 0.25 for b in boxes):
                out.append(cand)
                made += 1
    return out


def negative_patches(frame_bgr: np.ndarray, boxes: Sequence[Box], per_box: int = NEGATIVES_PER_INDEX,
                     seed: int = 0) -> np.ndarray:
    """The :func:`negative_boxes` of ``frame_bgr`` cut as the namer reads them: ``(n, 32, 32, 3)`` uint8 BGR."""
    cuts = [crop_corner(frame_bgr, b) for b in negative_boxes((frame_bgr.shape[1], frame_bgr.shape[0]), boxes,
                                                             per_box, seed)]
    return np.asarray(cuts, dtype=np.uint8) if cuts else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)


def base_weights() -> Path:
    """The shipped namer's PyTorch weights, which the adaptation starts from."""
    from . import models_dir

    return models_dir() / f"{NAMER_STEM}.pt"


def _load_base(path: Path):  # noqa: ANN202 - a torch module
    import torch

    from .namer_finetune import build_net

    if not path.is_file():
        raise ModelFileError(path, "the corner namer's PyTorch weights are missing (deck adaptation starts from them)",
                             "reinstall the shipped models, or enrol with --adapt-steps 0 (the profile alone)")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
        net = build_net()
        net.load_state_dict(state["net"] if "net" in state else state)
    except Exception as exc:  # noqa: BLE001 - torch raises many types for a bad file
        raise ModelFileError(path, f"unreadable corner namer weights ({exc.__class__.__name__}: {exc})") from exc
    return net


def _augmented(x, gen):  # noqa: ANN001, ANN202 - torch tensors (n, 3, s, s) in 0..1
    from .namer_finetune import light_and_colour, noisy, quarter_turned, softened, warped

    x = quarter_turned(x, gen)
    x = warped(x, gen, p=1.0, turn=0.5, shear=0.3, scale=(0.85, 1.15), shift=0.2)
    x = softened(x, gen, 0.8)
    # brighter or darker, never another colour: the deck's own inks tell its suits apart
    x = light_and_colour(x, gen, gain=0.5, cast=0.0, bias=0.2, contrast=0.0)
    return noisy(x, gen, 0.05)


def adapt_namer(patches: np.ndarray | Sequence[np.ndarray], codes: Sequence[str], steps: int = ADAPT_STEPS,
                seed: int = 0, base: Path | None = None,
                progress: Callable[[int, int], None] | None = None) -> bytes:
    """The namer fine-tuned on ``patches`` (uint8 BGR index cuts from
    :func:`~.namer.crop_corner`) named ``codes``, for ``steps`` steps: its ONNX export (with
    the features output and class list, as the shipped namer), as bytes.  ``progress(step,
    steps)`` is called every 20 steps."""
    import torch

    from .namer_finetune import export_onnx

    if len(patches) != len(codes) or not len(codes):
        raise ValueError(f"{len(patches)} patches for {len(codes)} codes")
    unknown = sorted(set(codes) - set(NAMER_CLASSES))
    if unknown:
        raise ValueError(f"unknown card codes {', '.join(unknown)}")
    net = _load_base(base or base_weights())
    x_all = torch.from_numpy(patches_blob(np.asarray(patches, dtype=np.uint8)))
    y_all = torch.tensor([NAMER_CLASSES.index(c) for c in codes])
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)  # the dropout's draws
    net.train()
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()  # the statistics of the scenes it was trained on, not of one small batch
    opt = torch.optim.Adam(net.parameters(), lr=ADAPT_LR)
    for step in range(steps):
        idx = torch.randint(0, len(x_all), (ADAPT_BATCH,), generator=gen)
        loss = torch.nn.functional.cross_entropy(net(_augmented(x_all[idx].clone(), gen)), y_all[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if progress is not None and ((step + 1) % 20 == 0 or step + 1 == steps):
            progress(step + 1, steps)
    net.eval()
    with tempfile.TemporaryDirectory() as tmp:
        path = export_onnx(net, Path(tmp) / "adapted-namer.onnx")
        return path.read_bytes()
