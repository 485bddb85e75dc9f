"""The table session (:mod:`cardref.vision.session`): one for watch, the dashboard and the
bench; its config, header, detector protocol, records, writer and resume rules."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from cardref.cli import main
from cardref.engine.events import DealEvent, PlayEvent
from cardref.vision.capture import Frame
from cardref.vision.frame_detector import DetectCall, IndexedDetector, SplitDetector, detect_call
from cardref.vision.logfile import JsonlSink, JsonlWriter, LogFileError, read_tail
from cardref.vision.plays import PlayObservation
from cardref.vision.session import (
    ConfigError,
    HeaderError,
    PipelineConfig,
    TableSession,
    deal_options,
    header_events,
)
from cardref.vision.watch import FrameResult


@pytest.fixture
def built(monkeypatch) -> list[TableSession]:
    """Every TableSession built while the test runs."""
    made: list[TableSession] = []
    real_init = TableSession.__init__

    def record(self, *args, **kwargs):  # noqa: ANN001, ANN202
        real_init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(TableSession, "__init__", record)
    return made


# ---- one session for the three entry points ---------------------------------------------------

def test_cardref_watch_runs_a_table_session(small_clip, tmp_path, built):
    log = tmp_path / "log.jsonl"
    assert main(["watch", "--video", str(small_clip / "video.mp4"), "--game", "guafeng-zibo", "--detector", "oracle",
                 "--header", str(small_clip / "truth.jsonl"), "--out", str(log), "--quiet", "--settle", "0.4",
                 "--stride", "1", "--tiles", "0"]) == 0
    assert len(built) == 1
    s = built[0]
    assert s.config.game == "guafeng-zibo" and s.config.settle_s == 0.4 and s.writer is not None
    assert s.plays == 8 and len(s.lines_of) == 8


def test_the_dashboard_runs_a_table_session(small_clip, built):
    from cardref.ui.sources import VisionAdapter, build_pipeline

    pipeline, why = build_pipeline("guafeng-zibo", None, detector="oracle", video=str(small_clip / "video.mp4"),
                                   fps=10.0)
    assert why is None and isinstance(pipeline, VisionAdapter)
    assert built == [pipeline.session] and built[0].writer is None and built[0].config.fps == 10.0


def test_bench_e2e_runs_a_table_session(tmp_path, built):
    from cardref.vision.bench_e2e import run_deal

    score = run_deal("guafeng-zibo", 3, tmp_path, detector_kind="oracle", noise="none", max_plays=3, model=None,
                     backend="auto", settle=0.5, resolution=(640, 360))
    assert len(built) == 1 and built[0].config.game == "guafeng-zibo"
    assert score.truth == 3 and score.exact == 3


def test_the_dashboard_gets_plays_as_records_not_private_keys(small_clip):
    """The play id travels beside the event (FrameOutput.plays), never inside it."""
    import cv2

    from cardref.ui.sources import build_pipeline
    from cardref.vision.calibration import load_calibration

    cal = load_calibration(str(small_clip / "calibration.json"))
    pipeline, why = build_pipeline("guafeng-zibo", cal, detector="oracle", video=str(small_clip / "video.mp4"),
                                   fps=10.0)
    assert why is None
    cap = cv2.VideoCapture(str(small_clip / "video.mp4"))
    plays = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        out = pipeline.process(img, 0.0)
        assert not out.events
        plays += out.plays
    assert len(plays) == 8
    assert all(not any(k.startswith("_") for k in p.event) for p in plays)
    assert len({p.play for p in plays}) == 8 and all(p.event["type"] == "play" for p in plays)


# ---- the config -------------------------------------------------------------------------------

@pytest.mark.parametrize(("kw", "code"), [
    ({"game": "nope"}, "config.unknown_game"),
    ({"settle_s": float("nan")}, "config.bad_value"),
    ({"settle_s": -1.0}, "config.bad_value"),
    ({"stride": 0}, "config.bad_value"),
    ({"tiles": 3}, "config.bad_value"),
    ({"table_mm": (float("inf"), 700.0)}, "config.bad_value"),
    ({"tune": ("min_hits=-2",)}, "config.bad_tune"),
    ({"tune": ("clear_s=nan",)}, "config.bad_tune"),
    ({"tune": ("nosuch=1",)}, "config.bad_tune"),
])
def test_a_config_that_cannot_work_is_refused(kw, code):
    with pytest.raises(ConfigError) as exc:
        PipelineConfig(**{"game": "guafeng-zibo", **kw})
    assert exc.value.code == code


def test_the_config_gives_the_segmenter_its_settings():
    cfg = PipelineConfig(game="gouji-shandong", settle_s=0.7, tune=("min_hits=2",))
    s = cfg.segmenter_settings()
    assert (s.settle_s, s.min_hits, s.copies, cfg.seats) == (0.7, 2, 4, 6)


# ---- the header ---------------------------------------------------------------------------------

def test_one_header_events_refuses_another_games_header():
    header = ['{"type":"deal","game":"gouji-shandong","seats":6,"leader":2}\n']
    with pytest.raises(HeaderError) as exc:
        header_events("guafeng-zibo", header_lines=header)
    assert exc.value.code == "header.other_game"
    events = header_events("gouji-shandong", header_lines=[*header, '{"type":"play","seat":2,"cards":["5S"]}'])
    assert [type(e) for e in events] == [DealEvent] and events[0].options == {"leader": 2}


def test_deal_options_are_a_deal_of_the_game():
    assert deal_options('{"level":"7","trump":"H","dealer":1}', "guafeng-zibo") == {
        "level": "7", "trump": "H", "dealer": 1}
    for text, code in (('{"type":"play"}', "deal.not_a_deal"), ('{"game":"gouji-yucheng"}', "deal.other_game"),
                       ('"deal"', "deal.not_object"), ("{", "deal.not_json")):
        with pytest.raises(HeaderError) as exc:
            deal_options(text, "guafeng-zibo")
        assert exc.value.code == code


# ---- the detector protocol ----------------------------------------------------------------------

class _Whole:
    def detect(self, frame_bgr):  # noqa: ANN001, ANN201
        return []


class _Indexed(_Whole):
    def detect_indexed(self, frame_bgr, index):  # noqa: ANN001, ANN201
        return []


class _Split(_Whole):
    backend = object()

    def find_corners(self, frame_bgr):  # noqa: ANN001, ANN201
        return []

    def name_corners(self, frame_bgr, corners):  # noqa: ANN001, ANN201
        return corners

    def merge_cards(self, corners, frame_bgr=None):  # noqa: ANN001, ANN201
        return []


def test_the_detector_call_is_decided_once_by_its_declared_capabilities():
    assert detect_call(_Indexed(), tiles=2) is DetectCall.INDEXED
    assert detect_call(_Whole(), tiles=2) is DetectCall.TILES
    assert detect_call(_Whole(), tiles=0) is DetectCall.WHOLE
    assert isinstance(_Split(), SplitDetector) and not isinstance(_Whole(), SplitDetector)
    assert not isinstance(_Split(), IndexedDetector)
    from cardref.vision.detector.regions import StreamDetector

    # a split detector gets the stream detector around it, unless whole frames are asked for
    streamed = TableSession(PipelineConfig(game="guafeng-zibo"), _Split())
    assert isinstance(streamed.detector, StreamDetector) and streamed.pipeline.looks is not None
    whole = TableSession(PipelineConfig(game="guafeng-zibo", whole_frames=True), _Split())
    assert isinstance(whole.detector, _Split)
    assert isinstance(TableSession(PipelineConfig(game="guafeng-zibo"), _Indexed()).detector, _Indexed)


# ---- records, writing, the first leader, resuming ------------------------------------------------

def _obs(seat: int, t: float, play: int, cards: tuple[str, ...] = ("5S",)) -> PlayObservation:
    return PlayObservation(seat, cards, t, t + 0.5, 0.9, False, f"seat{seat}", play=play)


class _Scripted:
    """Stands in for the per-frame steps: frame i gives the plays scripted for it."""

    def __init__(self, plays: dict[int, list[PlayObservation]]) -> None:
        self.plays = plays
        self.calibration = None

    def process(self, frame: Frame) -> FrameResult:
        return FrameResult(frame, [], self.plays.get(frame.index, []), [], 0.0)


def _session(tmp_path: Path, plays: dict[int, list[PlayObservation]], game: str = "guafeng-zibo",
             **kw) -> tuple[TableSession, JsonlWriter]:
    writer = JsonlWriter(tmp_path / "log.jsonl", append=True, tail=read_tail(tmp_path / "log.jsonl"))
    s = TableSession(PipelineConfig(game=game, **kw), _Whole(), writer=writer)
    s.pipeline = _Scripted(plays)  # type: ignore[assignment]
    return s, writer


def _frame(i: int, t: float | None = None) -> Frame:
    return Frame(np.zeros((4, 4, 3), np.uint8), i, i / 10 if t is None else t)


def test_without_a_leader_the_deal_waits_for_the_first_play(tmp_path):
    s, w = _session(tmp_path, {3: [_obs(2, 0.3, 7)], 5: [_obs(3, 0.5, 8)]})
    assert s.start_log(header_events("guafeng-zibo", deal_options={"level": "7", "trump": "H"})) == []
    for i in range(6):
        s.step(_frame(i))
    w.close()
    lines = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert lines[0] == {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "7", "trump": "H", "dealer": 2}
    assert [x["seat"] for x in lines[1:]] == [2, 3] and s.leader_from_play == 2
    assert s.lines_of == {7: 1, 8: 2}


def test_a_given_leader_is_written_at_once(tmp_path):
    s, _w = _session(tmp_path, {}, game="gouji-yucheng")
    written = s.start_log(header_events("gouji-yucheng", deal_options={"leader": 4}))
    assert [i for i, _e in written] == [0] and s.held == []


def test_a_resumed_file_goes_on_before_the_last_t_and_skips_what_the_log_has(tmp_path):
    (tmp_path / "log.jsonl").write_text('{"type":"deal","game":"guafeng-zibo","seats":4,"dealer":0}\n'
                                        '{"type":"play","seat":0,"cards":["5S"],"t":12.0}\n')
    s, w = _session(tmp_path, {100: [_obs(0, 12.0, 1)], 130: [_obs(1, 12.8, 2)]}, resume_warmup_s=4.0)
    s.resume(read_tail(tmp_path / "log.jsonl"), live=False, fps=10.0)
    assert s.start_frame == 80 and s.quiet_until == 12.0
    steps = [s.step(_frame(i)) for i in (100, 130)]
    assert steps[0].plays == [] and [r.event.seat for r in steps[1].plays] == [1]
    assert steps[1].written[0][0] == 2  # the line after the log's two
    assert (s.plays, s.known) == (1, 1)
    w.close()


def test_a_resumed_live_source_counts_t_on_and_skips_the_cards_already_down(tmp_path):
    (tmp_path / "log.jsonl").write_text('{"type":"deal","game":"guafeng-zibo","seats":4,"dealer":0}\n'
                                        '{"type":"play","seat":0,"cards":["5S"],"t":30.0}\n')
    s, w = _session(tmp_path, {0: [_obs(0, 30.2, 1)], 9: [_obs(1, 31.5, 2)]})
    s.resume(read_tail(tmp_path / "log.jsonl"), live=True, fps=None)

    class Live:
        live = True

        def frames(self, start=0):  # noqa: ANN001, ANN202
            for i in range(10):
                yield _frame(i, 0.2 + i * 0.15)

    frames = list(s.frames(Live()))
    assert frames[0].t == pytest.approx(30.2)  # t goes on from the log's
    plays = [r.event for f in frames for r in s.step(f).plays]
    assert [p.seat for p in plays] == [1]  # the cards lying there when watching resumed are no play
    w.close()


def test_a_play_read_again_corrects_its_own_line(tmp_path):
    from cardref.vision.plays import PlayRevision

    s, w = _session(tmp_path, {}, game="gouji-yucheng")
    s.start_log(header_events("gouji-yucheng", deal_options={"leader": 1}))

    class WithRevision(_Scripted):
        def process(self, frame: Frame) -> FrameResult:
            res = super().process(frame)
            if frame.index == 2:
                res.revisions = [PlayRevision(5, ("5S", "5S"), ("5S",), 0.9, 0.8)]
            return res

    s.pipeline = WithRevision({1: [_obs(1, 0.1, 5)]})  # type: ignore[assignment]
    for i in range(3):
        s.step(_frame(i))
    w.close()
    lines = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert lines[2]["type"] == "correct" and lines[2]["ref"] == 1 and lines[2]["cards"] == ["5S", "5S"]
    assert isinstance(s.step(_frame(9)).result, FrameResult)


# ---- the one writer ------------------------------------------------------------------------------

def test_the_writer_fsyncs_every_event_and_the_dashboard_sink_is_the_same_writer(tmp_path, monkeypatch):
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    with JsonlWriter(tmp_path / "a.jsonl", append=False) as w:
        assert w.write(PlayEvent(seat=1, cards=()))[0] == 0 and w.write_line('{"type":"pass","seat":2}') == 1
    assert len(synced) == 2
    from cardref.ui.model import JsonlSink as DashboardSink

    assert DashboardSink is JsonlSink
    (tmp_path / "b.jsonl").write_text('{"type":"deal","game":"guafeng-zibo","seats":4}')  # no final newline
    DashboardSink(tmp_path / "b.jsonl").write_line('{"type":"pass","seat":1}')
    assert len(synced) == 4  # the missing newline, then the line
    assert (tmp_path / "b.jsonl").read_text().splitlines()[1] == '{"type":"pass","seat":1}'


def test_read_tail_says_what_a_log_ends_with(tmp_path):
    p = tmp_path / "log.jsonl"
    p.write_text('\ufeff{"type":"deal","game":"guafeng-zibo","seats":4}\n\n{"type":"play","seat":0,"cards":["5S"],'
                 '"t":3.5}\n{"type":"play","se', encoding="utf-8")
    tail = read_tail(p)
    assert (tail.count, tail.last_t, tail.has_deal, tail.needs_newline, tail.torn) == (3, 3.5, True, True, 3)
    p.write_bytes(b"\xff\xfe binary")
    with pytest.raises(LogFileError) as exc:
        read_tail(p)
    assert exc.value.code == "log.not_utf8" and str(p) in str(exc.value)
