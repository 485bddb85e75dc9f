import json

from cardref.datasets.train import HYPER, data_yaml, publish


def _fake_run(tmp_path):
    run = tmp_path / "runs" / "cards"
    (run / "weights").mkdir(parents=True)
    (run / "weights" / "best.pt").write_bytes(b"not a real checkpoint")
    rows = [
        "epoch,time,metrics/precision(B),metrics/recall(B),metrics/mAP50(B),metrics/mAP50-95(B)",
        "1,100.0,0.1,0.2,0.3,0.1",
        "2,210.0,0.2,0.3,0.4,0.2",
        "3,90.0,0.3,0.4,0.5,0.25",  # resumed: the clock restarts
    ]
    (run / "results.csv").write_text("\n".join(rows) + "\n")
    data = tmp_path / "data"
    for split, n in (("train", 3), ("val", 2)):
        (data / "labels" / split).mkdir(parents=True)
        for i in range(n):
            (data / "labels" / split / f"{i}.txt").write_text("0 0.5 0.5 0.1 0.1\n1 0.2 0.2 0.1 0.1\n")
    (data / "meta").mkdir()
    (data / "meta" / "val_info.json").write_text(json.dumps({"designs": ["aisleriot-plastic"], "seed": 1}))
    (data / "data.yaml").write_text("names: {}\n")
    return run, data


def test_publish_writes_weights_and_card(tmp_path):
    run, data = _fake_run(tmp_path)
    models = tmp_path / "models"
    card = publish(run, data_yaml(data), imgsz=320, wall_s=400.0, models_dir=models)
    assert (models / "cards-yolo11n.pt").read_bytes() == b"not a real checkpoint"
    assert card["epochs_completed"] == 3
    assert card["train_time_s"] == 300.0  # 210 s before the restart + 90 s after
    assert card["data"]["train"] == {"images": 3, "labels": 6}
    assert card["data"]["val"]["designs"] == ["aisleriot-plastic"]
    assert card["val_last_epoch"]["metrics/mAP50-95(B)"] == 0.25
    assert HYPER["fliplr"] == 0.0 and HYPER["flipud"] == 0.0
    saved = json.loads((models / "model-card.json").read_text())
    assert saved["epochs_completed"] == 3
    readme = (models / "README.md").read_text()
    assert "aisleriot-plastic" in readme and "mAP50-95" in readme


def test_publish_keeps_evaluation_and_renders_it(tmp_path):
    run, data = _fake_run(tmp_path)
    models = tmp_path / "models"
    models.mkdir()
    (models / "model-card.json").write_text(json.dumps(
        {"evaluation": {"real photos": {"card_f1": {"f1": 0.5}, "confusion": "truth\\pred  SJ BJ"}}}))
    card = publish(run, data_yaml(data), imgsz=320, models_dir=models)
    assert card["evaluation"]["real photos"]["card_f1"]["f1"] == 0.5
    readme = (models / "README.md").read_text()
    assert "### real photos" in readme and "truth\\pred  SJ BJ" in readme


def test_the_card_says_how_sure_holds_in_each_view(tmp_path):
    from cardref.datasets.train import _confidence_lines

    conf = {"file": "confidence.json", "machine": "a CPU", "shipped": {"sure_at": 0.95, "sure_precision": 0.991},
            "by_view": {"photo": {"cards_reported": 450, "sure_precision": 0.992, "true_cards_marked_sure": 0.6},
                        "webcam 12 px": {"cards_reported": 300, "sure_precision": 0.99, "true_cards_marked_sure": 0.3}},
            "cross_validated": {}, "tables": {}}
    text = "\n".join(_confidence_lines(conf))
    assert "  - photo: 450 cards reported, sure precision 0.992, true cards marked sure 0.6" in text
    assert "  - webcam 12 px: 300 cards reported, sure precision 0.99, true cards marked sure 0.3" in text
    assert "By view" not in "\n".join(_confidence_lines({**conf, "by_view": {}}))
