"""Big joker or small joker: settled by the colour of the joker's ink.

Packs print the big joker (大王, ``BJ``) in colour, red above all, and the small joker
(小王, ``SJ``) in black; the corner namer reads a joker's mark from a dozen grey-looking
pixels and mixes the two up (a big joker's red JOKER word read ``SJ`` made a phantom small
joker in a simulated deal).  For every corner the namer called a joker, :func:`redness`
measures how red its ink is against the card's own paper (white-balanced, so a warm lamp
does not turn a black joker red), and :func:`settle_jokers` names it ``BJ`` when the ink
is clearly red, ``SJ`` when it clearly is not, and leaves it to the namer in between.

Measured (``redness`` of the index patch, the 90th percentile of its pixels):
- every design of the face library with jokers (27 Debian designs, 30 drawn decks), their
  jokers' indices drawn 70 px tall on felt: small jokers 0-16, big jokers 16-211; all but
  one drawn deck's big joker (16-20) above :data:`RED_INK`;
- the joker indices of 24 simulated deals of the six held-out designs as the camera saw
  them: small jokers at most 11 (95th percentile), big jokers at least 52 (5th percentile).

Left to the namer: a greyscale frame (:func:`colourless`), and an index on a dark card
(:func:`on_paper`; the black-and-gold deck, whose big joker is gold): the paper the ink
would be measured against is then the ink.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..types import CornerDetection
from .namer import crop_corner, light_ink

JOKERS = ("SJ", "BJ")
#: Ink at least this red (0-255 scale, see :func:`redness`) is a big joker's.
RED_INK = 40.0
#: Ink at most this red is a small joker's; in between, the namer's reading stands.
BLACK_INK = 15.0
#: Pixels cut from each side of the namer's patch: what is left is about the index's box.
MARGIN = 4
#: The paper: the patch's brightest pixels (from this percentile of grey up).
PAPER_PERCENTILE = 85
#: The ink's redness is this percentile of the pixels' (the ink is a small share of them).
INK_PERCENTILE = 90
#: A frame whose channels differ by at most this much anywhere is greyscale.
GREY_TOLERANCE = 3
#: A patch whose median grey is below this share of its paper's lies on a dark card.
DARK_CARD = 0.5


def colourless(frame_bgr: np.ndarray) -> bool:
    """Whether the frame carries no colour (a greyscale camera or photo): its channels agree
    everywhere, so ink colour says nothing."""
    sample = np.asarray(frame_bgr)[::7, ::7].astype(np.int16)
    if sample.ndim != 3 or sample.shape[-1] != 3:
        return True
    return int(np.abs(sample - sample.mean(axis=-1, keepdims=True)).max(initial=0)) <= GREY_TOLERANCE


def _inner(patches: Sequence[np.ndarray] | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The patches' pixels within :data:`MARGIN` (about the index's box) as ``(n, m, 3)``
    floats, their grey ``(n, m)``, and each patch's paper grey ``(n, 1)``: the
    :data:`PAPER_PERCENTILE` of its grey; ``None`` for no patches (or not a stack of them)."""
    a = np.asarray(patches, dtype=np.float32)
    if a.ndim != 4 or not len(a):
        return None
    a = a[:, MARGIN:-MARGIN, MARGIN:-MARGIN, :].reshape(len(a), -1, 3)
    grey = a.mean(axis=-1)
    return a, grey, np.percentile(grey, PAPER_PERCENTILE, axis=1, keepdims=True)


def on_paper(patches: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """Per patch: does the index lie on a light card?  Most of an index patch is its card: its
    median grey is near its brightest pixels on a white card, far below them where light ink
    lies on a dark card (which :func:`redness` cannot measure against its paper)."""
    inner = _inner(patches)
    if inner is None:
        return np.zeros(len(patches), bool)
    _, grey, paper = inner
    return np.median(grey, axis=1) >= DARK_CARD * paper[:, 0]


def redness(patches: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """Per BGR patch (:func:`~.namer.crop_corner`), how red its reddest pixels are against its
    paper: each pixel white-balanced by the paper's colour, then red minus the larger of green
    and blue, the :data:`INK_PERCENTILE` of the patch's pixels.  Black ink, grey shadow and
    green or blue felt score 0 or less; red ink scores 40 and more."""
    inner = _inner(patches)
    if inner is None:
        return np.zeros(len(patches), np.float32)
    a, grey, paper_grey = inner
    paper = grey >= paper_grey
    colour = (a * paper[..., None]).sum(axis=1) / np.maximum(paper.sum(axis=1), 1)[:, None]
    balanced = a / np.maximum(colour[:, None, :], 1.0) * 255.0
    red = balanced[..., 2] - np.maximum(balanced[..., 0], balanced[..., 1])
    return np.percentile(red, INK_PERCENTILE, axis=1).astype(np.float32)


def _named(corner: CornerDetection, code: str) -> CornerDetection:
    """``corner`` read as the joker ``code``: the two jokers' probabilities trade places."""
    if not corner.alts:
        return replace(corner, card=code)
    probs = dict(corner.alts)
    hi, lo = max(probs.get("SJ", 0.0), probs.get("BJ", 0.0)), min(probs.get("SJ", 0.0), probs.get("BJ", 0.0))
    other = "SJ" if code == "BJ" else "BJ"
    rest = tuple((c, p) for c, p in corner.alts if c not in JOKERS)
    alts = ((code, hi),) + (((other, lo),) if lo > 0 else ()) + rest
    return replace(corner, card=code, alts=alts)


def settle_jokers(frame_bgr: np.ndarray, corners: Sequence[CornerDetection]) -> list[CornerDetection]:
    """``corners`` with each one the namer called a joker named by its ink (see module doc)."""
    out = list(corners)
    at = [i for i, c in enumerate(out) if c.card in JOKERS]
    if not at or colourless(frame_bgr):
        return out
    patches = np.asarray([crop_corner(frame_bgr, out[i].box) for i in at])
    measurable = on_paper(patches) & ~light_ink(patches)
    for i, r, ok in zip(at, redness(patches), measurable, strict=True):
        if not ok:
            continue
        code = "BJ" if r >= RED_INK else "SJ" if r <= BLACK_INK else out[i].card
        if code != out[i].card:
            out[i] = _named(out[i], code)
    return out
