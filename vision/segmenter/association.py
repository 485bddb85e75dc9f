"""Matching a frame's detections of one zone to its tracks (V2): one greedy pass by cost.

Each pair of detection and track within the track's gate gets a cost: the distance of
their nearest indices, plus a penalty for another code, plus one per index lying a fan
step off (:func:`conflicts`); reported cards win ties.  Pairs are taken cheapest first,
each detection and each track once.  The gates: ``match_mm`` for reported and resting
cards, ``track_mm`` for candidates still sliding in, ``misread_mm`` (or, for a card of its
rank lying on it, ``suit_misread_mm``: rule ``match.suit_misread_gate``, V3) for a
detection of another code on a reported card.
"""

from __future__ import annotations

from cardref.vision.classes import JOKER_CODES
from cardref.vision.zones import TableCard

from .geometry import dist, in_quad
from .predicates import suit_misread
from .settings import SegmenterSettings
from .tracks import Track


def distance(det: TableCard, tr: Track, s: SegmenterSettings) -> float:
    """The nearest indices' distance; a one-index detection whose box holds an index of the
    card counts as ``quad_share`` of ``match_mm`` at most."""
    d = min(dist(p, q) for p in det.points for q in tr.points)
    if d > 0 and det.quad and len(det.points) == 1 and any(in_quad(q, det.quad) for q in tr.points):
        d = min(d, s.match_mm * s.quad_share)
    return d


def conflicts(det: TableCard, tr: Track, s: SegmenterSettings) -> float:
    """A matching cost for each index of ``det`` that lies near one of the card's but not
    on it (beyond ``move_mm``, within twice ``match_mm``; a joker's marks, which spread over
    its face, within ``match_mm``): a detection fitting a card by one index and another
    index a fan step off is likelier the card beside it."""
    n = 0
    reach = s.match_mm * (1 if det.card in JOKER_CODES else 2)
    for p in det.points:
        d = min(dist(p, q) for q in tr.points)
        n += s.move_mm < d <= reach
    return n * s.move_mm


def gate(det: TableCard, tr: Track, s: SegmenterSettings) -> float:
    """How far ``det`` may lie from ``tr`` to be matched to it."""
    g = s.match_mm if (tr.committed or tr.still_since < tr.last_seen - s.sliding_s) else s.track_mm
    if tr.committed and det.card != tr.best:
        # another code right on a card already down: a misread of it only when it is exactly
        # there; a few mm off, it is a new card laid over it — unless it reads as the same
        # rank with all its indices on that card's
        g = s.misread_mm
        if s.enabled("match.suit_misread_gate") and suit_misread(det.card, det.points, tr, s.suit_misread_mm):
            g = s.suit_misread_mm
    return g


def match(dets: list[TableCard], tracks: list[Track], s: SegmenterSettings) -> tuple[dict[int, Track], list[int]]:
    """``({detection index: track}, detection indices left over)``."""
    pairs: list[tuple[float, int, Track]] = []
    for i, det in enumerate(dets):
        for tr in tracks:
            d = distance(det, tr, s)
            if d > gate(det, tr, s):
                continue
            cost = d + (0.0 if det.card == tr.best else s.code_penalty_mm) + conflicts(det, tr, s)
            if not tr.committed:
                cost += s.candidate_cost_mm  # committed cards win ties: old cards are not new ones
            elif det.card != tr.best:
                cost += s.track_mm  # a card on its way in with this code comes first
            pairs.append((cost, i, tr))
    pairs.sort(key=lambda x: x[0])
    used_d: set[int] = set()
    used_t: set[int] = set()
    out: dict[int, Track] = {}
    for _cost, i, tr in pairs:
        if i in used_d or tr.id in used_t:
            continue
        used_d.add(i)
        used_t.add(tr.id)
        out[i] = tr
    return out, [i for i in range(len(dets)) if i not in used_d]
