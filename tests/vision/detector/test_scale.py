"""The camera check: a card's pixel height from the calibration, and what to tell a referee."""

from __future__ import annotations

import random

import pytest

from cardref.datasets.scenes import SceneConfig
from cardref.vision.calibration import apply_homography, calibrate_manual, table_corners
from cardref.vision.detector.scale import TRAINED_CARD_PX, finder_scale, scale_advice
from cardref.vision.simulate.render import camera_homography
from cardref.vision.zones import default_layout


def test_the_trained_range_is_the_training_scenes_own() -> None:
    assert TRAINED_CARD_PX == SceneConfig().card_px


def test_a_card_is_as_tall_as_the_table_scale_makes_it() -> None:
    # a 1000 x 500 mm table seen straight down, 1 px per mm: an 88 mm card is 88 px
    cal = calibrate_manual([(100, 100), (1100, 100), (1100, 600), (100, 600)], (1280, 720), (1000.0, 500.0))
    assert cal.card_height_px() == pytest.approx(88.0, rel=1e-6)
    assert cal.card_height_px(60.0) == pytest.approx(60.0, rel=1e-6)


@pytest.mark.parametrize("size, lo, hi", [((1280, 720), 66, 78), ((1920, 1080), 100, 115)])
def test_the_simulated_cameras(size, lo, hi) -> None:
    """The simulator's camera: 0.81 px/mm at 720p (a card ~72 px), 1.5 times that at 1080p."""
    table = default_layout(4).table_mm
    H = camera_homography(table, size, random.Random(3))
    corners = apply_homography(H, table_corners(table))
    cal = calibrate_manual([tuple(p) for p in corners], size, table)
    assert lo < cal.card_height_px() < hi


def test_advice() -> None:
    check = scale_advice(72.0, (1280, 720))
    assert check.ok and check.verdict == "ok" and "about 72 px tall" in check.message and "within" in check.message
    # a 1080p frame is shrunk to the finder's 1280 px: 108 px cards are 72 as it sees them
    assert finder_scale((1920, 1080)) == pytest.approx(2 / 3, abs=0.01)
    check = scale_advice(108.0, (1920, 1080))
    assert check.ok and check.seen_px == pytest.approx(72.0, abs=0.5)
    assert "(72 px as the corner finder sees them" in check.message
    check = scale_advice(40.0, (1280, 720))
    assert check.verdict == "small" and "1920x1080" in check.message
    check = scale_advice(60.0, (3840, 2160))  # 20 px once shrunk: a higher resolution would not help
    assert check.verdict == "small" and "--tiles 4" in check.message and "higher resolution" not in check.message
    check = scale_advice(200.0, (1280, 720))
    assert check.verdict == "large" and not check.ok and "raise the camera" in check.message
