"""Motion gating: skip the detector while the table does not change.

A referee camera looks at a table that is still most of the time: cards move only when a
player plays.  :class:`MotionGate` compares each frame with the last one the detector saw,
on a small grey thumbnail, and says whether the detector needs to run again.  A change
anywhere (a card slid in, a hand over the table) counts, camera noise does not: the test is
on the share of thumbnail cells whose brightness changed by more than ``pixel_delta``.

The pipeline owns the decision; this class only measures.  It keeps its one piece of state
(the reference thumbnail) explicitly and can be reset.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class MotionGate:
    """``changed(frame)`` is True when the detector should run on ``frame``."""

    #: Thumbnail width (height follows the frame's aspect ratio).
    width: int = 160
    #: Grey-level change (0..255) for a thumbnail cell to count as changed.
    pixel_delta: float = 18.0
    #: Share of changed cells that means "the table changed" (0.002 of 160x90 = 29 cells,
    #: about one card index at webcam scale).
    changed_share: float = 0.002
    #: Run the detector at least every this many frames even on a still table (0: never forced).
    max_skip: int = 30
    _ref: np.ndarray | None = None
    _skipped: int = 0

    def _thumb(self, frame_bgr: np.ndarray) -> np.ndarray:
        h, w = frame_bgr.shape[:2]
        size = (self.width, max(1, round(h * self.width / w)))
        grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), (3, 3), 0)

    def changed(self, frame_bgr: np.ndarray) -> bool:
        thumb = self._thumb(frame_bgr)
        if self._ref is None or self._ref.shape != thumb.shape:
            self._ref, self._skipped = thumb, 0
            return True
        moved = np.count_nonzero(cv2.absdiff(thumb, self._ref) > self.pixel_delta) / thumb.size
        if moved >= self.changed_share or (self.max_skip and self._skipped >= self.max_skip):
            self._ref, self._skipped = thumb, 0
            return True
        self._skipped += 1
        return False

    def reset(self) -> None:
        self._ref, self._skipped = None, 0


class GatedDetector:
    """A detector that reuses its last cards while the :class:`MotionGate` sees no change.

    ``detect(frame)`` returns ``(cards, ran)``: ``ran`` tells whether the model looked at
    this frame or the cards are carried over from the last frame it looked at.
    """

    def __init__(self, detector, gate: MotionGate | None = None) -> None:  # noqa: ANN001 - any Detector
        self.detector = detector
        self.gate = gate or MotionGate()
        self._cards: list = []

    def detect(self, frame_bgr: np.ndarray) -> tuple[list, bool]:
        if self.gate.changed(frame_bgr):
            self._cards = self.detector.detect(frame_bgr)
            return self._cards, True
        return self._cards, False

    def reset(self) -> None:
        self.gate.reset()
        self._cards = []
