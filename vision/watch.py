"""Camera or video → event log, one frame at a time.

The pipeline reads top to bottom: frame → detector (:class:`~cardref.vision.types.CardDetection`)
→ table coordinates and zones (:class:`~cardref.vision.zones.TableCard`) → play segmenter
(:class:`~cardref.vision.plays.PlayObservation`) → ``play`` event → log file (flushed per
event) and the live judge's verdict.  Calibration comes from a file or from the markers
in the first frames; a camera that is bumped is recalibrated when the markers are found
again somewhere else.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardref.engine.cards import parse_cards
from cardref.engine.events import CorrectEvent, PlayEvent

from .calibration import BumpWatcher, Calibration, CalibrationError, calibrate_from_markers, ensure_layout
from .capture import Frame
from .detector.regions import DEFAULT_REGIONS, LookStats, RegionSettings, StreamDetector
from .frame_detector import (
    DetectCall,
    FrameDetector,
    IndexedDetector,
    PreparableDetector,
    SplitDetector,
    detect_call,
)
from .plays import PlayObservation, PlayRevision, PlaySegmenter, SegmenterSettings, ZoneCleared
from .types import CardDetection
from .zones import DEFAULT_TABLE_MM, to_table


@dataclass
class FrameResult:
    frame: Frame
    detections: list[CardDetection]
    plays: list[PlayObservation]
    cleared: list[ZoneCleared]
    seconds: float  # processing time of this frame
    recalibrated: bool = False
    revisions: list[PlayRevision] = field(default_factory=list)


@dataclass
class WatchStats:
    frames: int = 0
    busy_s: float = 0.0
    detect_s: float = 0.0
    plays: int = 0
    confirm: int = 0
    bumps: int = 0
    uncalibrated_frames: int = 0
    revisions: int = 0

    @property
    def fps(self) -> float:
        return self.frames / self.busy_s if self.busy_s > 0 else 0.0


class Pipeline:
    """The per-frame steps, state kept in explicit objects (calibration, segmenter)."""

    def __init__(self, detector: FrameDetector, seats: int, calibration: Calibration | None = None, *,
                 settings: SegmenterSettings | None = None, table_mm: tuple[float, float] = DEFAULT_TABLE_MM,
                 watch_bumps: bool = True, tiles: int = 0,
                 regions: RegionSettings | None = DEFAULT_REGIONS) -> None:
        """``tiles``: 0 runs the detector on the whole frame; 1 on the table's part of it
        only; 2 or 4 on that part cut into overlapping halves or quarters (more pixels per
        card for a detector with a fixed input size, at 2 or 4 times the cost).

        ``regions`` (the default): with ``tiles`` 0, a model detector's finder looks again only
        at the parts of each frame that changed (:mod:`cardref.vision.detector.regions`: about
        1.5 times the frames per second of whole frames, as many plays exact on the simulated
        deals); ``None`` has it look at every whole frame."""
        if tiles not in (0, 1, 2, 4):
            raise ValueError(f"tiles must be 0, 1, 2 or 4, not {tiles}")
        self.tiles = tiles
        self.looks: LookStats | None = None
        if regions is not None and not tiles and isinstance(detector, SplitDetector):
            # a model detector whose finder and namer run apart: the finder looks again
            # only where the table changed
            stream = StreamDetector(detector, regions)
            self.looks = stream.stats
            detector = stream
        self.detector: FrameDetector = detector
        self.call = detect_call(detector, tiles)
        self.seats = seats
        self.table_mm = table_mm
        self.settings = settings or SegmenterSettings()
        self.calibration: Calibration | None = None
        self.segmenter: PlaySegmenter | None = None
        self.bumps: BumpWatcher | None = None
        self.watch_bumps = watch_bumps
        self.stats = WatchStats()
        self.last_calibration_error: CalibrationError | None = None
        if calibration is not None:
            self.set_calibration(calibration)

    def prepare(self, frame_hw: tuple[int, int]) -> None:
        """Ready the detector for frames of ``frame_hw`` (height, width) before the first one:
        the stream detector compiles its tile-sized finder now (about 3 s), not on the first
        frame of a live camera.  Nothing to do for whole frames or an unknown size."""
        if isinstance(self.detector, PreparableDetector) and min(frame_hw) > 0:
            self.detector.prepare(frame_hw)

    def set_calibration(self, cal: Calibration) -> None:
        cal = ensure_layout(cal, self.seats)
        self.calibration = cal
        assert cal.layout is not None
        if self.segmenter is None or self.segmenter.layout != cal.layout:
            self.segmenter = PlaySegmenter(cal.layout, self.settings)
        self.bumps = BumpWatcher(cal) if self.watch_bumps else None

    def try_calibrate(self, image: np.ndarray) -> bool:
        try:
            cal = calibrate_from_markers(image, self.table_mm)
        except CalibrationError as exc:
            self.last_calibration_error = exc
            return False
        self.set_calibration(cal)
        return True

    def process(self, frame: Frame) -> FrameResult:
        t0 = time.perf_counter()
        recal = False
        if self.calibration is None:
            if not self.try_calibrate(frame.image):
                self.stats.uncalibrated_frames += 1
                return FrameResult(frame, [], [], [], time.perf_counter() - t0)
        elif self.bumps is not None and frame.index > 0:
            fresh = self.bumps.check(frame.t, frame.image)
            if fresh is not None:
                self.calibration = fresh
                self.stats.bumps += 1
                recal = True
        cal = self.calibration
        assert cal is not None and cal.layout is not None and self.segmenter is not None
        h, w = frame.image.shape[:2]
        cal.check_frame(w, h)
        t1 = time.perf_counter()
        if self.call is DetectCall.INDEXED:
            assert isinstance(self.detector, IndexedDetector)
            dets = self.detector.detect_indexed(frame.image, frame.index)
        elif self.call is DetectCall.TILES:
            dets = detect_tiles(self.detector, frame.image, table_box(cal, w, h), self.tiles)
        else:
            dets = self.detector.detect(frame.image)
        self.stats.detect_s += time.perf_counter() - t1
        cards = to_table(dets, cal.to_table, cal.layout, self.settings.zone_tolerance_mm)
        plays, cleared = self.segmenter.update(frame.t, cards)
        revisions = self.segmenter.pop_revisions()
        dt = time.perf_counter() - t0
        self.stats.frames += 1
        self.stats.busy_s += dt
        self.stats.plays += len(plays)
        self.stats.confirm += sum(1 for p in plays if p.confirm)
        self.stats.revisions += len(revisions)
        return FrameResult(frame, dets, plays, cleared, dt, recal, revisions)


def table_box(cal: Calibration, width: int, height: int, margin_mm: float = 60.0) -> tuple[int, int, int, int]:
    """The pixel box (x1, y1, x2, y2) around the table and a margin, inside the frame."""
    tw, th = cal.table_mm
    m = margin_mm
    pts = cal.to_image([(-m, -m), (tw + m, -m), (tw + m, th + m), (-m, th + m)])
    x1, y1 = np.floor(pts.min(axis=0)).astype(int)
    x2, y2 = np.ceil(pts.max(axis=0)).astype(int)
    return (max(int(x1), 0), max(int(y1), 0), min(int(x2), width), min(int(y2), height))


def _shift(d: CardDetection, dx: float, dy: float) -> CardDetection:
    from .types import CornerDetection

    x1, y1, x2, y2 = d.box
    corners = tuple(CornerDetection(c.card, c.conf, (c.box[0] + dx, c.box[1] + dy, c.box[2] + dx, c.box[3] + dy))
                    for c in d.corners)
    return CardDetection(d.card, d.conf, (x1 + dx, y1 + dy, x2 + dx, y2 + dy), corners, d.sure)


def detect_tiles(detector: FrameDetector, image: np.ndarray, box: tuple[int, int, int, int],
                 tiles: int) -> list[CardDetection]:
    """Run ``detector`` on the table box (cut into ``tiles`` overlapping parts) and put the
    detections back into frame pixels; a card found in two parts is kept once."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    if tiles <= 1:
        parts = [(x1, y1, x2, y2)]
    else:
        ov = 0.12
        cols = 2
        rows = 2 if tiles == 4 else 1
        tw, th = w / cols, h / rows
        parts = []
        for r in range(rows):
            for c in range(cols):
                px1 = int(max(x1, x1 + c * tw - ov * tw))
                px2 = int(min(x2, x1 + (c + 1) * tw + ov * tw))
                py1 = int(max(y1, y1 + r * th - ov * th))
                py2 = int(min(y2, y1 + (r + 1) * th + ov * th))
                parts.append((px1, py1, px2, py2))
    found: list[CardDetection] = []
    for px1, py1, px2, py2 in parts:
        crop = np.ascontiguousarray(image[py1:py2, px1:px2])
        for d in detector.detect(crop):
            found.append(_shift(d, px1, py1))
    if len(parts) == 1:
        return found
    # one card seen in two overlapping parts: same code, a corner in the same place
    found.sort(key=lambda d: -d.conf)
    kept: list[CardDetection] = []
    for d in found:
        pts = [((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2) for c in d.corners] or [d.center]
        dup = False
        for k in kept:
            if k.card != d.card:
                continue
            kp = [((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2) for c in k.corners] or [k.center]
            if min(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in pts for b in kp) < 8:
                dup = True
                break
        if not dup:
            kept.append(d)
    return kept


def play_event(p: PlayObservation) -> PlayEvent:
    extra: dict[str, Any] = {}
    if p.confirm:
        extra["confirm"] = True
    return PlayEvent(seat=p.seat, cards=parse_cards(p.cards), t=round(p.t, 2), source="camera",
                     conf=p.conf, sure=p.sure, extra=extra)


def correction_event(rev: PlayRevision, ref: int) -> CorrectEvent:
    """The ``correct`` event for a revised play written at log line ``ref``."""
    return CorrectEvent(ref=ref, cards=parse_cards(rev.cards), who="camera",
                        why=f"read again: {' '.join(rev.before)} -> {' '.join(rev.cards)}",
                        t=round(rev.t, 2), source="camera", conf=rev.conf)


def describe_play(event: PlayEvent, verdicts: list[Any], lang: str = "en", index: int | None = None) -> str:
    """One line per play (time, seat, cards, confidence, ✓ when the referee accepts it),
    then one line per fault the referee found (this play's, or an earlier one's it proves)."""
    cards = " ".join(_pretty(c.code) for c in event.cards)
    flag = "  [confirm?]" if event.extra.get("confirm") else ""
    t = f"{event.t:8.2f}s" if event.t is not None else "       -"
    conf = f"  (conf {event.conf:.2f})" if event.conf is not None else ""
    head = f"{t}  seat {event.seat}: {cards}{conf}{flag}"
    faults = []
    own_ok = None
    for v in verdicts:
        j = v.to_json(lang)
        if index is not None and j.get("i") == index:
            own_ok = bool(j.get("ok"))
        if not j.get("ok"):
            where = "" if j.get("i") == index else f" (line {j.get('i')})"
            faults.append(f"          ✗ {j.get('code')}{where}: {j.get('message', '')}")
    if own_ok:
        head += "  ✓"
    return "\n".join([head, *faults])


_SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _pretty(code: str) -> str:
    if code in ("SJ", "BJ"):
        return code
    return code[:-1] + _SUIT.get(code[-1], code[-1])


def verdict_json(verdicts: list[Any], lang: str) -> list[dict[str, Any]]:
    return [v.to_json(lang) for v in verdicts]


Printer = Callable[[str], None]


def json_line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)
