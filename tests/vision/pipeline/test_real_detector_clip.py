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
