import json

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


def test_train_needs_a_data_set(tmp_path, capsys):
    assert main(["train", "--data", str(tmp_path / "missing"), "--budget-min", "1"]) == 2
    assert "no data.yaml" in capsys.readouterr().err
    assert main(["train", "--data", str(tmp_path), "--budget-min", "0"]) == 2


def test_eval_detector_needs_weights(tmp_path, capsys):
    assert main(["eval-detector", "--weights", str(tmp_path / "none.pt")]) == 2
    assert "no weights" in capsys.readouterr().err
