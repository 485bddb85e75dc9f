"""Frame sources: a camera, a video file, a network stream or a folder of images.

Files (video, image folder) are read frame by frame, every frame, with ``t`` = frame
index / fps: the pipeline may run slower or faster than real time and the log still
carries video time.  Live sources (camera index, RTSP/HTTP URL) are read by a
:class:`LatestFrameReader` thread that always keeps only the newest frame, so a slow
pipeline skips frames instead of falling behind; ``t`` is wall time since the start.  A
camera unplugged or a stream that drops or stalls is reported through a
:class:`CaptureStatus` and reopened with back-off; it gives up (status ``failed``) only
after ``max_retries`` failed reopenings, and never takes the log with it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .resolution import DEFAULT_RESOLUTION

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(RuntimeError):
    """A source that cannot be opened or read; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class CaptureStatus(StrEnum):
    CONNECTING = "connecting"
    LIVE = "live"
    STALLED = "stalled"  # no new frame for a while
    RECONNECTING = "reconnecting"
    ENDED = "ended"  # a file was read to its end
    FAILED = "failed"  # gave up after the retries


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    index: int  # frame number in the source (live: frames grabbed so far)
    t: float  # seconds: video time for files, wall time since start for live sources


StatusCallback = Callable[[CaptureStatus, str], None]


def _quiet(_status: CaptureStatus, _message: str) -> None:
    pass


def _quiet_opencv() -> int | None:
    """Silence OpenCV's own warnings while a device is probed (our status says it better)."""
    try:
        logging = cv2.utils.logging  # type: ignore[attr-defined]
        level = logging.getLogLevel()
        logging.setLogLevel(logging.LOG_LEVEL_SILENT)
        return int(level)
    except AttributeError:
        return None


def _restore_opencv(level: int | None) -> None:
    if level is not None:
        cv2.utils.logging.setLogLevel(level)  # type: ignore[attr-defined]


class VideoFileSource:
    """Every frame of a video file, in order."""

    live = False

    def __init__(self, path: str, on_status: StatusCallback = _quiet) -> None:
        if not os.path.exists(path):
            raise SourceError("capture.not_found", f"video file {path} does not exist")
        self.path = path
        self.cap = cv2.VideoCapture(path)
        if not self.cap.isOpened():
            raise SourceError("capture.cannot_open", f"cannot open video {path} (not a video, or an unsupported codec)")
        fps = self.cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps) if fps and 0 < fps < 1000 else 10.0
        self.size = (int(self.cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self.cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        self.frame_count = int(self.cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.on_status = on_status
        self.status = CaptureStatus.LIVE
        self.message = ""

    def frames(self, start: int = 0) -> Iterator[Frame]:
        """The frames from index ``start`` on (the earlier ones are decoded and skipped:
        the index and ``t`` of each frame are those of the whole video)."""
        i = 0
        try:
            while i < start and self.cap.grab():
                i += 1
            while True:
                ok, img = self.cap.read()
                if not ok or img is None:
                    break
                yield Frame(img, i, i / self.fps)
                i += 1
        finally:
            self.close()
        if i == 0:
            raise SourceError("capture.empty", f"video {self.path} has no readable frame")
        if self.frame_count and i < self.frame_count - 1:
            self.status = CaptureStatus.FAILED
            self.message = f"video ended early at frame {i} of {self.frame_count} (damaged file?)"
        else:
            self.status = CaptureStatus.ENDED
            self.message = f"end of video after {i} frames"
        self.on_status(self.status, self.message)

    @property
    def duration(self) -> float:
        """Seconds of video (0 when the file does not say)."""
        return self.frame_count / self.fps if self.frame_count else 0.0

    def close(self) -> None:
        self.cap.release()


class ImageFolderSource:
    """The images of a folder in name order, as frames at ``fps``."""

    live = False

    def __init__(self, folder: str, fps: float = 10.0, on_status: StatusCallback = _quiet) -> None:
        p = Path(folder)
        if not p.is_dir():
            raise SourceError("capture.not_found", f"image folder {folder} does not exist")
        self.paths = sorted(q for q in p.iterdir() if q.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise SourceError("capture.empty", f"no images ({', '.join(IMAGE_SUFFIXES)}) in {folder}")
        self.fps = fps
        self.on_status = on_status
        self.status = CaptureStatus.LIVE
        self.message = ""
        self.folder = folder
        first = next((img for img in (cv2.imread(str(q)) for q in self.paths[:5]) if img is not None), None)
        self.size = (first.shape[1], first.shape[0]) if first is not None else (0, 0)
        self.frame_count = len(self.paths)

    @property
    def duration(self) -> float:
        return len(self.paths) / self.fps if self.fps else 0.0

    def frames(self, start: int = 0) -> Iterator[Frame]:
        """The images from index ``start`` on (index and ``t`` count every image of the
        folder); raises :class:`SourceError` ``capture.unreadable`` when none could be read."""
        read = 0
        bad: list[str] = []
        for i, path in enumerate(self.paths):
            if i < start:
                continue
            img = cv2.imread(str(path))
            if img is None:
                bad.append(path.name)
                if len(bad) == 1:
                    self.on_status(CaptureStatus.LIVE, f"skipping unreadable image {path.name}")
                continue
            read += 1
            yield Frame(img, i, i / self.fps)
        if not read and bad:
            self.status = CaptureStatus.FAILED
            self.message = (f"none of the {len(bad)} images in {self.folder} could be read "
                            f"({', '.join(bad[:3])}{' …' if len(bad) > 3 else ''}): damaged files, or not images")
            raise SourceError("capture.unreadable", self.message)
        self.status = CaptureStatus.ENDED
        self.message = f"end of folder after {len(self.paths)} images" + (
            f" ({len(bad)} unreadable, skipped)" if bad else "")
        self.on_status(self.status, self.message)

    def close(self) -> None:
        pass


class LatestFrameReader:
    """A thread that reads a live source and keeps only its newest frame.

    ``opener`` returns a fresh ``cv2.VideoCapture`` (or anything with ``isOpened``,
    ``read`` and ``release``).  A read failure or no frame for ``stall_s`` seconds closes
    the capture and reopens it after ``retry_s`` (doubling up to ``max_retry_s``).
    A source that never gave a frame gives up after ``first_retries`` failed openings (a
    camera index with no camera: at once, not after minutes of back-off); once it has
    given frames, after ``max_retries``.  The status message of a failure says why.
    """

    live = True

    def __init__(self, opener: Callable[[], object], name: str, *, stall_s: float = 3.0, retry_s: float = 0.5,
                 max_retry_s: float = 8.0, max_retries: int = 20, first_retries: int | None = None,
                 on_status: StatusCallback = _quiet) -> None:
        self.opener = opener
        self.first_retries = max_retries if first_retries is None else first_retries
        self._why = ""  # the reason of the last failure (an open error, a read failure, a stall)
        self._ever_live = False
        self.name = name
        self.stall_s = stall_s
        self.retry_s = retry_s
        self.max_retry_s = max_retry_s
        self.max_retries = max_retries
        self.on_status = on_status
        self.status = CaptureStatus.CONNECTING
        self.message = ""
        self._cond = threading.Condition()
        self._frame: np.ndarray | None = None
        self._seq = 0
        self._stop = threading.Event()
        self._t0 = time.monotonic()
        self._last_frame_at = time.monotonic()
        self._thread = threading.Thread(target=self._run, name=f"capture:{name}", daemon=True)
        self.dropped = 0
        self.size = (0, 0)
        self.fps = 0.0

    def start(self) -> LatestFrameReader:
        self._thread.start()
        return self

    def _set(self, status: CaptureStatus, message: str) -> None:
        if status != self.status or message != self.message:
            self.status, self.message = status, message
            self.on_status(status, message)
        with self._cond:
            self._cond.notify_all()

    def _open(self) -> object | None:
        level = _quiet_opencv()
        try:
            cap = self.opener()
        except Exception as exc:  # a driver error is a failed attempt, not a crash
            self._why = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            return None
        finally:
            _restore_opencv(level)
        if cap is None or not cap.isOpened():  # type: ignore[attr-defined]
            self._why = "the device or stream did not open (missing, busy, or refused)"
            if cap is not None:
                cap.release()  # type: ignore[attr-defined]
            return None
        return cap

    def _run(self) -> None:
        failures = 0
        delay = self.retry_s
        while not self._stop.is_set():
            cap = self._open()
            if cap is None:
                failures += 1
                limit = self.max_retries if self._ever_live else self.first_retries
                if failures > limit:
                    self._set(CaptureStatus.FAILED,
                              f"{self.name}: gave up after {failures} attempts to open it ({self._why})")
                    return
                self._set(CaptureStatus.RECONNECTING,
                          f"{self.name}: cannot open (attempt {failures}/{limit}: {self._why}), "
                          f"retrying in {delay:.1f}s")
                self._stop.wait(delay)
                delay = min(delay * 2, self.max_retry_s)
                continue
            self._set(CaptureStatus.LIVE, f"{self.name}: live")
            self._last_frame_at = time.monotonic()
            got_any = False
            while not self._stop.is_set():
                ok, img = cap.read()  # type: ignore[attr-defined]
                if not ok or img is None:
                    if time.monotonic() - self._last_frame_at > self.stall_s or not got_any:
                        self._why = (f"no frame for {self.stall_s:g} s" if got_any
                                     else "it opened but gave no frame (read failed)")
                        self._set(CaptureStatus.STALLED, f"{self.name}: {self._why}")
                        break
                    time.sleep(0.01)
                    continue
                if not got_any:
                    got_any = True
                    self._ever_live = True
                    failures = 0
                    delay = self.retry_s
                self._last_frame_at = time.monotonic()
                with self._cond:
                    if self._frame is not None and self._seq > 0:
                        self.dropped += 1
                    self._frame = img
                    self._seq += 1
                    self.size = (img.shape[1], img.shape[0])
                    self._cond.notify_all()
            cap.release()  # type: ignore[attr-defined]
            if not self._stop.is_set():
                failures += 1
                if failures > (self.max_retries if self._ever_live else self.first_retries):
                    self._set(CaptureStatus.FAILED,
                              f"{self.name}: gave up after {failures - 1} reconnections (last: {self._why})")
                    return
                self._set(CaptureStatus.RECONNECTING,
                          f"{self.name}: lost ({self._why}), reconnecting (attempt {failures})")
                self._stop.wait(delay)
                delay = min(delay * 2, self.max_retry_s)

    def latest(self, timeout: float = 1.0, after: int = 0) -> tuple[int, np.ndarray] | None:
        """The newest frame newer than sequence number ``after`` (waits up to ``timeout``)."""
        with self._cond:
            end = time.monotonic() + timeout
            while self._seq <= after and not self._stop.is_set() and self.status != CaptureStatus.FAILED:
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            if self._seq <= after or self._frame is None:
                return None
            return self._seq, self._frame

    def frames(self, start: int = 0) -> Iterator[Frame]:
        """The newest frames as they come (``start`` is for files; a live source has no past)."""
        if not self._thread.is_alive() and not self._stop.is_set():
            self.start()
        seq = 0
        try:
            while not self._stop.is_set():
                got = self.latest(timeout=0.5, after=seq)
                if got is None:
                    if self.status == CaptureStatus.FAILED:
                        return
                    continue
                new_seq, img = got
                seq = new_seq
                yield Frame(img, new_seq - 1, time.monotonic() - self._t0)
        finally:
            self.close()

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=2.0)


def open_camera(index: int, resolution: tuple[int, int] | None = DEFAULT_RESOLUTION,
                capture: Callable[[int], Any] = cv2.VideoCapture) -> Any:
    """Open camera ``index`` asking for ``resolution`` (width, height; ``None``: the driver's
    default).  Left alone, most USB webcams start at 640x480, where a card is too few
    pixels tall to read; above 1280x720 they also need MJPG to keep their frame rate over
    USB 2.  A camera that cannot give the size gives what it can (the frames say which)."""
    cap = capture(index)
    if resolution is not None and cap.isOpened():
        w, h = resolution
        if w > 1280:
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, w)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, h)
    return cap


#: Failed openings of a camera that never gave a frame before the reader gives up.
FIRST_CAMERA_RETRIES = 2


def missing_camera(index: int, dev: str = "/dev") -> str | None:
    """Why camera ``index`` cannot exist, where the system lists its cameras (Linux's
    ``/dev/videoN``); None when it may exist (or the system does not say)."""
    if not sys.platform.startswith("linux") or not os.path.isdir(dev):
        return None
    if os.path.exists(os.path.join(dev, f"video{index}")):
        return None
    found = sorted((n for n in os.listdir(dev) if n.startswith("video") and n[5:].isdigit()), key=lambda n: int(n[5:]))
    have = ", ".join(n[5:] for n in found) if found else "none"
    return (f"camera {index} does not exist (no {dev}/video{index}; camera indices here: {have}); "
            "plug it in, or give another --camera")


def open_source(*, camera: int | None = None, video: str | None = None, url: str | None = None,
                folder: str | None = None, fps: float = 10.0, on_status: StatusCallback = _quiet,
                stall_s: float = 3.0, max_retries: int = 20,
                resolution: tuple[int, int] | None = DEFAULT_RESOLUTION,
                ) -> VideoFileSource | ImageFolderSource | LatestFrameReader:
    """Open exactly one source; raises :class:`SourceError` with a clear message.  A camera
    is asked for ``resolution`` (:func:`open_camera`)."""
    given = [x for x in (camera, video, url, folder) if x is not None]
    if len(given) != 1:
        raise SourceError("capture.bad_args", "give exactly one of --camera, --video, --url, --folder")
    if video is not None:
        if os.path.isdir(video):
            return ImageFolderSource(video, fps, on_status)
        return VideoFileSource(video, on_status)
    if folder is not None:
        return ImageFolderSource(folder, fps, on_status)
    if camera is not None:
        if camera < 0:
            raise SourceError("capture.bad_args", f"camera index must be >= 0, got {camera}")
        index = camera
        missing = missing_camera(index)
        if missing:
            raise SourceError("capture.no_camera", missing)
        # a camera that never opens is missing or busy: say so after two tries, not minutes
        return LatestFrameReader(lambda: open_camera(index, resolution), f"camera {index}", stall_s=stall_s,
                                 max_retries=max_retries, first_retries=FIRST_CAMERA_RETRIES,
                                 on_status=on_status).start()
    assert url is not None
    if "://" not in url:
        raise SourceError("capture.bad_args", f"{url!r} is not a stream URL (rtsp://, http://, https://)")
    return LatestFrameReader(lambda: open_stream(url, stall_s), url.split("@")[-1], stall_s=stall_s,
                             max_retries=max_retries, on_status=on_status).start()


def open_stream(url: str, stall_s: float = 3.0) -> cv2.VideoCapture:
    """A network stream whose opening and reading give up after a timeout, so a stalled
    stream makes ``read`` fail (and the reader reconnect) instead of blocking for ever."""
    ms = int(max(stall_s, 0.5) * 1000)
    try:
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, max(ms, 5000), cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms]
        return cv2.VideoCapture(url, cv2.CAP_FFMPEG, params)
    except (AttributeError, cv2.error):
        return cv2.VideoCapture(url)
