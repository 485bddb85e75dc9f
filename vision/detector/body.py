"""The suit reader: a second look at a card's suit, from its face rather than its indices.

The corner namer reads a card from its rank-and-suit index, a dozen pixels tall on a 720p
webcam; at that size a club and a spade differ by a few pixels, and most of the namer's
mistakes on whole plays are a suit (a rank right, the suit wrong).  The face of a card
that lies flat in a seat's zone shows the same suit again, larger: an ace's big pip, the
pips of a low card, the suit signs of a court card.

When the merge has joined a card's two indices (top-left and bottom-right), their centres
fix the card's middle and its diagonal.  :func:`body_patch` cuts the square around the
middle, turned so that the diagonal runs left to right (the card then always lies the same
way in the patch, up to a half turn), :data:`BODY_SIDE` diagonals wide, scaled to
:data:`BODY_SIZE` pixels: the same code at training (:mod:`cardref.datasets.body_train`)
and at run time.  A small network gives the four suits' probabilities, and
:meth:`SuitReader.reconsider` weighs them against the index readings: a card whose
indices were read ``2S`` (with ``2C`` a plausible reading) on a face that clearly shows
clubs becomes ``2C``.  Only the card's suit among the readings the namer found plausible
can change, never its rank; court cards (:data:`PIP_RANKS`), jokers and cards seen by one
index are left as they are.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from ..classes import rank_of
from ..types import CardDetection, box_centre
from .errors import ModelFileError
from .namer import load_onnx_classifier, patches_blob, softmax

#: Side of the square patch the suit reader sees, in pixels.
BODY_SIZE = 40
#: The patch side in lengths of the line between the card's two index centres.
BODY_SIDE = 0.8
#: The suits in the order of the reader's outputs (the card codes' last letter).
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
BODY_STEM = "suit-reader"
#: How much the face's reading counts against the indices' (an exponent on its probabilities).
WEIGHT = 1.0
#: A suit the indices' readings give less than this probability is not considered.
MIN_INDEX_PROB = 0.02
#: Ranks whose face shows the suit as pips.  Court cards are left to their indices: their
#: pictures show it small or not at all, and the reader names a court card's suit right only
#: about half the time on the held-out designs (pip cards 96 %, aces 87 %).
PIP_RANKS: frozenset[str] = frozenset({"A", "2", "3", "4", "5", "6", "7", "8", "9", "10"})


def body_patch(frame_bgr: np.ndarray, a: Sequence[float], b: Sequence[float], size: int = BODY_SIZE,
               side: float = BODY_SIDE) -> np.ndarray | None:
    """The ``size`` x ``size`` BGR patch of a card's face between its index centres ``a`` and ``b``
    (turned so that ``a`` -> ``b`` points right), or ``None`` when they coincide."""
    ax, ay = float(a[0]), float(a[1])
    vx, vy = float(b[0]) - ax, float(b[1]) - ay
    d = math.hypot(vx, vy)
    if d < 4:
        return None
    mx, my = ax + vx / 2, ay + vy / 2
    length = side * d  # the patch side in frame pixels
    s = size / length
    if s < 0.6:  # shrinking a lot: smooth first so the patch is not aliased
        r = int(length) + 2
        x0, y0 = int(max(0, mx - r)), int(max(0, my - r))
        xe, ye = int(min(frame_bgr.shape[1], mx + r)), int(min(frame_bgr.shape[0], my + r))
        if xe <= x0 or ye <= y0:
            return None
        sigma = 0.45 / s
        frame_bgr = cv2.GaussianBlur(frame_bgr[y0:ye, x0:xe], (0, 0), sigma)
        mx, my = mx - x0, my - y0
    c, sn = vx / d, vy / d
    # patch pixel (u, v) -> frame point centre + R (u - size/2, v - size/2) / s
    m = np.array([[c / s, -sn / s, mx - (c * size / 2 - sn * size / 2) / s],
                  [sn / s, c / s, my - (sn * size / 2 + c * size / 2) / s]], dtype=np.float64)
    return cv2.warpAffine(frame_bgr, m, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def farthest_boxes(boxes: Sequence[Sequence[float]]) -> tuple[Sequence[float], Sequence[float]] | None:
    """The two boxes whose centres lie farthest apart (a card's diagonal indices), or ``None``
    for fewer than two (the first pair found on a tie)."""
    best, pair = -1.0, None
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            d = math.dist(box_centre(boxes[i]), box_centre(boxes[j]))
            if d > best:
                best, pair = d, (boxes[i], boxes[j])
    return pair


def diagonal(card: CardDetection) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The two index centres of ``card`` farthest apart, or ``None`` for a card seen by one index."""
    pair = farthest_boxes([c.box for c in card.corners])
    return None if pair is None else (box_centre(pair[0]), box_centre(pair[1]))


def readable(card: CardDetection) -> bool:
    """Whether the reader may weigh in on ``card``: a pip card (ace to ten; never a joker,
    whose rank is "joker") seen by two indices."""
    return rank_of(card.card) in PIP_RANKS and len(card.corners) >= 2


def index_readings(card: CardDetection) -> dict[str, float]:
    """The card's plausible codes from its indices: each code's mean probability over the
    indices (``CornerDetection.alts``; an index without readings counts its own code as 1)."""
    total: dict[str, float] = {}
    for c in card.corners:
        alts = c.alts or ((c.card, 1.0),)
        for code, p in alts:
            total[code] = total.get(code, 0.0) + p / len(card.corners)
    return total


def reconsider(card: CardDetection, suits: np.ndarray, weight: float = WEIGHT,
               min_index_prob: float = MIN_INDEX_PROB) -> CardDetection:
    """``card`` with its suit chosen by its indices' readings times the face's suit
    probabilities ``suits`` (in :data:`SUITS` order) to the power ``weight``: among the
    codes of the card's own rank that the indices found plausible."""
    rank = rank_of(card.card)
    if rank not in PIP_RANKS:
        return card
    readings = index_readings(card)
    best, best_score = card.card, -1.0
    for s_i, s in enumerate(SUITS):
        code = rank + s
        p = readings.get(code, 0.0)
        if code != card.card and p < min_index_prob:
            continue
        score = max(p, 1e-6) * float(suits[s_i]) ** weight
        if score > best_score:
            best, best_score = code, score
    if best == card.card:
        return card
    return replace(card, card=best)


class SuitReader:
    """Reads the suit from a card's face (see the module docstring); ``model_path`` is its ONNX."""

    def __init__(self, model_path: str | Path, threads: int | None = None, weight: float = WEIGHT) -> None:
        path = Path(model_path)
        if not path.is_file():
            raise ModelFileError(path, "suit reader model not found", "train one with `cardref train-suit-reader`")
        self.model_path = path
        self.weight = weight
        self._run = load_onnx_classifier(path, SUITS, "suit reader", threads)[0]

    def probabilities(self, patches: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """``(n, 4)`` suit probabilities for ``n`` patches from :func:`body_patch`, averaged over
        the patch and its half turn (which index is ``a`` must not matter)."""
        if len(patches) == 0:
            return np.zeros((0, len(SUITS)), np.float32)
        arr = np.asarray(patches, dtype=np.uint8)
        batch = np.concatenate([arr, np.rot90(arr, 2, axes=(1, 2))])
        probs = softmax(np.asarray(self._run(patches_blob(batch))[0], dtype=np.float64))
        return probs.reshape(2, len(arr), -1).mean(axis=0).astype(np.float32)

    def reconsider(self, frame_bgr: np.ndarray, cards: Sequence[CardDetection]) -> list[CardDetection]:
        """The cards, each pip card seen by two indices re-suited by its face (others unchanged)."""
        todo, patches = [], []
        for i, card in enumerate(cards):
            if not readable(card):
                continue
            patch = body_patch(frame_bgr, *diagonal(card))  # readable: two indices, so a diagonal
            if patch is not None:
                todo.append(i)
                patches.append(patch)
        out = list(cards)
        if not todo:
            return out
        for i, p in zip(todo, self.probabilities(patches), strict=True):
            out[i] = reconsider(out[i], p, self.weight)
        return out
