"""A short simulated clip through the real detector and the whole watch pipeline.

The shipped model (models/cards-yolo11n.onnx) is used when it exists, else the tiny
fixture model (tests/fixtures/detector).  The test checks the chain, not the model's
accuracy (that is ``cardref bench e2e --detector model``): every frame goes through,
the markers calibrate the table, detections are valid cards inside the frame and map to
finite table positions, and whatever plays come out are well formed.
"""

from __future__ import annotations

import math
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
    detector, _shipped = _detector()
    sim = simulate_to_dir("guafeng-zibo", 11, tmp_path / "clip", max_plays=1, split="heldout")
    source = VideoFileSource(str(tmp_path / "clip" / "video.mp4"))
    pipe = Pipeline(detector, 4)
    plays = []
    frames = 0
    for frame in source.frames():
        if frame.index % 3:
            continue  # a few frames are enough for the chain (CI time)
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
    assert frames == len(range(0, sim.frames, 3)) and pipe.stats.frames == frames
    for p in plays:
        assert 0 <= p.seat < 4 and p.cards and all(c in CLASS_NAMES for c in p.cards) and 0 <= p.conf <= 1


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
