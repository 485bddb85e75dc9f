"""The suit reader: the face patch cut between a card's two indices, the suit reconsidered
among the indices' own readings, and a detector that uses it only when it has the frame."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.vision.detector import Detector, ModelFileError, SuitReader, load_detector
from cardref.vision.detector.body import BODY_SIZE, SUITS, body_patch, diagonal, index_readings, reconsider
from cardref.vision.detector.namer import CornerNamer
from cardref.vision.types import CardDetection, CornerDetection

torch = pytest.importorskip("torch")  # the stand-in models are exported with PyTorch (dev install)


def _corner(code: str, centre: tuple[float, float], alts: tuple = (), size: float = 10) -> CornerDetection:
    x, y = centre
    return CornerDetection(code, 0.9, (x - size / 2, y - size, x + size / 2, y + size), alts)


def _card(code: str, *corners: CornerDetection) -> CardDetection:
    xs = [v for c in corners for v in (c.box[0], c.box[2])]
    ys = [v for c in corners for v in (c.box[1], c.box[3])]
    return CardDetection(code, 0.9, (min(xs), min(ys), max(xs), max(ys)), corners)


def _suits(**p: float) -> np.ndarray:
    return np.array([p.get(s, 0.0) for s in SUITS], np.float32)


# ---------------------------------------------------------------- the patch


def test_patch_is_centred_between_the_indices_and_turned_along_them() -> None:
    frame = np.full((300, 300, 3), 128, np.uint8)
    cv2.circle(frame, (150, 150), 4, (255, 255, 255), -1)   # the card's middle: white
    a, b = (110.0, 190.0), (190.0, 110.0)                   # a diagonal going up-right
    at_a = (int(150 + (a[0] - 150) * 0.3), int(150 + (a[1] - 150) * 0.3))
    cv2.circle(frame, at_a, 4, (0, 0, 255), -1)             # red on a's side of the middle
    patch = body_patch(frame, a, b)
    assert patch is not None and patch.shape == (BODY_SIZE, BODY_SIZE, 3)
    c = BODY_SIZE // 2
    assert patch[c, c].min() > 200                                   # white in the middle
    red = np.argwhere((patch[..., 2] > 200) & (patch[..., 0] < 80))
    assert len(red) and abs(red[:, 0].mean() - c) < 2               # on the middle row...
    assert red[:, 1].mean() < c - 4                                  # ...left: a -> b points right
    # swapping the indices gives the half turn
    swapped = body_patch(frame, b, a)
    assert np.array_equal(swapped, np.rot90(patch, 2)) or np.abs(
        swapped.astype(int) - np.rot90(patch, 2).astype(int)).mean() < 3


def test_patch_side_follows_the_distance_between_the_indices() -> None:
    frame = np.zeros((400, 400, 3), np.uint8)
    cv2.rectangle(frame, (180, 180), (220, 220), (255, 255, 255), -1)  # a 40 px square
    near = body_patch(frame, (150, 200), (250, 200))   # 100 px apart: 80 px seen
    far = body_patch(frame, (100, 200), (300, 200))    # 200 px apart: 160 px seen
    assert near is not None and far is not None
    share_near, share_far = (near > 127).mean(), (far > 127).mean()
    assert share_near == pytest.approx((40 / 80) ** 2, abs=0.06)
    assert share_far == pytest.approx((40 / 160) ** 2, abs=0.03)


def test_no_patch_for_indices_on_top_of_each_other() -> None:
    assert body_patch(np.zeros((50, 50, 3), np.uint8), (20, 20), (21, 21)) is None


def test_diagonal_is_the_farthest_pair_and_needs_two_indices() -> None:
    four = _card("5H", _corner("5H", (0, 0)), _corner("5H", (60, 0)), _corner("5H", (60, 90)), _corner("5H", (0, 90)))
    pair = diagonal(four)
    assert pair is not None and math.dist(*pair) == pytest.approx(math.hypot(60, 90))
    assert diagonal(_card("5H", _corner("5H", (0, 0)))) is None


# ---------------------------------------------------------------- the decision


def test_a_face_showing_clubs_turns_a_spade_reading_into_clubs() -> None:
    card = _card("2S", _corner("2S", (0, 0), (("2S", 0.6), ("2C", 0.35))),
                 _corner("2S", (50, 80), (("2S", 0.55), ("2C", 0.4))))
    assert index_readings(card)["2C"] == pytest.approx(0.375)
    assert reconsider(card, _suits(C=0.95, S=0.05)).card == "2C"


def test_an_unsure_face_leaves_the_indices_reading() -> None:
    card = _card("2S", _corner("2S", (0, 0), (("2S", 0.6), ("2C", 0.35))),
                 _corner("2S", (50, 80), (("2S", 0.55), ("2C", 0.4))))
    assert reconsider(card, _suits(C=0.55, S=0.45)).card == "2S"


def test_the_face_chooses_only_among_suits_the_indices_found_plausible() -> None:
    # hearts is not among the indices' readings: the face cannot bring it in, nor a rank
    card = _card("7S", _corner("7S", (0, 0), (("7S", 0.9), ("1S", 0.0))), _corner("7S", (50, 80), (("7S", 0.9),)))
    assert reconsider(card, _suits(H=0.99)).card == "7S"
    card = _card("7S", _corner("7S", (0, 0), (("7S", 0.5), ("8C", 0.45))), _corner("7S", (50, 80), (("7S", 0.6),)))
    assert reconsider(card, _suits(C=0.99, S=0.01)).card == "7S"


def test_jokers_and_court_cards_are_never_reconsidered() -> None:
    card = _card("BJ", _corner("BJ", (0, 0), (("BJ", 0.6),)), _corner("BJ", (50, 80), (("BJ", 0.6),)))
    assert reconsider(card, _suits(S=1.0)) is card
    # a court card's picture shows its suit small or not at all: its indices decide
    queen = _card("QS", _corner("QS", (0, 0), (("QS", 0.55), ("QC", 0.45))),
                  _corner("QS", (50, 80), (("QS", 0.55), ("QC", 0.45))))
    assert reconsider(queen, _suits(C=0.99, S=0.01)) is queen


# ---------------------------------------------------------------- the reader and the detector


class SuitNet(torch.nn.Module):
    """A stand-in reader: a reddish patch is hearts, anything else clubs (both sure)."""

    def forward(self, x):  # noqa: ANN001, ANN201
        r, g, b = x.mean(dim=(2, 3)).unbind(1)
        logits = torch.zeros((x.shape[0], len(SUITS)))
        logits[:, SUITS.index("H")] = 100 * (r - g - b)
        logits[:, SUITS.index("C")] = 100 * (g + b - r)
        return logits


@pytest.fixture(scope="module")
def suit_model(tmp_path_factory) -> Path:
    from cardref.datasets.body_train import export_onnx

    return export_onnx(SuitNet(), tmp_path_factory.mktemp("suits") / "suits.onnx")


def test_reader_reads_faces_and_leaves_lone_indices_alone(suit_model: Path) -> None:
    frame = np.full((200, 300, 3), 200, np.uint8)
    frame[20:120, 20:90] = (40, 40, 230)  # a red card face (BGR) between (25, 25) and (85, 115)
    red = _card("5D", _corner("5D", (25, 25), (("5D", 0.5), ("5H", 0.45))),
                _corner("5D", (85, 115), (("5D", 0.5), ("5H", 0.45))))
    lone = _card("5D", _corner("5D", (220, 60), (("5D", 0.5), ("5H", 0.45))))
    grey = _card("3S", _corner("3S", (150, 100), (("3S", 0.6), ("3C", 0.3))),
                 _corner("3S", (210, 190), (("3S", 0.6), ("3C", 0.3))))
    reader = SuitReader(suit_model)
    out = reader.reconsider(frame, [red, lone, grey])
    assert [c.card for c in out] == ["5H", "5D", "3C"]


def test_missing_reader_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="suit reader"):
        SuitReader(tmp_path / "nope.onnx")


def test_a_namer_is_not_a_suit_reader(tmp_path: Path) -> None:
    from cardref.vision.detector.namer_finetune import build_net, export_onnx

    path = export_onnx(build_net(), tmp_path / "namer.onnx")
    with pytest.raises(ModelFileError, match="another class list"):
        SuitReader(path)


def test_detector_reads_suits_only_with_the_frame(suit_model: Path) -> None:
    frame = np.full((200, 300, 3), 200, np.uint8)
    frame[20:120, 20:90] = (40, 40, 230)
    det = Detector(backend=None, suits=SuitReader(suit_model))  # merging needs no finder
    corners = [_corner("5D", (25, 25), (("5D", 0.5), ("5H", 0.45))),
               _corner("5D", (85, 115), (("5D", 0.5), ("5H", 0.45)))]
    assert [c.card for c in det.merge_cards(corners)] == ["5D"]            # no frame: indices alone
    assert [c.card for c in det.merge_cards(corners, frame)] == ["5H"]     # the face read too


def test_shipped_detector_has_the_shipped_reader() -> None:
    det = load_detector()
    assert isinstance(det.namer, CornerNamer) and isinstance(det.suits, SuitReader)
    assert load_detector(suit_reader=False).suits is None


def test_shipped_model_files_fit_the_20_mb_budget() -> None:
    """Issue #5: the shipped weights and exports together stay small enough to commit."""
    from cardref.vision.detector import models_dir

    files = [p for p in models_dir().iterdir() if p.suffix in (".pt", ".onnx", ".xml", ".bin")]
    assert {"cards-yolo11n.pt", "cards-yolo11n.onnx", "corner-namer.onnx", "suit-reader.onnx"} <= {p.name for p in files}
    assert sum(p.stat().st_size for p in files) <= 20_000_000
