"""What the two patch classifiers' trainers share (the corner namer, :mod:`.namer_train`, and
the suit reader, :mod:`.body_train`): a run that resumes from its checkpoint or starts from
other weights, the epoch loop under a wall-clock budget, and the grey and blur augmentations.
The augmentations and the ONNX export the deck adaptation also runs live in the runtime's
:mod:`cardref.vision.detector.namer_finetune` and are imported from there.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cardref.vision.detector.namer import patches_blob
from cardref.vision.detector.namer_finetune import (  # noqa: F401 - the trainers' augmentations and export
    export_classifier,
    light_and_colour,
    noisy,
    quarter_turned,
    softened,
    warped,
)

#: Optimiser steps over which the learning rate warms up.
WARMUP_STEPS = 100


@dataclass
class Run:
    """A training run: the network, its optimiser, and what the epochs so far found."""

    net: Any
    opt: Any
    best: float = -1.0
    best_state: dict | None = None
    history: list[dict] = field(default_factory=list)
    step: int = 0
    epoch: int = 0
    spent: float = 0.0  # training seconds of the earlier sessions of this run


def start_run(net: Any, lr: float, ckpt: Path, what: str, resume: bool = False,
              init: str | Path | None = None) -> Run:
    """A run of ``net`` (AdamW at ``lr``): carried on from ``ckpt`` (``resume``), or starting
    from the weights at ``init``, or from scratch.  Raises ``FileNotFoundError`` naming ``what``."""
    import torch

    run = Run(net, torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4))
    if resume or init:
        src = ckpt if resume else Path(init)
        if not src.is_file():
            raise FileNotFoundError(f"no {what} checkpoint at {src}")
        state = torch.load(src, map_location="cpu", weights_only=False)
        net.load_state_dict(state["net"])
        if resume:
            run.opt.load_state_dict(state["opt"])
            run.best, run.best_state, run.history = state["best"], state["best_state"], state["history"]
            run.step, run.epoch = state["step"], state["epoch"]
            run.spent = state.get("train_s", run.history[-1]["s"] if run.history else 0.0)
    return run


def fit(run: Run, x: np.ndarray, y: np.ndarray, *, batch: int, lr: float, seed: int, t0: float, deadline: float,
        augment: Callable[[Any, Any], Any], evaluate: Callable[[Any], dict[str, dict]],
        key: Callable[[dict[str, dict]], float], ckpt: Path, device: str = "cpu") -> None:
    """Epochs over the patches ``x`` (uint8 BGR) and classes ``y`` until ``deadline``: the
    learning rate follows a cosine over the wall-clock budget (a shared machine's speed
    changes during a run) after a short warm-up; after every epoch the held-out sets are
    scored (``evaluate``), the weights best by ``key`` kept and the run checkpointed to
    ``ckpt``.  The network ends with the best weights, on the CPU.

    ``device`` (``cpu``, or a torch device such as ``cuda``) is where the steps run; the
    augmentations, the scoring and the checkpoints stay on the CPU."""
    import torch

    if not len(y):
        raise ValueError("no training patches")
    net, opt = run.net, run.opt
    on_device(run, device)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed + run.epoch)
    steps_per_epoch = -(-len(y) // batch)  # the last batch may be short (a tiny set still trains)
    first_step = run.step
    t_train = time.time()
    loss = torch.tensor(float("nan"))
    while time.time() < deadline:
        run.epoch += 1
        net.train()
        order = rng.permutation(len(y))
        for i in range(steps_per_epoch):
            now = time.time()
            if now > deadline:
                break
            idx = order[i * batch:(i + 1) * batch]
            xb = augment(torch.from_numpy(patches_blob(x[idx])), gen)
            frac = min(1.0, (now - t_train) / max(1.0, deadline - t_train))
            warm = min(1.0, (run.step - first_step + 1) / WARMUP_STEPS)
            for g in opt.param_groups:
                g["lr"] = lr * warm * (0.02 + 0.98 * 0.5 * (1 + np.cos(np.pi * frac)))
            opt.zero_grad()
            loss = loss_fn(net(xb.to(device)), torch.from_numpy(y[idx]).to(device))
            loss.backward()
            opt.step()
            run.step += 1
        scores = evaluate(net.to("cpu"))
        net.to(device)
        run.history.append({"epoch": run.epoch, "steps": run.step, "loss": round(float(loss.detach()), 4),
                            "s": round(time.time() - t0), **scores})
        print(json.dumps(run.history[-1]), flush=True)
        if key(scores) > run.best:
            run.best = key(scores)
            run.best_state = {k: v.detach().to("cpu", copy=True) for k, v in net.state_dict().items()}
        ckpt.parent.mkdir(parents=True, exist_ok=True)
        net_state = {k: v.detach().to("cpu") for k, v in net.state_dict().items()}
        torch.save({"net": net_state, "opt": opt.state_dict(), "best": run.best, "best_state": run.best_state,
                    "history": run.history, "step": run.step, "epoch": run.epoch,
                    "train_s": run.spent + time.time() - t_train}, ckpt.with_suffix(".tmp"))
        ckpt.with_suffix(".tmp").replace(ckpt)
    run.spent += time.time() - t_train
    on_device(run, "cpu")
    if run.best_state is not None:
        net.load_state_dict(run.best_state)


def device_problem(device: str) -> str | None:
    """Why ``device`` cannot run the training steps here, or None: not a torch device name,
    or a CUDA device on a machine without one."""
    import torch

    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError) as exc:
        return f"--device {device!r} is not a torch device ({exc})"
    if dev.type == "cuda" and not torch.cuda.is_available():
        return f"--device {device}: this machine has no CUDA device (use cpu)"
    if dev.type not in ("cpu", "cuda"):
        return f"--device {device}: only cpu and cuda are supported"
    return None


def on_device(run: Run, device: str) -> None:
    """Move the run's network and its optimiser's moments to ``device`` (the step counts stay
    on the CPU, as AdamW wants them)."""
    import torch

    run.net.to(device)
    for state in run.opt.state.values():
        for name, value in state.items():
            if name != "step" and torch.is_tensor(value):
                state[name] = value.to(device)


def greyed(x, gen, p: float):  # noqa: ANN001, ANN201
    """A share ``p`` of the patches in grey (black-and-white photos: suits by shape alone)."""
    import torch

    grey = torch.rand(x.shape[0], generator=gen) < p
    if grey.any():
        x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    return x


def blurred(x, gen, p: float):  # noqa: ANN001, ANN201
    """A share ``p`` of the patches through a 3x3 binomial blur."""
    import torch

    blur = torch.rand(x.shape[0], generator=gen) < p
    if blur.any():
        kern = torch.tensor([1.0, 2.0, 1.0])
        kern = (kern[:, None] * kern[None, :] / 16).expand(3, 1, 3, 3)
        x[blur] = torch.nn.functional.conv2d(torch.nn.functional.pad(x[blur], (1, 1, 1, 1), mode="replicate"),
                                             kern, groups=3)
    return x


def pixelated(x, gen, p: float, sides: tuple[int, int] = (11, 28)):  # noqa: ANN001, ANN201
    """A share ``p`` of the patches seen at a webcam's resolution: each shrunk (area average)
    to a side drawn from ``sides`` and enlarged back (bilinear), as the namer's crop enlarges
    an index 8-22 px tall (the patch is 1.3 index heights,
    :data:`cardref.vision.detector.namer_core.CONTEXT`).  The real photos
    are phone close-ups whose indices are 30-80 px tall: without this the namer never sees a
    real card's index at the size a webcam above a table shows it."""
    import torch
    import torch.nn.functional as F

    n, _, size, _ = x.shape
    chosen = torch.nonzero(torch.rand(n, generator=gen) < p).flatten()
    if not len(chosen):
        return x
    lo, hi = sides
    side_of = torch.randint(lo, hi + 1, (len(chosen),), generator=gen)
    for side in side_of.unique().tolist():
        idx = chosen[side_of == side]
        small = F.interpolate(x[idx], size=(side, side), mode="area")
        x[idx] = F.interpolate(small, size=(size, size), mode="bilinear", align_corners=False).clamp(0, 1)
    return x


def pixelated_fixed(patches: np.ndarray, side: int) -> np.ndarray:
    """``patches`` (uint8 BGR, n x s x s x 3) all seen at one webcam resolution (as
    :func:`pixelated`, deterministic): the held-out real photos' indices at a webcam's size."""
    import cv2

    if not len(patches):
        return patches
    size = patches.shape[1]
    out = np.empty_like(patches)
    for i, patch in enumerate(patches):
        small = cv2.resize(patch, (side, side), interpolation=cv2.INTER_AREA)
        out[i] = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    return out


def keystoned(x, gen, p: float, strength: float = 0.35):  # noqa: ANN001, ANN201
    """A share ``p`` of the patches seen in perspective: each corner of the patch moved by up
    to ``strength``/2 of its side, the patch resampled through that homography (a phone
    tilted 40-60 degrees over a card: the far side of the index shrinks, which the affine
    :func:`~cardref.vision.detector.namer_finetune.warped` cannot show)."""
    import cv2
    import torch

    n, _, size, _ = x.shape
    chosen = torch.nonzero(torch.rand(n, generator=gen) < p).flatten().tolist()
    if not chosen:
        return x
    moves = ((torch.rand(len(chosen), 4, 2, generator=gen) - 0.5) * strength * size).numpy()
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    arr = x[chosen].permute(0, 2, 3, 1).numpy()
    out = np.empty_like(arr)
    for k in range(len(chosen)):
        h = cv2.getPerspectiveTransform(src, (src + moves[k]).astype(np.float32))
        out[k] = cv2.warpPerspective(arr[k], h, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    x[chosen] = torch.from_numpy(out).permute(0, 3, 1, 2)
    return x


def glared(x, gen, p: float, most: float = 0.7):  # noqa: ANN001, ANN201
    """A share ``p`` of the patches under a glossy card's glare: a soft band of light (a
    window or a lamp in the varnish) of a random direction, place and width, lifting the
    patch towards white by up to ``most`` where it is brightest."""
    import torch

    n, _, size, _ = x.shape
    chosen = torch.rand(n, generator=gen) < p
    m = int(chosen.sum())
    if not m:
        return x
    ang = torch.rand(m, generator=gen) * np.pi
    pos = (torch.rand(m, generator=gen) - 0.5) * 1.4
    width = 0.15 + torch.rand(m, generator=gen) * 0.5
    strength = torch.rand(m, generator=gen) * most
    t = torch.linspace(-1, 1, size)
    yy, xx = torch.meshgrid(t, t, indexing="ij")
    d = xx[None] * torch.cos(ang)[:, None, None] + yy[None] * torch.sin(ang)[:, None, None] - pos[:, None, None]
    light = (strength[:, None, None] * torch.exp(-(d / width[:, None, None]) ** 2))[:, None]
    x[chosen] = x[chosen] + (1 - x[chosen]) * light
    return x


def speckled(x, gen, p: float, most: float = 0.01):  # noqa: ANN001, ANN201
    """A share ``p`` of the patches with salt-and-pepper dots on up to ``most`` of their pixels
    (the shared real photos carry such dots, 0.1 % of the pixels at the median)."""
    import torch

    n, _, size, _ = x.shape
    chosen = torch.nonzero(torch.rand(n, generator=gen) < p).flatten()
    if not len(chosen):
        return x
    share = torch.rand(len(chosen), 1, 1, generator=gen) * most
    hit = torch.rand(len(chosen), size, size, generator=gen) < share
    salt = (torch.rand(len(chosen), size, size, generator=gen) < 0.5).float()
    sub = x[chosen]
    sub = torch.where(hit[:, None], salt[:, None].expand(-1, 3, -1, -1), sub)
    x[chosen] = sub
    return x
