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
    assert set(figures) == {"shipped", "by_view", "cross_validated", "tables"}
    assert list(figures["by_view"]) == ["photo"]
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


def _two_views(seed: int = 5, n: int = 1600) -> list[cc.Scored]:
    """Close-ups read as in :func:`_scored`, and the same decks at a webcam's scale, where a
    card of the same naming evidence is right less often."""
    rng = random.Random(seed)
    out = _scored(seed, n // 2)
    for i in range(n // 2):
        deck = "A" if i % 2 else "B"
        kind = "2+ small" if rng.random() < 0.5 else "1 small"
        score = rng.random() ** 0.5
        p_right = 0.97 if score > 0.9 else 0.3 + 0.5 * score
        out.append(cc.Scored(deck, score, kind, rng.random() < p_right, cc.webcam_view_name(15)))
    return out


def test_small_cards_are_read_from_their_own_tables_so_sure_stays_right_on_them():
    """At a webcam's scale a card of the same naming evidence is right less often: fitted on
    the close-ups alone, the webcam view's sure cards are wrong 3 to 4 times in 100; read
    from the small cards' own tables they are wrong less often, and the sure cards of all
    views together are right 99 % of the time."""
    cards = _two_views()
    cal = cc.fit(cards, "fixture", {})
    assert set(cal.tables) == {"1", "2+", "1 small", "2+ small"}
    everything = cc.report(cal, cards, true_cards=2000)
    assert everything["sure"] >= cc.SURE_MIN_CARDS and everything["sure_precision"] >= cc.SURE_PRECISION
    small = [c for c in cards if c.view != "photo"]
    close_ups_only = cc.fit([c for c in cards if c.view == "photo"], "fixture", {})
    before = cc.report(close_ups_only, small, true_cards=1000)["sure_precision"]
    after = cc.report(cal, small, true_cards=1000)["sure_precision"]
    assert before < cc.SURE_PRECISION - 0.02 and after > before
    by_view = cc.by_view(cal, cards, Counter({"A | photo": 300, "B": 300, "A | webcam 15 px": 250}))
    assert list(by_view) == ["photo", "webcam 15 px"]
    assert by_view["photo"]["cards_true"] == 600 and by_view["webcam 15 px"]["cards_true"] == 250


def test_a_small_kind_with_few_cards_reads_its_base_kinds_table():
    cards = _scored() + [cc.Scored("A", 0.99, "1 small", True, "webcam 12 px")] * (cc.SMALL_KIND_MIN_CARDS - 1)
    cal = cc.fit(cards, "fixture", {})
    assert "1 small" not in cal.tables and "2+ small" not in cal.tables
    assert cal.table_for("1 small") is cal.tables["1"]


def test_true_counts_by_deck_and_view_read_older_records_as_photos():
    counts = Counter({"A": 10, "A | webcam 15 px": 4, "B | photo": 7})
    assert cc.true_count(counts) == 21
    assert cc.true_count(counts, deck="A") == 14
    assert cc.true_count(counts, view="photo") == 17
    assert cc.true_count(counts, deck="A", view="webcam 15 px") == 4


def test_calibrate_conf_refuses_a_webcam_height_of_zero(capsys):
    assert main(["calibrate-conf", "--webcam-px", "0", "--dry-run", "--limit", "1"]) == 2
    assert "above 0 px" in capsys.readouterr().err
