"""Drawing on camera frames: seat zones, each detected card with its code, the current pile.

Pure drawing (OpenCV, in place on a BGR frame); nothing here decides anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from cardref.vision.types import CardDetection

SEAT_BGR = ((246, 120, 52), (30, 140, 245), (90, 200, 90), (200, 80, 200), (60, 200, 230), (160, 160, 60))
PILE_BGR = (0, 215, 255)
CARD_BGR = (40, 230, 40)
LOW_BGR = (0, 160, 255)


def zone_polygons(calibration: Any) -> list[tuple[str, int | None, np.ndarray]]:
    """(name, seat, polygon in image pixels) for each zone of a calibration with a layout."""
    layout = getattr(calibration, "layout", None)
    if layout is None:
        return []
    out = []
    for zone in layout.zones:
        try:
            pts = calibration.to_image(np.asarray(zone.polygon, dtype=np.float64))
        except Exception:
            continue
        out.append((zone.name, zone.seat, pts.astype(np.int32)))
    return out


def draw_overlay(frame: np.ndarray, detections: Sequence[CardDetection] = (), *,
                 zones: Sequence[tuple[str, int | None, np.ndarray]] = (), pile: Sequence[str] = (),
                 names: Sequence[str] = (), low_conf: float = 0.6) -> np.ndarray:
    """Draw on ``frame`` (BGR, modified in place and returned)."""
    h, w = frame.shape[:2]
    scale = max(0.5, min(w, h) / 720)
    for name, seat, poly in zones:
        color = PILE_BGR if seat is None else SEAT_BGR[seat % len(SEAT_BGR)]
        cv2.polylines(frame, [poly.reshape(-1, 1, 2)], True, color, max(1, int(2 * scale)), cv2.LINE_AA)
        label = name if seat is None or seat >= len(names) else f"{seat}"
        x, y = poly[:, 0].min(), poly[:, 1].min()
        cv2.putText(frame, label, (int(x) + 4, int(y) + int(18 * scale)), cv2.FONT_HERSHEY_SIMPLEX, 0.55 * scale,
                    color, max(1, int(2 * scale)), cv2.LINE_AA)
    for det in detections:
        x1, y1, x2, y2 = (int(v) for v in det.box)
        color = CARD_BGR if det.conf >= low_conf else LOW_BGR
        cv2.rectangle(frame, (x1, y1), (x2, y2), color, max(1, int(2 * scale)), cv2.LINE_AA)
        text = f"{det.card} {det.conf:.2f}"
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, 1)
        cv2.rectangle(frame, (x1, max(0, y1 - th - 6)), (x1 + tw + 4, y1), color, -1)
        cv2.putText(frame, text, (x1 + 2, y1 - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, (0, 0, 0), 1, cv2.LINE_AA)
    if pile:
        text = "pile: " + " ".join(pile)
        cv2.rectangle(frame, (0, h - int(30 * scale)), (w, h), (0, 0, 0), -1)
        cv2.putText(frame, text, (8, h - int(9 * scale)), cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, PILE_BGR,
                    max(1, int(2 * scale)), cv2.LINE_AA)
    return frame
