"""Motion gating: camera noise is not a change, a card that moves is."""

from __future__ import annotations

import cv2
import numpy as np

from cardref.vision.detector.gating import GatedDetector, MotionGate


def _table(card_x: int) -> np.ndarray:
    frame = np.full((720, 1280, 3), (40, 120, 50), np.uint8)
    cv2.rectangle(frame, (card_x, 300), (card_x + 50, 370), (245, 245, 245), -1)
    return frame


def _noisy(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(frame + rng.normal(0, 3, frame.shape), 0, 255).astype(np.uint8)


def test_noise_is_not_a_change_but_a_moved_card_is() -> None:
    rng = np.random.default_rng(0)
    gate = MotionGate(max_skip=0)
    assert gate.changed(_noisy(_table(400), rng))  # first frame always runs
    assert not any(gate.changed(_noisy(_table(400), rng)) for _ in range(20))
    assert gate.changed(_noisy(_table(460), rng))
    assert not gate.changed(_noisy(_table(460), rng))


def test_still_table_is_rechecked_every_max_skip_frames() -> None:
    gate = MotionGate(max_skip=5)
    frame = _table(400)
    runs = [gate.changed(frame) for _ in range(12)]
    assert runs == [True, False, False, False, False, False, True, False, False, False, False, False]


def test_gated_detector_reuses_cards() -> None:
    class Counting:
        calls = 0

        def detect(self, frame):
            Counting.calls += 1
            return [Counting.calls]

    det = GatedDetector(Counting(), MotionGate(max_skip=0))
    assert det.detect(_table(400)) == ([1], True)
    assert det.detect(_table(400)) == ([1], False)
    assert det.detect(_table(600)) == ([2], True)
