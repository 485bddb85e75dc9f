"""Frame sources (camera, video file) and the bridge to the camera helper's pipeline."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .live import FrameOutput, NullPipeline, Pipeline, PlayLine


class SourceError(RuntimeError):
    """A camera or video that cannot be opened."""


class CvSource:
    """A camera index or a video file through OpenCV.  Files are paced at their own frame
    rate when ``realtime`` (as a camera would give them), else read as fast as possible."""

    def __init__(self, spec: int | str, *, realtime: bool = True, loop: bool = False) -> None:
        self.spec = spec
        self.is_file = not isinstance(spec, int)
        if self.is_file and not Path(str(spec)).is_file():
            raise SourceError(f"no such video file: {spec}")
        if self.is_file:
            self.cap = cv2.VideoCapture(spec)
        else:  # asked for 1280x720: a webcam left alone often gives 640x480
            from cardref.vision.capture import open_camera

            self.cap = open_camera(int(spec))
        if not self.cap.isOpened():
            raise SourceError(f"cannot open {'video' if self.is_file else 'camera'} {spec}")
        fps = self.cap.get(cv2.CAP_PROP_FPS) or 0.0
        self.fps = fps if 1 <= fps <= 240 else 25.0
        self.realtime = realtime and self.is_file
        self.loop = loop and self.is_file
        self._next = time.monotonic()

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.realtime:
            delay = self._next - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next = max(self._next + 1 / self.fps, time.monotonic())  # no bursts to catch up
        ok, frame = self.cap.read()
        if not ok and self.loop:
            self.cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self.cap.read()
        return bool(ok), frame if ok else None

    def release(self) -> None:
        self.cap.release()


class VideoFrames:
    """Random access to a recording's frames by time, for the replay (small LRU of frames)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if not Path(self.path).is_file():
            raise SourceError(f"no such video file: {path}")
        self.cap = cv2.VideoCapture(self.path)
        if not self.cap.isOpened():
            raise SourceError(f"cannot open video {path}")
        fps = self.cap.get(cv2.CAP_PROP_FPS) or 0.0
        self.fps = fps if 1 <= fps <= 240 else 25.0
        self.count = int(self.cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self._pos = -1
        self._cache: dict[int, np.ndarray] = {}

    @property
    def duration(self) -> float:
        return self.count / self.fps if self.count else 0.0

    def index_at(self, t: float) -> int:
        n = int(round(max(0.0, t) * self.fps))
        return min(n, self.count - 1) if self.count else n

    def frame_at(self, t: float) -> np.ndarray | None:
        """The BGR frame shown at ``t`` seconds (clamped to the video)."""
        n = self.index_at(t)
        if n in self._cache:
            return self._cache[n]
        if n != self._pos + 1:
            self.cap.set(cv2.CAP_PROP_POS_FRAMES, n)
        ok, frame = self.cap.read()
        self._pos = n if ok else -1
        if not ok:
            return None
        if len(self._cache) > 64:
            self._cache.clear()
        self._cache[n] = frame
        return frame


def load_detections(path: str | Path | None) -> dict[int, list[Any]]:
    """Per-frame card detections recorded beside a video (``frames.jsonl`` of ``cardref
    simulate``, or a pipeline's detection log): frame index → detections; {} when none."""
    if not path or not Path(path).is_file():
        return {}
    try:
        from cardref.vision.simulate.oracle import detection_from_row
    except ImportError:
        return {}
    out: dict[int, list[Any]] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    obj = json.loads(line)
                    out[int(obj["i"])] = [detection_from_row(r) for r in obj.get("dets", [])]
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return {}
    return out


def load_calibration(path: str | Path | None) -> tuple[Any, str | None]:
    """(calibration, None) or (None, why not)."""
    if not path:
        return None, None
    try:
        from cardref.vision.calibration import load_calibration as _load
    except ImportError as exc:
        return None, f"calibration module missing ({exc})"
    try:
        return _load(str(path)), None
    except Exception as exc:
        return None, str(exc)


def build_pipeline(game: str | None, calibration: Any, *, detector: str = "auto", video: str | None = None,
                   fps: float | None = None, model: str | None = None,
                   backend: str = "auto", deck: str | None = None) -> tuple[Pipeline, str | None]:
    """The table session (:class:`cardref.vision.session.TableSession`, the one ``cardref
    watch`` runs) for ``game``: the card detector, or with ``detector="oracle"`` (or ``"auto"``
    when no model is installed and the video came from ``cardref simulate``) the simulation's
    truth.  ``deck``: an enrolled deck profile for the model detector (a profile that cannot
    be used is a problem reported, not a crash).  Returns (pipeline, None) or (a
    :class:`NullPipeline`, why)."""
    from cardref.engine.events import GAME_SEATS

    if not game or game not in GAME_SEATS:
        return NullPipeline("no game"), "no game given (--game)"
    try:
        from cardref.vision.session import PipelineConfig, TableSession
    except Exception as exc:
        return NullPipeline(str(exc)), f"cardref.vision.session: {exc}"
    frames = Path(video).with_name("frames.jsonl") if video else None
    det: Any = None
    problem = None
    if detector in ("auto", "model"):
        try:
            from cardref.vision.detector import load_detector

            det = load_detector(backend, model)
            if deck:
                from cardref.vision.detector.deck import DeckProfile

                det.use_deck(DeckProfile.load(deck))
        except Exception as exc:
            det, problem = None, f"detector: {exc}"
    if det is None and detector in ("auto", "oracle") and frames is not None and frames.is_file():
        try:
            from cardref.vision.simulate.oracle import OracleDetector

            det, problem = OracleDetector(frames), None
        except Exception as exc:
            problem = f"oracle: {exc}"
    if det is None:
        return NullPipeline(problem or "no detector"), problem or "no detector"
    try:
        session = TableSession(PipelineConfig(game=game, calibration=calibration, fps=fps), det)
    except Exception as exc:
        return NullPipeline(str(exc)), str(exc)
    return VisionAdapter(session, fps=fps, detector=det), None


class VisionAdapter:
    """Runs the table session on the dashboard's frames and hands its plays and corrections
    to the frame loop (which writes them to the table's log)."""

    def __init__(self, session: Any, fps: float | None = None, *, detector: Any = None) -> None:
        self.session = session
        self.fps = fps
        self.index = 0
        self._built_with = detector if detector is not None else session.detector  # as given, before any wrapping

    @property
    def inner(self) -> Any:
        """The session's per-frame steps, read only (what ``cardref bench ui`` reports)."""
        return self.session.pipeline

    @property
    def detector(self) -> Any:
        """The card detector the session runs (the live page names it)."""
        return self.session.detector

    @property
    def calibration(self) -> Any:
        return self.session.calibration

    def set_calibration(self, calibration: Any) -> None:
        self.session.set_calibration(calibration)

    def restart(self) -> None:
        """A fresh table session from the same config, detector and current calibration, its
        frames counted from 0 again (``cardref bench ui`` when its frames start over)."""
        from dataclasses import replace

        from cardref.vision.session import TableSession

        config = replace(self.session.config, calibration=self.session.calibration)
        self.session = TableSession(config, self._built_with)
        self.index = 0

    def process(self, frame: np.ndarray, t: float) -> FrameOutput:
        from cardref.vision.capture import Frame

        t_frame = self.index / self.fps if self.fps else t
        step = self.session.step(Frame(frame, self.index, t_frame))
        self.index += 1
        plays = [PlayLine(rec.event.to_json(), rec.play) for rec in step.plays]
        revisions = []
        for fix in step.corrections:
            event = fix.event(0).to_json()
            event.pop("ref", None)
            revisions.append((fix.play, event))
        return FrameOutput(detections=list(step.result.detections), plays=plays, pile=self.session.pile(),
                           revisions=revisions)
