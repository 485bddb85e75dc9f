"""Suit-reader data: each card with two labelled indices gives face patches between its two
farthest indices, labelled with its suit; jokers and cards seen by one index give none."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from cardref.datasets.body_train import card_pairs, patches_from_scenes
from cardref.datasets.generate import generate
from cardref.vision.classes import JOKER_CODES
from cardref.vision.detector.body import BODY_SIZE, SUITS


def _row(*labels: tuple[str, int]) -> dict:
    return {"image": "x.jpg", "labels": [{"card": c, "card_id": i, "visible": 1.0} for c, i in labels]}


def test_pairs_join_a_cards_indices_and_skip_jokers_and_lone_indices() -> None:
    boxes = [(0, (0.0, 0.0, 10.0, 20.0)), (0, (60.0, 90.0, 70.0, 110.0)),   # 7S: two indices
             (0, (200.0, 0.0, 210.0, 20.0)),                                 # 3H: one index
             (0, (300.0, 0.0, 310.0, 20.0)), (0, (360.0, 90.0, 370.0, 110.0))]  # BJ
    row = _row(("7S", 1), ("7S", 1), ("3H", 2), ("BJ", 3), ("BJ", 3))
    pairs = card_pairs(row, boxes)
    assert [(code, a, b) for code, a, b, _ in pairs] == [("7S", boxes[0][1], boxes[1][1])]


def test_pairs_take_the_diagonal_of_a_four_index_card() -> None:
    boxes = [(0, (0.0, 0.0, 10.0, 20.0)), (0, (60.0, 0.0, 70.0, 20.0)),
             (0, (60.0, 90.0, 70.0, 110.0)), (0, (0.0, 90.0, 10.0, 110.0))]
    (code, a, b, _), = card_pairs(_row(*[("QD", 5)] * 4), boxes)
    assert code == "QD" and {a, b} in ({boxes[0][1], boxes[2][1]}, {boxes[1][1], boxes[3][1]})


def test_meta_and_label_file_must_agree() -> None:
    with pytest.raises(ValueError, match="labels"):
        card_pairs(_row(("7S", 1)), [])


def test_patches_from_generated_scenes_carry_their_cards_suits(small_library, tmp_path) -> None:
    generate(tmp_path, 3, seed=11, split="train", workers=1, progress=False)
    x, y = patches_from_scenes(tmp_path, "train", seed=0, copies=2, progress=False)
    rows = [json.loads(line) for line in (tmp_path / "meta" / "train.jsonl").read_text().splitlines()]
    want: Counter = Counter()
    for row in rows:
        per_card = Counter(lab["card_id"] for lab in row["labels"])
        codes = {lab["card_id"]: lab["card"] for lab in row["labels"]}
        for cid, n in per_card.items():
            if n >= 2 and codes[cid] not in JOKER_CODES:
                want[SUITS.index(codes[cid][-1])] += 2
    assert len(y) > 0 and Counter(y.tolist()) == want
    assert x.shape[1:] == (BODY_SIZE, BODY_SIZE, 3) and x.dtype == np.uint8
    again = patches_from_scenes(tmp_path, "train", seed=0, copies=2, progress=False)
    assert np.array_equal(again[0], x) and np.array_equal(again[1], y)  # deterministic
