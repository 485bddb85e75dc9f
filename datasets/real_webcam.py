"""The real tuning photos at a webcam's index heights, for the corner finder's training.

The real photos are phone close-ups: their indices are 30-100 px tall, and a finder trained
on them at 320 px still sees them at 15-50 px.  A webcam 50-150 cm above a table shows
indices 10-30 px tall, and there the shipped finder missed 29 % of the held-out real
indices (15 px) where it missed 15 % of them at the photos' own size (``cardref
eval-detector --detect-path --diagnose --webcam-px 15``).  Each composite made here is a
``size`` x ``size`` table texture (:func:`.backgrounds.random_background`) holding one to
four tuning photos, each shrunk so that its median index is 9-30 px tall, JPEG-compressed
as a video stream is (:func:`.webcam_view.webcam_view`), turned a random quarter and cut to
its cell; labels go with them in YOLO form.  Ultralytics enlarges a small image to the
training size, so the photos are pasted into a full-size canvas rather than written small.

Only the tuning split (:func:`.evaluate.real_cards_split`) is used: the held-out photos stay
for the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from cardref.vision.classes import CLASS_NAMES
from cardref.vision.types import CornerDetection

from .backgrounds import random_background
from .evaluate import labelled_photos, mapped_real_cards, real_cards_split
from .webcam_view import webcam_view

#: Index heights (px) a composite's photos are shrunk to: a 720p-1080p webcam 50-150 cm up.
INDEX_PX = (9.0, 30.0)
#: JPEG qualities drawn from: a webcam stream's compression.
JPEG_QUALITY = (55, 95)
#: A labelled index is kept when at least this share of its box is left inside its cell.
KEEP_SHARE = 0.6


def _turned(image: np.ndarray, corners: list[CornerDetection], k: int) -> tuple[np.ndarray, list[CornerDetection]]:
    """``image`` turned ``k`` quarter turns counter-clockwise (``np.rot90``), its boxes with it."""
    boxes = [c.box for c in corners]
    h, w = image.shape[:2]
    for _ in range(k % 4):   # one turn: (x, y) -> (y, w - x); width and height swap
        boxes = [(y1, w - x2, y2, w - x1) for x1, y1, x2, y2 in boxes]
        w, h = h, w
    turned = [CornerDetection(c.card, c.conf, b) for c, b in zip(corners, boxes, strict=True)]
    return np.ascontiguousarray(np.rot90(image, k % 4)), turned


def _cut(image: np.ndarray, corners: Sequence[CornerDetection], cw: int, ch: int,
         rng: np.random.Generator) -> tuple[np.ndarray, list[CornerDetection]]:
    """A random ``cw`` x ``ch`` (at most) window of ``image`` and the labels mostly inside it."""
    h, w = image.shape[:2]
    x0 = int(rng.integers(0, max(1, w - cw + 1)))
    y0 = int(rng.integers(0, max(1, h - ch + 1)))
    part = image[y0:y0 + ch, x0:x0 + cw]
    ph, pw = part.shape[:2]
    kept = []
    for c in corners:
        x1, y1, x2, y2 = c.box
        area = max(1e-6, (x2 - x1) * (y2 - y1))
        cx1, cy1, cx2, cy2 = max(x1 - x0, 0), max(y1 - y0, 0), min(x2 - x0, pw), min(y2 - y0, ph)
        if cx2 > cx1 and cy2 > cy1 and (cx2 - cx1) * (cy2 - cy1) / area >= KEEP_SHARE:
            kept.append(CornerDetection(c.card, c.conf, (cx1, cy1, cx2, cy2)))
    return part, kept


def composite(photos: Sequence[tuple[np.ndarray, list[CornerDetection]]], rng: np.random.Generator,
              size: int = 320) -> tuple[np.ndarray, list[CornerDetection]]:
    """One ``size`` x ``size`` BGR training image of the labelled ``photos`` (1 to 4 of them,
    one per cell of a 1x1, 2x1 or 2x2 grid) at webcam index heights, and its labels."""
    canvas = cv2.cvtColor(random_background(rng, size, size), cv2.COLOR_RGB2BGR)
    grid = [(1, 1), (2, 1), (2, 2)][min(len(photos), 4) // 2] if len(photos) > 1 else (1, 1)
    cols, rows = grid
    cw, ch = size // cols, size // rows
    labels: list[CornerDetection] = []
    for i, (image, corners) in enumerate(photos[:cols * rows]):
        view = webcam_view(image, corners, float(rng.uniform(*INDEX_PX)),
                           int(rng.integers(JPEG_QUALITY[0], JPEG_QUALITY[1] + 1)))
        if view is None:
            continue
        small, scaled = _turned(*view, int(rng.integers(0, 4)))
        part, kept = _cut(small, scaled, cw, ch, rng)
        ph, pw = part.shape[:2]
        ox = (i % cols) * cw + int(rng.integers(0, cw - pw + 1))
        oy = (i // cols) * ch + int(rng.integers(0, ch - ph + 1))
        canvas[oy:oy + ph, ox:ox + pw] = part
        labels += [CornerDetection(c.card, c.conf, (c.box[0] + ox, c.box[1] + oy, c.box[2] + ox, c.box[3] + oy))
                   for c in kept]
    return canvas, labels


def yolo_lines(labels: Sequence[CornerDetection], size: int) -> str:
    """``labels`` as YOLO label lines (class id, centre and size as shares of ``size``)."""
    out = []
    for c in labels:
        x1, y1, x2, y2 = c.box
        out.append(f"{CLASS_NAMES.index(c.card)} {(x1 + x2) / 2 / size:.6f} {(y1 + y2) / 2 / size:.6f} "
                   f"{(x2 - x1) / size:.6f} {(y2 - y1) / size:.6f}")
    return "".join(line + "\n" for line in out)


def write_composites(photos: Sequence[Path], labels_dir: Path, out: Path, n: int, seed: int = 0,
                     size: int = 320) -> Path:
    """``n`` composites of the labelled ``photos`` (their YOLO labels in ``labels_dir``, our
    class order) written to ``out/images/train`` and ``out/labels/train``; an existing set of
    the same ``n`` is kept.  Returns ``out``."""
    images_dir, label_out = out / "images" / "train", out / "labels" / "train"
    if images_dir.is_dir() and len(list(images_dir.glob("*.jpg"))) == n:
        return out
    if not photos:
        raise FileNotFoundError("no real tuning photos to shrink (is ../shared/data/real-cards there?)")
    images_dir.mkdir(parents=True, exist_ok=True)
    label_out.mkdir(parents=True, exist_ok=True)
    loaded = [(image, labels) for _, image, labels in labelled_photos(photos, labels_dir)]
    rng = np.random.default_rng(seed)
    for i in range(n):
        k = int(rng.integers(1, 5))
        chosen = [loaded[j] for j in rng.choice(len(loaded), size=min(k, len(loaded)), replace=False)]
        image, labels = composite(chosen, rng, size)
        cv2.imwrite(str(images_dir / f"rw{i:05d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        (label_out / f"rw{i:05d}.txt").write_text(yolo_lines(labels, size))
    return out


def training_composites(dst: Path, n: int, seed: int = 0) -> list[Path]:
    """``n`` composites of the real-cards tuning split, made once into
    ``dst/real-webcam-<n>-<seed>``: the images :func:`.evaluate.mixed_data_yaml` lists as extra."""
    root = mapped_real_cards().parent
    tune, _ = real_cards_split(root)
    out = write_composites(tune, root / "labels", dst / f"real-webcam-{n}-{seed}", n, seed)
    return sorted((out / "images" / "train").glob("*.jpg"))
