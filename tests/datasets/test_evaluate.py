from collections import Counter
from pathlib import Path

import pytest

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


def test_the_detect_path_scores_each_photo_and_each_deck(small_library, tmp_path, monkeypatch):
    """--detect-path: every held-out photo through the product's detector (here a stand-in
    that sees the labelled cards of the standard-deck photos and nothing on the others)."""
    import shutil

    from cardref.datasets import evaluate
    from cardref.datasets.generate import generate
    from cardref.vision import detector
    from cardref.vision.classes import CLASS_NAMES

    generate(tmp_path / "set", 3, seed=5, split="val", workers=1, progress=False)
    src = tmp_path / "real"
    (src / "images").mkdir(parents=True)
    (src / "labels").mkdir()
    (src / "data.yaml").write_text("names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES)))
    names = ["phone-android-0", "phone-android-1", "phone-iphone-0"]  # android-0 is the tuning split's
    for name, img in zip(names, sorted((tmp_path / "set" / "images" / "val").iterdir()), strict=True):
        shutil.copy(img, src / "images" / f"{name}.jpg")
        shutil.copy(tmp_path / "set" / "labels" / "val" / f"{img.stem}.txt", src / "labels" / f"{name}.txt")
    root = evaluate.mapped_real_cards(src, tmp_path / "mapped").parent
    truth = {n: evaluate._cards(evaluate.read_yolo_labels(root / "labels" / f"{n}.txt", 320, 320)) for n in names}
    order = ["phone-android-1", "phone-iphone-0"]  # the held-out photos, in the order they are read

    class Seeing:
        name = "stand-in"

        def detect(self, frame):
            name = order.pop(0)
            seen = truth[name] if name.startswith("phone-android") else {}
            return [type("Card", (), {"card": code})() for code, n in seen.items() for _ in range(n)]

    monkeypatch.setattr(detector, "load_detector", lambda *a, **k: Seeing())
    out = evaluate.evaluate_real_detect(None, None, src=src, mapped=tmp_path / "mapped")
    assert order == [] and out["images"] == 2
    assert out["backend"] == "stand-in" and out["scales"] == [1.0, 0.4]
    assert out["card_f1_by_deck"] == {"standard deck (phone-android, held-out part)": 1.0,
                                      "black-and-gold deck (phone-iphone)": 0.0}
    assert out["card_f1"]["cards_pred"] == sum(truth["phone-android-1"].values())
    assert out["card_f1"]["cards_true"] == sum(truth["phone-android-1"].values()) + sum(truth["phone-iphone-0"].values())
    # a setting is chosen on the tuning photos (android-0 here), at the scales asked for
    order[:] = ["phone-android-0"]
    asked = {}
    monkeypatch.setattr(detector, "load_detector", lambda *a, **k: asked.update(k) or Seeing())
    out = evaluate.evaluate_real_detect(None, None, src=src, mapped=tmp_path / "mapped", scales=(1.0, 0.3), tuning=True)
    assert order == [] and out["images"] == 1 and asked["scales"] == (1.0, 0.3) and out["scales"] == [1.0, 0.3]
    assert out["images_used"].startswith("the tuning photos") and out["card_f1"]["f1"] == 1.0
    assert out["card_f1_by_deck"] == {"standard deck (phone-android, tuning part)": 1.0}


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


def _labelled_set(root, stem: str):
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    (root / "data.yaml").write_text("names:\n  0: QC\n  1: 5D\n")
    (root / "images" / f"{stem}.jpg").write_bytes(b"x")
    (root / "labels" / f"{stem}.txt").write_text("0 0.3 0.3 0.1 0.1\n0 0.8 0.8 0.1 0.1\n1 0.1 0.7 0.1 0.1\n")


def _mapped_codes(y, stem: str) -> list[str]:
    return [c.card for c in read_yolo_labels(y.parent / "labels" / f"{stem}.txt", 100, 100)]


def test_the_shared_sets_known_wrong_labels_are_corrected(tmp_path, monkeypatch):
    """A photo of the shared set whose label names another card than it shows (an ace of
    clubs labelled QC, real_label_fixes.FIXES) is mapped with the card it shows; the same
    name in your own photos is left as labelled."""
    from cardref.datasets import evaluate, real_label_fixes

    stem = "phone-iphone-IMG_7768"
    assert real_label_fixes.corrected(stem, "QC") == "AC" and real_label_fixes.corrected(stem, "5D") == "5D"
    assert real_label_fixes.corrected("another-photo", "QC") == "QC"
    _labelled_set(tmp_path / "shared", stem)
    monkeypatch.setattr(evaluate, "REAL_CARDS", tmp_path / "shared")
    assert _mapped_codes(mapped_real_cards(tmp_path / "shared", tmp_path / "a"), stem) == ["AC", "AC", "5D"]
    _labelled_set(tmp_path / "mine", stem)
    assert _mapped_codes(mapped_real_cards(tmp_path / "mine", tmp_path / "b"), stem) == ["QC", "QC", "5D"]


def test_evaluation_runs_the_boxes_through_the_namer(small_library, tmp_path):
    """With a namer that calls every box 'not a corner', nothing is predicted; without it the
    fixture detector's own names are scored."""
    import pytest

    torch = pytest.importorskip("torch")
    from cardref.datasets.evaluate import evaluate_synthetic
    from cardref.datasets.generate import generate
    from cardref.vision.detector.namer import NAMER_CLASSES, NOT_A_CORNER
    from cardref.vision.detector.namer_finetune import export_onnx

    class SaysNone(torch.nn.Module):
        def forward(self, x):  # noqa: ANN001, ANN202
            logits = torch.zeros(x.shape[0], len(NAMER_CLASSES)) + x.mean() * 0
            logits[:, NAMER_CLASSES.index(NOT_A_CORNER)] = 10.0
            return logits

    namer = export_onnx(SaysNone(), tmp_path / "none.onnx")
    generate(tmp_path / "set", 2, seed=3, split="val", workers=1, progress=False)
    weights = Path(__file__).resolve().parents[1] / "fixtures" / "detector" / "tiny.pt"
    plain = evaluate_synthetic(weights, tmp_path / "set", imgsz=320, conf=0.02, with_map=False)
    named = evaluate_synthetic(weights, tmp_path / "set", imgsz=320, conf=0.02, with_map=False, namer=namer)
    assert plain["card_f1"]["cards_pred"] > 0
    assert named["card_f1"]["cards_pred"] == 0 and named["corner_recall_iou50"] == 0.0


def test_suit_probe_counts_each_suit_per_design(small_library, monkeypatch):
    """The probe names every probed index; a namer that always says AS gets the spades'
    aces right (one rank of seven, at each size) and nothing else."""
    import numpy as np

    from cardref.datasets import evaluate
    from cardref.vision.detector import namer as namer_module

    class AlwaysAceOfSpades:
        def __init__(self, path):
            pass

        def probabilities(self, patches):
            p = np.zeros((len(patches), len(namer_module.NAMER_CLASSES)), np.float32)
            p[:, namer_module.NAMER_CLASSES.index("AS")] = 1.0
            assert all(x.shape == (namer_module.CROP_SIZE, namer_module.CROP_SIZE, 3) for x in patches)
            return p

    monkeypatch.setattr(namer_module, "CornerNamer", AlwaysAceOfSpades)
    probe = evaluate.suit_probe(Path("unused.onnx"), designs=[small_library[0]])
    assert probe == {small_library[0]: {"S": round(1 / 7, 3), "H": 0.0, "D": 0.0, "C": 0.0}}
    table = evaluate.format_suit_probe(probe, {small_library[0]})
    assert small_library[0] in table and "held" in table


def test_deck_enrolment_is_scored_on_the_real_photos_of_each_deck(small_library, tmp_path, fake_real_cards):
    """Every other photo of a deck enrols it, the others are scored with and without the
    profile (a stand-in set of two 'black-and-gold deck' photos, the fixture detector)."""
    import pytest

    torch = pytest.importorskip("torch")
    from cardref.datasets.evaluate import evaluate_real_enrolled
    from cardref.datasets.generate import generate
    from cardref.vision.detector.namer import NAMER_CLASSES
    from cardref.vision.detector.namer_finetune import export_onnx

    generate(tmp_path / "set", 2, seed=5, split="val", workers=1, progress=False)
    src = fake_real_cards(tmp_path / "set")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
                              torch.nn.Flatten(), torch.nn.Dropout(0.2), torch.nn.Linear(8, len(NAMER_CLASSES)))
    namer = export_onnx(net, tmp_path / "namer.onnx")
    weights = Path(__file__).resolve().parents[1] / "fixtures" / "detector" / "tiny.pt"
    out = evaluate_real_enrolled(weights, namer, imgsz=320, conf=0.02, src=src, mapped=tmp_path / "mapped")
    assert list(out) == ["black-and-gold deck (phone-iphone)"]
    r = out["black-and-gold deck (phone-iphone)"]
    assert r["enrol_photos"] == 1 and r["test_photos"] == 1 and r["enrolled_corners"] > 0
    assert 0 <= r["card_f1_alone"] <= 1 and 0 <= r["card_f1_enrolled"] <= 1


def test_deck_probe_scores_each_design_alone_and_enrolled(small_library, tmp_path):
    """The probe names the other corner's indices of every code with the namer alone, with the
    deck enrolled and with part of it left out (a stand-in namer with features)."""
    import pytest

    torch = pytest.importorskip("torch")
    from cardref.datasets.evaluate import deck_probe
    from cardref.vision.detector.namer import NAMER_CLASSES
    from cardref.vision.detector.namer_finetune import export_onnx

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
                              torch.nn.Flatten(), torch.nn.Dropout(0.2), torch.nn.Linear(8, len(NAMER_CLASSES)))
    probe = deck_probe(export_onnx(net, tmp_path / "namer.onnx"), designs=[small_library[0]])
    row = probe[small_library[0]]
    assert set(row) == {"alone", "enrolled", "enrolled_without_25pct"}
    assert all(0.0 <= v <= 1.0 for v in row.values())


def test_the_model_readme_shows_the_deck_enrolment_figures(tmp_path):
    from cardref.datasets.train import write_readme

    card = {"model": "m", "deck_probe": {"aisleriot-plastic": {"alone": 0.755, "enrolled": 0.917,
                                                               "enrolled_without_25pct": 0.856}},
            "deck_enrolment_real": {"standard deck": {"card_f1_alone": 0.7547, "card_f1_enrolled": 0.7975,
                                                      "enrol_photos": 66, "enrolled_codes": 45, "test_photos": 66,
                                                      "sharpness": 10.0}}}
    write_readme(card, tmp_path / "README.md")
    text = (tmp_path / "README.md").read_text()
    assert "## Deck enrolment" in text
    assert "| aisleriot-plastic | 0.755 | 0.917 | 0.856 |" in text
    assert "standard deck: card F1 0.7547 alone, 0.7975 enrolled" in text
    write_readme({"model": "m"}, tmp_path / "plain.md")
    assert "Deck enrolment" not in (tmp_path / "plain.md").read_text()


def _c(code: str, box: tuple[float, float, float, float], conf: float = 0.9) -> CornerDetection:
    return CornerDetection(code, conf, box)


LABEL = _c("7C", (100, 100, 120, 130), 1.0)


@pytest.mark.parametrize(("named", "kept", "want"), [
    ([], [], ("not found", None)),
    ([_c("7C", (200, 200, 220, 230))], None, ("not found", None)),  # found elsewhere only
    ([_c("7C", (101, 99, 119, 131))], None, ("named right", "7C")),
    ([_c("7C", (101, 99, 119, 131))], [], ("named right, dropped", "7C")),  # the namer was unsure
    ([_c("7S", (101, 99, 119, 131))], None, ("suit wrong", "7S")),
    ([_c("8C", (101, 99, 119, 131))], None, ("rank wrong", "8C")),
    ([_c("9D", (101, 99, 119, 131))], None, ("both wrong", "9D")),
    ([_c("SJ", (101, 99, 119, 131))], None, ("both wrong", "SJ")),  # a joker is no suit's
    # the label's box is looser than the finder's: a small box inside it stands for it
    ([_c("7C", (104, 104, 112, 116))], None, ("named right", "7C")),
    # the finder's box a little off, its centre in the label grown by OUTCOME_PAD
    ([_c("7C", (112, 100, 132, 130))], None, ("named right", "7C")),
    # the most confident box over the index speaks for it
    ([_c("7S", (101, 99, 119, 131), 0.4), _c("7C", (100, 101, 120, 129), 0.8)], None, ("named right", "7C")),
])
def test_index_outcome(named, kept, want):
    """--diagnose: what became of one labelled index, from the boxes the finder found (each named)
    and those the namer kept (``None`` here: all of them)."""
    from cardref.datasets.evaluate import index_outcome

    assert index_outcome(LABEL, named, named if kept is None else kept) == want


def test_index_breakdown_counts_outcomes_and_suits():
    from cardref.datasets.evaluate import INDEX_OUTCOMES, format_breakdown, index_breakdown

    out = index_breakdown([("7C", "suit wrong", "7S"), ("8C", "suit wrong", "8S"), ("9S", "suit wrong", "9D"),
                           ("QH", "named right", "QH"), ("2D", "not found", None)])
    assert out["indices"] == 5 and out["suit wrong"] == 3 and out["named right"] == 1 and out["not found"] == 1
    assert sum(out[o] for o in INDEX_OUTCOMES) == 5
    assert out["suits_read_wrong"] == {"C->S": 2, "S->D": 1}
    table = format_breakdown({"deck a": out, "deck b": index_breakdown([])})
    assert "C->S 2, S->D 1" in table and table.splitlines()[0].split() == ["deck", "a", "deck", "b"]
    assert any(line.split()[:2] == ["not", "found"] and line.split()[2:] == ["1", "0"] for line in table.splitlines())


def test_the_detect_path_diagnoses_each_labelled_index(tmp_path, monkeypatch):
    """--detect-path --diagnose: the detector's steps are run one by one (find, name, merge) and
    every labelled index of each deck gets its outcome; the card F1 is the detect path's."""
    import cv2
    import numpy as np

    from cardref.datasets import evaluate
    from cardref.vision import detector
    from cardref.vision.classes import CLASS_NAMES

    src = tmp_path / "real"
    (src / "images").mkdir(parents=True)
    (src / "labels").mkdir()
    (src / "data.yaml").write_text("names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES)))
    idx = {c: i for i, c in enumerate(CLASS_NAMES)}
    # two labelled indices on each held-out photo (100x100): 7C at top-left, 3H at bottom-right
    for name in ["phone-android-0", "phone-android-1", "phone-iphone-0"]:
        cv2.imwrite(str(src / "images" / f"{name}.jpg"), np.full((100, 100, 3), 200, np.uint8))
        (src / "labels" / f"{name}.txt").write_text(f"{idx['7C']} 0.15 0.15 0.1 0.1\n{idx['3H']} 0.85 0.85 0.1 0.1\n")

    class Namer:
        def name(self, frame, corners, keep_all=False):  # reads 7C as 7S on the iphone photo
            return [CornerDetection(self.reading, c.conf, c.box) for c in corners]

    class Stepwise:
        name = "stand-in"
        namer = Namer()

        def find_corners(self, frame):  # finds only the top-left index
            return [CornerDetection("corner", 0.9, (10, 10, 20, 20))]

        def merge_cards(self, corners, frame):
            return corners

    readings = iter(["7C", "7C", "7S", "7S"])  # per photo: kept, then keep_all

    class Namer2(Namer):
        def name(self, frame, corners, keep_all=False):
            self.reading = next(readings)
            return super().name(frame, corners, keep_all)

    Stepwise.namer = Namer2()
    monkeypatch.setattr(detector, "load_detector", lambda *a, **k: Stepwise())
    out = evaluate.evaluate_real_detect(None, None, src=src, mapped=tmp_path / "mapped", diagnose=True)
    std, dark, every = out["indices_by_deck"].values()
    assert (every["indices"], every["named right"], every["not found"], every["suit wrong"]) == (4, 1, 2, 1)
    assert (std["indices"], std["named right"], std["not found"], std["suit wrong"]) == (2, 1, 1, 0)
    assert (dark["indices"], dark["named right"], dark["not found"], dark["suit wrong"]) == (2, 0, 1, 1)
    assert dark["suits_read_wrong"] == {"C->S": 1}
    assert out["card_f1"]["cards_pred"] == 2 and out["card_f1"]["cards_true"] == 4

    class NoNamer:
        name, namer = "stand-in", None

    monkeypatch.setattr(detector, "load_detector", lambda *a, **k: NoNamer())
    with pytest.raises(ValueError, match="corner namer"):
        evaluate.evaluate_real_detect(None, None, src=src, mapped=tmp_path / "mapped2", diagnose=True)


def test_each_set_of_photos_is_mapped_apart(tmp_path, monkeypatch):
    """Your own labelled photos (--real DIR) get a mapped folder of their own, never the shared
    set's, and a photo taken out of the folder is no longer scored."""
    from cardref.datasets import evaluate

    monkeypatch.setattr(evaluate, "MAPPED_DIR", tmp_path / "out" / "real-cards-mapped")
    monkeypatch.setattr(evaluate, "REAL_CARDS", tmp_path / "shared")
    sets = {}
    for name, photos in (("shared", ["a", "b"]), ("mine", ["table-1", "table-2"])):
        src = tmp_path / name
        (src / "images").mkdir(parents=True)
        (src / "labels").mkdir()
        (src / "data.yaml").write_text("names:\n  0: 7C\n")
        for ph in photos:
            (src / "images" / f"{ph}.jpg").write_bytes(b"x")
            (src / "labels" / f"{ph}.txt").write_text("0 0.5 0.5 0.1 0.1\n")
        sets[name] = evaluate.mapped_real_cards(src).parent
    assert sets["shared"] == tmp_path / "out" / "real-cards-mapped"
    assert sets["mine"] != sets["shared"] and sets["mine"].parent == sets["shared"].parent
    assert sorted(p.name for p in (sets["mine"] / "images").iterdir()) == ["table-1.jpg", "table-2.jpg"]
    assert sorted(p.name for p in (sets["shared"] / "images").iterdir()) == ["a.jpg", "b.jpg"]
    (tmp_path / "mine" / "images" / "table-2.jpg").unlink()
    again = evaluate.mapped_real_cards(tmp_path / "mine").parent
    assert again == sets["mine"] and [p.name for p in (again / "images").iterdir()] == ["table-1.jpg"]
    assert not (again / "labels" / "table-2.txt").exists()


def test_real_photos_fold_by_deck(tmp_path):
    """Issue #33 item 4: the shipped fold tunes on the first 70 % of the standard deck; the
    reverse fold tunes on the black-and-gold deck and validates on every standard photo."""
    import pytest

    from cardref.datasets.evaluate import REAL_FOLDS, real_cards_fold

    (tmp_path / "images").mkdir()
    names = [f"phone-android-{k:02d}.jpg" for k in range(10)] + [f"phone-iphone-{k:02d}.jpg" for k in range(4)]
    for n in names:
        (tmp_path / "images" / n).write_bytes(b"")
    tune, held = real_cards_fold("standard", tmp_path)
    assert [p.name for p in tune] == names[:7] and [p.name for p in held] == names[7:]
    tune, held = real_cards_fold("black-and-gold", tmp_path)
    assert [p.name for p in tune] == names[10:] and [p.name for p in held] == names[:10]
    assert REAL_FOLDS == ("standard", "black-and-gold")
    with pytest.raises(ValueError, match="unknown real-photo fold"):
        real_cards_fold("poker", tmp_path)
    # the namer's card (and every per-deck report) splits a fold's held-out photos by deck
    from cardref.datasets.evaluate import real_photos_by_deck

    by_deck = real_photos_by_deck(real_cards_fold("standard", tmp_path)[1])
    assert {d.split(" (")[0]: [p.name for p in v] for d, v in by_deck.items()} == {
        "standard deck": names[7:10], "black-and-gold deck": names[10:]}
    assert [d.split(" (")[0] for d in real_photos_by_deck(held)] == ["standard deck"]


def test_regenerating_the_model_readme_keeps_its_hand_written_rule_table(tmp_path):
    """The "Detector rules" section is measured by hand (one eval per switched-off rule), not
    stored in the card: writing the README again must carry it over, and only it."""
    from cardref.datasets.train import write_readme

    path = tmp_path / "README.md"
    path.write_text("# old\n\n## Metrics\n\n- stale: 1\n\n## Detector rules\n\n| rule | F1 |\n"
                    "| --- | --- |\n| second-look | 0.6385 |\n\n## Limitations\n\n- old limit\n")
    write_readme({"model": "m", "limitations": ["new limit"]}, path)
    text = path.read_text()
    assert "| second-look | 0.6385 |" in text
    assert text.index("## Detector rules") < text.index("## Limitations")
    assert "stale" not in text and "old limit" not in text and "new limit" in text
    write_readme({"model": "m"}, path)
    assert path.read_text().count("## Detector rules") == 1
