"""``cardref calibrate-conf``: the threshold it chooses, its deck cross-validation, and the
file it writes (from scored cards, without running the detector)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from cardref.cli import main
from cardref.datasets import conf_calibration as cc
from cardref.vision.detector import models_dir
from cardref.vision.detector.confidence import CONFIDENCE_FILE, load_calibration


def _scored(seed: int = 3, n: int = 800) -> list[cc.Scored]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        deck = "A" if i % 2 else "B"
        kind = "2+" if rng.random() < 0.6 else "1"
        score = rng.random() ** 0.5
        if kind == "2+":
            p_right = 1.0 if score > 0.85 else 0.5 + 0.4 * score  # two agreeing indices, read clearly
        else:
            p_right = 0.4 + 0.5 * score
        out.append(cc.Scored(deck, score, kind, rng.random() < p_right))
    return out


def test_the_chosen_threshold_keeps_the_sure_cards_right_on_the_cards_it_was_chosen_on():
    cards = _scored()
    cal = cc.fit(cards, "fixture", {})
    sure = [c for c in cards if cal.tables[c.kind].probability(c.score) >= cal.sure_at]
    assert len(sure) >= cc.SURE_MIN_CARDS
    assert sum(c.right for c in sure) / len(sure) >= cc.SURE_PRECISION
    lower = [c for c in cards if cal.tables[c.kind].probability(c.score) < cal.sure_at]
    assert lower and sum(c.right for c in lower) / len(lower) < cc.SURE_PRECISION
    rep = cc.report(cal, cards, true_cards=1000)
    assert rep["sure"] == len(sure) and rep["sure_precision"] >= 0.99
    assert rep["true_cards_marked_sure"] == round(sum(c.right for c in sure) / 1000, 4)


def test_cross_validation_fits_on_one_deck_and_scores_the_other():
    cv = cc.cross_validate(_scored(), Counter({"A": 500, "B": 500}), {})
    assert sorted(cv) == ["fitted on A, scored on B", "fitted on B, scored on A"]
    for res in cv.values():
        assert res["cards_reported"] == 400 and res["cards_true"] == 500


def test_the_command_writes_a_calibration_for_the_shipped_models(tmp_path: Path, capsys):
    records = tmp_path / "records.json"
    cards = _scored()
    cc.save_records(cards, Counter({"A": 450, "B": 450}), records)
    assert cc.load_records(records) == (cards, Counter({"A": 450, "B": 450}))
    assert main(["calibrate-conf", "--records", str(records), "--out", str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"shipped", "cross_validated", "tables"}
    written = tmp_path / CONFIDENCE_FILE
    shipped = [models_dir() / n for n in ("cards-yolo11n.onnx", "corner-namer.onnx", "suit-reader.onnx")]
    cal = load_calibration(written, shipped)
    assert cal is not None and cal.sure_at == figures["shipped"]["sure_at"]


def test_a_dry_run_writes_nothing(tmp_path: Path, capsys):
    records = tmp_path / "records.json"
    cc.save_records(_scored(), Counter({"A": 450, "B": 450}), records)
    assert main(["calibrate-conf", "--records", str(records), "--out", str(tmp_path), "--dry-run"]) == 0
    assert not (tmp_path / CONFIDENCE_FILE).exists()


def test_cards_read_by_int8_copies_fit_the_int8_calibration(tmp_path: Path, capsys):
    """Records scored where the INT8 copies ran name those files: the fit goes to
    confidence-int8.json, tied to them, and confidence.json (the float files') is left alone."""
    from cardref.vision.detector.confidence import INT8_CONFIDENCE_FILE
    from cardref.vision.detector.digest import file_digest

    files = [models_dir() / n for n in ("cards-yolo11n-int8.onnx", "corner-namer-int8.onnx", "suit-reader.onnx")]
    models = {p.name: file_digest(p) for p in files}
    records = tmp_path / "records.json"
    cc.save_records(_scored(), Counter({"A": 450, "B": 450}), records, models)
    assert cc.records_models(records) == models
    assert main(["calibrate-conf", "--records", str(records), "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert not (tmp_path / CONFIDENCE_FILE).exists()
    cal = load_calibration(tmp_path / INT8_CONFIDENCE_FILE, files)
    assert cal is not None and cal.models == models
