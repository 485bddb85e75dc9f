"""Train the suit reader (:mod:`cardref.vision.detector.body`) and ship it as ONNX.

Data: the synthetic scenes (``datasets/out/<name>``, written by ``cardref generate``),
whose labels say which corner indices belong to one physical card (``meta/<split>.jsonl``,
``card_id``).  Every card with two labelled indices or more gives face patches cut by
:func:`~cardref.vision.detector.body.body_patch` between its two farthest index centres,
exactly as at run time, once from the true centres and once from centres moved the way a
detector's boxes miss; its label is the card's suit (jokers are left out).  Cards half
hidden under others are kept: the reader must learn when a face says little.  Validation:
the scenes of the held-out designs (``val``).  The weights with the best held-out accuracy
are exported to ``models/suit-reader.onnx`` with the suit list in the metadata.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

from cardref.vision.classes import JOKER_CODES, suit_of
from cardref.vision.detector.body import BODY_SIZE, BODY_STEM, SUITS, body_patch, farthest_boxes
from cardref.vision.types import box_centre

from .namer_data import label_file_for, read_boxes
from .namer_train import CACHE_DIR, MODELS_DIR
from .namer_train import RUNS_DIR as NAMER_RUNS
from .patch_training import blurred, export_classifier, fit, greyed, light_and_colour, noisy, start_run

RUNS_DIR = NAMER_RUNS.parent / "suit-reader"
#: Largest move of a jittered index centre, in index sizes.
CENTRE_JITTER = 0.25


def build_net():  # noqa: ANN201 - torch is imported lazily
    import torch.nn as nn

    def block(cin: int, cout: int) -> list:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(3, 24), nn.MaxPool2d(2),                          # 20
        *block(24, 48), *block(48, 48), nn.MaxPool2d(2),         # 10
        *block(48, 96), nn.MaxPool2d(2),                         # 5
        *block(96, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Dropout(0.2), nn.Linear(128, len(SUITS)),
    )


def card_pairs(meta_row: dict, boxes: list[tuple[int, tuple[float, ...]]]) -> list[tuple[str, tuple, tuple, float]]:
    """``(code, box_a, box_b, visible)`` of every card of one image with two labelled indices or
    more: its two indices farthest apart."""
    by_card: dict[int, list[int]] = {}
    labels = meta_row["labels"]
    if len(labels) != len(boxes):
        raise ValueError(f"{meta_row['image']}: {len(labels)} labels in the meta, {len(boxes)} in the label file")
    for i, lab in enumerate(labels):
        by_card.setdefault(int(lab["card_id"]), []).append(i)
    out = []
    for idx in by_card.values():
        code = labels[idx[0]]["card"]
        if len(idx) < 2 or code in JOKER_CODES:
            continue
        a, b = farthest_boxes([boxes[i][1] for i in idx])
        vis = min(float(labels[i].get("visible", 1.0)) for i in idx)
        out.append((code, a, b, vis))
    return out


def _moved(b: tuple[float, ...], rng: np.random.Generator) -> tuple[float, float]:
    size = max(b[2] - b[0], b[3] - b[1])
    cx, cy = box_centre(b)
    return (cx + rng.uniform(-CENTRE_JITTER, CENTRE_JITTER) * size, cy + rng.uniform(-CENTRE_JITTER, CENTRE_JITTER) * size)


def _face_patches(img: np.ndarray, a: tuple, b: tuple, code: str, copies: int, rng: np.random.Generator,
                  xs: list[np.ndarray], ys: list[int], swap: bool) -> None:
    """A card's face patches (between index boxes ``a`` and ``b``) and suit ids, appended to
    ``xs``/``ys``: the first from the true centres, the others from centres moved the way a
    detector's boxes miss; with ``swap``, each copy takes the indices either way round."""
    for k in range(copies):
        pa, pb = (box_centre(a), box_centre(b)) if k == 0 else (_moved(a, rng), _moved(b, rng))
        if swap and rng.random() < 0.5:
            pa, pb = pb, pa
        patch = body_patch(img, pa, pb)
        if patch is not None:
            xs.append(patch)
            ys.append(SUITS.index(suit_of(code)))


def _stacked(xs: list[np.ndarray], ys: list[int]) -> tuple[np.ndarray, np.ndarray]:
    if not xs:
        return np.zeros((0, BODY_SIZE, BODY_SIZE, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(xs), np.asarray(ys, dtype=np.int64)


def patches_from_scenes(root: Path, split: str, seed: int = 0, copies: int = 2,
                        progress: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``(n, BODY_SIZE, BODY_SIZE, 3)`` uint8 face patches and ``(n,)`` suit ids from a scene folder."""
    rng = np.random.default_rng(seed)
    rows = [json.loads(line) for line in (root / "meta" / f"{split}.jsonl").read_text().splitlines() if line.strip()]
    xs: list[np.ndarray] = []
    ys: list[int] = []
    it = rows
    if progress:
        from tqdm import tqdm

        it = tqdm(rows, desc=f"faces {root.name}/{split}", unit="img")
    for row in it:
        img_path = root / "images" / split / row["image"]
        img = cv2.imread(str(img_path))
        if img is None:
            continue
        h, w = img.shape[:2]
        boxes = read_boxes(label_file_for(img_path), w, h)
        for code, a, b, _vis in card_pairs(row, boxes):
            _face_patches(img, a, b, code, copies, rng, xs, ys, swap=True)
    return _stacked(xs, ys)


def patches_from_photos(images: list[Path], seed: int = 0, copies: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Face patches and suit ids from labelled photos without card ids (the real-cards set):
    the labelled indices are merged into cards the way the product merges found ones
    (:func:`~cardref.vision.detector.merge.merge_corners`), and each card with two indices
    or more gives patches as in :func:`patches_from_scenes`."""
    from cardref.vision.detector.merge import merge_corners

    from .evaluate import read_yolo_labels

    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for img_path in images:
        img = cv2.imread(str(img_path))
        if img is None:
            continue
        h, w = img.shape[:2]
        for card in merge_corners(read_yolo_labels(label_file_for(img_path), w, h)):
            if len(card.corners) < 2 or card.card in JOKER_CODES:
                continue
            a, b = farthest_boxes([c.box for c in card.corners])
            _face_patches(img, a, b, card.card, copies, rng, xs, ys, swap=False)
    return _stacked(xs, ys)


def _cached(root: Path, split: str, seed: int, copies: int) -> tuple[np.ndarray, np.ndarray]:
    from cardref.vision.fingerprint import files_digest

    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    meta = root / "meta" / f"{split}.jsonl"
    f = CACHE_DIR / f"faces-{root.name}-{split}-{files_digest([meta])}-{seed}-{copies}-{BODY_SIZE}.npz"
    if f.exists():
        d = np.load(f)
        return d["x"], d["y"]
    x, y = patches_from_scenes(root, split, seed, copies)
    np.savez(f, x=x, y=y)
    return x, y


def augment(x, gen):  # noqa: ANN001, ANN201 - torch tensors (n, 3, s, s) in 0..1
    """Light, contrast, colour cast, a few grey patches, blur, half turns and noise (the scenes
    already vary all of these; colour stays meaningful: red suits against black)."""
    import torch

    x = blurred(greyed(light_and_colour(x, gen), gen, 0.1), gen, 0.25)
    half = torch.rand(x.shape[0], generator=gen) < 0.5
    x[half] = torch.rot90(x[half], 2, dims=(2, 3))
    return noisy(x, gen)


def accuracy(net, x: np.ndarray, y: np.ndarray, batch: int = 1024) -> dict:  # noqa: ANN001
    """Share of patches whose likeliest suit (over the patch and its half turn, as at run time) is right."""
    import torch

    from cardref.vision.detector.namer import patches_blob

    net.eval()
    probs = []
    with torch.inference_mode():
        for i in range(0, len(x), batch):
            b = torch.from_numpy(patches_blob(x[i:i + batch]))
            p = torch.softmax(net(b), 1) + torch.softmax(net(torch.rot90(b, 2, dims=(2, 3))), 1)
            probs.append(p.numpy() / 2)
    p = np.concatenate(probs) if probs else np.zeros((0, len(SUITS)))
    pred = p.argmax(1)
    sure = p.max(1) >= 0.9
    return {"n": int(len(y)), "accuracy": round(float((pred == y).mean()), 4) if len(y) else None,
            "sure_share": round(float(sure.mean()), 4) if len(y) else None,
            "accuracy_when_sure": round(float((pred[sure] == y[sure]).mean()), 4) if sure.any() else None}


def train_suit_reader(scenes: list[Path], budget_min: float, batch: int = 256, lr: float = 3e-3, threads: int = 2,
                      models_dir: Path = MODELS_DIR, seed: int = 0, name: str = "suits", resume: bool = False,
                      with_real: bool = True, real_repeat: int = 4, init: str | Path | None = None,
                      device: str = "cpu") -> dict:
    """Train within ``budget_min`` minutes on the ``train`` split of ``scenes`` (and, ``with_real``,
    the real-cards tuning photos ``real_repeat`` times), validate on the first folder's ``val``
    split (held-out designs) and the held-out real photos; export the weights best on the
    held-out designs and write the model card's ``suit_reader`` entry.  ``resume`` carries on
    the run ``name`` from its checkpoint (``runs/suit-reader/<name>/last.pt``, written after
    every epoch); ``init`` starts from other weights (e.g. the shipped ``models/suit-reader.pt``);
    ``device`` is where the steps run (``cpu``, or e.g. ``cuda``).  Returns the entry."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    t0 = time.time()
    parts = [_cached(s, "train", seed, 2) for s in scenes]
    sets = {"synthetic held-out designs": _cached(scenes[0], "val", seed + 1, 1)}
    real_info: dict = {}
    if with_real:
        from .evaluate import real_cards_split_if_present

        tune, held = real_cards_split_if_present()
        if held:
            sets["real photos held out"] = patches_from_photos(held, seed + 2, 1)
        if tune:
            rx, ry = patches_from_photos(tune, seed + 3, 3)
            parts += [(rx, ry)] * real_repeat
            real_info = {"real_tune_images": len(tune), "real_tune_patches": int(len(ry)), "real_repeat": real_repeat}
    x_train = np.concatenate([p[0] for p in parts])
    y_train = np.concatenate([p[1] for p in parts])
    print(f"suit reader: {len(y_train)} training patches; " +
          ", ".join(f"{k}: {len(v[1])}" for k, v in sets.items()), flush=True)
    net = build_net()
    ckpt = RUNS_DIR / name / "last.pt"
    run = start_run(net, lr, ckpt, "suit reader", resume=resume, init=init)
    fit(run, x_train, y_train, batch=batch, lr=lr, seed=seed, t0=t0, deadline=t0 + budget_min * 60, augment=augment,
        evaluate=lambda n: {k: accuracy(n, *v) for k, v in sets.items()},
        key=lambda scores: scores["synthetic held-out designs"]["accuracy"] or 0.0, ckpt=ckpt, device=device)
    out = export_onnx(net, models_dir / f"{BODY_STEM}.onnx")
    torch.save({"net": net.state_dict()}, models_dir / f"{BODY_STEM}.pt")
    card = {
        "model": "suit reader: 5-conv CNN on 40x40 card-face patches, trained from scratch (datasets/body_train.py)",
        "weights": f"models/{out.name}", "weights_bytes": out.stat().st_size, "suits": list(SUITS),
        "patch": BODY_SIZE, "train_patches": int(len(y_train)), "scenes": [s.name for s in scenes], **real_info,
        "epochs": run.epoch, "steps": run.step, "batch": batch, "train_time_s": round(run.spent, 1),
        "held_out": {k: accuracy(net, *v) for k, v in sets.items()}, "history": run.history[-8:],
    }
    card_path = models_dir / "model-card.json"
    full = json.loads(card_path.read_text()) if card_path.exists() else {}
    full["suit_reader"] = card
    card_path.write_text(json.dumps(full, indent=1, ensure_ascii=False) + "\n")
    return card


def export_onnx(net, path: Path) -> Path:  # noqa: ANN001
    """Export ``net`` with the suit list in its metadata."""
    return export_classifier(net, path, BODY_SIZE, SUITS)
