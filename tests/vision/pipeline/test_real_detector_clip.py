"""A short simulated clip through the real detector and the whole watch pipeline.

With the shipped model (models/cards-yolo11n.*) the clip's one play must come out right;
until it exists the tiny fixture model (tests/fixtures/detector) stands in, which cannot
read these cards, so then the chain is checked for shape (every frame processed,
calibrated from the markers, detections inside the frame, mapped onto the table).
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from cardref.vision.capture import VideoFileSource
from cardref.vision.classes import CLASS_NAMES
from cardref.vision.detector import load_detector
from cardref.vision.simulate import simulate_to_dir
from cardref.vision.watch import Pipeline
from cardref.vision.zones import to_table

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "models" / "cards-yolo11n.onnx"
FIXTURE = ROOT / "tests" / "fixtures" / "detector" / "tiny.onnx"


def _detector():
    if SHIPPED.exists():
        return load_detector("onnx", SHIPPED), True
    if not FIXTURE.exists():
        pytest.fail(f"neither {SHIPPED} nor the fixture {FIXTURE} exists")
    return load_detector("onnx", FIXTURE), False


def test_simulated_clip_through_the_real_detector(tmp_path):
    detector, shipped = _detector()
    sim = simulate_to_dir("guafeng-zibo", 11, tmp_path / "clip", max_plays=1)
    truth = sim.timeline.plays[0]
    source = VideoFileSource(str(tmp_path / "clip" / "video.mp4"))
    pipe = Pipeline(detector, 4)
    plays = []
    frames = 0
    for frame in source.frames():
        r = pipe.process(frame)
        frames += 1
        plays.extend(r.plays)
        w, h = frame.image.shape[1], frame.image.shape[0]
        for d in r.detections:
            assert d.card in CLASS_NAMES and 0 <= d.conf <= 1
            x1, y1, x2, y2 = d.box
            assert -1 <= x1 <= x2 <= w + 1 and -1 <= y1 <= y2 <= h + 1
        assert pipe.calibration is not None, "the markers were not found in the first frame"
        for c in to_table(r.detections, pipe.calibration.to_table, pipe.calibration.layout):
            assert all(math.isfinite(v) for p in c.points for v in p)
    assert frames == sim.frames and pipe.stats.frames == frames
    if shipped:
        assert [(p.seat, Counter(p.cards)) for p in plays] == [(truth.seat, Counter(truth.cards))]


def test_tiles_put_detections_back_in_frame_pixels_once():
    import numpy as np
    from cardref.vision.types import CardDetection, CornerDetection
    from cardref.vision.watch import detect_tiles

    # one card at frame pixels (600, 300): every part that contains it reports it
    class Fake:
        def __init__(self):
            self.origins = []

        def detect(self, crop):
            self.origins.append(crop.shape)
            return []

    image = np.zeros((720, 1280, 3), np.uint8)
    image[300:320, 600:610] = 255

    class Bright:
        def detect(self, crop):
            ys, xs = np.nonzero(crop[:, :, 0])
            if len(xs) == 0:
                return []
            box = (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))
            c = CornerDetection("QH", 0.9, box)
            return [CardDetection("QH", 0.9, box, (c,))]

    for tiles in (1, 2, 4):
        dets = detect_tiles(Bright(), image, (100, 50, 1180, 700), tiles)
        assert len(dets) == 1 and dets[0].box == (600.0, 300.0, 609.0, 319.0)
    fake = Fake()
    detect_tiles(fake, image, (100, 50, 1180, 700), 4)
    assert len(fake.origins) == 4 and all(h < 650 and w < 1080 for h, w, _ in fake.origins)
