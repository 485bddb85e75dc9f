"""The dashboard steps the live pipeline only through the table session (issue 30)."""

from __future__ import annotations

import cv2
import pytest

from cardref.ui.bench import Rewinding
from cardref.ui.config import DEMO_CALIBRATION, DEMO_VIDEO
from cardref.ui.live import Calibrated, NullPipeline
from cardref.ui.sources import VisionAdapter, build_pipeline, load_calibration
from cardref.vision.session import TableSession

FRAMES = 40


@pytest.fixture(scope="module")
def frames():
    cap = cv2.VideoCapture(str(DEMO_VIDEO))
    out = []
    while len(out) < FRAMES:
        ok, img = cap.read()
        if not ok:
            break
        out.append(img)
    cap.release()
    assert len(out) == FRAMES
    return out


def _adapter() -> VisionAdapter:
    cal, problem = load_calibration(DEMO_CALIBRATION)
    assert problem is None
    pipeline, why = build_pipeline("guafeng-zibo", cal, detector="oracle", video=str(DEMO_VIDEO), fps=10.0)
    assert why is None and isinstance(pipeline, VisionAdapter)
    return pipeline


def test_a_restart_is_a_new_table_session_with_the_same_settings():
    adapter = _adapter()
    old = adapter.session
    adapter.index = 17
    adapter.restart()
    new = adapter.session
    assert isinstance(new, TableSession) and new is not old
    assert new.config == old.config and adapter.index == 0
    assert new.pipeline.settings == new.config.segmenter_settings() == old.pipeline.settings
    assert new.detector is old.detector and new.calibration == old.calibration


def test_rewinding_frames_see_the_same_plays_each_time_round(frames):
    adapter = _adapter()
    rewinding = Rewinding(adapter, len(frames))
    rounds: list[list[dict]] = [[], []]
    for k in range(2 * len(frames)):
        out = rewinding.process(frames[k % len(frames)], 0.0)
        rounds[k // len(frames)] += [p.event for p in out.plays]
    assert rounds[0] and rounds[0] == rounds[1]


@pytest.mark.parametrize(("pipeline", "calibrated"), [
    (NullPipeline(), False),
    (Rewinding(NullPipeline(), 5), True),
])
def test_which_pipelines_take_a_calibration(pipeline, calibrated):
    assert isinstance(pipeline, Calibrated) is calibrated
