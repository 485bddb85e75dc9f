"""Backends: the PyTorch, ONNX Runtime and OpenVINO paths decode the same model the same way.

Runs on the tiny fixture model (tests/fixtures/detector, see make_fixture.py): a
YOLO11-shaped network with the 54 card classes, trained briefly on drawn cards.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.datasets.export import compare_corners
from cardref.vision.classes import CLASS_NAMES
from cardref.vision.detector import (
    DetectorError,
    ModelFileError,
    load_detector,
)
from cardref.vision.detector.backends import OnnxBackend, TorchBackend
from cardref.vision.detector.decode import decode_yolo, letterbox

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "detector"
PT, ONNX = FIXTURES / "tiny.pt", FIXTURES / "tiny.onnx"
FRAMES = sorted(FIXTURES.glob("*.jpg"))


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    assert len(FRAMES) >= 2
    return [cv2.imread(str(p)) for p in FRAMES]


@pytest.fixture(scope="module")
def torch_backend() -> TorchBackend:
    return TorchBackend(PT)


@pytest.fixture(scope="module")
def onnx_backend() -> OnnxBackend:
    return OnnxBackend(ONNX)


def test_onnx_metadata_gives_classes_and_input(onnx_backend: OnnxBackend, torch_backend) -> None:
    assert onnx_backend.names == CLASS_NAMES
    assert onnx_backend.input_shape == (192, 320)
    assert torch_backend.input_shape == (192, 320)  # taken from the export beside the weights
    assert TorchBackend(PT, imgsz=1280).input_shape == (736, 1280)


def test_decoding_matches_ultralytics_own_predictions(torch_backend, frames) -> None:
    """Our letterbox + decode + NMS against ultralytics' predictor on the same weights."""
    import os

    os.environ.setdefault("YOLO_OFFLINE", "1")
    from ultralytics import YOLO

    yolo = YOLO(str(PT), task="detect")
    for frame in frames:  # 640x360: ultralytics' rect letterbox at imgsz 320 is 320x192 too
        res = yolo.predict(frame, imgsz=320, conf=torch_backend.conf, iou=torch_backend.iou, agnostic_nms=True,
                           device="cpu", verbose=False)[0]
        theirs = sorted((CLASS_NAMES[int(c)], round(float(s), 3), tuple(np.round(b.numpy(), 0)))
                        for b, s, c in zip(res.boxes.xyxy, res.boxes.conf, res.boxes.cls, strict=True))
        ours = sorted((c.card, round(c.conf, 3), tuple(np.round(c.box, 0))) for c in torch_backend.detect_corners(frame))
        assert [t[0] for t in theirs] == [o[0] for o in ours]
        for t, o in zip(theirs, ours, strict=True):
            assert abs(t[1] - o[1]) < 0.005 and np.allclose(t[2], o[2], atol=1.0)


def test_torch_and_onnx_find_the_same_corners(torch_backend, onnx_backend, frames) -> None:
    report = compare_corners(torch_backend, onnx_backend, frames)
    assert report.agree, report.summary()
    assert report.matched >= 6, report.summary()  # the fixture frames do show cards
    assert report.max_conf_diff < 0.01 and report.min_iou > 0.98, report.summary()


def test_torch_and_onnx_give_the_same_cards(frames) -> None:
    torch_det = load_detector("torch", PT)
    onnx_det = load_detector("onnx", ONNX)
    for frame in frames:
        a, b = torch_det.detect(frame), onnx_det.detect(frame)
        assert [c.card for c in a] == [c.card for c in b]
        assert [len(c.corners) for c in a] == [len(c.corners) for c in b]
        for x, y in zip(a, b, strict=True):
            assert np.allclose(x.box, y.box, atol=1.0)
    assert any(len(c.corners) == 2 for f in frames for c in onnx_det.detect(f)), "no corners merged"


def test_openvino_agrees_with_onnx(onnx_backend, frames) -> None:
    pytest.importorskip("openvino")
    from cardref.vision.detector.backends import OpenVinoBackend

    ov = OpenVinoBackend(ONNX, precision="f32")
    report = compare_corners(onnx_backend, ov, frames)
    assert report.agree and report.matched >= 6, report.summary()
    assert report.max_conf_diff < 0.01, report.summary()


def test_auto_prefers_the_fastest_backend_with_a_model_file() -> None:
    pytest.importorskip("openvino")
    assert load_detector("auto", PT).name == "openvino"  # tiny.onnx lies beside tiny.pt
    assert load_detector("onnx", PT).model_path == ONNX


def test_missing_model_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.pt"
    with pytest.raises(ModelFileError) as exc:
        load_detector("auto", missing)
    assert str(missing) in str(exc.value)
    only_pt = tmp_path / "lonely.pt"
    only_pt.write_bytes(PT.read_bytes())
    with pytest.raises(ModelFileError) as exc:
        load_detector("onnx", only_pt)
    assert str(tmp_path / "lonely.onnx") in str(exc.value)


def test_corrupt_model_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"this is not a model")
    with pytest.raises(ModelFileError) as exc:
        load_detector("onnx", bad)
    assert str(bad) in str(exc.value)
    bad_pt = tmp_path / "bad.pt"
    bad_pt.write_bytes(b"not a checkpoint either")
    with pytest.raises(ModelFileError) as exc:
        load_detector("torch", bad_pt)
    assert str(bad_pt) in str(exc.value)


def test_unknown_backend_and_bad_frame(onnx_backend) -> None:
    with pytest.raises(DetectorError):
        load_detector("tensorrt", ONNX)
    with pytest.raises(DetectorError):
        onnx_backend.detect_corners(np.zeros((10, 10), np.uint8))


def test_letterbox_maps_boxes_back_to_the_frame() -> None:
    frame = np.zeros((360, 640, 3), np.uint8)
    blob, lb = letterbox(frame, (192, 320))
    assert blob.shape == (1, 3, 192, 320) and blob.dtype == np.float32
    assert (lb.scale, lb.pad_x, lb.pad_y) == (0.5, 0.0, 6.0)
    box = lb.to_frame(np.array([[10.0, 16.0, 30.0, 46.0]]))
    assert np.allclose(box, [[20.0, 20.0, 60.0, 80.0]])


def test_decode_suppresses_one_index_read_twice() -> None:
    nc = 3
    out = np.zeros((1, 4 + nc, 4), np.float32)
    # cx, cy, w, h ; then class scores
    out[0, :4, 0] = [50, 50, 20, 40]
    out[0, 4 + 1, 0] = 0.9  # class 1, strong
    out[0, :4, 1] = [51, 50, 20, 40]
    out[0, 4 + 2, 1] = 0.6  # same place, another class: one index has one identity
    out[0, :4, 2] = [150, 50, 20, 40]
    out[0, 4 + 0, 2] = 0.5
    out[0, :4, 3] = [300, 50, 20, 40]
    out[0, 4 + 0, 3] = 0.1  # under the threshold
    boxes, scores, cls = decode_yolo(out, conf=0.25, iou=0.7)
    assert cls.tolist() == [1, 0]
    assert np.allclose(scores, [0.9, 0.5])
    assert np.allclose(boxes[0], [40, 30, 60, 70])


def test_letterbox_pads_a_small_frame_instead_of_enlarging_it() -> None:
    # the detector is trained at the camera's own pixel scale: a small frame keeps its size
    frame = np.full((100, 200, 3), 7, np.uint8)
    blob, lb = letterbox(frame, (192, 320))
    assert lb.scale == 1.0 and (lb.pad_x, lb.pad_y) == (60.0, 46.0)
    assert np.allclose(blob[0, :, 46:146, 60:260], 7 / 255.0)
    assert np.allclose(lb.to_frame(np.array([[70.0, 56.0, 90.0, 96.0]])), [[10.0, 10.0, 30.0, 50.0]])
