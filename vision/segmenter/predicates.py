"""The tests of the segmenter's echo and misread rules: pure functions of tracks.

Each answers one question about a new card (a candidate track) and a card it may be a
second reading of.  They are wired into the rule table in :mod:`.rules`; the decision each
one serves is numbered in ``docs/vision.md`` (V-numbers below).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardref.vision.classes import JOKER_CODES, rank_of
from cardref.vision.zones import Point

from .geometry import dist, inward, nearest, own_index, within
from .tracks import Track


def suit_misread(code: str, points: Sequence[Point], tr: Track, near_mm: float) -> bool:
    """V3.  A card ``code`` seen at ``points`` is card ``tr`` read with another suit: the same
    rank, and two or more indices each within ``near_mm`` of one of the card's.  (A card laid
    over another so exactly would hide it whole; in a fan the card under another shows one
    index, and a pile's next play is of another rank.)"""
    if code == tr.best or rank_of(code) != rank_of(tr.best) or len(points) < 2 or len(tr.points) < 2:
        return False
    return all(nearest(p, tr.points) <= near_mm for p in points)


def same_card(tr: Track, code: str, old: Track) -> bool:
    """V14.  Can the new card ``tr`` (voted ``code``) be the reported card ``old`` moved?  The
    same code; or the same rank read with another suit in most frames but as ``old`` in some
    (a pushed card is read afresh; a new card laid over it never reads as it)."""
    if old.code == code:
        return True
    return old.code is not None and rank_of(old.code) == rank_of(code) and tr.counts[old.code] > 0


def seen_twice(tr: Track, old: Track, near_mm: float, spread: bool = False) -> bool:
    """V4.  Is the new card ``tr`` the reported card ``old`` detected a second time?  The same
    code, and each index within ``near_mm`` of its own index of ``old``: one alone, or two or
    more on a card reported with at least as many (a joker's marks spread over its face, so
    a joker can be known by four).  The detector can give one card twice for some frames:
    its two indices paired twice over, or one of them left out of the pair and given as a
    card of its own.  A second card of that code laid so exactly over the first would hide
    it, so the two are never seen side by side.

    With ``spread``: a joker shows more marks than a card is followed by; another set of
    them, two or more on its known ones and the rest within their span, is that joker seen
    again.  Only long after it came to rest (the caller decides): two jokers fanned together
    share marks, and the second one joins its play within ``twin_s`` (V13)."""
    if tr.best != old.best or len(old.points) < 2 or not tr.points:
        return False
    free = list(old.points)
    apart = []
    for p in tr.points:
        j = min(range(len(free)), key=lambda k: dist(p, free[k])) if free else -1
        if j < 0 or dist(p, free[j]) > near_mm:
            apart.append(p)
        else:
            free.pop(j)
    if not apart:
        return len(tr.points) <= len(old.points)
    return (spread and tr.best in JOKER_CODES and len(tr.points) - len(apart) >= 2
            and all(within(p, old.points, near_mm) for p in apart))


def jokers_again(tr: Track, marks: Sequence[Point], near_mm: float) -> bool:
    """V8.  Is the new joker ``tr`` the reported jokers of its code whose marks are ``marks``
    seen again: all its marks but one within ``near_mm`` of theirs, and that one within their
    span?  The merge can pair the marks of two fanned jokers either way, so a third "joker"
    made of their marks comes and goes."""
    if tr.best not in JOKER_CODES or len(tr.points) < 2 or not marks:
        return False
    off = [p for p in tr.points if nearest(p, marks) > near_mm]
    return len(off) <= 1 and all(within(p, marks, near_mm) for p in off)


def same_place(tr: Track, other: Track, near_mm: float) -> bool:
    """V7.  Is ``tr`` the card ``other`` read with another code: two or more indices, each
    within ``near_mm`` of one of ``other``'s?  Two cards cannot lie index on index at both
    corners (the upper one would hide the lower whole), whatever their codes."""
    if len(tr.points) < 2 or not other.points:
        return False
    return all(nearest(p, other.points) <= near_mm for p in tr.points)


def inside_joker(tr: Track, other: Track, margin_mm: float) -> bool:
    """V10.  Is the joker ``tr`` a piece of the joker ``other`` of its code: ``other`` known by
    three or more marks (its face outlined), ``tr`` by fewer, all of them within the box of
    ``other``'s marks (widened by ``margin_mm``)?  Some designs print the joker's mark at all
    four corners and its JOKER word along an edge; the detector pairs pieces of them into a
    joker of their own.  A second joker under the first shows marks outside its outline."""
    return (tr.best == other.best and tr.best in JOKER_CODES and len(other.points) >= 3
            and len(tr.points) < len(other.points)
            and all(within(p, other.points, margin_mm) for p in tr.points))


def paired_across(tr: Track, down: Sequence[Track], near_mm: float) -> bool:
    """V9.  Is the new card ``tr`` two reported cards of its rank paired wrongly: each of its
    two or more indices within ``near_mm`` of an index of a reported card of that rank, and
    those cards more than one?  In a fan the lower card shows one index; the detector can
    pair it with the upper card's far index.  A card laid down anew lies a fan step or more
    from every index there.  Not for jokers, whose marks spread over the face."""
    if tr.best in JOKER_CODES or len(tr.points) < 2:
        return False
    rank = rank_of(tr.best)
    owners: set[int] = set()
    for p in tr.points:
        hits = [o for o in down if o.code and rank_of(o.code) == rank and o.code not in JOKER_CODES
                and nearest(p, o.points) <= near_mm]
        if not hits:
            return False
        owners.add(min(hits, key=lambda o: nearest(p, o.points)).id)
    return len(owners) > 1


def index_on_index(tr: Track, other: Track, near_mm: float) -> bool:
    """V5.  Is the card ``tr``, seen by one index, a second reading of ``other``: the same rank
    (its suit read otherwise), its index within ``near_mm`` of one of ``other``'s?  Another
    card's index cannot lie there without covering that one (a fan step is 15 mm and more).
    ``other`` may be known by one index too (the lower cards of a fan show one each).  Not
    for two different jokers: a joker's marks are spread over its face."""
    a, b = tr.best, other.best
    if len(tr.points) != 1 or not other.points or rank_of(a) != rank_of(b) or (a != b and a in JOKER_CODES):
        return False
    return nearest(tr.points[0], other.points) <= near_mm


def lone_mark_on(tr: Track, other: Track, near_mm: float, t: float, sight_s: float,
                 shared_mm: float = 0.0) -> bool:
    """V6.  Is the card ``tr``, seen by one mark of its own, a piece of the card ``other``: that
    mark within ``near_mm`` of one of ``other``'s two or more indices, while ``other`` is in
    sight (seen within ``sight_s``)?  Whatever its code: a court card's picture or a joker's
    art read as an index beside the card's own, or that index read again.  Its other marks,
    if any, must be ``other``'s own (within ``shared_mm`` of them), except for a card of its
    rank (a fanned pair shares the far index that way) or jokers, whose marks spread.  A card
    laid down anew shows its index a fan step or more from every index still in sight."""
    if len(other.points) < 2 or other.last_seen < t - sight_s:
        return False
    own = list(tr.points)
    if len(own) > 1 and rank_of(tr.best) != rank_of(other.best) and not {tr.best, other.best} & JOKER_CODES:
        own = [p for p in tr.points if nearest(p, other.points) > shared_mm]
    if len(own) != 1:
        return False
    return nearest(own[0], other.points) <= near_mm


def lone_mark_inward(tr: Track, other: Track, near_mm: float, t: float, sight_s: float, cos_min: float) -> bool:
    """V11.  A card ``tr`` of one mark, neither it nor ``other`` a joker, lying as a lone mark
    on ``other`` (:func:`lone_mark_on`) and inward of it (outward, a lone index can lie that
    near in a fan; jokers' marks spread)."""
    return (len(tr.points) == 1 and not {tr.best, other.best} & JOKER_CODES
            and lone_mark_on(tr, other, near_mm, t, sight_s) and inward(tr.points[0], other.points, cos_min))


def fanned_pair(a: Track, b: Track, near_mm: float) -> bool:
    """V16.  Are ``a`` and ``b``, two candidates of one code sharing an index, two cards of that
    code fanned?  Each shows an index of its own, away from all of the other's (the merge can
    pair the lower card's lone index with the upper card's far one, so the two share it)."""
    return own_index(a.points, b.points, near_mm) and own_index(b.points, a.points, near_mm)
