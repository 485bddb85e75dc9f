"""A real photo as a webcam far above the table would show its cards (issue #33, item 2).

The real photos are phone close-ups with indices 30-100 px tall; a 720p-1080p webcam 50-150 cm
above a table shows them 10-30 px tall.  Shrinking a labelled photo (area average) and
compressing it as a video stream is compressed gives real cards at a webcam's scale, for the
figures (``cardref eval-detector --webcam-px``, ``cardref bench detect --scale-bands``), the
confidence calibration (``cardref calibrate-conf``) and the finder's training composites
(:mod:`.real_webcam`).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence

import cv2
import numpy as np

from cardref.vision.detector.merge import index_size
from cardref.vision.types import CornerDetection

#: JPEG quality of a shrunk photo: a webcam's compressed video stream, not a phone's file.
WEBCAM_JPEG = 80


def webcam_view(image: np.ndarray, corners: Sequence[CornerDetection], index_px: float,
                quality: int = WEBCAM_JPEG) -> tuple[np.ndarray, list[CornerDetection]] | None:
    """A real photo as a webcam far above the table would show its cards: shrunk (area
    average) so that its median labelled index is ``index_px`` tall, then JPEG-compressed at
    ``quality`` as a video stream is; its labelled indices scaled with it.  None for a photo
    with no labelled index or whose indices are already smaller (never enlarged)."""
    if not corners:
        return None
    px = float(statistics.median(index_size(c) for c in corners))
    if px < index_px:
        return None
    s = index_px / px
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    scaled = [CornerDetection(c.card, c.conf, tuple(v * s for v in c.box)) for c in corners]
    return (cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else small), scaled


#: Frame size and grey level of :func:`table_frames`: a 720p webcam's frame.
FRAME_SIZE = (1280, 720)
FRAME_FILL = 90


def table_frames(views: Sequence[tuple[np.ndarray, Counter, float]], size: tuple[int, int] = FRAME_SIZE,
                 fill: int = FRAME_FILL) -> list[tuple[np.ndarray, Counter, float]]:
    """Webcam views of photos (BGR image, its cards, its index height) laid out side by
    side, row after row, on ``size`` (width, height) frames of grey ``fill``: real cards as a
    whole webcam frame shows many of them, which the finder reads with the frame's context
    (and, enlarged, in tiles) rather than alone on a padded canvas.  Each frame holds the
    cards of the views on it; a view larger than the frame is left out."""
    w, h = size
    frames: list[tuple[np.ndarray, Counter, float]] = []
    frame, cards, pxs = None, Counter(), []
    x = y = row = 0
    for image, its_cards, px in views:
        ih, iw = image.shape[:2]
        if iw > w or ih > h:
            continue
        if x + iw > w:
            x, y, row = 0, y + row, 0
        if frame is None or y + ih > h:
            if frame is not None:
                frames.append((frame, cards, float(statistics.median(pxs))))
            frame, cards, pxs = np.full((h, w, 3), fill, np.uint8), Counter(), []
            x = y = row = 0
        frame[y:y + ih, x:x + iw] = image
        cards.update(its_cards)
        pxs.append(px)
        x, row = x + iw, max(row, ih)
    if frame is not None:
        frames.append((frame, cards, float(statistics.median(pxs))))
    return frames
