"""Frame sources (camera, video file) and the bridge to the camera helper's pipeline."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .live import FrameOutput, NullPipeline, Pipeline


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
        self.cap = cv2.VideoCapture(spec)
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
            self._next = max(self._next + 1 / self.fps, time.monotonic() - 1)
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

    def frame_at(self, t: float) -> np.ndarray | None:
        """The BGR frame shown at ``t`` seconds (clamped to the video)."""
        n = int(round(max(0.0, t) * self.fps))
        if self.count:
            n = min(n, self.count - 1)
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


def build_pipeline(game: str | None, calibration: Any, **options: Any) -> tuple[Pipeline, str | None]:
    """The camera helper's recognition pipeline for ``game`` when it is installed, else a
    :class:`NullPipeline`; returns (pipeline, why it is the null one)."""
    try:
        from cardref.vision import watch  # type: ignore[attr-defined]
    except Exception as exc:
        return NullPipeline(str(exc)), f"cardref.vision.watch: {exc}"
    factory = getattr(watch, "ui_pipeline", None) or getattr(watch, "build_pipeline", None)
    if factory is None:
        return NullPipeline("no pipeline factory"), "cardref.vision.watch has no build_pipeline()"
    try:
        inner = factory(game=game, calibration=calibration, **options)
    except Exception as exc:
        return NullPipeline(str(exc)), str(exc)
    return _Adapter(inner), None


class _Adapter:
    """Turns whatever the camera pipeline returns per frame into a :class:`FrameOutput`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def process(self, frame: np.ndarray, t: float) -> FrameOutput:
        fn = getattr(self.inner, "process", None) or getattr(self.inner, "step", None) or self.inner
        out = fn(frame, t)
        if isinstance(out, FrameOutput):
            return out
        dets = getattr(out, "detections", None) or (out.get("detections") if isinstance(out, dict) else None) or ()
        events = getattr(out, "events", None) or (out.get("events") if isinstance(out, dict) else None) or ()
        pile = getattr(out, "pile", None) or (out.get("pile") if isinstance(out, dict) else None) or ()
        events = [e.to_json() if hasattr(e, "to_json") else dict(e) for e in events]
        return FrameOutput(detections=list(dets), events=events, pile=[getattr(c, "code", c) for c in pile])
