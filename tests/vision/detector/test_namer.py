"""The corner namer: patches cut the same way at training and run time, boxes named or dropped,
and a class-agnostic detector that cannot run without it."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.vision.classes import CLASS_NAMES, UNNAMED
from cardref.vision.detector import Detector, DetectorError, ModelFileError, load_detector
from cardref.vision.detector.backends import _card_names
from cardref.vision.detector.namer import (
    CROP_SIZE,
    NAMER_CLASSES,
    NOT_A_CORNER,
    CornerNamer,
    crop_corner,
    light_ink,
    patches_blob,
)
from cardref.vision.types import CornerDetection

torch = pytest.importorskip("torch")  # the namer is trained and exported with PyTorch (dev install)


class ColourNet(torch.nn.Module):
    """A stand-in namer with known answers: a red patch is AH, a blue one is 'not a corner',
    anything else (grey) is a four-way tie of 5C..8C (each about 0.25: below min_prob)."""

    def forward(self, x):  # noqa: ANN001, ANN201
        r, g, b = x.mean(dim=(2, 3)).unbind(1)  # the input is RGB
        logits = torch.full((x.shape[0], len(NAMER_CLASSES)), -10.0)
        logits = logits.clone()
        logits[:, NAMER_CLASSES.index("AH")] = 100 * (r - b - g)
        logits[:, NAMER_CLASSES.index(NOT_A_CORNER)] = 100 * (b - r - g)
        for code in ("5C", "6C", "7C", "8C"):
            logits[:, NAMER_CLASSES.index(code)] = 1.0
        return logits


@pytest.fixture(scope="module")
def colour_namer(tmp_path_factory) -> Path:
    from cardref.vision.detector.namer_finetune import export_onnx

    return export_onnx(ColourNet(), tmp_path_factory.mktemp("namer") / "colour.onnx")


def _frame() -> np.ndarray:
    frame = np.full((200, 300, 3), 128, np.uint8)
    frame[40:70, 40:60] = (0, 0, 255)     # red in BGR
    frame[100:130, 200:220] = (255, 0, 0)  # blue
    return frame


RED, BLUE, GREY = (40, 40, 60, 70), (200, 100, 220, 130), (120, 150, 140, 180)


def test_patch_is_square_and_centred_on_the_box() -> None:
    patch = crop_corner(_frame(), RED)
    assert patch.shape == (CROP_SIZE, CROP_SIZE, 3) and patch.dtype == np.uint8
    assert tuple(patch[CROP_SIZE // 2, CROP_SIZE // 2]) == (0, 0, 255)
    # context around the box: the grey table shows at the patch's edges
    assert tuple(patch[0, 0]) == (128, 128, 128)


def test_patch_of_a_box_past_the_frame_edge_replicates_the_edge() -> None:
    frame = _frame()
    patch = crop_corner(frame, (-10, -10, 10, 10))
    assert patch.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert tuple(patch[0, 0]) == tuple(frame[0, 0])


def test_large_box_is_smoothed_not_aliased() -> None:
    stripes = np.zeros((400, 400, 3), np.uint8)
    stripes[:, ::2] = 255  # one-pixel stripes: sampled without smoothing they alias to black or white
    patch = crop_corner(stripes, (50, 50, 350, 350))
    assert 60 < patch.mean() < 200 and patch.std() < 40


def test_blob_is_rgb_nchw_in_unit_range() -> None:
    blob = patches_blob([crop_corner(_frame(), RED)])
    assert blob.shape == (1, 3, CROP_SIZE, CROP_SIZE) and blob.dtype == np.float32
    assert blob[0, 0, CROP_SIZE // 2, CROP_SIZE // 2] == pytest.approx(1.0)  # R channel first
    assert blob[0, 2, CROP_SIZE // 2, CROP_SIZE // 2] == pytest.approx(0.0)


def test_namer_names_corners_and_drops_what_is_not_a_corner(colour_namer: Path) -> None:
    namer = CornerNamer(colour_namer, min_prob=0.3)
    corners = [CornerDetection(UNNAMED, 0.8, RED), CornerDetection(UNNAMED, 0.9, BLUE),
               CornerDetection(UNNAMED, 0.7, GREY)]
    named = namer.name(_frame(), corners)
    assert [c.card for c in named] == ["AH"]
    assert named[0].box == RED and 0.79 < named[0].conf <= 0.8  # detector conf x namer probability
    # its leading readings, best first, for the merge to reconcile two readings of one card
    alts = named[0].alts
    assert alts[0][0] == "AH" and alts[0][1] > 0.98
    assert [p for _, p in alts] == sorted((p for _, p in alts), reverse=True)
    assert all(code != "none" and p >= 0.05 for code, p in alts)
    assert namer.name(_frame(), []) == []
    assert [c.card for c in CornerNamer(colour_namer, min_prob=0.2).name(_frame(), corners)] == ["AH", "5C"]
    assert namer.probabilities([]).shape == (0, len(NAMER_CLASSES))


def test_light_ink_on_a_dark_card_is_read_inverted(colour_namer: Path) -> None:
    """A patch of light ink is also read inverted and the likelier reading kept: the stand-in
    reads red as AH, so a cyan index on grey (red inverted: light ink on a darker card) is AH
    too; read only as it is, it is a tie below min_prob and dropped.  A red index (darker than
    the grey) keeps its own reading."""
    frame = np.full((200, 300, 3), 128, np.uint8)
    frame[40:70, 40:60] = (255, 255, 0)  # cyan in BGR
    frame[100:130, 200:220] = (0, 0, 255)  # red
    corners = [CornerDetection(UNNAMED, 0.8, RED), CornerDetection(UNNAMED, 0.8, BLUE)]
    assert [c.card for c in CornerNamer(colour_namer).name(frame, corners)] == ["AH", "AH"]
    assert [c.card for c in CornerNamer(colour_namer, inverted=False).name(frame, corners)] == ["AH"]
    assert CornerNamer(colour_namer, inverted=False).name(frame, corners)[0].box == BLUE


@pytest.mark.parametrize(("card", "ink", "light"), [
    (250, 20, False),   # a white card in good light
    (90, 25, False),    # a white card in dim light: still dark ink on a lighter card
    (20, 230, True),    # the black-and-gold deck: light ink on a dark card
    (60, 140, True),    # ... in dim light
])
def test_light_ink_is_told_by_which_tail_lies_further_from_the_card(card: int, ink: int, light: bool) -> None:
    patch = np.full((32, 32, 3), card, np.uint8)
    patch[6:20, 8:14] = ink  # an index glyph, a tenth of the patch
    assert light_ink(patch[None]).tolist() == [light]


def test_dark_ink_on_a_light_card_is_not_read_inverted(colour_namer: Path) -> None:
    """A dark cyan index on a light grey card reads as nothing (a tie below min_prob).  Inverted
    it would be a red index on a dark card, which the stand-in reads AH; but dark ink on a
    light card is never read inverted, so it stays unnamed rather than misread."""
    frame = np.full((200, 300, 3), 220, np.uint8)
    frame[40:70, 40:60] = (200, 200, 0)  # dark cyan in BGR, the whole box
    corners = [CornerDetection(UNNAMED, 0.8, RED)]
    assert not light_ink(crop_corner(frame, RED)[None])[0]
    assert CornerNamer(colour_namer).name(frame, corners) == []
    inverted = 255 - crop_corner(frame, RED)
    assert NAMER_CLASSES[int(np.argmax(CornerNamer(colour_namer, inverted=False).probabilities([inverted])[0]))] == "AH"


def test_namer_probabilities_sum_to_one(colour_namer: Path) -> None:
    probs = CornerNamer(colour_namer).probabilities([crop_corner(_frame(), b) for b in (RED, BLUE, GREY)])
    assert probs.shape == (3, len(NAMER_CLASSES))
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_namer_with_another_class_list_is_refused(tmp_path: Path, colour_namer: Path) -> None:
    import onnx

    model = onnx.load(str(colour_namer))
    for p in model.metadata_props:
        if p.key == "classes":
            p.value = json.dumps(list(reversed(NAMER_CLASSES)))
    bad = tmp_path / "reordered.onnx"
    onnx.save(model, str(bad))
    with pytest.raises(ModelFileError, match="another class list"):
        CornerNamer(bad)


def test_missing_or_corrupt_namer_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="nope.onnx"):
        CornerNamer(tmp_path / "nope.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ModelFileError, match="junk.onnx"):
        CornerNamer(junk)


class UnnamedBackend:
    """A class-agnostic detector stand-in: boxes with no names."""

    name = "fake"
    model_path = Path("corners.onnx")
    names = (UNNAMED,)

    def __init__(self, boxes: list[tuple[float, float, float, float]]) -> None:
        self.boxes = boxes

    def detect_corners(self, frame_bgr: np.ndarray) -> list[CornerDetection]:
        return [CornerDetection(UNNAMED, 0.9, b) for b in self.boxes]


def test_class_agnostic_detector_needs_a_namer() -> None:
    det = Detector(UnnamedBackend([RED]))
    with pytest.raises(ModelFileError, match="corner namer"):
        det.detect(_frame())


def test_detector_with_namer_gives_named_cards(colour_namer: Path) -> None:
    det = Detector(UnnamedBackend([RED, BLUE]), namer=CornerNamer(colour_namer))
    cards = det.detect(_frame())
    assert [c.card for c in cards] == ["AH"]


def test_single_class_model_names_become_unnamed() -> None:
    assert _card_names({0: "item"}, Path("m.onnx")) == (UNNAMED,)
    assert _card_names(list(CLASS_NAMES), Path("m.onnx")) == CLASS_NAMES


def test_a_named_namer_is_put_behind_a_54_class_detector(colour_namer: Path) -> None:
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "detector"
    det = load_detector("onnx", fixtures / "tiny.onnx", namer=colour_namer)
    assert det.namer is not None and det.namer.model_path == colour_namer
    assert load_detector("onnx", fixtures / "tiny.onnx").namer is None  # names its own corners
    frame = cv2.imread(str(fixtures / "mixed.jpg"))
    assert all(c.card in CLASS_NAMES for c in det.detect_corners(frame))


def test_min_conf_applies_to_box_times_name(colour_namer: Path) -> None:
    corners = [CornerDetection(UNNAMED, 0.5, RED)]
    assert [c.card for c in CornerNamer(colour_namer, min_conf=0.45).name(_frame(), corners)] == ["AH"]
    assert CornerNamer(colour_namer, min_conf=0.55).name(_frame(), corners) == []


def test_onnx_runtime_names_like_openvino(colour_namer: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without OpenVINO the namer falls back to ONNX Runtime, with the same answers."""
    import sys

    patches = [crop_corner(_frame(), b) for b in (RED, BLUE, GREY)]
    first = CornerNamer(colour_namer).probabilities(patches)
    monkeypatch.setitem(sys.modules, "openvino", None)  # import openvino -> ImportError
    fallback = CornerNamer(colour_namer).probabilities(patches)
    assert np.array_equal(first.argmax(1), fallback.argmax(1))
    assert np.allclose(first, fallback, atol=0.02)


class TopHalfNet(torch.nn.Module):
    """A stand-in namer that is not turn-invariant: AH when the patch's top half is brighter
    than its bottom half, 2H the other way round."""

    def forward(self, x):  # noqa: ANN001, ANN201
        half = x.shape[2] // 2
        d = x[:, :, :half].mean(dim=(1, 2, 3)) - x[:, :, half:].mean(dim=(1, 2, 3))
        logits = torch.full((x.shape[0], len(NAMER_CLASSES)), -10.0).clone()
        logits[:, NAMER_CLASSES.index("AH")] = 50 * d
        logits[:, NAMER_CLASSES.index("2H")] = -50 * d
        return logits


def test_turns_average_the_patch_seen_every_way(tmp_path) -> None:
    from cardref.vision.detector.namer_finetune import export_onnx

    path = export_onnx(TopHalfNet(), tmp_path / "tophalf.onnx")
    patch = np.zeros((CROP_SIZE, CROP_SIZE, 3), np.uint8)
    patch[: CROP_SIZE // 2] = 255  # bright on top
    one = CornerNamer(path, turns=1).probabilities([patch])[0]
    assert one.argmax() == NAMER_CLASSES.index("AH") and one.max() > 0.99
    # upright and half a turn disagree completely; a quarter turn sees no difference: the
    # average of the four looks is even between AH and 2H
    four = CornerNamer(path, turns=4).probabilities([patch])[0]
    assert four[NAMER_CLASSES.index("AH")] == pytest.approx(four[NAMER_CLASSES.index("2H")], abs=1e-3)
    assert four.sum() == pytest.approx(1.0, abs=1e-4)
    two = CornerNamer(path, turns=2).probabilities([patch, patch[::-1].copy()])
    assert np.allclose(two[0], two[1], atol=1e-4)
    with pytest.raises(ValueError, match="turns"):
        CornerNamer(path, turns=3)


def test_scales_pool_one_box_per_index() -> None:
    from cardref.vision.detector import pool_scales

    big = CornerDetection("?", 0.8, (10.0, 10.0, 30.0, 50.0))
    same_index_half_size = CornerDetection("?", 0.6, (11.0, 10.0, 31.0, 49.0))  # found again at 0.5
    other = CornerDetection("?", 0.3, (100.0, 10.0, 120.0, 50.0))
    pooled = pool_scales([[big], [same_index_half_size, other]])
    assert pooled == [big, other]
    assert pool_scales([[], []]) == []


class ScaleBackend:
    """Finds one corner, where the frame has its bright square, and records the frame sizes."""

    name = "scale"
    model_path = Path("scale.onnx")

    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []

    def detect_corners(self, frame):  # noqa: ANN001, ANN201
        self.sizes.append(frame.shape[:2])
        ys, xs = np.nonzero(frame[:, :, 2] > 200)
        return [CornerDetection("AH", 0.9, (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)))]


def test_detector_looks_at_each_scale_and_maps_boxes_back() -> None:
    backend = ScaleBackend()
    det = Detector(backend, scales=(1.0, 0.5))
    corners = det.detect_corners(_frame())
    assert backend.sizes == [(200, 300), (100, 150)]
    assert len(corners) == 1 and corners[0].box == pytest.approx((40, 40, 60, 70), abs=1.0)
    with pytest.raises(DetectorError, match="scales"):
        load_detector(scales=(1.5,))


class GridBackend:
    """Finds ``n`` corners ``px`` tall (frame pixels) at confidence ``conf``; records the looks."""

    name = "grid"
    model_path = Path("grid.onnx")

    def __init__(self, n: int, px: float, conf: float = 0.9) -> None:
        self.n, self.px, self.conf = n, px, conf
        self.sizes: list[tuple[int, int]] = []

    def detect_corners(self, frame):  # noqa: ANN001, ANN201
        self.sizes.append(frame.shape[:2])
        return [CornerDetection("?", self.conf, (10.0 + 60 * i, 10.0, 10.0 + 60 * i + self.px / 2, 10.0 + self.px))
                for i in range(self.n)]


@pytest.mark.parametrize("n, px, conf, hw, camera_scale", [
    (5, 14.0, 0.9, (720, 1280), True),      # a webcam frame's indices: the shrunk look is skipped
    (5, 21.0, 0.9, (1080, 1920), True),     # 1080p: 21 px are 14 as the finder sees them (shrunk to 1280)
    (5, 80.0, 0.9, (640, 640), False),      # a phone close-up's indices: look again at 0.4
    (2, 14.0, 0.9, (720, 1280), False),     # too few to tell
    (5, 14.0, 0.3, (720, 1280), False),     # unsure finds (a close-up's pips and letters) do not count
])
def test_the_shrunk_look_is_only_for_indices_larger_than_a_webcams(n, px, conf, hw, camera_scale) -> None:
    from cardref.vision.detector import PHOTO_SCALES, at_camera_scale

    backend = GridBackend(n, px, conf)
    assert at_camera_scale(backend.detect_corners(np.zeros((*hw, 3), np.uint8)), hw) is camera_scale
    backend.sizes.clear()
    Detector(backend, scales=PHOTO_SCALES).find_corners(np.zeros((*hw, 3), np.uint8))
    assert len(backend.sizes) == (1 if camera_scale else 2)


def test_one_reading_is_one_inference_for_all_outputs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped namer has two outputs (logits and features); reading patches runs the
    model once, not once per output (it did: the namer cost twice its time every frame)."""
    ov = pytest.importorskip("openvino")
    from cardref.vision.detector import models_dir
    from cardref.vision.detector.namer import NAMER_STEM

    calls = []

    class Counting:
        def __init__(self, compiled) -> None:  # noqa: ANN001
            self.compiled = compiled
            self.outputs = compiled.outputs

        def __call__(self, blob):  # noqa: ANN001, ANN204
            calls.append(len(blob))
            return self.compiled(blob)

    real = ov.Core.compile_model
    monkeypatch.setattr(ov.Core, "compile_model", lambda self, *a, **k: Counting(real(self, *a, **k)))
    namer = CornerNamer(models_dir() / f"{NAMER_STEM}.onnx")
    assert namer.has_features
    calls.clear()  # loading may run the INT8 load-time check (int8_check), which reads its own frames
    probs, feats = namer.read([crop_corner(_frame(), b) for b in (RED, BLUE, GREY)])
    assert len(calls) == 1 and probs.shape[0] == feats.shape[0] == 3


class SpeckBackend(GridBackend):
    """A close-up's indices (``px`` tall) plus one speck 6 px across, found at confidence 0.2."""

    def detect_corners(self, frame):  # noqa: ANN001, ANN201
        return [*super().detect_corners(frame), CornerDetection("?", 0.2, (500.0, 500.0, 506.0, 506.0))]


@pytest.mark.parametrize("n, px, hw, speck_kept", [
    (5, 80.0, (640, 640), False),    # a phone close-up: a 6 px speck among 80 px indices is noise
    (5, 14.0, (720, 1280), True),    # a webcam frame: a joker's star may be this small; never filtered
    (1, 80.0, (640, 640), True),     # one sure index (two with the shrunk look): too few to tell
])
def test_a_close_ups_specks_are_dropped_not_a_webcam_frames(n, px, hw, speck_kept) -> None:
    """SPECK_SHARE: in a close-up, a box far smaller than the photo's confident indices is a
    speck the namer would read as a joker's star (the real photos' salt-and-pepper dots)."""
    from cardref.vision.detector import PHOTO_SCALES

    found = Detector(SpeckBackend(n, px), scales=PHOTO_SCALES).find_corners(np.zeros((*hw, 3), np.uint8))
    assert any(c.box == (500.0, 500.0, 506.0, 506.0) for c in found) is speck_kept
    # the indices themselves are all kept (each look's: the close-up is also looked at shrunk)
    assert sum(c.conf == 0.9 and c.box[1] == 10.0 for c in found) == n


def test_drop_specks_keeps_boxes_at_a_quarter_of_the_median() -> None:
    from cardref.vision.detector import SPECK_SHARE, drop_specks

    sure = [CornerDetection("?", 0.9, (0.0, 0.0, 40.0, 80.0)) for _ in range(3)]
    at_share = CornerDetection("?", 0.1, (0.0, 0.0, 10.0, 80.0 * SPECK_SHARE))
    below = CornerDetection("?", 0.1, (0.0, 0.0, 5.0, 80.0 * SPECK_SHARE - 1))
    assert drop_specks([*sure, at_share, below]) == [*sure, at_share]
