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
