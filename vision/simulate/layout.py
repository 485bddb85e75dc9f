"""A simulated deck layout: one deck laid out face up in suit rows, as the referee shows it
to the camera to enrol the deck (:mod:`cardref.vision.detector.deck`).

The same table, camera and lighting as :func:`cardref.vision.simulate.simulate_to_dir` with
the same seed, so that a benchmark can enrol a deck before playing a deal with it.
"""

from __future__ import annotations

import random

import numpy as np

from ..detector.deck import DEFAULT_ROWS, layout_rows
from ..types import CardDetection
from ..zones import default_layout
from .faces import FaceSet
from .render import CameraStyle, TableRenderer
from .timeline import CARD_H_MM, CARD_W_MM, CardPath, Timeline

#: Centre-to-centre distance of neighbouring cards in a row, and of rows (mm).
PITCH_MM = (70.0, 108.0)


def render_layout(seats: int, seed: int, *, design: str | None = None, split: str | None = None,
                  rows: str = DEFAULT_ROWS, jokers: bool = True, style: CameraStyle | None = None,
                  ) -> tuple[np.ndarray, list[CardDetection], str]:
    """The camera frame of the layout on a ``seats``-seat table, a perfect detector's
    detections of it, and the design drawn."""
    layout = default_layout(seats)
    tw, th = layout.table_mm
    grid = layout_rows(rows, jokers)
    rng = random.Random(seed * 104729 + 7)
    px, py = PITCH_MM
    top = th / 2 - (len(grid) - 1) * py / 2
    cards = []
    left = tw / 2 - (len(grid[0]) - 1) * px / 2  # every row starts at the left (the jokers too)
    for r, codes in enumerate(grid):
        for k, code in enumerate(codes):
            rest = (left + k * px + rng.uniform(-3, 3), top + r * py + rng.uniform(-4, 4), rng.uniform(-3, 3))
            cards.append(CardPath(code, play=-1, z=len(cards), start=rest, rest=rest, t_in=(0.0, 0.0)))
    assert (len(grid[0]) - 1) * px + CARD_W_MM < tw and (len(grid) - 1) * py + CARD_H_MM < th
    timeline = Timeline(cards=cards, hands=[], plays=[], duration=1.0, head=[])
    faces = FaceSet(design, seed, split=split)
    renderer = TableRenderer(timeline, layout, faces, seed=seed, style=style)
    img, dets = renderer.render(0.5)
    return img, dets, faces.design
