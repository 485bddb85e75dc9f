"""``cardref simulate`` → ``cardref watch`` end to end on a short clip, and bad input."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardref.cli import main
from cardref.engine.judge import judge_text


@pytest.fixture(scope="module")
def clip(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sim") / "clip"
    rc = main(["simulate", "--game", "guafeng-zibo", "--seed", "7", "--max-plays", "5", "--out", str(out)])
    assert rc == 0
    return out


def _plays(path: Path) -> list[tuple[int, Counter]]:
    out = []
    for line in path.read_text().splitlines():
        obj = json.loads(line)
        if obj["type"] == "play":
            out.append((obj["seat"], Counter(obj["cards"])))
    return out


def test_simulate_writes_video_truth_and_calibration(clip):
    for name in ("video.mp4", "truth.jsonl", "calibration.json", "frames.jsonl", "meta.json"):
        assert (clip / name).stat().st_size > 0, name
    cap = cv2.VideoCapture(str(clip / "video.mp4"))
    assert cap.isOpened() and int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)) == 1280
    truth = (clip / "truth.jsonl").read_text().splitlines()
    assert json.loads(truth[0])["type"] == "deal"
    assert len(_plays(clip / "truth.jsonl")) == 5
    assert all(v.ok for v in judge_text(truth).verdicts)  # a legal deal from the rules engine
    meta = json.loads((clip / "meta.json").read_text())
    assert meta["plays"] == 5 and meta["frames"] > 50


def test_watch_with_the_oracle_reproduces_the_true_plays(clip, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    rc = main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--detector", "oracle",
               "--header", str(clip / "truth.jsonl"), "--out", str(log)])
    assert rc == 0
    assert _plays(log) == _plays(clip / "truth.jsonl")
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "deal"
    plays = [json.loads(x) for x in lines if json.loads(x)["type"] == "play"]
    assert all(p["source"] == "camera" and 0 < p["conf"] <= 1 and "t" in p for p in plays)
    result = judge_text(lines)
    assert all(v.ok for v in result.verdicts)
    out = capsys.readouterr()
    printed = out.out
    assert printed.count("seat ") >= 5 and "✓" in printed
    # the camera check once calibrated: the simulator's 720p camera shows cards ~72 px tall
    assert "[camera] a card is about 7" in out.err and "within what the detector was trained on" in out.err


def test_watch_calibration_file_and_markers_give_the_same_plays(clip, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    saved = tmp_path / "found.json"
    assert main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--detector", "oracle",
                 "--calibration", str(clip / "calibration.json"), "--out", str(a), "--quiet"]) == 0
    assert main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--detector", "oracle",
                 "--save-calibration", str(saved), "--out", str(b), "--quiet"]) == 0
    assert _plays(a) == _plays(b) == _plays(clip / "truth.jsonl")
    assert json.loads(saved.read_text())["method"] == "aruco"


def test_existing_log_is_never_clobbered(clip, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    log.write_text('{"type":"deal","game":"guafeng-zibo","seats":4}\n')
    before = log.read_text()
    rc = main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--detector", "oracle",
               "--out", str(log)])
    assert rc == 2 and log.read_text() == before
    assert "--append" in capsys.readouterr().err
    rc = main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--detector", "oracle",
               "--out", str(log), "--append", "--quiet"])
    assert rc == 0
    text = log.read_text()
    assert text.startswith(before) and text.count('"type":"deal"') == 1
    assert len(_plays(log)) == 5


def test_bad_inputs_give_clear_messages(clip, tmp_path, capsys):
    log = tmp_path / "x.jsonl"
    assert main(["watch", "--video", str(tmp_path / "missing.mp4"), "--game", "guafeng-zibo", "--out", str(log),
                 "--detector", "oracle", "--oracle-frames", str(clip / "frames.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--out", str(log),
                 "--detector", "oracle", "--calibration", str(tmp_path / "nope.json")]) == 2
    assert "calibration.missing" in capsys.readouterr().err
    assert main(["watch", "--video", str(clip / "video.mp4"), "--game", "nope", "--out", str(log)]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--out", str(log),
                 "--detector", "oracle", "--deal", "{level: 7"]) == 2
    assert "--deal" in capsys.readouterr().err
    assert main(["watch", "--video", str(clip / "video.mp4"), "--game", "gouji-shandong", "--out", str(log),
                 "--detector", "oracle", "--header", str(clip / "truth.jsonl")]) == 2
    assert "guafeng-zibo, not gouji-shandong" in capsys.readouterr().err
    assert not log.exists()


def test_deal_options_go_into_the_deal_event(clip, tmp_path):
    log = tmp_path / "log.jsonl"
    assert main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--out", str(log),
                 "--detector", "oracle", "--quiet", "--deal", '{"level": "7", "trump": "S", "dealer": 1}']) == 0
    deal = json.loads(log.read_text().splitlines()[0])
    assert deal == {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "7", "trump": "S", "dealer": 1}


def test_markers_not_found_keeps_what_was_written(clip, tmp_path, capsys):
    video = tmp_path / "blank.mp4"
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 10.0, (1280, 720))
    for _ in range(15):
        w.write(np.full((720, 1280, 3), 80, np.uint8))
    w.release()
    log = tmp_path / "log.jsonl"
    rc = main(["watch", "--video", str(video), "--game", "guafeng-zibo", "--detector", "oracle",
               "--oracle-frames", str(clip / "frames.jsonl"), "--out", str(log), "--calibrate-timeout", "0"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "marker" in err and "--corners" in err
    assert json.loads(log.read_text().splitlines()[0])["type"] == "deal"


def test_simulate_with_illegal_plays_gives_faults_to_the_judge(tmp_path):
    out = tmp_path / "bad"
    assert main(["simulate", "--game", "chaodipi-anchao", "--seed", "3", "--illegal", "2", "--max-plays", "12",
                 "--out", str(out), "--no-video"]) == 0
    result = judge_text((out / "truth.jsonl").read_text().splitlines())
    assert result.faults()


def test_markers_sheet(tmp_path):
    from cardref.vision.calibration import find_markers

    assert main(["markers", "--out", str(tmp_path / "sheet"), "--size-mm", "50", "--dpi", "150"]) == 0
    img = cv2.imread(str(tmp_path / "sheet.png"))
    found = find_markers(img)
    assert sorted(found) == [0, 1, 2, 3]
    side = np.linalg.norm(found[0][1] - found[0][0])
    assert abs(side - 50 / 25.4 * 150) < 3  # printed size in pixels at 150 dpi
    assert (tmp_path / "sheet.pdf").read_bytes()[:4] == b"%PDF"


def test_a_detector_failing_on_frames_never_loses_the_log(clip, tmp_path, monkeypatch, capsys):
    from cardref.vision.simulate import oracle

    calls = [0]
    real = oracle.OracleDetector.detect_indexed

    def flaky(self, frame, index):
        calls[0] += 1
        if index % 7 == 3:
            raise RuntimeError("inference failed")
        return real(self, frame, index)

    monkeypatch.setattr(oracle.OracleDetector, "detect_indexed", flaky)
    log = tmp_path / "log.jsonl"
    rc = main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--detector", "oracle",
               "--out", str(log), "--quiet"])
    assert rc == 0 and calls[0] > 50
    assert "could not be processed" in capsys.readouterr().err
    assert len(_plays(log)) == 5


def test_no_int8_asks_the_detector_for_the_float_models(clip, tmp_path, monkeypatch, capsys):
    import cardref.vision.detector as detector

    seen = []

    def refuse(*args, **kwargs):  # records what watch asked for, then fails like a missing model file
        seen.append(kwargs.get("int8", True))
        raise detector.ModelFileError(tmp_path / "none.onnx", "model file not found")

    monkeypatch.setattr(detector, "load_detector", refuse)
    for extra in ([], ["--no-int8"]):
        rc = main(["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo",
                   "--out", str(tmp_path / f"log{len(extra)}.jsonl"), *extra])
        assert rc == 2 and "none.onnx" in capsys.readouterr().err
    assert seen == [True, False]


def test_simulate_prints_its_progress_and_refuses_a_bad_interval(tmp_path, capsys):
    """A long simulation is not silent (issue #31 item 6): stderr gets progress lines, the
    last one at 100 %; stdout keeps its one summary line."""
    out = tmp_path / "p"
    assert main(["simulate", "--game", "guafeng-zibo", "--seed", "3", "--max-plays", "1", "--no-video",
                 "--progress", "0.000001", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    lines = [ln for ln in captured.err.splitlines() if ln.startswith("[progress] frame ")]
    frames = json.loads((out / "meta.json").read_text())["frames"]
    assert len(lines) >= 2 and lines[-1].startswith(f"[progress] frame {frames}/{frames} (100 %)")
    assert len(captured.out.strip().splitlines()) == 1
    for bad in ("-1", "nan"):
        assert main(["simulate", "--game", "guafeng-zibo", "--progress", bad, "--out", str(out)]) == 2
    assert "--progress" in capsys.readouterr().err
