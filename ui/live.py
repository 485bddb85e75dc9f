"""The live page's frame loop: a background thread that reads frames, runs the pipeline,
appends its events to the table log and keeps the latest annotated picture.

The page never drives this loop: Streamlit fragments (``st.fragment(run_every=…)``) only
*read* :meth:`LiveRunner.snapshot`, so the pipeline's frame rate does not depend on the
page.  Everything is coded against two small protocols, :class:`FrameSource` and
:class:`Pipeline`, so tests run it with fakes and the camera helper's pipeline plugs in
through :func:`cardref.ui.sources.build_pipeline`.

A camera that stops giving frames is reported as ``lost`` after ``lost_after`` seconds and
re-opened every ``reconnect_every`` seconds; a video file that ends is ``ended``.  No
event is ever dropped: the log is appended to as events come.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

from cardref.vision.types import CardDetection

from .model import TableLog
from .overlay import draw_overlay, zone_polygons


class FrameSource(Protocol):
    """A camera or a video: ``read()`` → (ok, BGR frame); ``is_file`` sources end."""

    is_file: bool

    def read(self) -> tuple[bool, np.ndarray | None]: ...

    def release(self) -> None: ...


@dataclass(frozen=True)
class PlayLine:
    """A play the pipeline saw: the event for the log, and beside it the pipeline's own id
    of that play (which a later revision names; never written to the log)."""

    event: dict[str, Any]
    play: int


@dataclass
class FrameOutput:
    """What the pipeline made of one frame.

    ``events`` are written as they are; ``plays`` are written in order after them, each
    line remembered under its play id; ``revisions`` are ``(id, correct event without
    "ref")`` for plays the pipeline read again, and the loop points each at the log line
    where that play was written."""

    detections: Sequence[CardDetection] = ()
    events: Sequence[dict[str, Any]] = ()
    pile: Sequence[str] = ()
    revisions: Sequence[tuple[int, dict[str, Any]]] = ()
    plays: Sequence[PlayLine] = ()


class Pipeline(Protocol):
    def process(self, frame: np.ndarray, t: float) -> FrameOutput: ...


@runtime_checkable
class Calibrated(Protocol):
    """A pipeline that uses the table's calibration (the table session's adapter)."""

    def set_calibration(self, calibration: Any) -> None: ...


class NullPipeline:
    """Shows the picture, recognises nothing (when the recognition pipeline is unavailable)."""

    def __init__(self, reason: str = "") -> None:
        self.reason = reason

    def process(self, frame: np.ndarray, t: float) -> FrameOutput:
        return FrameOutput()


@dataclass
class LiveStatus:
    state: str = "starting"  # starting | running | lost | ended | error | stopped
    fps: float = 0.0
    frames: int = 0
    events: int = 0
    since_frame: float = 0.0
    error: str = ""
    pile: list[str] = field(default_factory=list)


class LiveRunner:
    """Runs ``source`` → ``pipeline`` → ``log`` in a daemon thread.

    ``draw`` makes :meth:`snapshot` return the frame with the dashboard's overlay (seat
    zones, detected cards, pile), drawn on demand by the reader.
    """

    def __init__(self, open_source: Callable[[], FrameSource], pipeline: Pipeline, log: TableLog | None, *,
                 calibration: Any = None, draw: bool = True, names: Sequence[str] = (),
                 lost_after: float = 2.0, reconnect_every: float = 1.0, clock: Callable[[], float] = time.monotonic,
                 max_fps: float | None = None) -> None:
        self._open = open_source
        self.pipeline = pipeline
        self.log = log
        self.calibration = calibration
        self.draw = draw
        self.names = list(names)
        self.lost_after = lost_after
        self.reconnect_every = reconnect_every
        self.clock = clock
        self.max_fps = max_fps
        self._zones = zone_polygons(calibration) if calibration is not None else []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._status = LiveStatus()
        self._frame: np.ndarray | None = None
        self._out = FrameOutput()
        self._frame_no = 0
        self._drawn: np.ndarray | None = None
        self._drawn_no = -1
        self._jpeg: tuple[int, bytes] | None = None
        self._lines_of: dict[int, int] = {}  # the pipeline's play id -> its log line
        self._t0 = clock()

    # ---- control ----------------------------------------------------------------------
    def start(self) -> LiveRunner:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="cardref-live", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        with self._lock:
            if self._status.state not in ("ended", "error"):
                self._status.state = "stopped"

    def set_calibration(self, calibration: Any) -> None:
        """Use a new calibration from the next frame on (seat zones and the pipeline's)."""
        self.calibration = calibration
        self._zones = zone_polygons(calibration) if calibration is not None else []
        if isinstance(self.pipeline, Calibrated):
            self.pipeline.set_calibration(calibration)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # ---- what the page reads -----------------------------------------------------------
    def snapshot(self) -> tuple[np.ndarray | None, LiveStatus]:
        """The latest frame with the overlay (BGR, not to be modified) and a copy of the status.

        The overlay is drawn here, by the reader and at the reader's pace (the page's
        refresh rate), never in the frame loop, so watching costs the pipeline nothing
        per frame; a frame already drawn is shared by every screen watching."""
        with self._lock:
            st = LiveStatus(**{k: getattr(self._status, k) for k in LiveStatus.__dataclass_fields__})
            last, busy = self._last_frame_at, self._processing
            frame, out, no = self._frame, self._out, self._frame_no
            drawn, drawn_no = self._drawn, self._drawn_no
        if st.state in ("running", "lost"):
            st.since_frame = max(0.0, self.clock() - last)
            if st.state == "running" and st.since_frame > self.lost_after and not busy:
                st.state = "lost"  # the camera gave nothing (a slow pipeline on a frame is not that)
        if frame is None or not self.draw:
            return frame, st
        if drawn is not None and drawn_no == no:
            return drawn, st
        drawn = draw_overlay(frame.copy(), out.detections, zones=self._zones, pile=list(out.pile), names=self.names)
        with self._lock:
            if self._frame_no == no:
                self._drawn, self._drawn_no = drawn, no
        return drawn, st

    def now_t(self) -> float:
        """Seconds since the loop started (the ``t`` of events it writes)."""
        return self.clock() - self._t0

    def page_interval(self, default: float = 0.2) -> float:
        """How often a page should fetch the picture: at the pipeline's frame rate, between
        2 and 15 times a second (``default`` until the rate is known)."""
        fps = self.snapshot()[1].fps
        return default if fps <= 0 else min(0.5, max(1 / 15, 1 / fps))

    def snapshot_jpeg(self, max_width: int = 1280, quality: int = 80) -> tuple[bytes | None, LiveStatus]:
        """The latest picture as JPEG bytes for the browser, encoded once per frame and shared
        by every screen (OpenCV encodes without holding the interpreter lock)."""
        frame, st = self.snapshot()
        with self._lock:
            no, cached = self._frame_no, self._jpeg
            if cached is not None and cached[0] == no:
                return cached[1], st
        if frame is None:
            return None, st
        h, w = frame.shape[:2]
        if w > max_width:
            frame = cv2.resize(frame, (max_width, int(h * max_width / w)), interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            return None, st
        data = buf.tobytes()
        with self._lock:
            self._jpeg = (no, data)
        return data, st

    # ---- the loop ------------------------------------------------------------------------
    _last_frame_at = 0.0
    _processing = False

    def _set(self, **kw: Any) -> None:
        with self._lock:
            for k, v in kw.items():
                setattr(self._status, k, v)

    def _write(self, out: FrameOutput) -> int:
        """Append the frame's events (and corrections of plays read again) to the log."""
        assert self.log is not None
        n = 0
        for ev in out.events:
            self.log.append(dict(ev))
            n += 1
        for line in out.plays:
            self._lines_of[line.play] = self.log.append(dict(line.event))
            n += 1
        for play_id, fix in out.revisions:
            ref = self._lines_of.get(play_id)
            if ref is not None:
                self.log.append({**fix, "ref": ref})
                n += 1
        return n

    def _open_source(self) -> FrameSource | None:
        try:
            return self._open()
        except Exception as exc:  # a camera that cannot be opened: keep trying, say why
            self._set(error=str(exc) or type(exc).__name__)
            return None

    def _run(self) -> None:
        source = self._open_source()
        self._last_frame_at = self.clock()
        ema = 0.0
        prev = None
        while not self._stop.is_set():
            if source is None:
                self._set(state="lost" if self._status.frames else "error")
                if self._stop.wait(self.reconnect_every):
                    break
                source = self._open_source()
                continue
            ok, frame = source.read()
            now = self.clock()
            if not ok or frame is None:
                if getattr(source, "is_file", False):
                    self._set(state="ended")
                    break
                if now - self._last_frame_at > self.lost_after:
                    self._set(state="lost")
                    try:
                        source.release()
                    except Exception:
                        pass
                    source = None
                    continue
                self._stop.wait(0.01)
                continue
            t = now - self._t0
            with self._lock:
                self._last_frame_at, self._processing = now, True
            try:
                out = self.pipeline.process(frame, t)
            except Exception as exc:  # one bad frame must not stop the table
                out = FrameOutput()
                self._set(error=f"pipeline: {exc}")
            finally:
                with self._lock:
                    self._processing = False
            n_events = 0
            if self.log is not None:
                try:
                    n_events = self._write(out)
                except Exception as exc:  # the log is kept in memory still; the page says what failed
                    self._set(error=f"log: {exc}")
            if prev is not None:
                dt = max(1e-6, now - prev)
                ema = 1 / dt if ema == 0 else 0.9 * ema + 0.1 / dt
            prev = now
            with self._lock:
                self._frame = frame
                self._out = out
                self._frame_no += 1
                self._status.state = "running"
                self._status.frames += 1
                self._status.events += n_events
                self._status.fps = ema
                self._status.pile = list(out.pile)
            if self.max_fps:
                self._stop.wait(max(0.0, 1 / self.max_fps - (self.clock() - now)))
        if source is not None:
            try:
                source.release()
            except Exception:
                pass
