"""Simulated tables: a deal of the rules engine rendered as a webcam video with its true log.

``simulate_to_dir`` writes, into one folder:

* ``video.mp4``: the top-down webcam video (1280x720, 10 fps by default; ``CameraStyle.size``
  for another camera resolution);
* ``truth.jsonl``: the true event log (deal, hands, plays with ``t`` = when the cards
  came to rest);
* ``calibration.json``: the camera's true calibration with the seat zones;
* ``frames.jsonl``: per frame, what a perfect detector would report (the oracle
  detector replays it, with noise);
* ``meta.json``: where the deal came from, the card design, frame count and timing.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
from cardref.engine.eventlog import dump_event
from cardref.engine.events import GAME_SEATS, PlayEvent

from ..calibration import save_calibration
from ..zones import default_layout
from .deal import simulate_events
from .faces import FaceSet
from .oracle import detection_to_row
from .render import CameraStyle, TableRenderer
from .timeline import Timeline, Timing, build_timeline

__all__ = ["SimulationResult", "simulate_to_dir", "open_video_writer", "CameraStyle", "Timing"]


@dataclass
class SimulationResult:
    out_dir: Path
    frames: int
    fps: float
    plays: int
    deal_source: str
    design: str
    timeline: Timeline


def open_video_writer(path: str, fps: float, size: tuple[int, int]) -> cv2.VideoWriter:
    for fourcc in ("mp4v", "avc1"):
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*fourcc), fps, size)
        if writer.isOpened():
            return writer
    raise OSError(f"cannot write video {path}: no mp4 encoder available")


def simulate_to_dir(game: str, seed: int, out_dir: str | os.PathLike, *, illegal: int = 0,
                    max_plays: int | None = None, fps: float = 10.0, design: str | None = None,
                    style: CameraStyle | None = None, timing: Timing | None = None,
                    use_engine: bool = True, video: bool = True, pile: bool = False,
                    split: str | None = None) -> SimulationResult:
    if game not in GAME_SEATS:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(sorted(GAME_SEATS))}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    deal = simulate_events(game, seed, illegal=illegal, use_engine=use_engine)
    layout = default_layout(GAME_SEATS[game])
    rng = random.Random(seed * 7919 + 1)
    faces = FaceSet(design, seed, split=split)
    timeline = build_timeline(deal.events, layout, rng, timing=timing, max_plays=max_plays, pile=pile,
                              index_mm=faces.index_mm)
    renderer = TableRenderer(timeline, layout, faces, seed=seed, style=style)
    save_calibration(renderer.calibration(), str(out / "calibration.json"))
    with open(out / "truth.jsonl", "w", encoding="utf-8") as fh:
        for e in timeline.head:
            fh.write(dump_event(e) + "\n")
        for p in timeline.plays:
            ev = PlayEvent(seat=p.seat, cards=p.event.cards, t=round(p.t, 3), source="camera",
                           extra=dict(p.event.extra))
            fh.write(dump_event(ev) + "\n")
    n_frames = int(timeline.duration * fps) + 1
    size = renderer.style.size
    writer = open_video_writer(str(out / "video.mp4"), fps, size) if video else None
    try:
        with open(out / "frames.jsonl", "w", encoding="utf-8") as fh:
            for i in range(n_frames):
                t = i / fps
                img, dets = renderer.render(t)
                if writer is not None:
                    writer.write(img)
                fh.write(json.dumps({"i": i, "t": round(t, 3), "dets": [detection_to_row(d) for d in dets]},
                                    separators=(",", ":")) + "\n")
    finally:
        if writer is not None:
            writer.release()
    meta = {"game": game, "seed": seed, "illegal": illegal, "max_plays": max_plays, "fps": fps,
            "frames": n_frames, "size": list(size), "plays": len(timeline.plays), "deal_source": deal.source,
            "design": faces.design, "duration_s": round(timeline.duration, 2),
            "layout": "pile" if pile else "seat zones"}
    with open(out / "meta.json", "w", encoding="utf-8") as fh:
        json.dump(meta, fh, indent=1)
    return SimulationResult(out, n_frames, fps, len(timeline.plays), deal.source, faces.design, timeline)
