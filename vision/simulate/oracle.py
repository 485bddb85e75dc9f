"""The oracle detector: replays what the simulator knows was visible in each frame.

It measures the table pipeline (calibration, zones, play segmentation) apart from the
card model.  :class:`OracleNoise` makes it as unreliable as wanted: lost detections,
lost corners, one-frame misreads (flicker), low confidence, phantom cards and pixel
jitter, all drawn from a seeded generator so a run can be repeated.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cardref.vision.classes import CLASS_NAMES

from ..types import CardDetection, CornerDetection


def detection_to_row(d: CardDetection) -> list[Any]:
    """A compact JSON row: ``[code, conf, x1, y1, x2, y2, [[cx1, cy1, cx2, cy2], …]]``."""
    return [d.card, d.conf, *(round(v, 1) for v in d.box), [[round(v, 1) for v in c.box] for c in d.corners]]


def detection_from_row(row: list[Any]) -> CardDetection:
    code, conf = str(row[0]), float(row[1])
    box = (float(row[2]), float(row[3]), float(row[4]), float(row[5]))
    corners = tuple(CornerDetection(code, conf, (float(c[0]), float(c[1]), float(c[2]), float(c[3])))
                    for c in (row[6] if len(row) > 6 else []))
    return CardDetection(code, conf, box, corners)


@dataclass(frozen=True)
class OracleNoise:
    """Per-detection probabilities (``phantom`` is per frame)."""

    dropout: float = 0.0  # the card is not reported in this frame
    corner_drop: float = 0.0  # one of its two corners is not reported
    flicker: float = 0.0  # reported with a wrong code in this frame
    low_conf: float = 0.0  # reported with a confidence of 0.25–0.5
    phantom: float = 0.0  # a card that is not there shows up for one frame
    jitter_px: float = 0.0

    @classmethod
    def named(cls, name: str) -> OracleNoise:
        presets = {
            "none": cls(),
            "mild": cls(dropout=0.05, corner_drop=0.05, flicker=0.02, low_conf=0.02, phantom=0.02, jitter_px=0.7),
            "harsh": cls(dropout=0.15, corner_drop=0.15, flicker=0.06, low_conf=0.05, phantom=0.08, jitter_px=1.5),
        }
        if name not in presets:
            raise ValueError(f"unknown noise preset {name!r}; choose from {', '.join(presets)}")
        return presets[name]


class OracleDetector:
    """``detect_indexed(frame, index)`` returns the true detections of frame ``index``."""

    name = "oracle"

    def __init__(self, frames_path: str | Path | None, noise: OracleNoise | None = None, seed: int = 0) -> None:
        """``frames_path``: the ``frames.jsonl`` of a simulation (``None``: no frames yet;
        give each frame's truth to :meth:`noisy` yourself)."""
        self.noise = noise or OracleNoise()
        self.rng = random.Random(seed)
        self.frames: dict[int, list[CardDetection]] = {}
        self._next = 0
        if frames_path is None:
            return
        path = Path(frames_path)
        if not path.exists():
            raise FileNotFoundError(f"oracle truth {path} does not exist (it is written by cardref simulate)")
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    obj = json.loads(line)
                    self.frames[int(obj["i"])] = [detection_from_row(r) for r in obj["dets"]]
        self._next = 0

    def detect(self, frame_bgr: np.ndarray) -> list[CardDetection]:
        """Frames in order (for callers that do not know the index)."""
        out = self.detect_indexed(frame_bgr, self._next)
        return out

    def detect_indexed(self, frame_bgr: np.ndarray, index: int) -> list[CardDetection]:
        self._next = index + 1
        return self.noisy(self.frames.get(index, []), frame_bgr.shape[:2] if frame_bgr is not None else (720, 1280))

    def noisy(self, truth: list[CardDetection], frame_hw: tuple[int, int] = (720, 1280)) -> list[CardDetection]:
        """``truth`` as this oracle's noise makes it look."""
        h, w = frame_hw
        out = []
        n = self.noise
        r = self.rng
        for d in truth:
            if r.random() < n.dropout:
                continue
            code, conf, corners = d.card, d.conf, list(d.corners)
            if r.random() < n.flicker:
                code = r.choice([c for c in CLASS_NAMES if c != d.card])
            if r.random() < n.low_conf:
                conf = r.uniform(0.25, 0.5)
            if len(corners) > 1 and r.random() < n.corner_drop:
                corners.pop(r.randrange(len(corners)))
            if n.jitter_px:
                corners = [_shift(c, r.gauss(0, n.jitter_px), r.gauss(0, n.jitter_px)) for c in corners]
            corners = [CornerDetection(code, conf, c.box) for c in corners]
            box = (min(c.box[0] for c in corners), min(c.box[1] for c in corners),
                   max(c.box[2] for c in corners), max(c.box[3] for c in corners)) if corners else d.box
            out.append(CardDetection(code, conf, box, tuple(corners)))
        if r.random() < n.phantom:
            x, y = r.uniform(100, w - 100), r.uniform(60, h - 60)
            c = CornerDetection(r.choice(CLASS_NAMES), r.uniform(0.3, 0.8), (x, y, x + 12, y + 26))
            out.append(CardDetection(c.card, c.conf, c.box, (c,)))
        return out


def _shift(c: CornerDetection, dx: float, dy: float) -> CornerDetection:
    x1, y1, x2, y2 = c.box
    return CornerDetection(c.card, c.conf, (x1 + dx, y1 + dy, x2 + dx, y2 + dy))
