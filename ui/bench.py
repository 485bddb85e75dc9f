"""``cardref bench ui``: does the dashboard slow the pipeline down?

The same frames go through the camera pipeline twice (alternating, best of ``--repeat``):

* bare: the frame loop alone (:class:`~cardref.ui.live.LiveRunner` with no overlay, no log);
* dashboard: the loop as the live page runs it (overlay drawn on every frame, events appended
  to the table log) while a second thread does what the page's fragments do: every
  ``--refresh`` seconds it takes the latest picture and encodes it for the browser, and
  every second it re-judges the log and draws the table, the trick and the scoreboard data.

It prints both frame rates and the ratio; the issue's target is that the dashboard costs
at most 10 %.  Frames are decoded once beforehand so both runs see identical input.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image

from .config import DEMO_VIDEO
from .live import FrameOutput, LiveRunner, NullPipeline, Pipeline
from .model import TableLog
from .sources import VisionAdapter, build_pipeline, load_calibration


class MemorySource:
    """Frames held in memory, served as fast as asked, over and over (like a camera)."""

    is_file = False

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames = frames
        self.k = 0

    def read(self) -> tuple[bool, np.ndarray | None]:
        frame = self.frames[self.k % len(self.frames)]
        self.k += 1
        return True, frame.copy()

    def release(self) -> None:
        pass


class Rewinding:
    """The pipeline started afresh each time the frames start over (the oracle detector and
    the play segmenter follow the video's frame numbers): a table session is restarted as a
    whole (:meth:`~cardref.ui.sources.VisionAdapter.restart`), never rebuilt here."""

    def __init__(self, inner: Pipeline, period: int) -> None:
        self.inner = inner
        self.period = period
        self.n = 0

    def set_calibration(self, calibration: Any) -> None:
        if isinstance(self.inner, VisionAdapter):
            self.inner.set_calibration(calibration)

    def process(self, frame: np.ndarray, t: float) -> FrameOutput:
        if self.n and self.n % self.period == 0 and isinstance(self.inner, VisionAdapter):
            self.inner.restart()
        self.n += 1
        return self.inner.process(frame, t)


def load_frames(video: Path, limit: int) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(video))
    frames = []
    while len(frames) < limit:
        ok, frame = cap.read()
        if not ok:
            break
        frames.append(frame)
    cap.release()
    return frames


def page_consumer(runner: LiveRunner, log: TableLog, stop: threading.Event, refresh: float, lang: str = "zh") -> dict:
    """Does what the live page's fragments do, on their schedule."""
    done: dict[str, Any] = {"pictures": 0, "panels": 0, "errors": []}
    next_panel = time.monotonic()
    cpu0, wall0 = time.thread_time(), time.monotonic()
    while not stop.wait(refresh if refresh > 0 else runner.page_interval()):
        try:
            _page_once(runner, log, done, next_panel, lang)
        except Exception as exc:  # report, keep measuring
            done["errors"].append(repr(exc))
        if time.monotonic() >= next_panel:
            next_panel += 1.0
    done["page_cpu_ms_per_s"] = round(1000 * (time.thread_time() - cpu0) / max(1e-6, time.monotonic() - wall0), 1)
    return done


def _page_once(runner: LiveRunner, log: TableLog, done: dict, next_panel: float, lang: str) -> None:
    """One refresh of the picture fragment; and of the panel fragments when their second is up."""
    from . import views
    from .bundle import bundle

    jpeg, _ = runner.snapshot_jpeg()
    if jpeg is not None:
        Image.open(io.BytesIO(jpeg)).verify()  # what st.image does with bytes: check, send
        done["pictures"] += 1
    if time.monotonic() < next_panel:
        return
    b = bundle(log, lang)
    views.log_banners(b.lines, b.result, lang)
    if b.dv is not None:
        b.picture("table")
        b.picture("trick")
        if b.dv.family == "shengji":
            views.shengji_board(b.dv, lang)
        else:
            views.gouji_board(b.dv, lang)
        views.points_series(b.dv)
    done["panels"] += 1


def run_once(frames: list[np.ndarray], pipeline: Pipeline, header: list[str], *, dashboard: bool,
             refresh: float, seconds: float, warmup: float = 1.0) -> tuple[float, dict]:
    """Frames per second of the loop over ``seconds`` (after ``warmup``), with or without the page."""
    log = TableLog()  # both runs write the log: that is the pipeline's own job
    for line in header:
        log.append(line)
    runner = LiveRunner(lambda: MemorySource(frames), Rewinding(pipeline, len(frames)), log, draw=dashboard,
                        calibration=pipeline.calibration if isinstance(pipeline, VisionAdapter) else None)
    stop = threading.Event()
    extra: dict = {}
    consumer = None
    if dashboard:
        def consume() -> None:
            extra.update(page_consumer(runner, log, stop, refresh))
        consumer = threading.Thread(target=consume, daemon=True)
        consumer.start()
    runner.start()
    time.sleep(warmup)
    f0, t0 = runner.snapshot()[1].frames, time.perf_counter()
    time.sleep(seconds)
    f1, t1 = runner.snapshot()[1].frames, time.perf_counter()
    stop.set()
    if consumer is not None:
        consumer.join(5)
    runner.stop()
    extra["events"] = runner.snapshot()[1].events
    return (f1 - f0) / (t1 - t0), extra


def _simulated_video(game: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix="cardref-bench-ui-"))
    subprocess.run([sys.executable, "-m", "cardref.cli", "simulate", "--game", game, "--seed", "1", "--illegal", "1",
                    "--max-plays", "12", "--out", str(out)], check=True, capture_output=True)
    return out / "video.mp4"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="cardref bench ui", description=__doc__.splitlines()[0])
    p.add_argument("--video", type=Path, help="video to run (default: the bundled demo's, else a simulated one)")
    p.add_argument("--game", default=None, help="game of the video (default: read from its truth.jsonl/table.jsonl)")
    p.add_argument("--detector", choices=("auto", "model", "oracle", "none"), default="auto")
    p.add_argument("--model", help="detector model file (default: the shipped one)")
    p.add_argument("--backend", default="auto", help="detector backend: auto, openvino, onnx, torch")
    p.add_argument("--frames", type=int, default=300, help="frames of the video to loop over (default 300)")
    p.add_argument("--seconds", type=float, default=8.0, help="measured seconds per run (default 8)")
    p.add_argument("--repeat", type=int, default=2, help="runs of each kind, alternating; the best counts (default 2)")
    p.add_argument("--refresh", type=float, default=0.0,
                   help="the live picture's refresh interval in seconds (default: as the live page, the "
                        "pipeline's frame rate, 2 to 15 times a second)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    video = args.video or (DEMO_VIDEO if DEMO_VIDEO.is_file() else None)
    if video is None:
        video = _simulated_video(args.game or "guafeng-zibo")
    if not video.is_file():
        print(f"cardref bench ui: no video {video}", file=sys.stderr)
        return 2
    header: list[str] = []
    game = args.game
    for name in ("truth.jsonl", "table.jsonl"):
        log_path = video.with_name(name)
        if log_path.is_file():
            lines = [x for x in log_path.read_text(encoding="utf-8").splitlines() if x.strip()]
            header = [x for x in lines if '"type":"play"' not in x.replace(" ", "")]
            if game is None:
                game = next((json.loads(x).get("game") for x in lines if '"deal"' in x), None)
            break
    game = game or "guafeng-zibo"
    frames = load_frames(video, args.frames)
    if not frames:
        print(f"cardref bench ui: cannot read frames from {video}", file=sys.stderr)
        return 2
    cal, _ = load_calibration(video.with_name("calibration.json") if video.with_name("calibration.json").is_file()
                              else None)

    why = None
    if args.detector == "none":
        pipeline: Pipeline = NullPipeline("bench")
    else:
        cap = cv2.VideoCapture(str(video))
        fps = cap.get(cv2.CAP_PROP_FPS) or 10.0
        cap.release()
        pipeline, why = build_pipeline(game, cal, detector=args.detector, video=str(video), fps=fps,
                                       model=args.model, backend=args.backend)
    kind = type(pipeline.inner if isinstance(pipeline, VisionAdapter) else pipeline).__name__
    detector = type(pipeline.detector if isinstance(pipeline, VisionAdapter) else None).__name__
    bare: list[float] = []
    dash: list[float] = []
    extra: dict = {}
    for _ in range(max(1, args.repeat)):
        bare.append(run_once(frames, pipeline, header, dashboard=False, refresh=args.refresh, seconds=args.seconds)[0])
        fps, extra = run_once(frames, pipeline, header, dashboard=True, refresh=args.refresh, seconds=args.seconds)
        dash.append(fps)
    b, d = max(bare), max(dash)
    ratio = d / b if b else 0.0
    med_b, med_d = sorted(bare)[len(bare) // 2], sorted(dash)[len(dash) // 2]
    report = {"video": str(video), "frames": len(frames), "size": f"{frames[0].shape[1]}x{frames[0].shape[0]}",
              "pipeline": kind, "detector": detector, "pipeline_problem": why,
              "bare_fps": round(b, 1), "dashboard_fps": round(d, 1), "ratio": round(ratio, 3),
              "overhead_pct": round((1 - ratio) * 100, 1), "runs_bare": [round(x, 1) for x in bare],
              "runs_dashboard": [round(x, 1) for x in dash], "median_ratio": round(med_d / med_b, 3) if med_b else 0.0,
              "page_work": extra}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"video {report['video']} ({report['size']}, {report['frames']} frames), pipeline {kind} "
              f"with {detector}" + (f" [{report['pipeline_problem']}]" if report["pipeline_problem"] else ""))
        print(f"pipeline alone:        {b:7.1f} frames/s   (runs {report['runs_bare']})")
        print(f"with the live page:    {d:7.1f} frames/s   (runs {report['runs_dashboard']})")
        print(f"ratio {ratio:.3f} (best runs; median runs {report['median_ratio']:.3f}): the dashboard costs "
              f"{report['overhead_pct']:.1f} % of the frame rate (target: at most 10 %)")
        print(f"page work done: {extra}")
    return 0


__all__ = ["main", "FrameOutput"]
