"""Streamlit session and shared resources: the configuration, the live table (one per
server, shared by every screen watching it), the session's replay log, language and PIN."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit as st

from cardref.engine.registry import is_gouji

from .config import UiConfig, from_env, ui_pin_matches
from .i18n import tr
from .live import LiveRunner
from .model import JsonlSink, LogOpenError, LogSink, TableLog, TeeSink
from .pinlock import Attempts


def config() -> tuple[UiConfig, str | None]:
    return from_env()


def lang() -> str:
    return "en" if st.session_state.get("lang_en") else "zh"


@dataclass
class LiveTable:
    """The table watched live: its log, the frame loop and what went wrong starting them."""

    log: TableLog
    runner: LiveRunner | None
    calibration: Any
    problems: list[tuple[str, str]] = field(default_factory=list)  # (i18n key, detail)
    pipeline_problem: str | None = None
    pipeline_name: str = ""


def header_events(cfg: UiConfig, problems: list[tuple[str, str]] | None = None) -> list[dict[str, Any]]:
    """What the live log starts with: the deal (and hands) of ``--header``, or of the
    ``truth.jsonl`` beside a video made by ``cardref simulate``; else a deal of ``--game``
    with the ``--deal`` options and the players' names.

    The header is read by the one reader of every entry point
    (:func:`cardref.vision.session.header_events`): a bad header line or a header dealt for
    another game is not used, and says why in ``problems`` (a banner), never silently."""
    from cardref.engine.events import GAME_SEATS, DealEvent
    from cardref.vision.session import HeaderError, read_header
    from cardref.vision.session import header_events as session_header_events

    header = cfg.header
    if not header and cfg.mode == "video" and cfg.video:  # cardref simulate's truth, or the demo's log
        header = next((str(Path(cfg.video).with_name(n)) for n in ("truth.jsonl", "table.jsonl")
                       if Path(cfg.video).with_name(n).is_file()), None)
    if header:
        events = []
        try:
            lines = read_header(header)
            game = cfg.game or _header_game(lines)
            if game in GAME_SEATS and _header_game(lines) is not None:  # a header without a deal adds none
                events = session_header_events(game, header_lines=lines)
        except HeaderError as exc:
            if problems is not None:
                problems.append(("banner.bad_header", str(exc)))
        out = [e.to_json() for e in events]
        deal = next((o for o, e in zip(out, events, strict=True) if isinstance(e, DealEvent)), None)
        if deal is not None:
            if cfg.names and "names" not in deal:
                deal["names"] = cfg.names
            return out
    if not cfg.game or missing_options(cfg.game, cfg.deal or {}):
        return []  # the live page asks for them before the first play (never a deal of made-up options)
    deal = {"type": "deal", "game": cfg.game, "seats": GAME_SEATS.get(cfg.game, 4), **(cfg.deal or {}),
            "source": "manual"}
    if cfg.names:
        deal["names"] = cfg.names
    return [deal]


def _header_game(lines: list[str]) -> str | None:
    """The game of the first deal line of a header (None: no readable deal)."""
    from cardref.engine.eventlog import read_lines
    from cardref.engine.events import DealEvent

    return next((ln.event.game for ln in read_lines(lines) if isinstance(ln.event, DealEvent)), None)


def missing_options(game: str, options: dict[str, Any]) -> list[str]:
    """The deal options of ``game`` that only the referee can give (the camera cannot see
    them) and the rules cannot do without: level and dealer in the 升级 family.  (In 够级
    the first play of a deal without a ``leader`` leads: nothing is missing.)"""
    need = () if is_gouji(game) else ("level", "dealer")
    return [k for k in need if options.get(k) is None]


def _out_path(cfg: UiConfig) -> Path:
    if cfg.out:
        return Path(cfg.out)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("recordings") / f"table-{stamp}.jsonl"


def _store_sink(cfg: UiConfig, table_id: str) -> tuple[LogSink | None, str | None]:
    """The recorder's store for the live table (``--store``, else its default), or why not."""
    try:
        from cardref.recorder import open_store
        from cardref.recorder.sink import StoreSink
    except ImportError as exc:
        return None, str(exc)
    try:
        return StoreSink(open_store(cfg.store), table_id), None
    except Exception as exc:  # the JSONL file still keeps every event
        return None, str(exc)


def live_table(cfg_json: str) -> LiveTable:
    """The live table of one configuration (``cfg_json``), started once per server; while
    the camera and the recognition model open, the page says so in its own language."""
    with st.spinner(tr("live.opening", lang())):
        return _started_table(cfg_json)


@st.cache_resource(show_spinner=False)
def _started_table(cfg_json: str) -> LiveTable:
    """Started once per server for one configuration (``cfg_json`` is the cache key)."""
    import json

    from .sources import CvSource, VisionAdapter, build_pipeline, load_calibration

    cfg = UiConfig(**json.loads(cfg_json))
    out = _out_path(cfg)
    problems: list[tuple[str, str]] = []
    sink, store_problem = _store_sink(cfg, out.stem)
    if store_problem:
        problems.append(("banner.store_failed", store_problem))
    log = TableLog(sink=TeeSink(JsonlSink(out), *([sink] if sink else [])), name=out.name,
                   confirm_below=cfg.confirm_below)
    if cfg.log and Path(cfg.log).is_file():  # continue an existing log
        try:
            for line in TableLog.open(cfg.log).lines:
                log.append(line)
        except LogOpenError:
            pass
    if not any('"deal"' in line for line in log.lines):
        for obj in header_events(cfg, problems):
            log.append(obj)
    calibration, why = load_calibration(cfg.calibration)
    if why:
        problems.append(("banner.no_pipeline", f"calibration: {why}"))
    fps = None
    if cfg.mode == "video" and cfg.video:
        try:
            probe = CvSource(cfg.video, realtime=False)
            fps = probe.fps
            probe.release()
        except Exception:
            fps = None
    if calibration is None and cfg.video and Path(cfg.video).with_name("calibration.json").is_file():
        calibration, _ = load_calibration(Path(cfg.video).with_name("calibration.json"))
    result = log.result()
    game = cfg.game or (result.deals[-1].deal.game if result.deals else None)  # else from the header
    pipeline, pipe_problem = build_pipeline(game, calibration, detector=cfg.detector,
                                            video=cfg.video if cfg.mode == "video" else None, fps=fps,
                                            deck=cfg.deck)
    spec: int | str = cfg.camera if cfg.mode == "camera" and cfg.camera is not None else (cfg.video or "")

    def open_source() -> CvSource:
        return CvSource(spec, realtime=True)

    runner = LiveRunner(open_source, pipeline, log, calibration=calibration, names=cfg.names)
    runner.start()
    detector = pipeline.detector if isinstance(pipeline, VisionAdapter) else None
    name = type(detector).__name__ if detector is not None else type(pipeline).__name__
    backend = getattr(detector, "name", None)  # the detector backend: openvino, onnx, torch, oracle
    return LiveTable(log, runner, calibration, problems, pipe_problem,
                     f"{name} ({backend})" if isinstance(backend, str) else name)


# ---- the session's replay log ----------------------------------------------------------------

def video_beside(path: str | Path) -> str | None:
    """The recording of a log: ``NAME.mp4`` beside ``NAME.jsonl``; ``video.mp4`` beside a
    ``table.jsonl`` or ``truth.jsonl``."""
    p = Path(path)
    candidates = [p.with_suffix(".mp4")]
    if p.name in ("table.jsonl", "truth.jsonl"):  # the names ``cardref simulate`` and the demo use
        candidates.append(p.with_name("video.mp4"))
    return next((str(c) for c in candidates if c.is_file()), None)


def open_replay(path: str, video: str | None = None, name: str | None = None) -> str | None:
    """Load a log file (and its video: given, or found beside it) into this session's replay;
    returns a problem or None."""
    try:
        log = TableLog.open(path)
    except LogOpenError as exc:
        return exc.detail
    video = video or video_beside(path)
    set_replay(log, video, name or Path(path).name)
    return None


def set_replay(log: TableLog, video: str | None, name: str) -> None:
    cfg, _ = config()
    log.confirm_below = cfg.confirm_below
    st.session_state["replay_log"] = log
    st.session_state["replay_n0"] = len(log)
    st.session_state["replay_video"] = video
    st.session_state["replay_name"] = name
    st.session_state["cursor"] = 0
    st.session_state.pop("replay_frames", None)


def replay_log() -> TableLog | None:
    return st.session_state.get("replay_log")


def active_log() -> TableLog | None:
    """The log the setup page and corrections write to: the live table's, else the replay's."""
    cfg, _ = config()
    if cfg.live:
        return live_table(cfg.to_env()).log
    return replay_log()


# ---- the director PIN ------------------------------------------------------------------------

def locked() -> bool:
    """True while this browser session may not write (a PIN is set and not given here)."""
    cfg, _ = config()
    return bool(cfg.pin_hash) and not st.session_state.get("unlocked", False)


def session_key() -> str:
    """This browser session's id for PIN attempts (the recorder's audit log names it)."""
    import uuid

    if "pin_session" not in st.session_state:
        st.session_state["pin_session"] = f"ui:{uuid.uuid4().hex[:12]}"
    return str(st.session_state["pin_session"])


def attempts() -> Attempts:
    if not isinstance(st.session_state.get("pin_attempts"), Attempts):
        st.session_state["pin_attempts"] = Attempts()
    return st.session_state["pin_attempts"]


def unlock(pin: str) -> tuple[str, float]:
    """Check ``pin`` for this session: (``ok`` | ``wrong`` | ``waiting``, seconds to wait
    before the next try).  While this session must wait, the PIN is not even checked."""
    cfg, _ = config()
    tries = attempts()
    wait = tries.wait()
    if wait > 0:
        return "waiting", wait
    if bool(cfg.pin_hash) and ui_pin_matches(str(pin), cfg.pin_hash):
        tries.succeeded()
        st.session_state["unlocked"] = True
        return "ok", 0.0
    tries.failed()
    return "wrong", tries.wait()


def ensure_replay() -> str | None:
    """Load the configured log (the demo by default) into this session once; returns a problem."""
    if replay_log() is not None or st.session_state.get("replay_problem_shown"):
        return st.session_state.get("replay_problem")
    cfg, _ = config()
    path = cfg.replay_log
    if not path:
        return None
    problem = open_replay(path, cfg.replay_video)
    if problem:
        st.session_state["replay_problem"] = f"{path}: {problem}"
        st.session_state["replay_problem_shown"] = True
        return st.session_state["replay_problem"]
    st.session_state["playing"] = bool(cfg.autoplay and cfg.mode == "demo")
    st.session_state["speed"] = cfg.speed
    if cfg.mode == "log":  # a recorded log opens at its end: the deal as it finished
        st.session_state["cursor"] = st.session_state["replay_n0"]
    return None


@st.cache_resource(show_spinner=False)
def store(url: str | None) -> Any:
    """The recorder's store (``--store``, else ``$CARDREF_DB``, else its default file); raises
    when it cannot be opened."""
    from cardref.recorder import open_store

    return open_store(url)
