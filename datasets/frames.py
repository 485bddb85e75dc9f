"""Table frames to time and check the detector on, without a camera.

When the synthetic data generator (``cardref.datasets.scenes``) and its card faces are
available, frames are rendered table scenes; otherwise plain drawn cards on cloth.
"""

from __future__ import annotations

import cv2
import numpy as np


def _drawn_frame(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    frame = np.empty((height, width, 3), np.uint8)
    frame[:] = (40, 120, 50)
    frame = np.clip(frame + rng.normal(0, 6, frame.shape), 0, 255).astype(np.uint8)
    card_h = height // 7
    card_w = int(card_h * 0.71)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for _ in range(int(rng.integers(8, 20))):
        x = int(rng.integers(0, width - card_w))
        y = int(rng.integers(0, height - card_h))
        cv2.rectangle(frame, (x, y), (x + card_w, y + card_h), (245, 245, 245), -1)
        cv2.rectangle(frame, (x, y), (x + card_w, y + card_h), (60, 60, 60), 1)
        red = bool(rng.integers(0, 2))
        colour = (30, 30, 200) if red else (20, 20, 20)
        rank = str(rng.choice(list("A23456789JQK")))
        cv2.putText(frame, rank, (x + 3, y + card_h // 6), font, card_h / 110, colour, 1, cv2.LINE_AA)
        cv2.circle(frame, (x + card_w // 2, y + card_h // 2), card_h // 8, colour, -1)
    return frame


def table_frames(n: int = 4, width: int = 1280, height: int = 720, seed: int = 0,
                 rendered: bool = True) -> list[np.ndarray]:
    """``n`` BGR frames of cards on a table, deterministic for a seed."""
    if rendered:
        try:
            from cardref.datasets.faces import list_designs
            from cardref.datasets.scenes import SceneConfig, render_scene

            designs = list_designs()
            if designs:
                cfg = SceneConfig(width=width, height=height)
                return [cv2.cvtColor(render_scene(seed + i, designs, cfg).image, cv2.COLOR_RGB2BGR)
                        for i in range(n)]
        except Exception:  # noqa: BLE001 - any failure of the optional generator: fall back to drawn frames
            pass
    rng = np.random.default_rng(seed)
    return [_drawn_frame(rng, width, height) for _ in range(n)]
