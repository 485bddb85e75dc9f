"""Card F1 per scale band (issue #33, item 2): how the detector reads cards whose indices are
10 to 80 px tall, as a 720p-1080p webcam 50-150 cm above the table or a phone close-up
shows them.

Each band is measured on its own rendered 1280x720 table scenes (:func:`band_scenes`), the
cards of a scene drawn at one size so that their indices fall in the band.  The index height
of a scene is the median of its labelled index boxes' longer sides (the merge's unit,
:func:`cardref.vision.detector.merge.index_size`), measured, not assumed: card designs place
and size their indices differently.  A scene whose median falls outside the band it was
drawn for is left out of that band and counted (``off_band``).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from cardref.vision.detector.merge import index_size
from cardref.vision.types import CornerDetection

from .evaluate import multiset_f1
from .scenes import Scene, SceneConfig, render_scene
from .webcam_view import WEBCAM_JPEG, webcam_view

#: Index heights in px, low (inclusive) to high (exclusive): a 720p webcam far up (10-20)
#: to a phone close-up (60-80).
BANDS: tuple[tuple[int, int], ...] = ((10, 20), (20, 30), (30, 45), (45, 60), (60, 80))
#: The bands a webcam 50-150 cm above the table gives (720p-1080p): real photos are shrunk
#: into these (:func:`shrunk_photo_views`).
WEBCAM_BANDS: tuple[tuple[int, int], ...] = BANDS[:3]
#: Index height / card height of a typical design (measured on the held-out designs: the
#: first guess of the card size to draw; the band is then checked on the labels).
INDEX_SHARE = 0.19
#: Scenes are tried at most this many times the number asked for, per band.
MAX_TRIES = 3


@dataclass
class BandResult:
    band: tuple[int, int]
    scenes: int
    off_band: int
    cards: int
    index_px: float        # median index height over the band's scenes
    precision: float
    recall: float
    f1: float


def scene_index_px(scene: Scene) -> float:
    """The median index height of a scene (0 when nothing is labelled)."""
    sizes = [index_size(CornerDetection(lb.card, 1.0, (float(lb.box[0]), float(lb.box[1]), float(lb.box[2]),
                                                      float(lb.box[3])))) for lb in scene.labels]
    return float(statistics.median(sizes)) if sizes else 0.0


def band_scenes(band: tuple[int, int], n: int, designs: list[str], seed: int = 0,
                size: tuple[int, int] = (1280, 720)) -> tuple[list[Scene], int]:
    """Up to ``n`` scenes whose median index height falls in ``band``, and how many rendered
    scenes fell outside it.  Deterministic in ``seed``."""
    lo, hi = band
    cfg = SceneConfig(width=size[0], height=size[1], card_px=(lo / INDEX_SHARE, hi / INDEX_SHARE),
                      large_share=0.0)
    kept: list[Scene] = []
    off = 0
    for k in range(n * MAX_TRIES):
        if len(kept) == n:
            break
        scene = render_scene(seed * 1_000 + lo * 10_007 + k, designs, cfg)
        px = scene_index_px(scene)
        if lo <= px < hi:
            kept.append(scene)
        else:
            off += 1
    return kept, off


def scene_views(scenes: Sequence[Scene]) -> list[tuple[np.ndarray, Counter, float]]:
    """Each scene as :func:`views_result` reads it: (BGR frame, its cards, its index height)."""
    return [(cv2.cvtColor(s.image, cv2.COLOR_RGB2BGR), Counter(s.cards), scene_index_px(s)) for s in scenes]


def band_result(band: tuple[int, int], scenes: Sequence[Scene], off_band: int,
                read: Callable[[np.ndarray], list[str]]) -> BandResult:
    """Card F1 of ``read`` (a BGR frame -> the card codes it reports) over ``scenes``."""
    return views_result(band, scene_views(scenes), off_band, read)


def views_result(band: tuple[int, int], views: Sequence[tuple[np.ndarray, Counter, float]], off_band: int,
                 read: Callable[[np.ndarray], list[str]]) -> BandResult:
    """Card F1 of ``read`` over ``views``: (BGR frame, the cards in it, its index height)."""
    scores = multiset_f1([Counter(read(frame)) for frame, _, _ in views], [want for _, want, _ in views])
    px = statistics.median(v[2] for v in views) if views else math.nan
    return BandResult(band, len(views), off_band, scores["cards_true"], float(px), scores["precision"],
                      scores["recall"], scores["f1"])


def photo_bands(photos: Sequence[tuple[np.ndarray, Counter, list[CornerDetection]]],
                bands: Sequence[tuple[int, int]] = BANDS) -> dict[tuple[int, int], list[tuple[np.ndarray, Counter, float]]]:
    """Labelled photos (BGR image, its cards, its labelled indices) sorted into ``bands`` by
    their median index height; photos outside every band are left out."""
    out: dict[tuple[int, int], list[tuple[np.ndarray, Counter, float]]] = {b: [] for b in bands}
    for image, cards, corners in photos:
        if not corners:
            continue
        px = float(statistics.median(index_size(c) for c in corners))
        for lo, hi in bands:
            if lo <= px < hi:
                out[(lo, hi)].append((image, cards, px))
    return out


def shrunk_photo_views(photos: Sequence[tuple[np.ndarray, Counter, list[CornerDetection]]], band: tuple[int, int],
                       quality: int = WEBCAM_JPEG) -> tuple[list[tuple[np.ndarray, Counter, float]], int]:
    """The labelled photos as :func:`webcam_view` shows them with their median index in the
    middle of ``band``, and how many were left out (already smaller, or unlabelled)."""
    target = (band[0] + band[1]) / 2
    views: list[tuple[np.ndarray, Counter, float]] = []
    left_out = 0
    for image, cards, corners in photos:
        view = webcam_view(image, corners, target, quality)
        if view is None:
            left_out += 1
            continue
        views.append((view[0], cards, target))
    return views, left_out
