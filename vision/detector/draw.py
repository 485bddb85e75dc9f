"""Draw detections on a frame (for ``cardref detect --save`` and debugging views)."""

from __future__ import annotations

import cv2
import numpy as np

from ..types import CardDetection

_RED_SUITS = ("H", "D")


def _colour(code: str) -> tuple[int, int, int]:
    if code == "BJ" or code.endswith(_RED_SUITS):
        return (40, 40, 230)
    if code == "SJ":
        return (200, 80, 200)
    return (230, 160, 30)


def annotate(frame_bgr: np.ndarray, cards: list[CardDetection]) -> np.ndarray:
    """A copy of the frame with each card's box (thick), its corner boxes (thin) and label."""
    out = frame_bgr.copy()
    scale = max(out.shape[:2]) / 1280
    thick = max(1, round(2 * scale))
    font_scale = max(0.4, 0.6 * scale)
    for card in cards:
        colour = _colour(card.card)
        for corner in card.corners:
            x1, y1, x2, y2 = (round(v) for v in corner.box)
            cv2.rectangle(out, (x1, y1), (x2, y2), colour, 1, cv2.LINE_AA)
        x1, y1, x2, y2 = (round(v) for v in card.box)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick, cv2.LINE_AA)
        label = f"{card.card} {card.conf:.2f}"
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thick)
        ty = y1 - 4 if y1 - th - base - 4 >= 0 else y2 + th + 4
        cv2.rectangle(out, (x1, ty - th - 2), (x1 + tw + 2, ty + base - 2), colour, -1)
        cv2.putText(out, label, (x1 + 1, ty - 2), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (255, 255, 255),
                    thick, cv2.LINE_AA)
    return out
