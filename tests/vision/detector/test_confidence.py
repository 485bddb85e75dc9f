"""A card's ``conf`` as a calibrated probability and its ``sure`` flag (issue 33 item 5)."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import cv2
import pytest

from cardref.vision.detector import load_detector, models_dir
from cardref.vision.detector.confidence import (
    CONFIDENCE_FILE,
    INT8_CONFIDENCE_FILE,
    ConfidenceCalibration,
    ReliabilityTable,
    calibration_file,
    calibration_for,
    evidence,
    kind_of,
    load_calibration,
    monotone,
)
from cardref.vision.detector.digest import file_digest
from cardref.vision.types import CardDetection, CornerDetection

EDGES = (0.0, 0.25, 0.5, 0.75, 1.0001)


def _corner(code: str, p: float) -> CornerDetection:
    return CornerDetection(code, p * 0.8, (0, 0, 10, 14), ((code, p), ("8C", (1 - p) / 2)))


def _card(code: str, *ps: float) -> CardDetection:
    corners = tuple(_corner(code, p) for p in ps)
    return CardDetection(code, max(c.conf for c in corners), (0, 0, 30, 40), corners)


@pytest.mark.parametrize(("values", "weights", "expected"), [
    ([0.1, 0.5, 0.9], [1, 1, 1], [0.1, 0.5, 0.9]),          # already rising: unchanged
    ([0.6, 0.2, 0.9], [1, 1, 1], [0.4, 0.4, 0.9]),          # one fall pooled
    ([0.6, 0.2, 0.9], [3, 1, 1], [0.5, 0.5, 0.9]),          # pooled by weight
    ([0.9, 0.5, 0.1], [1, 1, 1], [0.5, 0.5, 0.5]),          # all falling: one block
])
def test_monotone_pools_adjacent_violators(values, weights, expected):
    assert monotone(values, weights) == pytest.approx(expected)


def test_a_fitted_table_never_falls_on_a_noisy_fixture_set():
    rng = random.Random(5)
    scores = [rng.random() for _ in range(600)]
    right = [rng.random() < 0.3 + 0.65 * s for s in scores]  # truly rising, noisy per bin
    table = ReliabilityTable.fit(scores, right, EDGES)
    assert list(table.p) == sorted(table.p)
    sweep = [table.probability(i / 100) for i in range(101)]
    assert sweep == sorted(sweep) and 0.0 <= sweep[0] and sweep[-1] <= 1.0
    assert sum(table.n) == 600 and sum(table.right) == sum(right)
    assert table.p[0] < 0.5 < table.p[-1]  # the low bin is mostly wrong, the high one mostly right


def test_a_small_bin_does_not_claim_certainty():
    table = ReliabilityTable.fit([0.1] * 40 + [0.9] * 2, [False] * 20 + [True] * 20 + [True] * 2, EDGES)
    assert table.p[-1] < 1.0


def test_two_indices_that_agree_are_more_evidence_than_one():
    one, two = _card("7H", 0.9), _card("7H", 0.9, 0.8)
    assert evidence(one) == pytest.approx(0.9)
    assert evidence(two) == pytest.approx(1 - 0.1 * 0.2)
    unnamed = CardDetection("7H", 0.42, (0, 0, 1, 1), (CornerDetection("7H", 0.42, (0, 0, 1, 1)),))
    assert evidence(unnamed) == 0.42  # a finder that names its own corners: its score


def _calibration(sure_at: float = 0.9, models: dict | None = None) -> ConfidenceCalibration:
    table = ReliabilityTable(EDGES, (10, 10, 10, 10), (2, 5, 8, 10), (0.2, 0.5, 0.8, 0.99))
    return ConfidenceCalibration({"1": table, "2+": table}, sure_at, models or {})


@pytest.mark.parametrize(("card", "sure"), [
    (_card("QS", 0.99, 0.99), True),   # evidence ~1: p 0.99
    (_card("QS", 0.5), False),         # evidence 0.5: p 0.65
    (_card("QS", 0.1), False),
])
def test_apply_gives_the_probability_and_marks_the_sure_cards(card, sure):
    cal = _calibration()
    (out,) = cal.apply([card])
    assert out.sure is sure and out.conf == cal.probability(card)
    assert out.to_json()["sure"] is sure and out.card == card.card and out.corners == card.corners
    assert "sure" not in card.to_json()  # uncalibrated: left out


def test_the_calibration_holds_only_for_the_files_it_was_fitted_for(tmp_path: Path):
    a, b = tmp_path / "finder.onnx", tmp_path / "namer.onnx"
    a.write_bytes(b"finder")
    b.write_bytes(b"namer")
    cal = _calibration(models={a.name: file_digest(a), b.name: file_digest(b)})
    assert cal.holds_for([a, b]) is None
    assert "namer.onnx" in cal.holds_for([a])
    b.write_bytes(b"another namer")
    assert "namer.onnx is not the file" in cal.holds_for([a, b])
    path = tmp_path / CONFIDENCE_FILE
    cal.save(path)
    assert load_calibration(path, [a, b]) is None  # fitted for the other namer
    b.write_bytes(b"namer")
    assert load_calibration(path, [a, b]) == cal


def test_int8_copies_take_their_own_calibration_else_their_float_files(tmp_path: Path):
    """An INT8 copy reads a few cards otherwise than its float file: its own calibration
    (fitted on what it reads, tied to its digest) comes first; a missing or stale one gives
    way to the float files' calibration; float files never take the INT8 one."""
    finder, namer = tmp_path / "finder.onnx", tmp_path / "namer.onnx"
    namer8 = tmp_path / "namer-int8.onnx"
    for path in (finder, namer, namer8):
        path.write_bytes(path.name.encode())
    floats = _calibration(models={finder.name: file_digest(finder), namer.name: file_digest(namer)})
    floats = ConfidenceCalibration(floats.tables, 0.95, floats.models)
    own = ConfidenceCalibration(floats.tables, 0.9, {finder.name: file_digest(finder), namer8.name: file_digest(namer8)})
    floats.save(tmp_path / CONFIDENCE_FILE)
    assert calibration_file([finder, namer8]) == INT8_CONFIDENCE_FILE
    assert calibration_file([finder, namer]) == CONFIDENCE_FILE
    assert calibration_for(tmp_path, [finder, namer8]).sure_at == 0.95   # none of its own yet
    own.save(tmp_path / INT8_CONFIDENCE_FILE)
    assert calibration_for(tmp_path, [finder, namer8]).sure_at == 0.9    # its own
    assert calibration_for(tmp_path, [finder, namer]).sure_at == 0.95    # the float files: theirs
    namer8.write_bytes(b"quantised again")
    assert calibration_for(tmp_path, [finder, namer8]).sure_at == 0.95   # its own is stale: the float one
    namer.write_bytes(b"another namer")
    assert calibration_for(tmp_path, [finder, namer8]) is None           # neither holds
    assert calibration_for(tmp_path, [finder, namer]) is None


@pytest.mark.parametrize("text", ["{not json", '{"sure_at": 0.9}', json.dumps(
    {"sure_at": 0.9, "models": {}, "tables": {k: {"edges": [0, 0.5, 1], "n": [1, 1], "right": [1, 0], "p": [0.9, 0.1]}
                                              for k in ("1", "2+")}})])
def test_a_broken_calibration_file_is_a_log_line_not_an_error(tmp_path: Path, caplog, text):
    path = tmp_path / CONFIDENCE_FILE
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert load_calibration(path, []) is None
    assert str(path) in caplog.text and "no card is marked sure" in caplog.text


def test_the_shipped_detector_marks_its_cards(capsys):
    from cardref.vision.detector import calibration_files

    det = load_detector("auto")
    files = calibration_files(det.model_path, det.namer, det.suits)
    chosen = models_dir() / calibration_file(files)   # the INT8 copies' own one where they run
    if not chosen.is_file() or load_calibration(chosen, files) is None:
        chosen = models_dir() / CONFIDENCE_FILE
    shipped = json.loads(chosen.read_text(encoding="utf-8"))
    assert 0.5 < shipped["sure_at"] < 1.0
    assert det.confidence is not None and det.confidence.sure_at == shipped["sure_at"]
    frame = cv2.imread(str(models_dir() / "int8-check" / "scene-0.jpg"))
    cards = det.detect(frame)
    assert cards and all(c.sure is (c.conf >= det.confidence.sure_at) for c in cards)
    assert all(0.0 <= c.conf <= 1.0 for c in cards)
    assert load_detector("auto", calibrated=False).confidence is None
    assert load_detector("auto", suit_reader=False).confidence is None  # fitted with the suit reader


def _sized(code: str, side: float, *ps: float) -> CardDetection:
    corners = tuple(CornerDetection(code, p * 0.8, (0, 0, side * 0.7, side), ((code, p),)) for p in ps)
    return CardDetection(code, max(c.conf for c in corners), (0, 0, 3 * side, 4 * side), corners)


@pytest.mark.parametrize(("card", "kind"), [
    (_sized("7H", 15, 0.9), "1 small"),
    (_sized("7H", 15, 0.9, 0.9), "2+ small"),
    (_sized("7H", 40, 0.9), "1"),
    (_sized("7H", 40, 0.9, 0.9), "2+"),
    (CardDetection("7H", 0.5, (0, 0, 1, 1), ()), "1"),     # no index boxes: not small
])
def test_a_card_with_small_indices_is_a_kind_of_its_own(card, kind):
    assert kind_of(card) == kind


def test_small_cards_read_their_own_tables_where_the_calibration_has_them(tmp_path: Path):
    low = ReliabilityTable(EDGES, (10, 10, 10, 10), (1, 3, 5, 8), (0.1, 0.3, 0.5, 0.8))
    base = _calibration()
    small, large = _sized("QS", 15, 0.99), _sized("QS", 40, 0.99)
    assert base.probability(small) == base.probability(large)          # no small tables: the base kind's
    own = ConfidenceCalibration({**base.tables, "1 small": low, "2+ small": low}, 0.9, {})
    assert own.probability(small) < own.probability(large)
    assert [c.sure for c in own.apply([small, large])] == [False, True]
    path = tmp_path / CONFIDENCE_FILE
    own.save(path)
    assert ConfidenceCalibration.from_json(json.loads(path.read_text())) == own
    base.save(path)                                                    # an older file: base kinds only
    assert set(ConfidenceCalibration.from_json(json.loads(path.read_text())).tables) == {"1", "2+"}


def test_the_shipped_int8_calibration_holds_for_the_int8_copies_that_run():
    """models/confidence-int8.json was fitted (2026-12-08) on the files both an AVX-512 CPU with
    bf16 and an AVX2-only one (emulated) run: both INT8 copies and the suit reader.  It must
    still hold for the shipped files, so that a copy made again without a new fit fails here
    instead of falling back silently to the float files' calibration."""
    folder = models_dir()
    files = [folder / "cards-yolo11n-int8.onnx", folder / "corner-namer-int8.onnx", folder / "suit-reader.onnx"]
    own = load_calibration(folder / INT8_CONFIDENCE_FILE, files)
    assert own is not None
    assert calibration_for(folder, files) == own
    float_cal = load_calibration(folder / "confidence.json", [folder / "cards-yolo11n.onnx",
                                                              folder / "corner-namer.onnx", folder / "suit-reader.onnx"])
    assert float_cal is not None and float_cal.sure_at != own.sure_at
