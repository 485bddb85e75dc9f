"""The namer's suit confusions: clubs as spades, hearts as diamonds (issue #33 item 3)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cardref.datasets import suit_confusion as sc


def test_counts_each_true_suit_and_its_partner() -> None:
    want = ["AC", "AC", "AS", "KH", "SJ", "10D"]
    got = ["AS", "none", "AS", "KD", "SJ", "9D"]
    r = sc.suit_confusion(want, got)
    assert r["n"] == 5  # the joker has no suit
    assert r["table"]["C"] == {"S": 1, "H": 0, "D": 0, "C": 0, "-": 1}
    assert r["pairs"] == {"C->S": 0.5, "S->C": 0.0, "H->D": 1.0, "D->H": 0.0}
    assert r["suit_right"] == 0.4  # AS, and 10D read 9D: the suit is right
    assert sc.suit_confusion([], [])["pairs"]["C->S"] is None
    table = sc.format_suit_confusion({"a set": r})
    assert "C->S" in table and "a set" in table and "0.500" in table


class _AlwaysAceOfSpades:
    def __init__(self, path, **kwargs):
        pass

    def probabilities(self, patches):
        from cardref.vision.detector.namer import NAMER_CLASSES

        p = np.zeros((len(patches), len(NAMER_CLASSES)), np.float32)
        p[:, NAMER_CLASSES.index("AS")] = 1.0
        return p


def test_each_design_is_read_at_webcam_heights(small_library, monkeypatch) -> None:
    from cardref.vision.detector import namer as namer_module

    monkeypatch.setattr(namer_module, "CornerNamer", _AlwaysAceOfSpades)
    r = sc.design_confusion(Path("unused.onnx"), [small_library[0]])[small_library[0]]
    assert r["n"] == 52 * len(sc.CLEAN_SIZES)
    assert r["pairs"] == {"C->S": 1.0, "S->C": 0.0, "H->D": 0.0, "D->H": 0.0} and r["suit_right"] == 0.25


def test_scenes_and_real_photos_are_read_at_their_labels(small_library, tmp_path, monkeypatch,
                                                          fake_real_cards) -> None:
    from cardref.datasets.generate import generate
    from cardref.vision.classes import CLASS_NAMES
    from cardref.vision.detector import namer as namer_module

    monkeypatch.setattr(namer_module, "CornerNamer", _AlwaysAceOfSpades)
    generate(tmp_path / "set", 2, seed=5, split="val", workers=1, progress=False)
    scenes = sc.scene_confusion(Path("unused.onnx"), tmp_path / "set")
    assert scenes["images"] == 2 and scenes["n"] > 0
    labels = [line.split()[0] for f in (tmp_path / "set" / "labels" / "val").iterdir()
              for line in f.read_text().splitlines()]
    suited = [CLASS_NAMES[int(c)] for c in labels if CLASS_NAMES[int(c)] not in ("SJ", "BJ")]
    assert scenes["n"] == len(suited)
    assert scenes["table"]["S"]["S"] == sum(c.endswith("S") for c in suited)
    src = fake_real_cards(tmp_path / "set")
    real = sc.real_confusion(Path("unused.onnx"), src, mapped=tmp_path / "mapped")
    assert list(real) == ["black-and-gold deck (phone-iphone)"]
    assert real["black-and-gold deck (phone-iphone)"]["n"] == scenes["n"]
