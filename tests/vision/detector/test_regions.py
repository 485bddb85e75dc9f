"""The stream detector: the finder looks again only at the tiles of a frame that changed.

Synthetic frames (a textured table, sensor noise, a camera that shakes, light that drifts)
and a fake finder that reports each white square as a corner, so what the finder looked at
and what it found are known exactly.  The shipped finder's own agreement on a simulated
clip is in tests/vision/pipeline/test_real_detector_clip.py.
"""

from __future__ import annotations

import copy
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.vision.detector.regions import ChangeMap, RegionSettings, StreamDetector, TileGrid
from cardref.vision.types import CardDetection, CornerDetection
from cardref.vision.watch import Pipeline

H, W = 720, 1280


def table(seed: int = 0) -> np.ndarray:
    """A wood-like table: smooth blotches and grain, no flat areas."""
    rng = np.random.default_rng(seed)
    base = cv2.GaussianBlur(rng.uniform(60, 160, (H, W)).astype(np.float32), (0, 0), 6)
    grain = cv2.GaussianBlur(rng.normal(0, 25, (H, W)).astype(np.float32), (0, 0), 1.2)
    return np.clip(base + grain, 0, 255).astype(np.uint8)


def camera(scene: np.ndarray, t: int, shift: tuple[int, int] = (0, 0), light: float = 0.0) -> np.ndarray:
    """What the camera sees of ``scene`` at frame ``t``: shifted, relit, with sensor noise."""
    img = np.roll(scene.astype(np.float32), shift, axis=(0, 1)) + light
    img += np.random.default_rng(1000 + t).normal(0, 4, img.shape)
    grey = np.clip(img, 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def put_square(scene: np.ndarray, x: int, y: int, side: int = 20) -> np.ndarray:
    out = scene.copy()
    out[y:y + side, x:x + side] = 255
    return out


class SquareFinder:
    """A finder at any input shape: each white square (all 255 on the noiseless scene, above
    235 once noisy) is a corner; it records the pixels it was shown."""

    def __init__(self, free: bool = True) -> None:
        self.free = free
        self.looks: list[tuple[int, int]] = []
        self.input_shape = (H, W)

    def at_shape(self, shape):  # noqa: ANN001, ANN201
        if not self.free:
            return None
        twin = copy.copy(self)
        twin.input_shape = shape
        return twin

    def detect_corners(self, frame: np.ndarray) -> list[CornerDetection]:
        assert frame.shape[:2] == self.input_shape, "a tile must be exactly the finder's input"
        self.looks.append(frame.shape[:2])
        mask = (cv2.blur(frame[:, :, 0], (5, 5)) > 215).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        # a square of 28 px or more is a joker's index
        return [CornerDetection("BJ" if w >= 28 else "QH", 0.9,
                                (float(x) - 2, float(y) - 2, float(x + w) + 2, float(y + h) + 2))
                for x, y, w, h, area in stats[1:] if area >= 60]


class FakeDetector:
    """The parts of a model detector the stream detector uses."""

    def __init__(self, free: bool = True) -> None:
        self.backend = SquareFinder(free)
        self.name, self.model_path = "fake", None

    def find_corners(self, frame: np.ndarray) -> list[CornerDetection]:
        whole = copy.copy(self.backend)
        whole.input_shape = frame.shape[:2]
        corners = whole.detect_corners(frame)
        self.backend.looks.append(frame.shape[:2])
        return corners

    def name_corners(self, frame: np.ndarray, corners: list[CornerDetection]) -> list[CornerDetection]:
        return corners

    def merge_cards(self, corners, frame=None):  # noqa: ANN001, ANN201
        return [CardDetection(c.card, c.conf, c.box, (c,)) for c in corners]

    def use_deck(self, deck) -> None:  # noqa: ANN001
        pass


def centres(corners: list[CornerDetection]) -> list[tuple[float, float]]:
    return sorted(((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2) for c in corners)


def test_the_cores_cut_the_frame_once_and_each_crop_holds_its_core_with_a_margin() -> None:
    s = RegionSettings()
    grid = TileGrid.build((H, W), s)
    assert grid is not None and len(grid) == 18  # 6 columns of 213 px, 3 rows of 240
    count = np.zeros((H, W), np.int32)
    ch, cw = grid.crop_hw
    assert ch % 32 == 0 and cw % 32 == 0
    for k in range(len(grid)):
        x1, y1, x2, y2 = grid.core(k)
        count[y1:y2, x1:x2] += 1
        x0, y0 = grid.origins[k]
        assert 0 <= x0 and x0 + cw <= W and 0 <= y0 and y0 + ch <= H  # the crop is inside the frame
        assert grid.crop(np.zeros((H, W, 3), np.uint8), k).shape[:2] == (ch, cw)
        # the margin around the core, wherever the frame leaves room for it
        assert x0 <= max(x1 - s.margin_px, 0) and x0 + cw >= min(x2 + s.margin_px, W)
        assert y0 <= max(y1 - s.margin_px, 0) and y0 + ch >= min(y2 + s.margin_px, H)
    assert (count == 1).all()
    rng = np.random.default_rng(3)
    for x, y in rng.uniform((0, 0), (W, H), (200, 2)):
        x1, y1, x2, y2 = grid.core(grid.owner(x, y))
        assert x1 <= x < x2 and y1 <= y < y2
    assert grid.owner(-5, -5) == 0 and grid.owner(W + 9, H + 9) == len(grid) - 1
    assert TileGrid.build((240, 320), s) is None  # a crop would not fit: the frame is looked at whole


def test_noise_a_shaking_camera_and_a_change_of_light_are_not_a_change() -> None:
    scene = table()
    grid = TileGrid.build((H, W))
    changes = ChangeMap(grid)
    first = changes.thumbnail(camera(scene, 0))
    assert changes.changed(first).all()  # nothing seen yet
    changes.seen(first)
    for t, shift, light in [(1, (0, 0), 0.0), (2, (2, -2), 0.0), (3, (-3, 1), 12.0), (4, (1, 3), -15.0)]:
        assert not changes.changed(changes.thumbnail(camera(scene, t, shift, light))).any(), (shift, light)
    # a card's index slid into one core: that core only
    x1, y1, x2, y2 = grid.core(8)
    moved = changes.thumbnail(camera(put_square(scene, x1 + 80, y1 + 90), 5, (1, 0)))
    assert np.flatnonzero(changes.changed(moved)).tolist() == [8]
    changes.seen(moved, changes.changed(moved))
    assert not changes.changed(changes.thumbnail(camera(put_square(scene, x1 + 80, y1 + 90), 6))).any()


def test_the_finder_looks_again_only_where_the_table_changed_and_keeps_the_rest() -> None:
    s = RegionSettings(hold=2, refresh=1, settle_whole=False)
    det = FakeDetector()
    stream = StreamDetector(det, s)
    grid = TileGrid.build((H, W), s)
    scene = put_square(table(), 100, 100)  # an index already on the table
    first = stream.find_corners(camera(scene, 0))
    assert centres(first) == [(110.0, 110.0)] and stream.stats.whole == 1
    looks = len(det.backend.looks)
    for t in range(1, 4):  # a still table: one stale tile refreshed per frame
        assert centres(stream.find_corners(camera(scene, t))) == [(110.0, 110.0)]
    assert stream.stats.whole == 1 and stream.stats.tiles == 3 and len(det.backend.looks) == looks + 3
    # a new index in core 10: found there (frame pixels), the first kept
    x1, y1, _x2, _y2 = grid.core(10)
    scene2 = put_square(scene, x1 + 50, y1 + 60)
    before = stream.stats.tiles
    got = stream.find_corners(camera(scene2, 4))
    assert centres(got) == [(110.0, 110.0), (x1 + 60.0, y1 + 70.0)]
    assert stream.stats.tiles - before == 2  # tile 10 and one refreshed
    # tile 10 is looked at for `hold` more frames, then only refreshed like the others
    for t in range(5, 5 + s.hold):
        before = stream.stats.tiles
        assert len(stream.find_corners(camera(scene2, t))) == 2 and stream.stats.tiles - before == 2
    before = stream.stats.tiles
    assert len(stream.find_corners(camera(scene2, 9))) == 2 and stream.stats.tiles - before == 1
    # the index taken away: gone on the next frame
    assert centres(stream.find_corners(camera(scene, 10))) == [(110.0, 110.0)]
    tile_share = grid.crop_hw[0] * grid.crop_hw[1] / (H * W)
    assert stream.stats.whole == 1 and stream.stats.share == pytest.approx((1 + 12 * tile_share) / 9)


def test_every_tile_is_refreshed_in_turn_on_a_still_table() -> None:
    det = FakeDetector()
    stream = StreamDetector(det, RegionSettings(refresh=2))
    scene = table()
    stream.find_corners(camera(scene, 0))
    # an index the finder could not have seen change (drawn straight into the reference)
    stream._state.changes._ref[50:56, 50:56] = 255
    grid = stream._state.grid
    seen = set()
    for t in range(1, len(grid) // 2 + 1):
        stream.find_corners(camera(scene, t))
        seen |= set(np.flatnonzero(stream._state.last_look == stream.stats.frames).tolist())
    assert seen == set(range(len(grid)))


def test_a_bumped_camera_gets_its_corners_moved_and_a_fixed_shape_finder_looks_at_every_whole_frame() -> None:
    det = FakeDetector()
    stream = StreamDetector(det)
    scene = put_square(table(), 600, 300)
    stream.find_corners(camera(scene, 0))
    got = stream.find_corners(camera(scene, 1, (40, -60)))  # the camera knocked: the index moved
    assert centres(got) == [(550.0, 350.0)]  # looked again where it was and where it is
    # indices all over the table: a knock changes every tile, the whole frame is looked at
    full = table()
    for y in range(60, H - 60, 150):
        for x in range(60, W - 60, 150):
            full = put_square(full, x, y)
    stream = StreamDetector(FakeDetector())
    n = len(stream.find_corners(camera(full, 0)))
    got = stream.find_corners(camera(full, 1, (0, 25)))
    assert stream.stats.whole == 2 and len(got) == n == 32
    assert centres(got) == sorted((x + 35.0, y + 10.0) for y in range(60, H - 60, 150) for x in range(60, W - 60, 150))
    fixed = StreamDetector(FakeDetector(free=False))
    for t in range(3):
        assert centres(fixed.find_corners(camera(scene, t))) == [(610.0, 310.0)]
    assert fixed.stats.whole == 3 and fixed.stats.tiles == 0


def test_a_tile_holding_a_joker_is_looked_at_in_the_whole_frame() -> None:
    """The finder's joker indices are faint and it finds them less often in a tile: where one
    lies, a change is looked at in the whole frame, elsewhere in tiles."""
    stream = StreamDetector(FakeDetector(), RegionSettings(hold=0, refresh=0, settle_whole=False))
    grid = TileGrid.build((H, W))
    x1, y1, _x2, _y2 = grid.core(7)
    scene = put_square(table(), x1 + 40, y1 + 40, side=30)  # a joker in core 7
    stream.detect_corners(camera(scene, 0))
    scene = put_square(scene, 700, 600)  # an index played far from it: a tile
    assert len(stream.detect_corners(camera(scene, 1))) == 2
    assert (stream.stats.whole, stream.stats.tiles) == (1, 1)
    scene = put_square(scene, x1 + 120, y1 + 150)  # beside the joker: the whole frame
    assert [c.card for c in stream.detect_corners(camera(scene, 2))].count("QH") == 2
    assert (stream.stats.whole, stream.stats.tiles) == (2, 1)
    plain = StreamDetector(FakeDetector(), RegionSettings(hold=0, refresh=0, jokers_whole=False, settle_whole=False))
    plain.detect_corners(camera(scene, 3))
    plain.detect_corners(camera(put_square(scene, x1 + 10, y1 + 180), 4))
    assert (plain.stats.whole, plain.stats.tiles) == (1, 1)


class FlickeringNamer(FakeDetector):
    """Names a joker's index the queen of hearts on the frames listed (a namer's flicker)."""

    def __init__(self, flicker: set[int]) -> None:
        super().__init__()
        self.flicker, self.frame = flicker, -1

    def name_corners(self, frame: np.ndarray, corners: list[CornerDetection]) -> list[CornerDetection]:
        self.frame += 1
        if self.frame in self.flicker:
            return [CornerDetection("QH", c.conf, c.box) for c in corners]
        return corners


def test_a_joker_read_as_another_card_for_a_frame_keeps_its_tile_looked_at_whole() -> None:
    """The tile of a joker stays a joker's tile for ``joker_memory`` frames after the namer
    last called it one."""
    grid = TileGrid.build((H, W))
    x1, y1, _x2, _y2 = grid.core(7)
    joker = put_square(table(), x1 + 40, y1 + 40, side=30)
    for memory, looks in [(3, (2, 0)), (0, (1, 1))]:
        stream = StreamDetector(FlickeringNamer({1}), RegionSettings(hold=0, refresh=0, settle_whole=False,
                                                                     joker_memory=memory))
        stream.detect_corners(camera(joker, 0))
        stream.detect_corners(camera(joker, 1))  # read as a queen here
        # an index put down beside the joker: whole frame only while the joker is remembered
        stream.detect_corners(camera(put_square(joker, x1 + 120, y1 + 150), 2))
        assert (stream.stats.whole, stream.stats.tiles) == looks, memory


def test_the_frame_a_tile_stops_changing_is_looked_at_whole() -> None:
    """The hand has left and the cards it put down lie still: the finder reads them on the
    whole frame (where it finds faint joker indices that a tile misses), then keeps them."""
    grid = TileGrid.build((H, W))
    x1, y1, _x2, _y2 = grid.core(10)
    scene = table()
    played = put_square(scene, x1 + 50, y1 + 60)
    for settle, looks in [(True, [(0, 1), (1, 0), (0, 0), (0, 0)]), (False, [(0, 1), (0, 1), (0, 0), (0, 0)])]:
        stream = StreamDetector(FakeDetector(), RegionSettings(hold=1, refresh=0, settle_whole=settle))
        stream.find_corners(camera(scene, 0))
        got = []
        for t in range(1, 5):  # the card lands on frame 1 and lies still
            before = (stream.stats.whole, stream.stats.tiles)
            assert centres(stream.find_corners(camera(played, t))) == [(x1 + 60.0, y1 + 70.0)]
            got.append((stream.stats.whole - before[0], stream.stats.tiles - before[1]))
        assert got == looks, settle


def test_the_tile_finder_can_be_made_before_the_first_frame() -> None:
    det = FakeDetector()
    made = []
    at_shape = det.backend.at_shape
    det.backend.at_shape = lambda shape: made.append(shape) or at_shape(shape)
    stream = StreamDetector(det)
    stream.prepare((H, W))
    assert made == [TileGrid.build((H, W)).crop_hw]
    stream.find_corners(camera(table(), 0))
    stream.find_corners(camera(put_square(table(), 600, 300), 1))
    assert len(made) == 1 and stream.stats.tiles > 0  # made once, used by the stream
    stream.prepare((200, 300))  # too small for tiles: nothing to make
    assert len(made) == 1


def test_cards_come_through_detect_and_reset_starts_the_stream_again() -> None:
    stream = StreamDetector(FakeDetector())
    scene = put_square(table(), 600, 300)
    cards = stream.detect(camera(scene, 0))
    assert [c.card for c in cards] == ["QH"] and stream.stats.whole == 1
    stream.detect(camera(scene, 1))
    stream.reset()
    stream.detect(camera(scene, 2))
    assert stream.stats.whole == 2


def test_the_pipeline_streams_a_model_detector_unless_told_to_look_at_whole_frames() -> None:
    assert isinstance(Pipeline(FakeDetector(), 4, regions=RegionSettings()).detector, StreamDetector)
    assert isinstance(Pipeline(FakeDetector(), 4).detector, StreamDetector)  # the default
    assert not isinstance(Pipeline(FakeDetector(), 4, regions=None).detector, StreamDetector)  # whole frames
    assert not isinstance(Pipeline(FakeDetector(), 4, tiles=1, regions=RegionSettings()).detector, StreamDetector)

    class Oracle:
        def detect(self, frame):  # noqa: ANN001, ANN201
            return []

    assert isinstance(Pipeline(Oracle(), 4, regions=RegionSettings()).detector, Oracle)


@pytest.mark.parametrize("bad", [dict(core_px=16), dict(hold=-1), dict(min_changed=0), dict(full_share=0),
                                 dict(joker_memory=-1)])
def test_settings_out_of_range_are_refused(bad) -> None:
    with pytest.raises(ValueError):
        RegionSettings(**bad)


# the shipped finder (exported with its height and width free)

MODELS = Path(__file__).resolve().parents[3] / "models"


def _inside(c: CornerDetection, box: tuple[int, int, int, int], margin: float) -> bool:
    x, y = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
    return box[0] + margin <= x <= box[2] - margin and box[1] + margin <= y <= box[3] - margin


@pytest.mark.parametrize("backend", ["onnx", "openvino"])
def test_the_shipped_finder_at_tile_size_finds_what_it_finds_in_the_whole_frame(backend: str) -> None:
    from cardref.vision.detector import load_detector
    from cardref.vision.detector.int8_check import load_check_frames
    from cardref.vision.types import box_iou

    # the two rendered 1280x720 table scenes shipped for the INT8 check (rendering scenes
    # here built the whole face library on a cold cache: minutes)
    frames = [f.image for f in load_check_frames() if f.name.startswith("scene")]
    assert len(frames) == 2 and all(f.shape[:2] == (H, W) for f in frames)
    det = load_detector(backend, MODELS / "cards-yolo11n.onnx", int8=False)
    grid = TileGrid.build((H, W))
    tile = det.backend.at_shape(grid.crop_hw)
    assert tile is not None and tile.input_shape == grid.crop_hw and det.backend.input_shape == (736, 1280)
    matched = missed = 0
    for frame in frames:
        whole = det.backend.detect_corners(frame)
        for k in (4, 7, 13):
            x0, y0 = grid.origins[k]
            box = (x0, y0, x0 + grid.crop_hw[1], y0 + grid.crop_hw[0])
            seen = [replace_box(c, x0, y0) for c in tile.detect_corners(np.ascontiguousarray(grid.crop(frame, k)))]
            for c in (c for c in whole if c.conf >= 0.5 and _inside(c, box, 40)):
                if any(box_iou(c.box, s.box) >= 0.7 for s in seen):
                    matched += 1
                else:
                    missed += 1
    assert matched >= 10 and missed <= matched // 20, (matched, missed)


def replace_box(c: CornerDetection, dx: float, dy: float) -> CornerDetection:
    return CornerDetection(c.card, c.conf, (c.box[0] + dx, c.box[1] + dy, c.box[2] + dx, c.box[3] + dy))


def test_the_stream_detector_reads_a_simulated_deal_as_the_whole_frame_detector_does(tmp_path: Path) -> None:
    """A few seconds of a simulated deal (hands come and go): the stream's corners are the
    whole-frame finder's on nearly every frame, for a fraction of its pixels."""
    from cardref.vision.capture import VideoFileSource
    from cardref.vision.detector import load_detector
    from cardref.vision.simulate import simulate_to_dir

    simulate_to_dir("chaodipi-anchao", 5, tmp_path / "clip", max_plays=3, split="heldout")
    det = load_detector("onnx", MODELS / "cards-yolo11n.onnx", int8=False)
    stream = StreamDetector(det)
    agree = differ = 0
    for frame in VideoFileSource(str(tmp_path / "clip" / "video.mp4")).frames():
        if frame.index >= 60:
            break
        whole = [c for c in det.find_corners(frame.image) if c.conf >= 0.5]
        got = stream.find_corners(frame.image)
        for c in whole:
            x, y = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
            if any(abs(x - (s.box[0] + s.box[2]) / 2) < 4 and abs(y - (s.box[1] + s.box[3]) / 2) < 4 for s in got):
                agree += 1
            else:
                differ += 1
    assert agree >= 200 and differ <= agree * 0.03, (agree, differ)
    assert stream.stats.frames == 60 and stream.stats.share < 0.7, stream.stats


def test_the_pipeline_prepares_the_stream_before_the_first_frame() -> None:
    """cardref watch calls Pipeline.prepare with the source's size: the tile-sized finder is
    made then, not while a live camera's first frames go by."""
    made: list[tuple[int, int]] = []
    det = FakeDetector()
    at_shape = det.backend.at_shape
    det.backend.at_shape = lambda shape: made.append(shape) or at_shape(shape)
    Pipeline(det, 4).prepare((H, W))
    assert made == [TileGrid.build((H, W)).crop_hw]
    Pipeline(det, 4, regions=None).prepare((H, W))  # whole frames: nothing to make
    Pipeline(det, 4).prepare((0, 0))  # a source that cannot tell its size: nothing yet
    assert len(made) == 1
