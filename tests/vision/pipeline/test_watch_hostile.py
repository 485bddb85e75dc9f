"""``cardref watch`` on bad input (issue #32 item 10, the watch and source parts): each
case ends in a clear message and a non-zero exit, never a traceback or a silent exit 0;
and the leader taken from the first play (#31 item 4), the progress line (#31 item 6)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cardref.cli import main
from cardref.engine.judge import judge_text


def _watch(clip: Path, log: Path, *extra: str) -> list[str]:
    return ["watch", "--video", str(clip / "video.mp4"), "--game", "guafeng-zibo", "--detector", "oracle",
            "--out", str(log), *extra]


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err


# ---- numeric options: argparse says what is wrong -----------------------------------------

@pytest.mark.parametrize(("option", "value", "says"), [
    ("--settle", "-1", "above 0"),
    ("--settle", "nan", "finite"),
    ("--settle", "inf", "finite"),
    ("--settle", "0", "above 0"),
    ("--stall", "0", "above 0"),
    ("--calibrate-timeout", "nan", "finite"),
    ("--progress", "-2", "0 or more"),
    ("--stride", "0", "1 or more"),
    ("--retries", "-1", "0 or more"),
    ("--stride", "two", "not a whole number"),
])
def test_a_numeric_option_out_of_range_is_refused(small_clip, tmp_path, capsys, option, value, says):
    log = tmp_path / "log.jsonl"
    with pytest.raises(SystemExit) as exc:
        main([*_watch(small_clip, log), option, value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert option in err and says in err and repr(value) in err
    assert not log.exists()


def test_a_table_size_that_is_not_two_positive_numbers_is_refused(small_clip, tmp_path):
    with pytest.raises(SystemExit, match="positive sizes"):
        main([*_watch(small_clip, tmp_path / "log.jsonl"), "--table-mm", "nanx700"])


def test_a_bad_tune_value_is_refused(small_clip, tmp_path, capsys):
    assert main([*_watch(small_clip, tmp_path / "log.jsonl"), "--tune", "settle_s=nan"]) == 2
    assert "settle_s" in capsys.readouterr().err


# ---- the deal and the header ------------------------------------------------------------------

@pytest.mark.parametrize(("deal", "says"), [
    ('{"type":"play"}', "not a 'play' event"),
    ('{"type":"play","seat":0,"cards":["5S"]}', "not a 'play' event"),
    ('{"game":"gouji-shandong","leader":0}', "deal of gouji-shandong, not guafeng-zibo"),
    ('{"seats":6}', "played by 4"),
    ('[1, 2]', "JSON object"),
    ('{"level": 7', "JSON object"),
    ('{"t": "soon"}', "'t' must be a number"),
])
def test_a_deal_option_that_is_no_deal_of_the_game_is_refused(small_clip, tmp_path, capsys, deal, says):
    log = tmp_path / "log.jsonl"
    assert main([*_watch(small_clip, log), "--deal", deal]) == 2
    err = capsys.readouterr().err
    assert "--deal" in err and says in err
    _no_traceback(err)
    assert not log.exists()


def test_a_whole_deal_event_of_the_game_is_taken_as_the_options(small_clip, tmp_path):
    log = tmp_path / "log.jsonl"
    deal = '{"type":"deal","game":"guafeng-zibo","seats":4,"level":"6","trump":"H","dealer":3}'
    assert main([*_watch(small_clip, log), "--deal", deal, "--quiet"]) == 0
    first = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert first == {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "6", "trump": "H", "dealer": 3}


def test_a_binary_header_is_a_clear_error(small_clip, tmp_path, capsys):
    header = tmp_path / "header.jsonl"
    header.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00binary")
    log = tmp_path / "log.jsonl"
    assert main([*_watch(small_clip, log), "--header", str(header)]) == 2
    err = capsys.readouterr().err
    assert str(header) in err and "not UTF-8" in err and "header.not_utf8" in err
    _no_traceback(err)
    assert not log.exists()


def test_a_gbk_calibration_file_is_a_clear_error(small_clip, tmp_path, capsys):
    cal = tmp_path / "cal.json"
    text = (small_clip / "calibration.json").read_text(encoding="utf-8")
    cal.write_bytes(text.replace("{", '{"注释": "桌子一号",', 1).encode("gbk"))
    log = tmp_path / "log.jsonl"
    assert main([*_watch(small_clip, log), "--calibration", str(cal)]) == 2
    err = capsys.readouterr().err
    assert str(cal) in err and "calibration." in err
    _no_traceback(err)
    assert not log.exists()


# ---- sources ----------------------------------------------------------------------------------

def test_a_folder_of_unreadable_images_is_an_error_not_an_empty_success(small_clip, tmp_path, capsys):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(4):
        (folder / f"{i:03d}.jpg").write_bytes(b"not a jpeg at all")
    log = tmp_path / "log.jsonl"
    rc = main(["watch", "--folder", str(folder), "--game", "guafeng-zibo", "--detector", "oracle",
               "--oracle-frames", str(small_clip / "frames.jsonl"), "--out", str(log)])
    err = capsys.readouterr().err
    assert rc == 2
    assert "none of the 4 images" in err and "capture.unreadable" in err
    _no_traceback(err)
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["type"] == "deal"  # what was written stays


def test_a_camera_that_does_not_exist_fails_in_seconds(small_clip, tmp_path, capsys):
    t0 = time.monotonic()
    rc = main(["watch", "--camera", "57", "--game", "guafeng-zibo", "--detector", "oracle",
               "--oracle-frames", str(small_clip / "frames.jsonl"), "--out", str(tmp_path / "log.jsonl")])
    assert rc == 2 and time.monotonic() - t0 < 10
    err = capsys.readouterr().err
    assert "camera 57" in err
    _no_traceback(err)


def test_a_camera_that_never_opens_gives_up_after_two_tries(monkeypatch):
    """Where the system does not list its cameras, the reader gives up on a camera that never
    opened after FIRST_CAMERA_RETRIES attempts (about 1.5 s), saying why, not after 20 with back-off."""
    from cardref.vision import capture

    class Closed:
        def isOpened(self):  # noqa: N802
            return False

        def release(self):
            pass

    monkeypatch.setattr(capture, "missing_camera", lambda index: None)
    monkeypatch.setattr(capture, "open_camera", lambda index, resolution=None: Closed())
    t0 = time.monotonic()
    reader = capture.open_source(camera=3)
    assert list(reader.frames()) == []
    assert time.monotonic() - t0 < 5
    assert reader.status == capture.CaptureStatus.FAILED
    assert "camera 3: gave up after 3 attempts" in reader.message and "did not open" in reader.message


def test_a_dropped_stream_says_why(small_clip, tmp_path, monkeypatch, capsys):
    """A stream that gives frames, then none: watch's last word names the reason."""
    import numpy as np

    from cardref.vision import capture

    class Dies:
        """Three frames on the first opening, then a stream that will not open again."""

        opened = 0

        def __init__(self) -> None:
            Dies.opened += 1
            self.left = 3 if Dies.opened == 1 else 0

        def isOpened(self):  # noqa: N802
            return self.left > 0

        def read(self):
            self.left -= 1
            return (self.left >= 0, np.zeros((360, 640, 3), np.uint8) if self.left >= 0 else None)

        def release(self):
            pass

    def fake_open_source(**kw):
        return capture.LatestFrameReader(Dies, "rtsp://table", stall_s=0.1, retry_s=0.01, max_retries=1,
                                         on_status=kw["on_status"]).start()

    monkeypatch.setattr(capture, "open_source", fake_open_source)
    rc = main(["watch", "--url", "rtsp://table", "--game", "guafeng-zibo", "--detector", "oracle",
               "--oracle-frames", str(small_clip / "frames.jsonl"), "--out", str(tmp_path / "log.jsonl"),
               "--calibration", str(small_clip / "calibration.json")])
    err = capsys.readouterr().err
    assert rc == 3
    assert "the source failed ()" not in err
    assert "the source failed (rtsp://table: gave up after" in err
    assert "did not open" in err and "lost (no frame for 0.1 s)" in err


# ---- the first leader, and the progress line ---------------------------------------------------

def test_without_a_dealer_the_first_play_names_it(small_clip, tmp_path, capsys):
    truth = [json.loads(x) for x in (small_clip / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    true_deal = truth[0]
    first = next(e for e in truth if e["type"] == "play")
    log = tmp_path / "log.jsonl"
    deal = json.dumps({"level": true_deal["level"], "trump": true_deal["trump"]})
    assert main([*_watch(small_clip, log), "--deal", deal]) == 0
    err = capsys.readouterr().err
    assert f"seat {first['seat']} played first" in err
    lines = log.read_text(encoding="utf-8").splitlines()
    written = json.loads(lines[0])
    assert written["type"] == "deal" and written["dealer"] == first["seat"] == true_deal["dealer"]
    assert json.loads(lines[1])["type"] == "play"
    assert not judge_text(lines).faults()  # the real leader's play is not flagged


def test_seat_zero_assumed_would_have_flagged_the_real_leader(small_clip, tmp_path):
    """The contrast: the same log with the dealer assumed to be seat 0."""
    truth = json.loads((small_clip / "truth.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert truth["dealer"] != 0
    log = tmp_path / "log.jsonl"
    assert main([*_watch(small_clip, log), "--quiet", "--deal",
                 json.dumps({"level": truth["level"], "trump": truth["trump"], "dealer": 0})]) == 0
    assert judge_text(log.read_text(encoding="utf-8").splitlines()).faults()


def test_a_session_without_plays_still_writes_its_deal(small_clip, tmp_path):
    import cv2
    import numpy as np

    video = tmp_path / "empty.mp4"
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), 10.0, (640, 360))
    for _ in range(5):
        w.write(np.full((360, 640, 3), 80, np.uint8))
    w.release()
    log = tmp_path / "log.jsonl"
    (tmp_path / "frames.jsonl").write_text("", encoding="utf-8")  # an oracle that sees no card
    assert main(["watch", "--video", str(video), "--game", "guafeng-zibo", "--detector", "oracle",
                 "--oracle-frames", str(tmp_path / "frames.jsonl"), "--out", str(log), "--quiet",
                 "--calibration", str(small_clip / "calibration.json")]) == 0
    assert log.read_text(encoding="utf-8").splitlines() == ['{"type":"deal","game":"guafeng-zibo","seats":4}']


def test_watch_prints_its_progress_to_stderr_not_into_the_json(small_clip, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    assert main([*_watch(small_clip, log), "--json", "--progress", "0.001",
                 "--header", str(small_clip / "truth.jsonl")]) == 0
    out = capsys.readouterr()
    progress = [x for x in out.err.splitlines() if x.startswith("[progress]")]
    assert progress and "s of 23.6 s (" in progress[-1] and "frames/s" in progress[-1] and "plays" in progress[-1]
    assert all(json.loads(x)["event"] for x in out.out.splitlines())  # stdout: JSON lines only
    assert main([*_watch(small_clip, tmp_path / "quiet.jsonl"), "--progress", "0", "--quiet"]) == 0
    assert "[progress]" not in capsys.readouterr().err
