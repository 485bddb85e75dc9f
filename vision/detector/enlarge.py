"""The enlarged look: the finder looks again at a frame whose indices are too small for it,
enlarged (rule ``enlarged-look`` of :mod:`.rules`).

A webcam far above a table shows card indices 10-20 px tall.  The finder was trained on
scenes whose indices are 12-28 px, but on real cards shrunk to a webcam's scale it misses
many of the smallest: on the 270 held-out real photos shrunk so that their median index is
15 px, 29 % of the indices were not found, against 15 % as the photos are.  The same finder
finds them on the frame enlarged twice (bicubic): the indices are then 24-40 px, where it
reads real cards best.  The corners of that look are put back into the frame's own pixels,
so the namer still reads the frame as the camera gave it (reading the enlarged frame named
more suits wrong).

The look is taken only when the indices already found are small (:func:`indices_small`):
a close-up photo's indices are large, and enlarging it would make them larger than any the
finder was trained on.  An enlarged frame larger than the finder's input is cut into
overlapping tiles of the input's size (:func:`tiles_for`), so that the finder sees it at
full size; each tile keeps the corners whose centre lies in its own part.  Boxes under
:data:`MIN_INDEX_PX` in the frame's pixels are dropped (noise found as specks).  Measured effects are in ``models/README.md`` ("Detector rules")
and ``docs/vision-detector.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np

from ..types import CornerDetection
from .merge import index_size
from .scale import CONFIDENT_INDEX, confident_index_sizes

#: The factor the frame is enlarged by.  Chosen on the real tuning photos shrunk to a
#: webcam's scale (card F1 through ``cardref detect``): at a 12 px index 1.5x 0.857, 2x
#: 0.873, 3x 0.885; at 15 px 0.930, 0.936, 0.930.  3x costs the finder over twice 2x's
#: work for a point at 12 px only.  A factor sized to bring each frame's median index to
#: 28 px did no better than 2x (within 0.6 point at 12, 15 and 20 px).
ENLARGE = 2.0
#: A frame whose confident indices have a median height (as the finder sees them) under this
#: many pixels, or that has no confident index at all, is looked at enlarged.  Close-up
#: photos, whose indices are 30-100 px, are never enlarged: on the real tuning photos as
#: they are, the rule takes no look at all.
SMALL_INDEX_PX = 24.0
#: Boxes of the enlarged look smaller than this, in the frame's pixels as the finder first saw
#: them (its own pixels, for a frame no larger than the finder's input), are dropped: no
#: index that small can be read, and an enlarged frame's noise and dust are found there as
#: specks 3-8 px tall (a webcam's indices are 10 px and more).
#: Chosen on the real tuning photos at a 12 px index: card F1 0.867 with 6 px, 0.873 with 8,
#: 0.872 with 10 (at 15 px the same, 0.936, for all three).
MIN_INDEX_PX = 8.0
#: Pixels of the enlarged frame each tile also sees beyond its own part (an index at a
#: tile's edge is seen whole by one of the two tiles: enlarged indices are under 80 px).
TILE_MARGIN = 64


def indices_small(corners: list[CornerDetection], seen_scale: float,
                  limit: float = SMALL_INDEX_PX, confident: float = CONFIDENT_INDEX) -> bool:
    """Whether ``corners`` (boxes in frame pixels; the finder sees the frame shrunk by
    ``seen_scale``) are too small for the finder: their confident indices' median height is
    under ``limit`` px as the finder sees them, or none is confident."""
    sizes = confident_index_sizes(corners, seen_scale, confident)
    return not sizes or float(np.median(sizes)) < limit


def _starts(length: int, window: int, margin: int) -> list[int]:
    """Window starts along one side: the fewest windows of ``window`` px, overlapping by at
    least ``2 * margin`` and spread evenly, that cover ``length`` px (one when it fits)."""
    if length <= window:
        return [0]
    step = window - 2 * margin
    n = math.ceil((length - window) / step) + 1
    last = length - window
    return [round(i * last / (n - 1)) for i in range(n)]


def _bounds(starts: list[int], window: int, length: int) -> list[tuple[float, float]]:
    """The part of each window whose corners it keeps: up to the middle of its overlap with
    each neighbour, and the frame's own edges whole (the parts cover the frame once)."""
    cuts = [(a + window + b) / 2 for a, b in zip(starts, starts[1:], strict=False)]
    return list(zip([0.0, *cuts], [*cuts, float(length)], strict=True))


def tiles_for(frame_hw: tuple[int, int], input_hw: tuple[int, int], margin: int = TILE_MARGIN,
              ) -> list[tuple[tuple[int, int, int, int], tuple[float, float, float, float]]]:
    """The tiles an enlarged frame of ``frame_hw`` is cut into for a finder whose input is
    ``input_hw`` (both height, width): for each, its crop ``(x1, y1, x2, y2)`` and the part
    of the frame whose corners it keeps (the parts cover the frame once; see :func:`_bounds`)."""
    h, w = frame_hw
    ih, iw = input_hw
    xs, ys = _starts(w, iw, margin), _starts(h, ih, margin)
    return [((x, y, min(w, x + iw), min(h, y + ih)), (kx1, ky1, kx2, ky2))
            for y, (ky1, ky2) in zip(ys, _bounds(ys, ih, h), strict=True)
            for x, (kx1, kx2) in zip(xs, _bounds(xs, iw, w), strict=True)]


def enlarged_corners(frame_bgr: np.ndarray, factor: float, input_hw: tuple[int, int] | None,
                     detect: Callable[[np.ndarray], list[CornerDetection]],
                     min_px: float = MIN_INDEX_PX) -> list[CornerDetection]:
    """The corners ``detect`` (a finder's ``detect_corners``) finds in ``frame_bgr`` resized
    ``factor`` times (bicubic; by pixel area for a factor under 1, the enlarged look of a frame
    larger than the finder's input), boxes in the frame's own pixels.  An enlarged frame larger
    than ``input_hw`` is looked at in tiles (:func:`tiles_for`); ``None``: in one piece.
    Boxes under ``min_px`` in the frame's pixels are left out (:data:`MIN_INDEX_PX`)."""
    big = cv2.resize(frame_bgr, None, fx=factor, fy=factor,
                     interpolation=cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA)
    if input_hw is None:
        tiles = [((0, 0, big.shape[1], big.shape[0]), (0.0, 0.0, float(big.shape[1]), float(big.shape[0])))]
    else:
        tiles = tiles_for(big.shape[:2], input_hw)
    found: list[CornerDetection] = []
    for (x1, y1, x2, y2), (kx1, ky1, kx2, ky2) in tiles:
        for c in detect(np.ascontiguousarray(big[y1:y2, x1:x2])):
            bx1, by1, bx2, by2 = c.box[0] + x1, c.box[1] + y1, c.box[2] + x1, c.box[3] + y1
            if kx1 <= (bx1 + bx2) / 2 < kx2 and ky1 <= (by1 + by2) / 2 < ky2:
                found.append(replace(c, box=(bx1 / factor, by1 / factor, bx2 / factor, by2 / factor)))
    return [c for c in found if index_size(c) >= min_px]
