"""The enlarged look (vision/detector/enlarge.py): when it is taken, and how an enlarged frame
larger than the finder's input is cut into tiles whose corners come back once each."""

from __future__ import annotations

import numpy as np
import pytest

from cardref.vision.detector import DetectorError, load_detector
from cardref.vision.detector.enlarge import enlarged_corners, indices_small, tiles_for
from cardref.vision.types import CornerDetection


def _index(x: float, y: float, h: float, conf: float = 0.9) -> CornerDetection:
    return CornerDetection("AS", conf, (x, y, x + 0.6 * h, y + h))


@pytest.mark.parametrize(("heights", "confs", "seen", "small"), [
    ([14, 15, 16], [0.9] * 3, 1.0, True),        # a webcam's indices
    ([60, 70, 80], [0.9] * 3, 1.0, False),       # a close-up's
    ([40, 40, 40], [0.9] * 3, 0.5, True),        # a 4K frame the finder sees halved: 20 px
    ([60, 70, 80], [0.3] * 3, 1.0, True),        # nothing confident: look enlarged as well
    ([12, 80, 90], [0.9, 0.9, 0.9], 1.0, False),  # the median decides
])
def test_indices_small(heights, confs, seen, small) -> None:
    corners = [_index(10 * i, 10, h, c) for i, (h, c) in enumerate(zip(heights, confs, strict=True))]
    assert indices_small(corners, seen) is small


@pytest.mark.parametrize(("frame", "inp"), [((1440, 2560), (736, 1280)), ((960, 1280), (736, 1280)),
                                             ((500, 700), (736, 1280)), ((2000, 2000), (640, 640))])
def test_tiles_cover_the_frame_once_within_the_input(frame, inp) -> None:
    h, w = frame
    tiles = tiles_for(frame, inp)
    covered = np.zeros(frame, np.int32)
    for (x1, y1, x2, y2), (kx1, ky1, kx2, ky2) in tiles:
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        assert y2 - y1 <= inp[0] and x2 - x1 <= inp[1]
        assert x1 <= kx1 < kx2 <= x2 and y1 <= ky1 < ky2 <= y2  # a tile keeps only what it saw
        covered[int(np.ceil(ky1)):int(np.ceil(ky2)), int(np.ceil(kx1)):int(np.ceil(kx2))] += 1
    assert (covered == 1).all()
    fits = h <= inp[0] and w <= inp[1]
    assert (len(tiles) == 1) is fits


class SceneFinder:
    """A finder over a known enlarged frame whose pixels hold their own (x, y): it reports
    each index wholly inside the crop it is shown, in the crop's pixels, and records the
    crops' shapes."""

    def __init__(self, indices: list[CornerDetection]) -> None:
        self.indices = indices
        self.shapes: list[tuple[int, int]] = []

    def __call__(self, crop: np.ndarray) -> list[CornerDetection]:
        self.shapes.append(crop.shape[:2])
        ox, oy = (int(v) for v in crop[0, 0])
        h, w = crop.shape[:2]
        return [CornerDetection(c.card, c.conf, (c.box[0] - ox, c.box[1] - oy, c.box[2] - ox, c.box[3] - oy))
                for c in self.indices
                if c.box[0] >= ox and c.box[1] >= oy and c.box[2] <= ox + w and c.box[3] <= oy + h]


def test_enlarged_corners_come_back_once_in_frame_pixels(monkeypatch) -> None:
    import cardref.vision.detector.enlarge as enlarge

    def where(frame, dsize, fx, fy, interpolation):  # noqa: ANN001, ANN202 - cv2.resize's call
        h, w = round(frame.shape[0] * fy), round(frame.shape[1] * fx)
        ys, xs = np.mgrid[0:h, 0:w]
        return np.stack([xs, ys], axis=-1)

    monkeypatch.setattr(enlarge.cv2, "resize", where)
    # a 1280x720 webcam frame enlarged twice: 2560x1440, cut into tiles of 1280x736
    seam = [_index(1270, 300, 30), _index(600, 712, 30), _index(1265, 705, 30)]  # across the seams
    inner = [_index(100, 100, 30), _index(2400, 1300, 28)]
    speck = [_index(2000, 400, 10)]  # 5 px in the frame's pixels
    finder = SceneFinder(seam + inner + speck)
    found = enlarged_corners(np.zeros((720, 1280, 3), np.uint8), 2.0, (736, 1280), finder)
    assert all(s[0] <= 736 and s[1] <= 1280 for s in finder.shapes) and len(finder.shapes) >= 4
    expected = sorted(tuple(v / 2 for v in c.box) for c in seam + inner)
    assert sorted(c.box for c in found) == expected


def test_a_bad_enlarge_is_refused() -> None:
    with pytest.raises(DetectorError, match="enlarged look"):
        load_detector(enlarge=0.5)
