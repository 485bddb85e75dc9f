"""A card's ``conf`` as the probability that it is right, and the ``sure`` flag.

The detector's own score of a card (the best of its indices' box x name scores) is no
probability.  A :class:`ConfidenceCalibration` maps the card's naming evidence
(:func:`evidence`) onto one: a reliability table per kind of sighting (a card seen by one index, or by two or more that
agree), each a list of score bins with the share of cards in the bin that were right on
real validation photos, made monotone (pool-adjacent-violators) and read between bin
centres by linear interpolation.  ``sure_at`` is the probability from which a card is
marked ``sure``, chosen on the same validation photos so that the cards marked sure were
right at least 99 % of the time.

A card whose indices are small in the frame (under :data:`SMALL_INDEX_PX`, a webcam's scale)
is read from tables of its own where the calibration has them: at the same naming evidence
it is right less often than a close-up's card (the held-out real photos shrunk to 12 px
indices: 96 % of the cards marked sure by the close-ups' tables were right, against 99 % at
the photos' own size).

The table is fitted by ``cardref calibrate-conf`` (``datasets/conf_calibration.py``) and
shipped as ``models/confidence.json``, tied by digest to the finder and the namer it was
fitted for: any other model gets no calibration (``conf`` stays the raw score, ``sure`` is
left out).  The INT8 copies that run on CPUs without bf16 units read a few cards otherwise
than the float files, so they have a calibration of their own, ``models/confidence-int8.json``,
fitted on what they read and tied to their digests (:func:`calibration_for`); where it is
missing or stale they take the float files' calibration.
"""

from __future__ import annotations

import bisect
import functools
import json
import logging
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..types import CardDetection
from .digest import file_digest
from .int8 import float_of, is_int8_copy
from .merge import index_size

log = logging.getLogger(__name__)

CONFIDENCE_FILE = "confidence.json"
#: The calibration of a detector that runs an INT8 copy of its finder or its namer.
INT8_CONFIDENCE_FILE = "confidence-int8.json"
#: The kinds of sighting every calibration has a table for: how many indices the card was seen by.
BASE_KINDS = ("1", "2+")
#: Every kind of sighting: the base kinds, and the same for a card whose indices are small
#: (``"1 small"``); a calibration without a small kind's table reads its base kind's.
KINDS = (*BASE_KINDS, *(f"{k} small" for k in BASE_KINDS))
#: Index height (px, the median longer side of the card's index boxes in the frame) under
#: which a card is read at a webcam's scale: a 720p-1080p webcam 50-150 cm above the table
#: shows indices 10-30 px tall, a phone close-up 30-100 px.
SMALL_INDEX_PX = 24.0


def index_px(card: CardDetection) -> float | None:
    """The median longer side of the card's index boxes, in the frame's pixels (None without any)."""
    return float(statistics.median(index_size(c) for c in card.corners)) if card.corners else None


def kind_of(card: CardDetection) -> str:
    base = "1" if len(card.corners) <= 1 else "2+"
    px = index_px(card)
    return f"{base} small" if px is not None and px < SMALL_INDEX_PX else base


def base_kind(kind: str) -> str:
    return kind.split()[0]


def evidence(card: CardDetection) -> float:
    """The score the tables read: the chance that at least one of the card's indices is
    named right, ``1 - prod(1 - p)`` over the namer's probability ``p`` of the card's code at
    each index, so two indices that agree count for more than one.  A card whose indices
    carry no namer readings (a finder that names its own corners) is scored by ``conf``.
    On the real validation photos it marks twice as many cards sure at 99 % right as
    ``conf`` does (232 against 109 of 454 reported)."""
    named = [c for c in card.corners if c.alts]
    if not named:
        return float(card.conf)
    miss = 1.0
    for c in named:
        miss *= 1.0 - next((p for code, p in c.alts if code == card.card), 0.0)
    return 1.0 - miss


def monotone(values: Sequence[float], weights: Sequence[float]) -> list[float]:
    """The non-decreasing sequence closest to ``values`` in weighted least squares
    (pool-adjacent-violators); bins of weight 0 take their neighbours' value."""
    blocks: list[list[float]] = []  # [sum of w*v, sum of w, count]
    for v, w in zip(values, weights, strict=True):
        blocks.append([v * w, w, 1])
        while len(blocks) > 1 and _mean(blocks[-2]) > _mean(blocks[-1]):
            top = blocks.pop()
            blocks[-1] = [blocks[-1][0] + top[0], blocks[-1][1] + top[1], blocks[-1][2] + top[2]]
    out: list[float] = []
    for b in blocks:
        out += [_mean(b)] * int(b[2])
    return out


def _mean(block: list[float]) -> float:
    return block[0] / block[1] if block[1] > 0 else float("-inf")


@dataclass(frozen=True)
class ReliabilityTable:
    """Score bins (``edges``, n+1 of them), the cards in each and the right ones among
    them, and the monotone probability of each bin (``p``)."""

    edges: tuple[float, ...]
    n: tuple[int, ...]
    right: tuple[int, ...]
    p: tuple[float, ...]

    @classmethod
    def fit(cls, scores: Sequence[float], right: Sequence[bool], edges: Sequence[float], prior: float = 1.0
            ) -> ReliabilityTable:
        """From scored cards and whether each was right.  Each bin's share is smoothed
        towards the overall share by ``prior`` pseudo-cards, so that a bin of three cards
        does not claim certainty."""
        edges = tuple(float(e) for e in edges)
        if len(edges) < 2 or any(b <= a for a, b in zip(edges, edges[1:], strict=False)):
            raise ValueError(f"bin edges must rise: {edges}")
        k = len(edges) - 1
        n = [0] * k
        ok = [0] * k
        for s, r in zip(scores, right, strict=True):
            i = min(max(bisect.bisect_right(edges, s) - 1, 0), k - 1)
            n[i] += 1
            ok[i] += int(bool(r))
        total = sum(n)
        base = sum(ok) / total if total else 0.5
        raw = [(ok[i] + prior * base) / (n[i] + prior) for i in range(k)]
        p = monotone(raw, [n[i] + prior for i in range(k)])
        return cls(edges, tuple(n), tuple(ok), tuple(round(min(max(v, 0.0), 1.0), 4) for v in p))

    @functools.cached_property
    def _centres(self) -> tuple[float, ...]:
        """The bins' centres (read once: the tables are read for every card of every frame)."""
        return tuple((a + b) / 2 for a, b in zip(self.edges, self.edges[1:], strict=False))

    def probability(self, score: float) -> float:
        """Read between the bins' centres; flat beyond the first and the last."""
        centres = self._centres
        if score <= centres[0]:
            return self.p[0]
        if score >= centres[-1]:
            return self.p[-1]
        i = bisect.bisect_right(centres, score) - 1
        a, b = centres[i], centres[i + 1]
        return self.p[i] + (self.p[i + 1] - self.p[i]) * (score - a) / (b - a)

    def to_json(self) -> dict:
        return {"edges": list(self.edges), "n": list(self.n), "right": list(self.right), "p": list(self.p)}

    @classmethod
    def from_json(cls, obj: dict) -> ReliabilityTable:
        table = cls(tuple(float(v) for v in obj["edges"]), tuple(int(v) for v in obj["n"]),
                    tuple(int(v) for v in obj["right"]), tuple(float(v) for v in obj["p"]))
        if not len(table.edges) == len(table.n) + 1 == len(table.right) + 1 == len(table.p) + 1:
            raise ValueError("a reliability table's bins and edges do not line up")
        if any(b < a for a, b in zip(table.p, table.p[1:], strict=False)):
            raise ValueError("a reliability table's probabilities must not fall as the score rises")
        return table


@dataclass(frozen=True)
class ConfidenceCalibration:
    """Reliability tables per kind of sighting, the ``sure`` threshold, and the model files
    (by digest) they hold for."""

    tables: dict[str, ReliabilityTable]
    sure_at: float
    models: dict[str, str]  # file name -> digest
    fitted_on: str = ""

    def table_for(self, kind: str) -> ReliabilityTable:
        """The table of ``kind``, or of its base kind where the calibration has none of its own."""
        return self.tables.get(kind) or self.tables[base_kind(kind)]

    def probability(self, card: CardDetection) -> float:
        return round(self.table_for(kind_of(card)).probability(evidence(card)), 4)

    def apply(self, cards: Iterable[CardDetection]) -> list[CardDetection]:
        """The cards with ``conf`` the probability that each is right and ``sure`` set."""
        out = []
        for c in cards:
            p = self.probability(c)
            out.append(replace(c, conf=p, sure=p >= self.sure_at))
        return out

    def holds_for(self, files: Iterable[Path]) -> str | None:
        """``None`` when the calibration was fitted for these model files (all of them and
        no others), else why not."""
        files = list(files)
        absent = sorted(set(self.models) - {p.name for p in files})
        if absent:
            return f"it was fitted with {', '.join(absent)}, which the detector does not run"
        for path in files:
            want = self.models.get(path.name)
            if want is None:
                return f"it was not fitted for {path.name}"
            if not path.exists() or file_digest(path) != want:
                return f"{path.name} is not the file it was fitted for"
        return None

    def to_json(self) -> dict:
        return {"sure_at": self.sure_at, "models": dict(self.models), "fitted_on": self.fitted_on,
                "tables": {k: t.to_json() for k, t in self.tables.items()}}

    @classmethod
    def from_json(cls, obj: dict) -> ConfidenceCalibration:
        tables = {k: ReliabilityTable.from_json(obj["tables"][k]) for k in KINDS
                  if k in BASE_KINDS or k in obj["tables"]}
        sure_at = float(obj["sure_at"])
        if not 0.0 < sure_at <= 1.0:
            raise ValueError(f"sure_at must lie in (0, 1], not {sure_at}")
        return cls(tables, sure_at, {str(k): str(v) for k, v in obj["models"].items()}, str(obj.get("fitted_on", "")))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def load_calibration(path: Path, model_files: Sequence[Path]) -> ConfidenceCalibration | None:
    """The calibration at ``path`` if it holds for ``model_files``; otherwise ``None``, with
    one log line saying why (a missing file says nothing: an uncalibrated model)."""
    if not path.exists():
        return None
    try:
        cal = ConfidenceCalibration.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s: not a confidence calibration (%s); card confidences stay the detector's scores "
                    "and no card is marked sure", path, exc)
        return None
    why = cal.holds_for(model_files)
    if why is not None:
        log.info("confidence calibration %s not used: %s; no card is marked sure", path, why)
        return None
    return cal


def calibration_file(model_files: Sequence[Path]) -> str:
    """The name of the calibration fitted on a detector that runs ``model_files``: the INT8
    one when an INT8 copy is among them."""
    return INT8_CONFIDENCE_FILE if any(is_int8_copy(p) for p in model_files) else CONFIDENCE_FILE


def calibration_for(folder: Path, model_files: Sequence[Path]) -> ConfidenceCalibration | None:
    """The calibration in ``folder`` for a detector that runs ``model_files`` (the files that
    run: an INT8 copy where one does): the one fitted on those very files, else, for INT8
    copies, the one fitted on the float files they were made from."""
    if calibration_file(model_files) == INT8_CONFIDENCE_FILE:
        own = load_calibration(folder / INT8_CONFIDENCE_FILE, model_files)
        if own is not None:
            return own
    return load_calibration(folder / CONFIDENCE_FILE, [float_of(p) for p in model_files])
