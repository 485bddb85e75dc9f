"""``cardref watch --append`` after a crash (issue #32 items 1 and 2): a watch killed with
``kill -9`` and started again with ``--append`` gives the log an uninterrupted run gives,
play for play, for a video file and for a folder of images; a log cut off mid-line is
continued on a new line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import cv2
import pytest

from cardref.cli import main

# the watch run that is killed: the oracle made slow (30 ms a frame), so that the kill lands mid-video
SLOW_WATCH = textwrap.dedent("""
    import sys, time
    from cardref.vision.simulate import oracle
    real = oracle.OracleDetector.detect_indexed
    def slow(self, frame, index):
        time.sleep(0.03)
        return real(self, frame, index)
    oracle.OracleDetector.detect_indexed = slow
    from cardref.cli import main
    raise SystemExit(main(sys.argv[1:]))
""")


@pytest.fixture(scope="module")
def clip(small_clip) -> Path:
    return small_clip


@pytest.fixture(scope="module")
def folder(clip) -> Path:
    """The clip's frames as a folder of JPEG images."""
    out = clip.parent / "frames"
    out.mkdir(exist_ok=True)
    cap = cv2.VideoCapture(str(clip / "video.mp4"))
    i = 0
    while True:
        ok, img = cap.read()
        if not ok:
            break
        cv2.imwrite(str(out / f"{i:05d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        i += 1
    return out


def _source(clip: Path, folder: Path, kind: str) -> list[str]:
    if kind == "video":
        return ["--video", str(clip / "video.mp4")]
    return ["--folder", str(folder), "--oracle-frames", str(clip / "frames.jsonl")]


def _watch(clip: Path, folder: Path, kind: str, log: Path, *extra: str) -> list[str]:
    return ["watch", *_source(clip, folder, kind), "--game", "guafeng-zibo", "--detector", "oracle",
            "--header", str(clip / "truth.jsonl"), "--out", str(log), "--quiet", *extra]


def _plays(path: Path) -> list[tuple[int, Counter, float]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue  # a line torn by the kill
        if obj.get("type") == "play":
            out.append((obj["seat"], Counter(obj["cards"]), obj["t"]))
    return out


def _kill_after_plays(args: list[str], log: Path, plays: int, timeout: float = 60.0) -> None:
    env = {**os.environ, "YOLO_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WATCH, *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + timeout
        while time.monotonic() < end and proc.poll() is None:
            if log.exists() and log.read_text(encoding="utf-8").count('"type":"play"') >= plays:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "watch ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.parametrize("kind", ["video", "folder"])
def test_a_watch_killed_and_appended_gives_the_uninterrupted_log(clip, folder, tmp_path, kind):
    whole = tmp_path / "whole.jsonl"
    assert main(_watch(clip, folder, kind, whole)) == 0
    expected = _plays(whole)
    assert len(expected) == 8

    log = tmp_path / "killed.jsonl"
    _kill_after_plays(_watch(clip, folder, kind, log), log, plays=3)
    before = _plays(log)
    assert 3 <= len(before) < 8  # killed mid-video
    assert main(_watch(clip, folder, kind, log, "--append")) == 0
    after = _plays(log)
    # play for play, no duplicate, t going on (not restarting at the video's start)
    assert [(s, c) for s, c, _t in after] == [(s, c) for s, c, _t in expected]
    assert [t for *_x, t in after] == sorted(t for *_x, t in after)
    assert after[: len(before)] == before
    assert log.read_text(encoding="utf-8").count('"type":"deal"') == 1


def test_append_resumes_the_video_after_the_last_logged_play(clip, folder, tmp_path, capsys):
    """A log cut after its 6th play (t=12.9 s): the video is read on from a few seconds
    before that, not from frame 0, and only the plays after it are written."""
    whole = tmp_path / "whole.jsonl"
    assert main(_watch(clip, folder, "video", whole)) == 0
    lines = whole.read_text(encoding="utf-8").splitlines()
    cut = next(i for i, x in enumerate(lines) if json.loads(x).get("t", 0) > 10) + 1
    log = tmp_path / "cut.jsonl"
    log.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    last_t = json.loads(lines[cut - 1])["t"]
    capsys.readouterr()
    args = _watch(clip, folder, "video", log, "--append")
    args.remove("--quiet")
    assert main(args) == 0
    err = capsys.readouterr().err
    assert f"after its last event at t={last_t:.2f} s: from frame " in err
    start = int(err.split("from frame ")[1].split()[0])
    assert 0 < start <= last_t * 10  # 10 fps: a few seconds before the last play, never frame 0
    assert _plays(log) == _plays(whole)


def test_append_onto_a_log_without_its_final_newline(clip, folder, tmp_path, capsys):
    whole = tmp_path / "whole.jsonl"
    assert main(_watch(clip, folder, "video", whole)) == 0
    lines = whole.read_text(encoding="utf-8").splitlines()
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(lines[:7]), encoding="utf-8")  # no newline after the last play
    assert main(_watch(clip, folder, "video", log, "--append")) == 0
    text = log.read_text(encoding="utf-8").splitlines()
    assert all(json.loads(x) for x in text)  # every line a whole event: nothing glued on
    assert _plays(log) == _plays(whole)


def test_append_after_a_torn_last_line_keeps_it_and_starts_a_new_one(clip, folder, tmp_path, capsys):
    whole = tmp_path / "whole.jsonl"
    assert main(_watch(clip, folder, "video", whole)) == 0
    lines = whole.read_text(encoding="utf-8").splitlines()
    log = tmp_path / "log.jsonl"
    torn = lines[7][: len(lines[7]) // 2]
    log.write_text("\n".join(lines[:7]) + "\n" + torn, encoding="utf-8")
    capsys.readouterr()
    assert main(_watch(clip, folder, "video", log, "--append")) == 0
    err = capsys.readouterr().err
    assert err.count("line 8 of") == 1 and "cut off" in err
    text = log.read_text(encoding="utf-8").splitlines()
    assert text[:7] == lines[:7] and text[7] == torn  # kept as it was
    assert all(json.loads(x) for x in text[8:])
    # the torn play's t is not known: the plays after the last whole one are all written again
    assert [(s, c) for s, c, _t in _plays(log)] == [(s, c) for s, c, _t in _plays(whole)]
