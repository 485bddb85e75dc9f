"""Fit the detector's confidence calibration on the real validation photos (``cardref
calibrate-conf``; the runtime side is :mod:`cardref.vision.detector.confidence`).

The photos held out from tuning (``real_cards_split``) hold two decks: the later photos of
the standard deck whose earlier photos were tuned on, and the black-and-gold deck never
trained on.  Each card the shipped detector reports on them (as ``cardref detect`` runs it,
its naming evidence) is right when its code is among the photo's labelled cards not yet claimed by a
higher-scored card.  The figures reported are cross-validated by deck: the tables and the
``sure`` threshold fitted on one deck, scored on the other, both ways.  The calibration
shipped is fitted on both decks together.

Each photo is also read as a webcam far above the table would show it (``webcam_px``: shrunk
so that its median index is that many pixels tall, JPEG-compressed,
:func:`.webcam_view.webcam_view`), so that the tables of small cards
(:data:`~cardref.vision.detector.confidence.SMALL_INDEX_PX`) are fitted on real cards at a
webcam's scale, and ``sure`` is chosen on every view together; :func:`by_view` says how
it holds in each.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cardref.vision.detector.confidence import (
    BASE_KINDS,
    KINDS,
    ConfidenceCalibration,
    ReliabilityTable,
    evidence,
    kind_of,
)

from .evaluate import REAL_CARDS, REAL_DECKS, _cards, _real_images, labelled_photos, mapped_real_cards

#: Bins of the naming evidence (:func:`~cardref.vision.detector.confidence.evidence`).
EDGES = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999, 1.0001)
#: The share of cards marked sure that must be right on the photos the threshold is chosen on.
SURE_PRECISION = 0.99
#: At least this many cards must lie at or above a threshold for it to be chosen.
SURE_MIN_CARDS = 30
#: A small kind of sighting gets a table of its own from this many cards on (else its base
#: kind's table reads it).
SMALL_KIND_MIN_CARDS = 30
#: The view of a photo as it is.
PHOTO = "photo"
#: The webcam index heights (px) each photo is also read at by default.  With namer n11 (1604
#: cards, 2026-12-06) adding 12 px as well cut the close-ups' cards marked sure from 57 % to
#: 2 %, while the 12 px view's sure cards stayed under 99 % (98.0 %): there the namer's errors
#: reach the top of the tables.
WEBCAM_PX = (15.0, 20.0)
#: Between a deck and a view in the keys of the true-card counts.
VIEW_SEP = " | "


def webcam_view_name(px: float) -> str:
    return f"webcam {px:g} px"


def true_count(true_cards: Counter, deck: str | None = None, view: str | None = None) -> int:
    """Labelled cards of ``deck`` in ``view`` (None: any), from counts keyed ``deck | view``
    (a key without a view, as older records have, is the photo view)."""
    total = 0
    for key, n in true_cards.items():
        d, _, v = key.partition(VIEW_SEP)
        if (deck is None or d == deck) and (view is None or (v or PHOTO) == view):
            total += n
    return total


@dataclass(frozen=True)
class Scored:
    """One reported card: its photo's deck, raw score, kind of sighting, and whether it was right."""

    deck: str
    score: float
    kind: str
    right: bool
    view: str = PHOTO


def score_photos(limit: int | None = None, src: Path = REAL_CARDS, int8: bool = True,
                 webcam_px: tuple[float, ...] = WEBCAM_PX) -> tuple[list[Scored], Counter, list[Path]]:
    """Every card the shipped detector reports on the held-out photos, scored, each photo as
    it is and at each of the ``webcam_px`` index heights; the number of labelled cards per
    deck and view (:func:`true_count`); and the model files the detector ran (``int8=False``:
    the float files even where INT8 copies would run), which the calibration is tied to."""
    from cardref.vision.detector import PHOTO_ENLARGE, PHOTO_SCALES, calibration_files, load_detector

    from .webcam_view import webcam_view

    det = load_detector("auto", scales=PHOTO_SCALES, calibrated=False, int8=int8, enlarge=PHOTO_ENLARGE)
    root = mapped_real_cards(src).parent
    out: list[Scored] = []
    true_cards: Counter = Counter()
    for path, photo, labelled in labelled_photos(_real_images(root, True, limit), root / "labels"):
        deck = next(name for name, prefix in REAL_DECKS.items() if path.name.startswith(prefix))
        views = [(PHOTO, (photo, labelled))]
        views += [(webcam_view_name(px), webcam_view(photo, labelled, px)) for px in webcam_px]
        for view, shown in views:
            if shown is None:       # indices already smaller than the view's: never enlarged
                continue
            frame, labels = shown
            truth = _cards(labels)
            true_cards[f"{deck}{VIEW_SEP}{view}"] += sum(truth.values())
            for card in sorted(det.detect(frame), key=lambda c: -c.conf):
                right = truth[card.card] > 0
                if right:
                    truth[card.card] -= 1
                out.append(Scored(deck, evidence(card), kind_of(card), right, view))
    return out, true_cards, calibration_files(det.model_path, det.namer, det.suits)


def fit(cards: Sequence[Scored], fitted_on: str, models: dict[str, str]) -> ConfidenceCalibration:
    """Tables per kind of sighting (a small kind's only from SMALL_KIND_MIN_CARDS cards on)
    and the lowest threshold whose cards, over every view of the photos together, are right
    at least SURE_PRECISION of the time (and number SURE_MIN_CARDS or more).

    One threshold on calibrated probabilities is the best single cut: the tables make a
    small card's probability comparable with a close-up's.  A threshold per view was tried
    (the highest of the views' own): with 1604 cards of namer n11 it marked 1.9 % of the
    close-ups' true cards sure, since the views' few errors at the top of each table decide
    it; :func:`by_view` reports each view instead."""
    tables = {}
    for kind in KINDS:
        mine = [c for c in cards if c.kind == kind]
        if kind in BASE_KINDS or len(mine) >= SMALL_KIND_MIN_CARDS:
            tables[kind] = ReliabilityTable.fit([c.score for c in mine], [c.right for c in mine], EDGES)
    cal = ConfidenceCalibration(tables, 1.0, models, fitted_on)
    return ConfidenceCalibration(tables, round(max(_lowest_sure(cards, cal), 1e-4), 4), models, fitted_on)


def _lowest_sure(cards: Sequence[Scored], cal: ConfidenceCalibration) -> float:
    """The lowest probability from which ``cards`` are right SURE_PRECISION of the time (1.0: none)."""
    probs = sorted(((cal.table_for(c.kind).probability(c.score), c.right) for c in cards), reverse=True)
    sure_at = 1.0
    right = 0
    for n, (p, ok) in enumerate(probs, start=1):
        right += ok
        last_of_tie = n == len(probs) or probs[n][0] < p
        if last_of_tie and n >= SURE_MIN_CARDS and right / n >= SURE_PRECISION:
            sure_at = p
    return sure_at


def report(cal: ConfidenceCalibration, cards: Sequence[Scored], true_cards: int) -> dict:
    """How the calibration does on ``cards``: the sure cards' precision, the share of true
    cards marked sure, and the expected calibration error over the table's bins."""
    probs = [cal.table_for(c.kind).probability(c.score) for c in cards]
    sure = [c for c, p in zip(cards, probs, strict=True) if p >= cal.sure_at]
    bins: dict[int, list[tuple[float, bool]]] = {}
    for c, p in zip(cards, probs, strict=True):
        bins.setdefault(min(int(p * 10), 9), []).append((p, c.right))
    ece = sum(abs(sum(p for p, _ in b) / len(b) - sum(r for _, r in b) / len(b)) * len(b)
              for b in bins.values()) / max(len(cards), 1)
    return {"cards_reported": len(cards), "cards_true": true_cards, "right": sum(c.right for c in cards),
            "sure": len(sure), "sure_right": sum(c.right for c in sure),
            "sure_precision": round(sum(c.right for c in sure) / len(sure), 4) if sure else None,
            "true_cards_marked_sure": round(sum(c.right for c in sure) / true_cards, 4) if true_cards else None,
            "ece": round(ece, 4)}


def cross_validate(cards: Sequence[Scored], true_cards: Counter, models: dict[str, str]) -> dict:
    """Fit on each deck, report on the other."""
    out = {}
    decks = sorted({c.deck for c in cards})
    for fit_deck in decks:
        for other in decks:
            if other == fit_deck:
                continue
            cal = fit([c for c in cards if c.deck == fit_deck], fit_deck, models)
            out[f"fitted on {fit_deck}, scored on {other}"] = {
                "sure_at": cal.sure_at, **report(cal, [c for c in cards if c.deck == other],
                                                 true_count(true_cards, deck=other))}
    return out


def by_view(cal: ConfidenceCalibration, cards: Sequence[Scored], true_cards: Counter) -> dict:
    """:func:`report` for each view of the photos (as they are, and at each webcam scale)."""
    return {view: report(cal, [c for c in cards if c.view == view], true_count(true_cards, view=view))
            for view in sorted({c.view for c in cards}, key=lambda v: (v != PHOTO, v))}


def save_records(cards: Sequence[Scored], true_cards: Counter, path: Path, models: dict[str, str] | None = None) -> None:
    """The scored cards, the true cards per deck and (``models``: file name -> digest) the
    model files that read them."""
    obj = {"cards": [vars(c) for c in cards], "true_cards": dict(true_cards)}
    if models is not None:
        obj["models"] = dict(models)
    path.write_text(json.dumps(obj) + "\n", encoding="utf-8")


def load_records(path: Path) -> tuple[list[Scored], Counter]:
    obj = json.loads(path.read_text(encoding="utf-8"))
    return [Scored(**c) for c in obj["cards"]], Counter(obj["true_cards"])


def records_models(path: Path) -> dict[str, str] | None:
    """The model files (name -> digest) a records file was scored with; ``None`` when it does not say."""
    models = json.loads(path.read_text(encoding="utf-8")).get("models")
    return {str(k): str(v) for k, v in models.items()} if isinstance(models, dict) else None
