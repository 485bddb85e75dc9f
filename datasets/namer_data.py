"""Patches for the corner namer, cut from YOLO-format scenes with :func:`crop_corner`.

Every labelled corner index gives ``copies`` patches: the exact box, then boxes shifted and
rescaled the way a detector's boxes miss (up to ``JITTER`` of the box size), so the namer
does not depend on a perfect box.  Patches of places with no index (``negatives`` per
image, sized like the image's indices, barely touching any label) teach the extra class
"not a corner", which lets the namer drop the detector's false boxes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

from cardref.vision.classes import CLASS_INDEX
from cardref.vision.detector.namer import CROP_SIZE, NAMER_CLASSES, NOT_A_CORNER, crop_corner

from .evaluate import read_yolo_labels

NONE_ID = NAMER_CLASSES.index(NOT_A_CORNER)
#: Largest shift (of the box's longer side) and scale change of a jittered copy.
JITTER = 0.15


def read_boxes(label_file: Path, w: int, h: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(class id, pixel box) of every line of a YOLO label file in our class order."""
    return [(CLASS_INDEX[c.card], c.box) for c in read_yolo_labels(label_file, w, h)]


def _overlap(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over the smaller box."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return iw * ih / max(small, 1e-9)


def jittered(box: Sequence[float], rng: np.random.Generator, amount: float = JITTER) -> tuple[float, ...]:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    side = max(w, h)
    cx = (x1 + x2) / 2 + rng.uniform(-amount, amount) * side
    cy = (y1 + y2) / 2 + rng.uniform(-amount, amount) * side
    k = rng.uniform(1 - amount, 1 + amount)
    return (cx - w * k / 2, cy - h * k / 2, cx + w * k / 2, cy + h * k / 2)


def image_patches(img: np.ndarray, boxes: list[tuple[int, tuple[float, ...]]], rng: np.random.Generator,
                  copies: int = 2, negatives: int = 2) -> tuple[list[np.ndarray], list[int]]:
    """Patches and class ids for one image (see the module docstring)."""
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for c, box in boxes:
        for k in range(copies):
            xs.append(crop_corner(img, box if k == 0 else jittered(box, rng)))
            ys.append(c)
    if boxes and negatives:
        h, w = img.shape[:2]
        sizes = [(b[2] - b[0], b[3] - b[1]) for _, b in boxes]
        made = 0
        for _ in range(negatives * 10):
            if made >= negatives:
                break
            bw, bh = sizes[int(rng.integers(len(sizes)))]
            x1, y1 = rng.uniform(0, max(1.0, w - bw)), rng.uniform(0, max(1.0, h - bh))
            cand = (x1, y1, x1 + bw, y1 + bh)
            if all(_overlap(cand, b) < 0.25 for _, b in boxes):
                xs.append(crop_corner(img, cand))
                ys.append(NONE_ID)
                made += 1
    return xs, ys


def label_file_for(image: Path) -> Path:
    """Ultralytics' rule: the last ``images`` folder of the path becomes ``labels``, suffix .txt."""
    parts = list(image.parts)
    i = len(parts) - 1 - parts[::-1].index("images")
    parts[i] = "labels"
    return Path(*parts).with_suffix(".txt")


def patches_from(images: Iterable[Path], seed: int = 0, copies: int = 2, negatives: int = 2,
                 progress: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``(n, CROP_SIZE, CROP_SIZE, 3)`` uint8 patches and ``(n,)`` class ids from labelled images."""
    rng = np.random.default_rng(seed)
    images = list(images)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    it = images
    if progress:
        from tqdm import tqdm

        it = tqdm(images, desc="patches", unit="img")
    for p in it:
        img = cv2.imread(str(p))
        if img is None:
            continue
        h, w = img.shape[:2]
        px, py = image_patches(img, read_boxes(label_file_for(p), w, h), rng, copies, negatives)
        xs += px
        ys += py
    if not xs:
        return np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(xs), np.asarray(ys, dtype=np.int64)
