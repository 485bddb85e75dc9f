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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2

from cardref.engine.cards import format_cards
from cardref.engine.eventlog import dump_event, read_log
from cardref.engine.events import GAME_SEATS, PlayEvent

from ..calibration import save_calibration
from ..fingerprint import files_digest
from ..zones import default_layout
from .deal import simulate_events
from .faces import FaceSet
from .oracle import detection_to_row
from .render import CameraStyle, TableRenderer
from .timeline import Timeline, Timing, build_timeline

__all__ = ["SimulationResult", "KeptSimulation", "simulate_to_dir", "kept_simulation", "simulator_digest",
           "open_video_writer", "CameraStyle", "Timing"]


@dataclass
class SimulationResult:
    out_dir: Path
    frames: int
    fps: float
    plays: int
    deal_source: str
    design: str
    timeline: Timeline


@dataclass(frozen=True)
class KeptSimulation:
    """A simulation written earlier (``meta.json``, ``truth.jsonl``, the video, its frames)."""

    out_dir: Path
    design: str
    plays: list[tuple[float, int, tuple[str, ...]]]  # the true plays: (t, seat, cards)


def simulator_digest() -> str:
    """A digest of the simulator's own code: a simulation kept from other code is not reused."""
    return files_digest(sorted(Path(__file__).parent.glob("*.py")), length=10)


def kept_simulation(out_dir: str | os.PathLike, game: str, seed: int, *, max_plays: int | None, pile: bool,
                    size: tuple[int, int], design: str | None = None) -> KeptSimulation | None:
    """The simulation in ``out_dir`` when it is this deal as the simulator draws it now (same
    game, seed, plays, layout, camera size, design when given, simulator code) and whole;
    ``None`` otherwise (it is simulated again)."""
    out = Path(out_dir)
    try:
        meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    want = {"game": game, "seed": seed, "illegal": 0, "max_plays": max_plays, "size": list(size),
            "layout": "pile" if pile else "seat zones", "simulator": simulator_digest()}
    if not isinstance(meta, dict) or any(meta.get(k) != v for k, v in want.items()):
        return None
    if design is not None and meta.get("design") != design:
        return None
    if not all((out / name).is_file() for name in ("video.mp4", "frames.jsonl", "truth.jsonl", "calibration.json")):
        return None
    try:
        lines = read_log(str(out / "truth.jsonl"))
    except OSError:
        return None
    if any(line.error is not None for line in lines):
        return None
    events = [line.event for line in lines if isinstance(line.event, PlayEvent)]
    if any(e.t is None for e in events):  # the simulator times every play
        return None
    plays = [(float(e.t), e.seat, tuple(format_cards(e.cards))) for e in events]
    if len(plays) != meta.get("plays"):
        return None
    return KeptSimulation(out, str(meta.get("design", "")), plays)


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
                    split: str | None = None,
                    progress: Callable[[int, int], None] | None = None) -> SimulationResult:
    """Simulate the deal into ``out_dir`` (see the module's docstring for the files);
    ``progress(done, total)`` is called after each frame is drawn (for a progress line)."""
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
                if progress is not None:
                    progress(i + 1, n_frames)
    finally:
        if writer is not None:
            writer.release()
    meta = {"game": game, "seed": seed, "illegal": illegal, "max_plays": max_plays, "fps": fps,
            "frames": n_frames, "size": list(size), "plays": len(timeline.plays), "deal_source": deal.source,
            "design": faces.design, "duration_s": round(timeline.duration, 2),
            "layout": "pile" if pile else "seat zones", "simulator": simulator_digest()}
    with open(out / "meta.json", "w", encoding="utf-8") as fh:
        json.dump(meta, fh, indent=1)
    return SimulationResult(out, n_frames, fps, len(timeline.plays), deal.source, faces.design, timeline)
