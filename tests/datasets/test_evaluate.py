from collections import Counter

from cardref.datasets.evaluate import (
    confusion,
    format_confusion,
    mapped_real_cards,
    match_corners,
    multiset_f1,
    read_yolo_labels,
)
from cardref.vision.types import CornerDetection


def test_multiset_f1_counts_duplicates():
    truth = [Counter({"QH": 2, "BJ": 1}), Counter({"6S": 1})]
    pred = [Counter({"QH": 1, "BJ": 1, "SJ": 1}), Counter({"6S": 1})]
    r = multiset_f1(pred, truth)
    assert r["precision"] == 0.75 and r["recall"] == 0.75 and r["f1"] == 0.75
    assert r["images_exact"] == 0.5
    assert multiset_f1([Counter()], [Counter()])["f1"] == 0.0


def test_match_and_confusion():
    t = [CornerDetection("6S", 1, (0, 0, 10, 20)), CornerDetection("SJ", 1, (50, 50, 60, 70)),
         CornerDetection("10H", 1, (100, 0, 112, 20))]
    p = [CornerDetection("9S", 0.9, (1, 0, 10, 20)), CornerDetection("BJ", 0.8, (50, 51, 60, 70))]
    m = match_corners(p, t)
    assert m == [("6S", "9S"), ("SJ", "BJ"), ("10H", None)]
    c = confusion(m)
    assert c["table"]["6"]["9"] == 1 and c["table"]["SJ"]["BJ"] == 1 and c["table"]["10"]["missed"] == 1
    assert "truth\\pred" in format_confusion(c)


def test_real_cards_labels_are_mapped(tmp_path):
    src = tmp_path / "src"
    (src / "images").mkdir(parents=True)
    (src / "labels").mkdir()
    (src / "data.yaml").write_text("names:\n  0: 10C\n  1: BACK\n  2: BJ\n")
    (src / "images" / "a.jpg").write_bytes(b"x")
    (src / "labels" / "a.txt").write_text("0 0.5 0.5 0.1 0.1\n1 0.2 0.2 0.3 0.3\n2 0.1 0.1 0.05 0.1\n")
    y = mapped_real_cards(src, tmp_path / "dst")
    lines = (y.parent / "labels" / "a.txt").read_text().splitlines()
    assert [x.split()[0] for x in lines] == ["48", "53"]  # 10C and BJ in our order, BACK dropped
    corners = read_yolo_labels(y.parent / "labels" / "a.txt", 100, 200)
    assert [c.card for c in corners] == ["10C", "BJ"]
    assert [round(v, 6) for v in corners[0].box] == [45.0, 90.0, 55.0, 110.0]
