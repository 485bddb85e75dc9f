"""Real photos at a webcam's index heights (issue #33, items 2 and 4): the shrunk view keeps
its labels on the ink, composites carry their labels with their pixels, the finder's mixed
training set lists them, and the namer's low-resolution augmentation changes only the
patches it draws."""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.datasets.real_webcam import INDEX_PX, _turned, composite, write_composites, yolo_lines
from cardref.datasets.scale_bands import shrunk_photo_views
from cardref.datasets.webcam_view import table_frames, webcam_view
from cardref.vision.detector.merge import index_size
from cardref.vision.types import CornerDetection


def _photo(index_h: int = 60, side: int = 640) -> tuple[np.ndarray, list[CornerDetection]]:
    """A white 'photo' with black index blocks exactly under its labels."""
    img = np.full((side, side, 3), 230, np.uint8)
    corners = []
    for k, (x, y) in enumerate([(40, 50), (400, 300), (200, 500)]):
        w = index_h // 2
        img[y:y + index_h, x:x + w] = 0
        corners.append(CornerDetection(["AS", "7C", "QH"][k], 1.0, (float(x), float(y), float(x + w), float(y + index_h))))
    return img, corners


def _ink_under(img: np.ndarray, box) -> float:  # noqa: ANN001
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    return float(img[y1 + 1:y2 - 1, x1 + 1:x2 - 1].mean())


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_a_turned_photo_keeps_its_boxes_on_their_ink(k) -> None:
    img, corners = _photo(side=300)
    img = img[:, :250]                      # not square: width and height swap with each turn
    corners = [c for c in corners if c.box[2] <= 250 and c.box[3] <= 300]
    turned, boxes = _turned(img, corners, k)
    assert turned.shape[:2] == (img.shape[:2] if k % 2 == 0 else img.shape[1::-1])
    for c in boxes:
        assert _ink_under(turned, c.box) < 5, (k, c)


def test_webcam_view_shrinks_to_the_index_height_asked_for_and_never_enlarges() -> None:
    img, corners = _photo(index_h=60)
    view = webcam_view(img, corners, 15.0)
    assert view is not None
    small, scaled = view
    assert small.shape[:2] == (160, 160)
    assert statistics.median(index_size(c) for c in scaled) == pytest.approx(15.0)
    assert [c.card for c in scaled] == [c.card for c in corners]
    for c in scaled:
        assert _ink_under(small, c.box) < 40
    assert webcam_view(img, corners, 80.0) is None          # would enlarge
    assert webcam_view(img, [], 15.0) is None               # nothing labelled


def test_shrunk_photo_views_count_the_photos_left_out() -> None:
    big, big_c = _photo(index_h=60)
    small, small_c = _photo(index_h=20)
    photos = [(big, Counter({"AS": 1}), big_c), (small, Counter({"AS": 1}), small_c), (big, Counter(), [])]
    views, left_out = shrunk_photo_views(photos, (30, 45))
    assert left_out == 2 and len(views) == 1
    assert views[0][2] == 37.5 and views[0][0].shape[0] == round(640 * 37.5 / 60)


def test_composites_carry_their_labels_with_their_pixels(monkeypatch) -> None:
    from cardref.datasets import backgrounds

    monkeypatch.setattr(backgrounds, "photo_paths", lambda: ())
    rng = np.random.default_rng(4)
    photos = [_photo(index_h=h) for h in (40, 60, 90, 120)]
    seen = 0
    for _ in range(6):
        image, labels = composite(photos, rng, 320)
        assert image.shape == (320, 320, 3)
        for c in labels:
            x1, y1, x2, y2 = c.box
            assert 0 <= x1 < x2 <= 320 and 0 <= y1 < y2 <= 320
            assert INDEX_PX[0] * 0.55 <= index_size(c) <= INDEX_PX[1] * 1.05
        seen += len(labels)
        lines = yolo_lines(labels, 320).splitlines()
        assert len(lines) == len(labels)
        assert all(0 <= float(v) <= 1 for line in lines for v in line.split()[1:])
    assert seen >= 6


def test_write_composites_writes_yolo_pairs_once(tmp_path: Path, monkeypatch) -> None:
    from cardref.datasets import backgrounds

    monkeypatch.setattr(backgrounds, "photo_paths", lambda: ())
    src = tmp_path / "real"
    (src / "images").mkdir(parents=True)
    (src / "labels").mkdir()
    img, corners = _photo(index_h=60)
    cv2.imwrite(str(src / "images" / "a.jpg"), img)
    (src / "labels" / "a.txt").write_text(yolo_lines(corners, 640))
    out = write_composites([src / "images" / "a.jpg"], src / "labels", tmp_path / "rw", 3, seed=1)
    images = sorted((out / "images" / "train").glob("*.jpg"))
    assert [p.stem for p in images] == ["rw00000", "rw00001", "rw00002"]
    assert all((out / "labels" / "train" / f"{p.stem}.txt").read_text().strip() for p in images)
    stamp = images[0].stat().st_mtime_ns
    write_composites([src / "images" / "a.jpg"], src / "labels", tmp_path / "rw", 3, seed=1)
    assert images[0].stat().st_mtime_ns == stamp
    with pytest.raises(FileNotFoundError, match="no real tuning photos"):
        write_composites([], src / "labels", tmp_path / "none", 2)


def test_pixelated_changes_only_the_share_it_draws_and_blurs_fine_detail() -> None:
    import torch

    from cardref.datasets.patch_training import pixelated, pixelated_fixed

    x = torch.zeros(400, 3, 32, 32)
    x[:, :, ::2, :] = 1.0                    # one-pixel stripes: no 11-28 px copy keeps them
    out = pixelated(x.clone(), torch.Generator().manual_seed(0), p=0.4)
    changed = (out - x).abs().flatten(1).amax(1) > 0.2
    assert 100 < int(changed.sum()) < 220
    assert float(out[changed].std(dim=2).mean()) < float(x.std(dim=2).mean()) * 0.8
    assert torch.equal(out[~changed], x[~changed])
    patches = (x[:3].permute(0, 2, 3, 1).numpy() * 255).astype(np.uint8)
    fixed = pixelated_fixed(patches, 16)
    assert fixed.shape == patches.shape and fixed.dtype == np.uint8
    assert fixed.std() < patches.std() * 0.8
    assert pixelated_fixed(patches[:0], 16).shape == (0, 32, 32, 3)


def test_the_finders_mixed_set_lists_the_composites_once(tmp_path: Path) -> None:
    from cardref.datasets.evaluate import mixed_data_yaml
    from cardref.vision.classes import CLASS_NAMES

    src = tmp_path / "real"
    (src / "images").mkdir(parents=True)
    (src / "labels").mkdir()
    (src / "data.yaml").write_text("names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES)))
    img, corners = _photo()
    for k in range(4):
        cv2.imwrite(str(src / "images" / f"phone-android-{k}.jpg"), img)
        (src / "labels" / f"phone-android-{k}.txt").write_text(yolo_lines(corners, 640))
    synthetic = tmp_path / "set"
    for split in ("train", "val"):
        (synthetic / "images" / split).mkdir(parents=True)
        cv2.imwrite(str(synthetic / "images" / split / "s0.jpg"), img)
    extra = [tmp_path / "rw0.jpg", tmp_path / "rw1.jpg"]
    yaml_path = mixed_data_yaml(synthetic, tmp_path / "mixed", real_repeat=2, src=src, mapped=tmp_path / "mapped",
                                extra=extra)
    lines = (tmp_path / "mixed" / "train.txt").read_text().split()
    tuned = [line for line in lines if "phone-android" in line]
    assert len(tuned) == 2 * len(set(tuned)) and set(tuned)          # the tuning photos, twice over
    assert [line for line in lines if "rw" in Path(line).name] == [str(p.resolve()) for p in extra]
    assert "real_webcam: 2" in yaml_path.read_text()


def test_table_frames_lay_every_view_out_once_within_the_frame() -> None:
    """Views of different sizes, each a solid colour of its own: every one lands whole on
    one frame, none over another, and each frame holds the cards of its views."""
    rng = np.random.default_rng(5)
    views = []
    for i in range(23):
        h, w = int(rng.integers(80, 400)), int(rng.integers(80, 500))
        views.append((np.full((h, w, 3), (i + 1) * 10, np.uint8), Counter({f"{i % 9 + 2}S": 1, "AH": i % 2}), 15.0))
    views.append((np.zeros((800, 100, 3), np.uint8), Counter({"KS": 1}), 15.0))  # taller than a frame: left out
    frames = table_frames(views, (640, 480), fill=255)
    assert all(f.shape == (480, 640, 3) for f, _, _ in frames)
    seen = Counter()
    for frame, cards, px in frames:
        colours = {int(v) for v in np.unique(frame[..., 0])} - {255}
        for c in colours:
            h, w = views[c // 10 - 1][0].shape[:2]
            assert (frame[..., 0] == c).sum() == h * w  # whole, and nothing painted over it
        assert cards == sum((views[c // 10 - 1][1] for c in colours), Counter())
        seen.update(colours)
        assert px == 15.0
    assert sorted(seen) == [(i + 1) * 10 for i in range(23)] and set(seen.values()) == {1}
