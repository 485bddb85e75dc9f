import json

import pytest

from cardref.cli import main


def test_gen_data_command_writes_yolo_layout(small_library, tmp_path, capsys):
    out = tmp_path / "ds"
    assert main(["gen-data", "--out", str(out), "--n", "3", "--seed", "4", "--split", "val", "--no-progress"]) == 0
    assert "wrote 3 val images" in capsys.readouterr().out
    images = sorted((out / "images" / "val").glob("*.jpg"))
    labels = sorted((out / "labels" / "val").glob("*.txt"))
    assert len(images) == 3 and len(labels) == 3
    meta = [json.loads(x) for x in (out / "meta" / "val.jsonl").read_text().splitlines()]
    assert [m["image"] for m in meta] == [p.name for p in images]
    for m, lab in zip(meta, labels, strict=True):
        assert len(m["labels"]) == len(lab.read_text().splitlines())
        assert set(m["cards"]) == {x["card"] for x in m["labels"]}
    info = json.loads((out / "meta" / "val_info.json").read_text())
    assert set(info["designs"]) <= set(small_library) and info["images"] == 3


def test_gen_data_rejects_bad_arguments(small_library, tmp_path, capsys):
    assert main(["gen-data", "--out", str(tmp_path), "--n", "-1"]) == 2
    assert "--n >= 0" in capsys.readouterr().err
    assert main(["gen-data", "--out", str(tmp_path), "--n", "1", "--dark-deck-p", "1.5"]) == 2
    assert "--dark-deck-p" in capsys.readouterr().err
    assert main(["gen-data", "--out", str(tmp_path), "--n", "1", "--two-tone-p", "-0.1"]) == 2
    assert "--two-tone-p" in capsys.readouterr().err


def test_gen_data_draws_only_the_designs_asked_for(small_library, tmp_path, capsys):
    from cardref.datasets.faces import list_designs

    train = list_designs("train")
    pattern = train[0].split("-")[0] + "-*"  # its package's designs
    out = tmp_path / "ds"
    assert main(["gen-data", "--out", str(out), "--n", "2", "--seed", "4", "--designs", pattern, "--no-progress"]) == 0
    info = json.loads((out / "meta" / "train_info.json").read_text())
    assert info["designs"] == [d for d in train if d.startswith(pattern[:-1])]
    capsys.readouterr()
    assert main(["gen-data", "--out", str(out), "--n", "2", "--designs", "nothing-*", "--no-progress"]) == 2
    assert "no card designs matching nothing-*" in capsys.readouterr().err


def test_train_needs_a_data_set(tmp_path, capsys):
    assert main(["train", "--data", str(tmp_path / "missing"), "--budget-min", "1"]) == 2
    assert "no data.yaml" in capsys.readouterr().err
    assert main(["train", "--data", str(tmp_path), "--budget-min", "0"]) == 2


def test_eval_detector_needs_weights(tmp_path, capsys):
    assert main(["eval-detector", "--weights", str(tmp_path / "none.pt")]) == 2
    assert "no weights" in capsys.readouterr().err


def test_eval_detector_diagnose_goes_with_the_detect_path(capsys):
    assert main(["eval-detector", "--diagnose"]) == 2
    assert "--diagnose goes with --detect-path" in capsys.readouterr().err
    assert main(["eval-detector", "--diagnose", "--detect-path", "--namer", ""]) == 2
    assert "--diagnose goes with --detect-path" in capsys.readouterr().err


def test_webcam_options_go_with_what_they_need(tmp_path, capsys):
    assert main(["eval-detector", "--webcam-px", "15"]) == 2
    assert "--webcam-px goes with --detect-path" in capsys.readouterr().err
    assert main(["eval-detector", "--detect-path", "--webcam-px", "0"]) == 2
    assert "above 0 px" in capsys.readouterr().err
    assert main(["train", "--data", str(tmp_path), "--budget-min", "1", "--real-webcam", "10"]) == 2
    assert "--real-webcam goes with --with-real" in capsys.readouterr().err


def test_train_namer_checks_its_arguments(tmp_path, capsys):
    assert main(["train-namer", "--data", str(tmp_path / "missing"), "--budget-min", "1"]) == 2
    assert "no images/train" in capsys.readouterr().err
    (tmp_path / "images" / "train").mkdir(parents=True)
    (tmp_path / "images" / "val").mkdir()
    assert main(["train-namer", "--data", str(tmp_path), "--budget-min", "0"]) == 2
    assert "--budget-min must be > 0" in capsys.readouterr().err
    assert main(["train-namer", "--data", str(tmp_path), "--budget-min", "1", "--real-repeat", "0"]) == 2
    assert "--real-repeat must be >= 1" in capsys.readouterr().err
    assert main(["train-namer", "--data", str(tmp_path), "--budget-min", "1", "--glyph-indices", "-1"]) == 2
    assert "--glyph-indices must be >= 0" in capsys.readouterr().err
    assert main(["train-namer", "--data", str(tmp_path), "--budget-min", "1", "--photo-flaws", "1.5"]) == 2
    assert "--photo-flaws is a share of the patches, 0 to 1" in capsys.readouterr().err
    assert main(["train-namer", "--data", str(tmp_path), "--budget-min", "1", "--grey-share", "-0.1"]) == 2
    assert "--grey-share is a share of the patches, 0 to 1" in capsys.readouterr().err
    assert main(["train-namer", "--data", str(tmp_path), "--export-only"]) == 2
    assert "goes with --resume" in capsys.readouterr().err
    assert main(["train-namer", "--data", str(tmp_path), "--resume", "--export-only", "--name", "never-run-xyz",
                 "--no-real", "--out", str(tmp_path)]) == 2
    assert "no namer checkpoint" in capsys.readouterr().err


def test_train_commands_check_the_device(tmp_path, capsys, monkeypatch):
    """--device: a torch device name; a CUDA one only where CUDA is (a GPU machine)."""
    import pytest

    torch = pytest.importorskip("torch")
    (tmp_path / "images" / "train").mkdir(parents=True)
    (tmp_path / "images" / "val").mkdir()
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    for command in ("train-namer", "train-suit-reader"):
        assert main([command, "--data", str(tmp_path), "--budget-min", "1", "--device", "gpu!"]) == 2
        assert "is not a torch device" in capsys.readouterr().err
        assert main([command, "--data", str(tmp_path), "--budget-min", "1", "--device", "cuda"]) == 2
        assert "has no CUDA device (use cpu)" in capsys.readouterr().err


def test_on_device_moves_the_moments_and_keeps_the_step_counts_on_the_cpu():
    import pytest

    torch = pytest.importorskip("torch")
    from cardref.datasets.patch_training import Run, on_device

    net = torch.nn.Linear(3, 2)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-2)
    net(torch.ones(1, 3)).sum().backward()
    opt.step()
    run = Run(net, opt)
    on_device(run, "meta")      # a device with no data: where each tensor went is all that is checked
    assert all(p.device.type == "meta" for p in net.parameters())
    for state in opt.state.values():
        assert state["step"].device.type == "cpu"
        assert state["exp_avg"].device.type == "meta" and state["exp_avg_sq"].device.type == "meta"


def test_train_namer_trains_resumes_and_exports(small_library, tmp_path, monkeypatch):
    """A few seconds of training on a tiny generated set: checkpoint, resume, ONNX + card entry."""
    import pytest

    pytest.importorskip("torch")
    from cardref.datasets import namer_train
    from cardref.vision.detector.namer import CornerNamer

    monkeypatch.setattr(namer_train, "RUNS_DIR", tmp_path / "runs")
    monkeypatch.setattr(namer_train, "CACHE_DIR", tmp_path / "cache")
    data = tmp_path / "ds"
    for split in ("train", "val"):
        assert main(["gen-data", "--out", str(data), "--n", "2", "--seed", "1", "--split", split, "--no-progress"]) == 0
    out = tmp_path / "models"
    out.mkdir()
    args = ["train-namer", "--data", str(data), "--no-real", "--name", "t", "--out", str(out), "--batch", "32"]
    assert main([*args, "--budget-min", "0.05"]) == 0
    first = json.loads((out / "model-card.json").read_text())["namer"]
    assert (tmp_path / "runs" / "t" / "last.pt").is_file() and first["epochs"] >= 1
    assert main([*args, "--budget-min", "0.05", "--resume", "--device", "cpu"]) == 0
    second = json.loads((out / "model-card.json").read_text())["namer"]
    assert second["epochs"] > first["epochs"] and second["steps"] > first["steps"]
    assert (out / "corner-namer.pt").is_file()
    assert main([*args, "--budget-min", "0.05", "--name", "t2", "--init", str(out / "corner-namer.pt")]) == 0
    namer = CornerNamer(out / "corner-namer.onnx")
    assert namer.probabilities(__import__("numpy").zeros((2, 32, 32, 3), "uint8")).shape == (2, 55)


def test_namer_patch_cache_is_keyed_by_content(tmp_path, monkeypatch):
    """Two folders of the same size (or one folder regenerated) never share cached patches."""
    import numpy as np

    from cardref.datasets import namer_train

    calls = []

    def fake_patches(images, seed, copies, negatives):
        calls.append([p.name for p in images])
        return np.zeros((len(images), 2, 2, 3), np.uint8), np.arange(len(images))

    monkeypatch.setattr(namer_train, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(namer_train, "patches_from", fake_patches)
    a, b = tmp_path / "a.jpg", tmp_path / "b.jpg"
    a.write_bytes(b"one")
    b.write_bytes(b"two")
    namer_train._cached("train-x", [a], 0, 1, 1)
    namer_train._cached("train-x", [a], 0, 1, 1)
    assert len(calls) == 1  # the same file: read from the cache
    namer_train._cached("train-x", [b], 0, 1, 1)
    assert len(calls) == 2  # same name and count, another file: built again
    a.write_bytes(b"regenerated")
    namer_train._cached("train-x", [a], 0, 1, 1)
    assert len(calls) == 3


def test_train_suit_reader_checks_its_arguments(tmp_path, capsys):
    assert main(["train-suit-reader", "--data", str(tmp_path / "missing"), "--budget-min", "1"]) == 2
    assert "no meta/train.jsonl" in capsys.readouterr().err
    assert main(["train-suit-reader", "--data", str(tmp_path), "--budget-min", "0"]) == 2
    assert "--budget-min must be > 0" in capsys.readouterr().err


def test_train_suit_reader_trains_resumes_and_exports(small_library, tmp_path, monkeypatch):
    """A few seconds of training on a tiny generated set: checkpoint, resume, ONNX + card entry."""
    import numpy as np
    import pytest

    pytest.importorskip("torch")
    from cardref.datasets import body_train
    from cardref.vision.detector.body import BODY_SIZE, SuitReader

    monkeypatch.setattr(body_train, "RUNS_DIR", tmp_path / "runs")
    monkeypatch.setattr(body_train, "CACHE_DIR", tmp_path / "cache")
    data = tmp_path / "ds"
    for split in ("train", "val"):
        assert main(["gen-data", "--out", str(data), "--n", "3", "--seed", "1", "--split", split, "--no-progress"]) == 0
    out = tmp_path / "models"
    out.mkdir()
    args = ["train-suit-reader", "--data", str(data), "--no-real", "--name", "t", "--out", str(out), "--batch", "16"]
    assert main([*args, "--budget-min", "0.05"]) == 0
    first = json.loads((out / "model-card.json").read_text())["suit_reader"]
    assert (tmp_path / "runs" / "t" / "last.pt").is_file() and first["epochs"] >= 1
    assert main([*args, "--budget-min", "0.05", "--resume"]) == 0
    second = json.loads((out / "model-card.json").read_text())["suit_reader"]
    assert second["epochs"] > first["epochs"] and second["steps"] > first["steps"]
    assert main([*args, "--budget-min", "0.05", "--name", "t2", "--init", str(out / "suit-reader.pt")]) == 0
    reader = SuitReader(out / "suit-reader.onnx")
    assert reader.probabilities(np.zeros((2, BODY_SIZE, BODY_SIZE, 3), np.uint8)).shape == (2, 4)


def test_eval_detector_diagnoses_your_own_photos(small_library, tmp_path, capsys, monkeypatch):
    """A folder of your own labelled photos (YOLO format and its data.yaml) through the shipped
    detector: headed by the folder's name, every labelled index accounted for."""
    import shutil

    from cardref.datasets import evaluate
    from cardref.datasets.generate import generate
    from cardref.vision.classes import CLASS_NAMES

    monkeypatch.setattr(evaluate, "MAPPED_DIR", tmp_path / "out" / "real-cards-mapped")

    generate(tmp_path / "set", 2, seed=3, split="val", workers=1, progress=False)
    mine = tmp_path / "club-table"
    (mine / "images").mkdir(parents=True)
    (mine / "labels").mkdir()
    (mine / "data.yaml").write_text("names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES)))
    n_labels = 0
    for img in sorted((tmp_path / "set" / "images" / "val").iterdir()):
        shutil.copy(img, mine / "images" / img.name)
        lab = (tmp_path / "set" / "labels" / "val" / f"{img.stem}.txt").read_text()
        (mine / "labels" / f"{img.stem}.txt").write_text(lab)
        n_labels += len(lab.splitlines())
    assert main(["eval-detector", "--real", str(mine), "--real-imgsz", "320", "--no-map", "--detect-path",
                 "--diagnose", "--webcam-px", "6"]) == 0
    out = capsys.readouterr().out
    assert "== real photos (club-table, held out, through cardref detect)" in out
    webcam = out.split("== real photos (club-table, held out, through cardref detect, shrunk to a webcam's 6 px index)")
    assert len(webcam) == 2 and "2 photos, 0 left out" in webcam[1].splitlines()[1]
    table = out.split("what became of each labelled index:\n")[1].splitlines()
    assert table[0].split() == ["all", "photos"]
    counts = {line.rsplit(maxsplit=1)[0].strip(): line.rsplit(maxsplit=1)[1] for line in table[1:8]}
    assert int(counts["labelled indices"]) == n_labels
    assert sum(int(v) for k, v in counts.items() if k != "labelled indices") == n_labels
    assert [p.name for p in (tmp_path / "out").iterdir()][0].startswith("real-mapped-")  # kept apart


@pytest.mark.parametrize(("names", "photo", "says"), [
    ("names:\n  0: 7C\n", None, "no photos in"),
    ("names:\n  0: 7C\n  1: Jokerx\n", b"x", "class 1 'Jokerx' is not a card code"),
    ("names: [7C\n", b"x", "data.yaml"),
    ("names:\n  0: 7C\n", b"not a jpeg", "cannot read 1 photo(s) as images"),
])
def test_eval_detector_says_what_is_wrong_with_your_photos(tmp_path, capsys, monkeypatch, names, photo, says):
    """Your own photos: a bad data.yaml, no photos or an unreadable one is named before any
    scoring starts, exit 2, no traceback."""
    from cardref.datasets import evaluate

    monkeypatch.setattr(evaluate, "MAPPED_DIR", tmp_path / "out" / "real-cards-mapped")
    real = tmp_path / "mine"
    (real / "images").mkdir(parents=True)
    (real / "data.yaml").write_text(names)
    if photo is not None:
        (real / "images" / "a.jpg").write_bytes(photo)
    assert main(["eval-detector", "--real", str(real), "--real-imgsz", "320", "--no-map", "--detect-path"]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
