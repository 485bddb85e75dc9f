"""Corner-namer patches: every labelled index gives its patches under its own class, jittered
boxes stay near the index, 'not a corner' patches keep off the labels; the real-photo split."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.datasets.generate import generate
from cardref.datasets.namer_data import (
    JITTER,
    NONE_ID,
    _overlap,
    image_patches,
    jittered,
    label_file_for,
    patches_from,
    read_boxes,
)
from cardref.vision.classes import CLASS_INDEX
from cardref.vision.detector.namer import CROP_SIZE


def test_label_file_follows_the_ultralytics_rule() -> None:
    assert label_file_for(Path("/d/images/train/x.jpg")) == Path("/d/labels/train/x.txt")
    assert label_file_for(Path("/images/set/images/a.png")) == Path("/images/set/labels/a.txt")


def test_jittered_boxes_stay_within_the_jitter() -> None:
    rng = np.random.default_rng(0)
    box = (100.0, 100.0, 120.0, 140.0)
    for _ in range(200):
        j = jittered(box, rng)
        assert abs((j[0] + j[2]) / 2 - 110) <= JITTER * 40 + 1e-9
        assert abs((j[1] + j[3]) / 2 - 120) <= JITTER * 40 + 1e-9
        assert (1 - JITTER) * 20 - 1e-9 <= j[2] - j[0] <= (1 + JITTER) * 20 + 1e-9


def test_image_patches_counts_and_negatives_keep_off_labels() -> None:
    img = np.full((240, 320, 3), 90, np.uint8)
    boxes = [(CLASS_INDEX["6H"], (20.0, 20.0, 40.0, 50.0)), (CLASS_INDEX["9S"], (200.0, 150.0, 220.0, 180.0))]
    xs, ys = image_patches(img, boxes, np.random.default_rng(1), copies=3, negatives=4)
    counts = Counter(ys)
    assert counts[CLASS_INDEX["6H"]] == 3 and counts[CLASS_INDEX["9S"]] == 3 and counts[NONE_ID] == 4
    assert all(x.shape == (CROP_SIZE, CROP_SIZE, 3) for x in xs)
    # no negatives for an image without labels: there is no index size to imitate
    assert image_patches(img, [], np.random.default_rng(1))[1] == []


def test_overlap_is_intersection_over_the_smaller_box() -> None:
    assert _overlap((0, 0, 10, 10), (5, 5, 15, 15)) == pytest.approx(0.25)
    assert _overlap((0, 0, 10, 10), (2, 2, 4, 4)) == pytest.approx(1.0)
    assert _overlap((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0


def test_patches_from_generated_scenes_are_centred_on_their_labels(small_library, tmp_path) -> None:
    generate(tmp_path, 3, seed=11, split="train", workers=1, progress=False)
    images = sorted((tmp_path / "images" / "train").iterdir())
    x, y = patches_from(images, seed=0, copies=1, negatives=0, progress=False)
    n_labels = 0
    for p in images:
        img = cv2.imread(str(p))
        boxes = read_boxes(label_file_for(p), img.shape[1], img.shape[0])
        n_labels += len(boxes)
    assert len(y) == n_labels > 0 and x.dtype == np.uint8
    assert NONE_ID not in set(y.tolist())
    again = patches_from(images, seed=0, copies=1, negatives=0, progress=False)
    assert np.array_equal(again[0], x) and np.array_equal(again[1], y)  # deterministic


def test_real_split_holds_out_the_later_photos_and_the_other_deck(tmp_path) -> None:
    from cardref.datasets.evaluate import REAL_TUNE_SHARE, real_cards_split

    (tmp_path / "images").mkdir()
    names = [f"phone-android-IMG_{i:03d}.jpg" for i in range(10)] + [f"phone-iphone-{i}.jpg" for i in range(4)]
    for n in names:
        (tmp_path / "images" / n).write_bytes(b"")
    tune, held = real_cards_split(tmp_path)
    assert len(tune) == int(10 * REAL_TUNE_SHARE)
    assert all(p.name.startswith("phone-android-") for p in tune)
    assert max(p.name for p in tune) < min(p.name for p in held if p.name.startswith("phone-android-"))
    assert sum(p.name.startswith("phone-iphone-") for p in held) == 4
    assert not set(tune) & set(held) and len(tune) + len(held) == len(names)


def test_mixed_data_yaml_adds_only_the_tuning_photos(tmp_path) -> None:
    import yaml

    from cardref.datasets.evaluate import mixed_data_yaml, real_cards_split
    from cardref.datasets.train import _dataset_counts

    real = tmp_path / "real"
    (real / "images").mkdir(parents=True)
    (real / "labels").mkdir()
    (real / "data.yaml").write_text("names: ['AS', 'BACK', 'BJ']\n")
    for i in range(10):
        (real / "images" / f"phone-android-{i}.jpg").write_bytes(b"x")
        (real / "labels" / f"phone-android-{i}.txt").write_text("0 0.5 0.5 0.1 0.1\n1 0.2 0.2 0.3 0.3\n")
    synth = tmp_path / "synth"
    for split in ("train", "val"):
        (synth / "images" / split).mkdir(parents=True)
        (synth / "labels" / split).mkdir(parents=True)
        for i in range(3):
            (synth / "images" / split / f"{split}_{i}.jpg").write_bytes(b"x")
            (synth / "labels" / split / f"{split}_{i}.txt").write_text("5 0.5 0.5 0.1 0.1\n")
    mapped = tmp_path / "mapped"
    y = mixed_data_yaml(synth, tmp_path / "mixed", real_repeat=2, src=real, mapped=mapped)
    meta = yaml.safe_load(y.read_text())
    train = (y.parent / meta["train"]).read_text().split()
    tune, held = real_cards_split(mapped)
    assert len(train) == 3 + 2 * len(tune) and not {str(p.absolute()) for p in held} & set(train)
    assert len((y.parent / meta["val"]).read_text().split()) == 3
    # the mapped labels drop the card back and renumber to our classes
    assert (mapped / "labels" / "phone-android-0.txt").read_text() == "0 0.5 0.5 0.1 0.1\n"
    assert _dataset_counts(y)["train"]["images"] == 3  # counted from the synthetic set named in the yaml
