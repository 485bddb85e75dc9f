"""Frame sources: files, folders, and the newest-frame reader with reconnection."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from cardref.vision.capture import (
    CaptureStatus,
    ImageFolderSource,
    LatestFrameReader,
    SourceError,
    VideoFileSource,
    open_camera,
    open_source,
)


class FakeCap:
    """A camera that numbers its frames; optionally dies after ``die_after`` frames."""

    def __init__(self, counter: list[int], die_after: int | None = None, period: float = 0.002) -> None:
        self.counter = counter
        self.die_after = die_after
        self.period = period
        self.served = 0

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return True

    def read(self):
        time.sleep(self.period)
        if self.die_after is not None and self.served >= self.die_after:
            return False, None
        self.served += 1
        self.counter[0] += 1
        img = np.zeros((4, 4, 3), np.uint8)
        img[0, 0, 0] = self.counter[0] % 256
        return True, img

    def release(self) -> None:
        pass


def test_latest_frame_reader_hands_over_the_newest_frame_only():
    counter = [0]
    reader = LatestFrameReader(lambda: FakeCap(counter), "fake", stall_s=1.0).start()
    got = []
    for frame in reader.frames():
        got.append(frame.index)
        time.sleep(0.05)  # a slow pipeline
        if len(got) == 5:
            break
    assert reader.status == CaptureStatus.LIVE or reader.status.value in ("live", "connecting")
    assert all(b - a > 3 for a, b in zip(got, got[1:], strict=False))  # frames were skipped, no backlog
    assert reader.dropped > 0


def test_stream_drop_reconnects_and_reports_status():
    counter = [0]
    statuses: list[str] = []
    lock = threading.Lock()

    def on_status(st, msg):
        with lock:
            statuses.append(st.value)

    reader = LatestFrameReader(lambda: FakeCap(counter, die_after=5), "flaky", stall_s=0.05, retry_s=0.01,
                               max_retries=50, on_status=on_status).start()
    seen = 0
    for _frame in reader.frames():
        seen += 1
        if seen >= 12:
            break
    assert seen >= 12  # frames kept coming across several drops
    assert "reconnecting" in statuses and "live" in statuses


def test_source_that_never_opens_fails_cleanly():
    statuses: list[str] = []

    class Closed:
        def isOpened(self):  # noqa: N802
            return False

        def release(self):
            pass

    reader = LatestFrameReader(lambda: Closed(), "gone", retry_s=0.001, max_retry_s=0.002, max_retries=3,
                               on_status=lambda st, m: statuses.append(st.value)).start()
    frames = list(reader.frames())
    assert frames == []
    assert reader.status == CaptureStatus.FAILED
    assert statuses[-1] == "failed" and "reconnecting" in statuses


def test_video_file_errors(tmp_path):
    with pytest.raises(SourceError) as err:
        VideoFileSource(str(tmp_path / "nope.mp4"))
    assert err.value.code == "capture.not_found"
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"this is not a video")
    with pytest.raises(SourceError) as err:
        VideoFileSource(str(bad))
    assert err.value.code == "capture.cannot_open"
    with pytest.raises(SourceError):
        open_source()
    with pytest.raises(SourceError):
        open_source(url="not-a-url")


def test_video_file_gives_every_frame_with_video_time(tmp_path):
    path = str(tmp_path / "v.mp4")
    w = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), 5.0, (64, 48))
    for i in range(7):
        w.write(np.full((48, 64, 3), i * 30, np.uint8))
    w.release()
    src = VideoFileSource(path)
    frames = list(src.frames())
    assert [f.index for f in frames] == list(range(7))
    assert frames[3].t == pytest.approx(3 / 5.0)
    assert src.status == CaptureStatus.ENDED


def test_image_folder_in_name_order(tmp_path):
    for name, v in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), v, np.uint8))
    (tmp_path / "notes.txt").write_text("ignored")
    src = ImageFolderSource(str(tmp_path), fps=2.0)
    frames = list(src.frames())
    assert [int(f.image[0, 0, 0]) for f in frames][:2] == [10, 20]
    assert frames[2].t == pytest.approx(1.0)
    with pytest.raises(SourceError):
        ImageFolderSource(str(tmp_path / "missing"))


def test_a_stalled_http_stream_is_reopened(tmp_path):
    """A real MJPEG-over-HTTP stream (served here) that stalls after 8 frames."""
    import http.server
    import socketserver

    from cardref.vision.capture import open_stream

    conns = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):  # noqa: N802
            conns[0] += 1
            first = conns[0] == 1
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            for i in range(200):
                if first and i == 8:
                    time.sleep(6)  # the stream stalls
                    return
                ok, buf = cv2.imencode(".jpg", np.full((48, 64, 3), i % 255, np.uint8))
                try:
                    self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                     + str(len(buf)).encode() + b"\r\n\r\n" + buf.tobytes() + b"\r\n")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.04)

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    statuses: list[str] = []
    reader = LatestFrameReader(lambda: open_stream(url, 1.0), "mjpeg", stall_s=1.0, retry_s=0.2, max_retries=5,
                               on_status=lambda st, m: statuses.append(st.value)).start()
    got = 0
    t0 = time.monotonic()
    try:
        for _frame in reader.frames():
            got += 1
            if got >= 20 or time.monotonic() - t0 > 20:
                break
    finally:
        reader.close()
        server.shutdown()
    assert got >= 20 and conns[0] >= 2
    assert statuses.index("reconnecting") > statuses.index("live")


class _FakeCapture:
    """Records what a camera is asked for."""

    def __init__(self, index: int, opened: bool = True) -> None:
        self.index = index
        self.opened = opened
        self.asked: dict[int, float] = {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.asked[prop] = value
        return True


def test_a_camera_is_asked_for_a_resolution_and_mjpg_above_720p() -> None:
    cap = open_camera(2, capture=_FakeCapture)
    assert cap.index == 2
    assert cap.asked == {cv2.CAP_PROP_FRAME_WIDTH: 1280, cv2.CAP_PROP_FRAME_HEIGHT: 720}
    cap = open_camera(0, (1920, 1080), capture=_FakeCapture)
    assert cap.asked[cv2.CAP_PROP_FRAME_WIDTH] == 1920 and cap.asked[cv2.CAP_PROP_FRAME_HEIGHT] == 1080
    assert cap.asked[cv2.CAP_PROP_FOURCC] == cv2.VideoWriter_fourcc(*"MJPG")
    assert open_camera(0, None, capture=_FakeCapture).asked == {}  # the driver's own default
    assert open_camera(0, capture=lambda i: _FakeCapture(i, opened=False)).asked == {}  # nothing to ask
