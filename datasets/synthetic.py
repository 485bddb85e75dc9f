"""Where a card's two indices land for a given pose: synthetic corner sets for tests and
benchmarks of the corner merger (:mod:`cardref.vision.detector.merge`); build and test time only."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from cardref.vision.types import CornerDetection

#: Card proportions in index sizes: an index is ~0.24 of the card height (real-cards labels).
CARD_H = 4.2
CARD_W = 0.71 * CARD_H
INDEX_W, INDEX_H = 0.55, 1.0
#: Index centre from the card's top-left corner, in card fractions.
INDEX_AT = (0.09, 0.14)
#: A joker's index is the word JOKER written downwards: narrow and about twice as tall.
JOKER_INDEX_W, JOKER_INDEX_H = 0.45, 2.0
JOKER_INDEX_AT = (0.09, 0.27)


def _rotated_box(cx: float, cy: float, w: float, h: float, angle: float) -> tuple[float, float, float, float]:
    c, s = abs(math.cos(angle)), abs(math.sin(angle))
    bw, bh = w * c + h * s, w * s + h * c
    return (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2)


def card_corners(code: str, cx: float, cy: float, size: float = 20.0, angle_deg: float = 0.0,
                 conf: float = 0.9, which: str = "both") -> list[CornerDetection]:
    """The index boxes of one card centred at (cx, cy), turned ``angle_deg`` clockwise.

    ``size`` is the index height in pixels (a joker's is twice that); ``which`` is ``"both"``
    (top-left and bottom-right), ``"four"`` (a four-index design) or one of ``"tl"``,
    ``"tr"``, ``"bl"``, ``"br"``.
    """
    a = math.radians(angle_deg)
    w, h = CARD_W * size, CARD_H * size
    joker = code in ("SJ", "BJ")
    iw, ih = (JOKER_INDEX_W, JOKER_INDEX_H) if joker else (INDEX_W, INDEX_H)
    at = JOKER_INDEX_AT if joker else INDEX_AT
    out = []
    wanted = {"both": ("tl", "br"), "four": ("tl", "tr", "bl", "br")}.get(which, (which,))
    for tag, sx, sy in (("tl", -1, -1), ("tr", 1, -1), ("bl", -1, 1), ("br", 1, 1)):
        if tag not in wanted:
            continue
        # index centre relative to the card centre, before turning
        lx = sx * (w / 2 - at[0] * w)
        ly = sy * (h / 2 - at[1] * h)
        px = cx + lx * math.cos(a) - ly * math.sin(a)
        py = cy + lx * math.sin(a) + ly * math.cos(a)
        out.append(CornerDetection(code, conf, _rotated_box(px, py, iw * size, ih * size, a)))
    return out


def random_table(rng: random.Random, codes: Sequence[str] = ("QH", "QH", "2S", "SJ"), lone_share: float = 0.0,
                 upright: bool = False, max_cols: int = 5, max_rows: int = 3, jitter: float = 0.0,
                 ) -> tuple[list[CornerDetection], list[tuple[CornerDetection, ...]]]:
    """Cards on a grid without overlaps; returns the corners and, per card, its visible corners.

    ``lone_share``: chance that a card shows one index only; ``upright``: cards lie within
    15 degrees of upright or sideways (else any turn); ``jitter``: detector noise, the
    standard deviation of each box edge in index sizes.
    """
    size = rng.uniform(10, 28)
    cols, rows = rng.randint(1, max_cols), rng.randint(1, max_rows)
    pitch_x = CARD_H * size * rng.uniform(1.25, 1.8)  # a turned card fits in its diagonal's circle
    pitch_y = CARD_H * size * rng.uniform(1.25, 1.8)
    corners: list[CornerDetection] = []
    cards: list[tuple[CornerDetection, ...]] = []
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.3 and (r or c):
                continue
            which = rng.choice(["tl", "br"]) if rng.random() < lone_share else "both"
            angle = rng.choice([0, 90, 180, 270]) + rng.uniform(-15, 15) if upright else rng.uniform(0, 360)
            card = card_corners(rng.choice(list(codes)), 100 + c * pitch_x, 100 + r * pitch_y, size=size,
                                angle_deg=angle, which=which, conf=rng.uniform(0.3, 1.0))
            if jitter:
                card = [CornerDetection(k.card, k.conf, tuple(v + rng.gauss(0, jitter * size) for v in k.box))
                        for k in card]
            corners += card
            cards.append(tuple(card))
    return corners, cards


def merge_accuracy(n_tables: int = 500, seed: int = 0, **table_kwargs: object) -> dict[str, float]:
    """Share of random tables whose cards are all recovered exactly, and of cards recovered."""
    from cardref.vision.detector.merge import merge_corners

    rng = random.Random(seed)
    tables_ok = cards_ok = cards_total = 0
    for _ in range(n_tables):
        corners, truth = random_table(rng, **table_kwargs)  # type: ignore[arg-type]
        found = {frozenset(c.corners) for c in merge_corners(corners)}
        want = [frozenset(t) for t in truth]
        hits = sum(1 for t in want if t in found)
        cards_ok += hits
        cards_total += len(want)
        tables_ok += hits == len(want) and len(found) == len(want)
    return {"tables": tables_ok / n_tables, "cards": cards_ok / max(cards_total, 1), "n_cards": cards_total}
