"""From card detections on the table to plays: the play segmenter.

One observation type flows in: :class:`~cardref.vision.zones.TableCard` (a detected card
in table millimetres, with the zone it lies in), a list per frame.  Out come :class:`PlayObservation` (a seat put
these cards down) and :class:`ZoneCleared` (a trick was collected).

Each zone has a :class:`ZoneTracker` whose state is a list of :class:`Track` objects, one
per physical card: *committed* tracks are cards already reported, *candidates* are new
cards not yet reported.  A card is identified by where its rank-and-suit corner indices
lie, so a card laid over earlier ones is told apart from them even when it has the same
code (several decks), and an earlier card half covered by it keeps its identity through
its corner that still shows.

A play is reported when every candidate in the zone has been at rest for ``settle_s``
and was seen in most frames of that time (voting over frames: codes are chosen by
confidence-weighted votes, one-frame misreads and flickers never get there).  A hand
passing over hides cards (committed ones are kept while hidden) and makes short-lived
candidates (they are dropped), so it never makes a play.  Cards already reported that are
pushed elsewhere (straightened within the zone, or a trick pushed into the centre) are
recognised as moved, not played.  A zone whose committed cards
all stay unseen for ``clear_s`` is cleared (trick collected); when the very same cards
reappear there within ``restore_s`` (a hand had covered them all), they are restored,
not reported again.  Low-confidence plays are reported with ``confirm=True``.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .classes import JOKER_CODES, rank_of
from .zones import Point, SeatLayout, TableCard, point_in_polygon

#: A reported card seen within this many seconds is in sight; one unseen longer is hidden
#: (under a hand, pushed away, collected).
SIGHT_S = 0.3


@dataclass(frozen=True)
class SegmenterSettings:
    """Tuning of the play segmenter (times in seconds, distances in table mm)."""

    settle_s: float = 0.5  # new cards at rest this long make a play
    min_hit_ratio: float = 0.6  # … and seen in at least this share of frames meanwhile
    min_hits: int = 3
    match_mm: float = 16.0  # a corner within this of a known corner is the same card
    track_mm: float = 45.0  # candidates may move this far between frames (sliding in)
    move_mm: float = 10.0  # a candidate that moves more than this is not at rest (detector jitter stays below)
    code_penalty_mm: float = 30.0  # matching prefers the same code by this much
    misread_mm: float = 7.0  # another code this close to a reported card is a misread of it
    suit_misread_mm: float = 14.0  # … and so is a card of its rank whose indices all lie this close to its
    #   (under a fan step, 15 mm and more; 12 had let a nudged AS read as AC make a phantom play)
    twice_mm: float = 9.0  # a new card of a reported card's code with its indices this close to that card's is it seen twice
    drop_s: float = 0.5  # a candidate unseen this long is forgotten
    clear_s: float = 0.7  # committed cards all unseen this long: the trick was collected
    restore_s: float = 2.5  # cleared cards seen again this soon are restored, not replayed
    late_s: float = 1.2  # cards settling this soon after their zone's play belong to it
    joker_margin_mm: float = 3.0  # a joker's piece lies within this of the box of the joker's marks
    twin_s: float = 3.5  # a joker settling this soon after a play of the same joker in its zone …
    twin_mm: float = 60.0  # … this close to it was that play's (two jokers read as one while fanned)
    revise_s: float = 2.5  # a reported play is read again over this long …
    revise_min_frames: int = 10  # … and its cards are revised when this many frames
    revise_share: float = 0.75  # … agree this strongly on another code
    confirm_below: float = 0.55  # plays less sure than this are flagged for confirmation
    zone_tolerance_mm: float = 40.0
    nudge_mm: float = 90.0  # reported cards found again this far away were pushed, not played
    copies: int = 0  # most copies of one card the game's decks hold (0: no limit; see for_game)


def for_game(settings: SegmenterSettings, game: str | None) -> SegmenterSettings:
    """``settings`` with ``copies`` set from the game's decks (the engine's composition: two
    decks for the 升级 family, four for 够级); unchanged for an unknown game."""
    from cardref.engine import registry

    rules = registry.get(game) if game else None
    return settings if rules is None else dataclasses.replace(settings, copies=rules.composition.decks)


def tuned(settings: SegmenterSettings, pairs: list[str]) -> SegmenterSettings:
    """``settings`` with ``KEY=VALUE`` overrides (e.g. ``min_hits=2``); raises ValueError."""
    fields = {f.name: f.type for f in dataclasses.fields(SegmenterSettings)}
    changes: dict[str, float | int] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or key not in fields:
            raise ValueError(f"bad setting {pair!r}; settings are: {', '.join(fields)}")
        try:
            changes[key] = int(value) if fields[key] in ("int", int) else float(value)
        except ValueError:
            raise ValueError(f"setting {key} needs a number, got {value!r}") from None
    return dataclasses.replace(settings, **changes)


@dataclass
class Track:
    id: int
    points: list[Point]
    anchor: Point
    first_seen: float
    last_seen: float
    still_since: float
    first_xy: Point
    votes: Counter[str] = field(default_factory=Counter)  # confidence-weighted
    counts: Counter[str] = field(default_factory=Counter)  # frames
    seen_since_still: int = 0
    frames_since_still: int = 0
    sightings: list[float] = field(default_factory=list)  # frame times it was seen at rest
    committed: bool = False
    code: str | None = None  # fixed when committed
    play: int | None = None  # the play that reported it
    later: Counter[str] = field(default_factory=Counter)  # codes read (frames) after it was reported
    read_as_code: float = -1e9  # when its reported code was last read where it lies

    @property
    def best(self) -> str:
        return self.code if self.code is not None else self.votes.most_common(1)[0][0]


@dataclass(frozen=True)
class PlayObservation:
    seat: int
    cards: tuple[str, ...]
    t: float  # when the cards came to rest (estimated)
    t_emit: float  # the frame time at which the play was reported
    conf: float
    confirm: bool
    zone: str
    origin: Point = (0.0, 0.0)  # where the new cards first showed up (table mm)
    rest: Point = (0.0, 0.0)  # where they came to rest
    play: int = -1  # id of this play within the segmenter (revisions refer to it)


@dataclass(frozen=True)
class PlayRevision:
    """A play reported earlier whose cards read differently once more frames were seen."""

    play: int
    cards: tuple[str, ...]  # the whole play as now read
    before: tuple[str, ...]
    t: float
    conf: float


@dataclass(frozen=True)
class ZoneCleared:
    zone: str
    t: float
    cards: tuple[str, ...]


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _suit_misread(code: str, points: Sequence[Point], tr: Track, near_mm: float) -> bool:
    """A card ``code`` seen at ``points`` is card ``tr`` read with another suit: the same
    rank, and two or more indices each within ``near_mm`` of one of the card's.  (A card laid
    over another so exactly would hide it whole; in a fan the card under another shows one
    index, and a pile's next play is of another rank.)  In simulated deals of held-out designs
    such misreads (3C read as 3S seconds after its play) had made 5 of 25 phantom plays."""
    if code == tr.best or rank_of(code) != rank_of(tr.best) or len(points) < 2 or len(tr.points) < 2:
        return False
    return all(min(_dist(p, q) for q in tr.points) <= near_mm for p in points)


def _same_card(tr: Track, code: str, old: Track) -> bool:
    """Can the new card ``tr`` (voted ``code``) be the reported card ``old`` moved?  The same
    code; or the same rank read with another suit in most frames but as ``old`` in some (a
    pushed card is read afresh: 10C reported, then 10S in most frames once moved, had made a
    phantom play; a new 10S laid over the 10C never reads as the 10C)."""
    if old.code == code:
        return True
    return old.code is not None and rank_of(old.code) == rank_of(code) and tr.counts[old.code] > 0


def _seen_twice(tr: Track, old: Track, near_mm: float, spread: bool = False) -> bool:
    """Is the new card ``tr`` the reported card ``old`` detected a second time?  The same code,
    and each index within ``near_mm`` of its own index of ``old``: one alone, or two or more
    on a card reported with at least as many (a joker's marks spread over its face, so a BJ
    can be known by four; two of them seen again as a card of their own had made a phantom
    BJ).  The detector can give one card twice for some frames: its two indices paired
    twice over, or one of them left out of the pair
    (another card's index between them, a hand over it) and given as a card of its own.  A
    second card of that code laid so exactly over the first would hide it, so the two are
    never seen side by side.  In 24 simulated deals of held-out designs such doubles had made
    plays wrong or phantom (7C read 7C 7C; a lone 4H of a card under the JD just played): the
    rule turned 10 more plays right (673 -> 683 of 720), at the cost of two (a second SJ whose
    lone index fell on the first one's; a misread JC that had been a phantom joined a play).
    With ``spread`` (below) a reported SJ seen again four seconds on by three of its marks
    and its JOKER word no longer made a phantom SJ (24 deals: phantom plays 2 -> 1)."""
    if tr.best != old.best or len(old.points) < 2 or not tr.points:
        return False
    free = list(old.points)
    apart = []
    for p in tr.points:
        j = min(range(len(free)), key=lambda k: _dist(p, free[k])) if free else -1
        if j < 0 or _dist(p, free[j]) > near_mm:
            apart.append(p)
        else:
            free.pop(j)
    if not apart:
        return len(tr.points) <= len(old.points)
    # ``spread``: a joker shows more marks than a card is followed by (four); another set of
    # them, two or more on its known ones and the rest within their span, is that joker seen
    # again.  Only long after it came to rest: two jokers fanned together share marks, and
    # the second one joins its play within ``twin_s`` (ZoneTracker._twin_joker).
    return (spread and tr.best in JOKER_CODES and len(tr.points) - len(apart) >= 2
            and all(_within(p, old.points, near_mm) for p in apart))


def _within(p: Point, points: Sequence[Point], margin: float) -> bool:
    """Does ``p`` lie inside the box around ``points``, widened by ``margin`` on every side?"""
    xs, ys = [q[0] for q in points], [q[1] for q in points]
    return min(xs) - margin <= p[0] <= max(xs) + margin and min(ys) - margin <= p[1] <= max(ys) + margin


def _jokers_again(tr: Track, marks: Sequence[Point], near_mm: float) -> bool:
    """Is the new joker ``tr`` the reported jokers of its code whose marks are ``marks`` seen
    again: all its marks but one within ``near_mm`` of theirs, and that one within their
    span?  A joker's marks spread over its face, and the merge can pair the marks of two
    fanned jokers either way, so a third "joker" made of their marks comes and goes.  A
    second joker of the fan shows two or more marks of its own, a fan step from the first
    one's (it joins its play, :meth:`ZoneTracker._twin_joker`); one stacked closer shows up
    with its play and joins it as a late part."""
    if tr.best not in JOKER_CODES or len(tr.points) < 2 or not marks:
        return False
    off = [p for p in tr.points if min(_dist(p, q) for q in marks) > near_mm]
    return len(off) <= 1 and all(_within(p, marks, near_mm) for p in off)


def _same_place(tr: Track, other: Track, near_mm: float) -> bool:
    """Is ``tr`` the card ``other`` read with another code: two or more indices, each within
    ``near_mm`` of one of ``other``'s?  Two cards of one play cannot lie index on index at
    both corners (the upper one would hide the lower whole), whatever their codes.  In 24
    simulated deals of held-out designs a 4D whose index read 4D, 6D and 8D in turn was
    followed as two cards at one place, and the play came out 6D 4D."""
    if len(tr.points) < 2 or not other.points:
        return False
    return all(min(_dist(p, q) for q in other.points) <= near_mm for p in tr.points)


def _inside_joker(tr: Track, other: Track, margin_mm: float) -> bool:
    """Is the joker ``tr`` a piece of the joker ``other`` of its code: ``other`` known by three
    or more marks (its face outlined), ``tr`` by fewer, all of them within the box of
    ``other``'s marks (widened by ``margin_mm``)?  Some designs print the joker's mark at all
    four corners and its JOKER word along an edge; the detector pairs pieces of that word, or
    a corner not yet learnt, into a joker of their own.  A second joker lying under the first
    shows its marks outside the first one's outline (a fan step or a stack's few mm beyond
    it), and one laid over it would hide the marks it is outlined by.  In 24 simulated deals of
    held-out designs such pieces had made two plays wrong (9S SJ read SJ 9S SJ, its JOKER
    word mid-edge; JC SJ read SJ SJ JC, a corner seen alone while the rest read together)."""
    return (tr.best == other.best and tr.best in JOKER_CODES and len(other.points) >= 3
            and len(tr.points) < len(other.points)
            and all(_within(p, other.points, margin_mm) for p in tr.points))


def _paired_across(tr: Track, down: Sequence[Track], near_mm: float) -> bool:
    """Is the new card ``tr`` two reported cards of its rank paired wrongly: each of its two
    or more indices within ``near_mm`` of an index of a reported card of that rank, and
    those cards more than one?  In a fan the lower card shows one index; the detector can
    pair it with the upper card's far index, a "card" whose indices are both taken already
    (2S 2S fanned: a phantom 2S three seconds later).  A card laid down anew lies a fan step
    or more from every index there.  Not for jokers, whose marks spread over the face."""
    if tr.best in JOKER_CODES or len(tr.points) < 2:
        return False
    rank = rank_of(tr.best)
    owners: set[int] = set()
    for p in tr.points:
        hits = [o for o in down if o.code and rank_of(o.code) == rank and o.code not in JOKER_CODES
                and min(_dist(p, q) for q in o.points) <= near_mm]
        if not hits:
            return False
        owners.add(min(hits, key=lambda o: min(_dist(p, q) for q in o.points)).id)
    return len(owners) > 1


def _index_on_index(tr: Track, other: Track, near_mm: float) -> bool:
    """Is the card ``tr``, seen by one index, a second reading of ``other``: the same rank
    (its suit read otherwise), its index within ``near_mm`` of one of ``other``'s?  Another
    card's index cannot lie there without covering that one (a fanned card's index lies a
    fan step away, 15 mm and more).  ``other`` may be known by one index too: the lower cards
    of a fan show one each (9C 9D 9H fanned on the pile, an index between the 9C's and the
    9D's read 9S for seconds, had made a phantom 9S).  Not for two different jokers: a
    joker's marks are spread over its face, and the BJ under an SJ in a fan showed one of them
    that close to the SJ's (BJ SJ came out SJ twice in 24 simulated deals)."""
    a, b = tr.best, other.best
    if len(tr.points) != 1 or not other.points or rank_of(a) != rank_of(b) or (a != b and a in JOKER_CODES):
        return False
    return min(_dist(tr.points[0], q) for q in other.points) <= near_mm


def _lone_mark_on(tr: Track, other: Track, near_mm: float, t: float, shared_mm: float = 0.0) -> bool:
    """Is the card ``tr``, seen by one mark of its own, a piece of the card ``other``: that
    mark within ``near_mm`` (under a fan step) of one of ``other``'s two or more indices,
    while ``other`` is in sight?  Whatever its code: a court card's picture or a joker's art
    read as an index beside the card's own, or that index read again.  Its other marks, if
    any, must be ``other``'s own (within ``shared_mm`` of them): the detector can pair such a
    mark with the card's far index (a JC's picture read KC and paired with the JC's far
    index, KS/KC in a lattmann JC JC, had made the play KC JC JC); not for a card of its rank
    (a fanned pair shares the far index that way) nor for jokers, whose marks spread.  A card laid down anew
    shows its index a fan step or more from every index still in sight (nearer, it would
    cover it).  A shared pile's cards are laid over one another, so there the caller passes
    a tighter ``near_mm`` (``misread_mm``: not index on index).  In 24 simulated deals of
    held-out designs such marks had made 5 phantom plays or extra cards (a KC beside a
    reported QC's index, an SJ beside an AD's, 10C 10S; on a pile a JC on a 9C's index)."""
    if len(other.points) < 2 or other.last_seen < t - SIGHT_S:
        return False
    own = list(tr.points)
    if len(own) > 1 and rank_of(tr.best) != rank_of(other.best) and not {tr.best, other.best} & JOKER_CODES:
        own = [p for p in tr.points if min(_dist(p, q) for q in other.points) > shared_mm]
    if len(own) != 1:
        return False
    return min(_dist(own[0], q) for q in other.points) <= near_mm


def _inward(p: Point, points: Sequence[Point], cos_min: float = 0.5) -> bool:
    """Does ``p`` lie inward of the card indexed at ``points`` (two or more): from the index
    nearest it, within 60 degrees of the way to the index farthest from that one (the card's
    face stretches from each index towards the other)?  A lower card of a fan shows its index
    beyond the upper card's edge, outward."""
    if len(points) < 2:
        return False
    near = min(points, key=lambda q: _dist(p, q))
    far = max(points, key=lambda q: _dist(near, q))
    v, w = (far[0] - near[0], far[1] - near[1]), (p[0] - near[0], p[1] - near[1])
    norm = math.hypot(*v) * math.hypot(*w)
    return norm > 0 and (v[0] * w[0] + v[1] * w[1]) >= cos_min * norm


def _fanned_pair(a: Track, b: Track, near_mm: float) -> bool:
    """Are ``a`` and ``b``, two candidates of one code sharing an index, two cards of that code
    fanned?  Each shows an index of its own, away from all of the other's.  In a fan the
    upper card shows both its indices and the one under it only the index beside them: the
    merge pairs that lone index with the upper card's far one in some frames and the upper
    card's own in others, so the two candidates share the far index.  (A card seen by one
    index first and by both later has no index of its own in the first candidate.)  In
    simulated deals two fanned 10D had been merged into one, played as 10D, and the second
    one played alone seconds later."""
    return _own_index(a.points, b.points, near_mm) and _own_index(b.points, a.points, near_mm)


def _own_index(points: Sequence[Point], others: Sequence[Point], near_mm: float) -> bool:
    """Does one of ``points`` lie further than ``near_mm`` from all of ``others``?"""
    return any(min(_dist(p, q) for q in others) > near_mm for p in points)


def _in_quad(p: Point, quad: Sequence[Point]) -> bool:
    return len(quad) >= 3 and point_in_polygon(p, quad)


class ZoneTracker:
    """The cards of one zone and their state (see the module doc)."""

    def __init__(self, name: str, seat: int | None, settings: SegmenterSettings, ids: list[int]) -> None:
        self.name = name
        self.seat = seat
        self.s = settings
        self.tracks: list[Track] = []
        self.cleared: list[tuple[float, list[Track]]] = []
        self._ids = ids
        self.peers: list[ZoneTracker] = []  # every zone of the table (set by the segmenter)
        #: (t, code, seat or -1, first place) of candidates lost lately (cards on their way in)
        self.trail: list[tuple[float, str, int, Point]] = []
        self.open_plays: dict[int, tuple[float, list[Track], tuple[str, ...]]] = {}
        #: every play of the zone reported within ``twin_s``: (time, its cards' tracks)
        self.recent: dict[int, tuple[float, list[Track]]] = {}
        self.frame_times: list[float] = []
        self.revisions: list[PlayRevision] = []

    def _new_id(self) -> int:
        self._ids[0] += 1
        return self._ids[0]

    # ------------------------------------------------------------------ matching
    def _distance(self, det: TableCard, tr: Track) -> float:
        d = min(_dist(p, q) for p in det.points for q in tr.points)
        if d > 0 and det.quad and len(det.points) == 1 and any(_in_quad(q, det.quad) for q in tr.points):
            d = min(d, self.s.match_mm * 0.5)
        return d

    def _conflicts(self, det: TableCard, tr: Track) -> float:
        """A matching cost for each index of ``det`` that lies near one of the card's but not
        on it (beyond ``move_mm``, within twice ``match_mm``; a joker's marks, which spread
        over its face, within ``match_mm``): a detection fitting a card by one index
        and another index a fan step off is likelier the card beside it.  In a fan of two
        cards of one code, the lower card's index paired with the upper card's far index had
        been given to the upper card (both fit by that far index), and the two became one."""
        n = 0
        reach = self.s.match_mm * (1 if det.card in JOKER_CODES else 2)
        for p in det.points:
            d = min(_dist(p, q) for q in tr.points)
            n += self.s.move_mm < d <= reach
        return n * self.s.move_mm

    def _match(self, dets: list[TableCard]) -> tuple[dict[int, Track], list[int]]:
        pairs: list[tuple[float, int, Track]] = []
        for i, det in enumerate(dets):
            for tr in self.tracks:
                d = self._distance(det, tr)
                gate = self.s.match_mm if (tr.committed or tr.still_since < tr.last_seen - 0.15) else self.s.track_mm
                if tr.committed and det.card != tr.best:
                    # another code right on a card already down: a misread of it only when it
                    # is exactly there; a few mm off, it is a new card laid over it — unless
                    # it reads as the same rank with all its indices on that card's
                    gate = self.s.misread_mm
                    if _suit_misread(det.card, det.points, tr, self.s.suit_misread_mm):
                        gate = self.s.suit_misread_mm
                if d > gate:
                    continue
                cost = d + (0.0 if det.card == tr.best else self.s.code_penalty_mm) + self._conflicts(det, tr)
                if not tr.committed:
                    cost += 0.5  # committed cards win ties: old cards are not new ones
                elif det.card != tr.best:
                    cost += self.s.track_mm  # a card on its way in with this code comes first
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

    # ------------------------------------------------------------------ update
    def update(self, t: float, dets: list[TableCard]) -> tuple[list[PlayObservation], list[ZoneCleared]]:
        s = self.s
        self.frame_times.append(t)
        if len(self.frame_times) > 400:
            del self.frame_times[:200]
        matched, fresh = self._match(dets)
        seen_ids = set()
        for i, tr in matched.items():
            det = dets[i]
            seen_ids.add(tr.id)
            if len(det.points) > 1:
                self._absorb(tr, det)
            self._observe(tr, det, t)
        for i in fresh:
            det = dets[i]
            p = det.xy
            tr = Track(self._new_id(), list(det.points), p, t, t, t, p)
            tr.votes[det.card] += det.conf
            tr.counts[det.card] += 1
            tr.seen_since_still = tr.frames_since_still = 1
            tr.sightings.append(t)
            self.tracks.append(tr)
            seen_ids.add(tr.id)
        for tr in self.tracks:
            if tr.id not in seen_ids and not tr.committed:
                tr.frames_since_still += 1
        # forget candidates that vanished, or that keep flickering without ever settling;
        # remember briefly where they were (cards sliding across a zone into the pile)
        keep = []
        for tr in self.tracks:
            if tr.committed or (t - tr.last_seen <= s.drop_s and not self._hopeless(tr, t)):
                keep.append(tr)
            else:
                self.trail.append((tr.last_seen, tr.best, -1 if self.seat is None else self.seat, tr.first_xy))
        self.tracks = keep
        if self.trail and self.trail[0][0] < t - 3.0:
            self.trail[:] = [e for e in self.trail if e[0] >= t - 3.0]
        self._merge_duplicates()
        plays = self._maybe_play(t)
        self._maybe_revise(t)
        cleared = self._maybe_clear(t)
        return plays, cleared

    def _maybe_revise(self, t: float) -> None:
        s = self.s
        for pid, (tc, trs, before) in list(self.open_plays.items()):
            if t - tc < s.revise_s:
                continue
            del self.open_plays[pid]
            codes = []
            changed = False
            confs = []
            for tr in trs:
                code = tr.code or ""
                total = sum(tr.later.values())
                if total > 0:
                    best, count = tr.later.most_common(1)[0]
                    share = count / total
                    if best != code and share >= s.revise_share and count >= s.revise_min_frames:
                        tr.code = best
                        code = best
                        changed = True
                        confs.append(share)
                codes.append(code)
            if changed:
                self.revisions.append(PlayRevision(pid, tuple(codes), before, round(t, 3), round(min(confs), 3)))

    def _observe(self, tr: Track, det: TableCard, t: float) -> None:
        s = self.s
        if tr.committed and tr.play in self.open_plays:
            tr.later[det.card] += 1
        if tr.committed and det.card != tr.code:
            # another code where a reported card lies: a misread, or a card moved onto it — not a
            # sighting of its code, but a card is there: the trick has not been collected
            tr.last_seen = t
            return
        if not tr.committed:
            moved = min(_dist(q, p) for q in det.points for p in tr.points) > s.move_mm
            if moved:
                tr.anchor = det.xy
                tr.still_since = t
                tr.seen_since_still = 0
                tr.frames_since_still = 0
                tr.sightings.clear()
                # while cards slide, neighbours can swap tracks: only votes at rest count
                tr.votes.clear()
                tr.counts.clear()
                tr.points = list(det.points)
            tr.votes[det.card] += det.conf
            tr.counts[det.card] += 1
            tr.seen_since_still += 1
            tr.frames_since_still += 1
            tr.sightings.append(t)
            if len(tr.sightings) > 200:
                del tr.sightings[:100]
        # learn corners that were hidden so far; follow small drifts of known ones
        for q in det.points:
            j = min(range(len(tr.points)), key=lambda k: _dist(q, tr.points[k]))
            if _dist(q, tr.points[j]) <= s.match_mm:
                # a reported card stays where it was put: following it would let a new card of
                # the same code sliding past drag it along (a pushed card is found by _moved)
                a = 0.05 if tr.committed else 0.3
                tr.points[j] = (tr.points[j][0] * (1 - a) + q[0] * a, tr.points[j][1] * (1 - a) + q[1] * a)
            elif len(tr.points) < 4:
                tr.points.append(q)
        tr.last_seen = t
        if tr.committed:
            tr.read_as_code = t

    def _hopeless(self, tr: Track, t: float) -> bool:
        """Seen in too few frames for too long: noise, not a card (it would block the zone)."""
        s = self.s
        if t - tr.still_since < 3 * s.settle_s:
            return False
        seen, frames = self._window(tr, t, 3 * s.settle_s)
        return seen < 0.3 * frames

    def _absorb(self, tr: Track, det: TableCard) -> None:
        """One detection spans this card and another candidate of the same code: the other
        was this card's other index, seen alone before (the detector had not paired them)."""
        for other in self.tracks:
            if other is tr or other.committed or other.best != det.card or tr.best != det.card:
                continue
            # the index that matches the other candidate must be one this card has not shown
            new_points = [q for q in det.points if min(_dist(q, p) for p in tr.points) > self.s.match_mm]
            # … and the other must show nothing else: an index of its own makes it a second
            # card of the code sharing that index (a fan, :func:`_fanned_pair`)
            near = self.s.match_mm * 0.6
            if (new_points and min(_dist(p, q) for p in new_points for q in other.points) <= near
                    and not _own_index(other.points, (*det.points, *tr.points), near)):
                tr.votes.update(other.votes)
                tr.counts.update(other.counts)
                tr.first_seen = min(tr.first_seen, other.first_seen)
                other.committed = False
                other.last_seen = -1e9  # dropped at the next clean-up
                other.points = [(1e9, 1e9)]

    def _merge_duplicates(self) -> None:
        """Two candidates that turn out to share a corner are one card seen two ways
        (one corner first, the other later): keep the older one."""
        cands = [tr for tr in self.tracks if not tr.committed]
        if len(cands) < 2:
            return
        gone: set[int] = set()
        for i, a in enumerate(cands):
            if a.id in gone:
                continue
            for b in cands[i + 1:]:
                if b.id in gone or a.best != b.best:
                    continue
                if (min(_dist(p, q) for p in a.points for q in b.points) <= self.s.match_mm * 0.6
                        and not _fanned_pair(a, b, self.s.match_mm * 0.6)):
                    keep, drop = (a, b) if a.first_seen <= b.first_seen else (b, a)
                    for q in drop.points:
                        if min(_dist(q, p) for p in keep.points) > self.s.match_mm and len(keep.points) < 4:
                            keep.points.append(q)
                    keep.votes.update(drop.votes)
                    keep.counts.update(drop.counts)
                    keep.seen_since_still = max(keep.seen_since_still, drop.seen_since_still)
                    keep.sightings = sorted(set(keep.sightings) | set(drop.sightings))
                    gone.add(drop.id)
                    if drop is a:
                        break
        if gone:
            self.tracks = [tr for tr in self.tracks if tr.id not in gone]

    def _eligible(self, tr: Track, t: float) -> bool:
        s = self.s
        if t - tr.still_since < s.settle_s - 1e-9 or tr.seen_since_still < s.min_hits:
            return False
        # seen in most of the frames of the last settle time (not since it arrived: a card
        # the detector reads poorly at first and well now is ready now)
        seen, frames = self._window(tr, t, s.settle_s)
        return seen >= s.min_hit_ratio * frames

    def _window(self, tr: Track, t: float, span: float) -> tuple[int, int]:
        """(frames it was seen in, frames of this zone) within the last ``span`` seconds."""
        since = max(t - span, tr.still_since) - 1e-9
        frames = len(self.frame_times) - bisect.bisect_left(self.frame_times, since)
        seen = len(tr.sightings) - bisect.bisect_left(tr.sightings, since)
        return seen, max(frames, 1)

    def _maybe_play(self, t: float) -> list[PlayObservation]:
        cands = [tr for tr in self.tracks if not tr.committed]
        if not cands:
            return []
        misread = self._echoes(cands, t)
        # an echo of a reported card, flickering as a hand or a card passes over it, does
        # not hold back the cards that did settle
        waiting = [tr for tr in cands if tr.id not in misread] or cands
        if not all(self._eligible(tr, t) for tr in waiting):
            return []
        misread |= self._split_within(cands, t)
        misread |= self._beyond_decks([tr for tr in cands if tr.id not in misread], t)
        if misread:
            self.tracks = [tr for tr in self.tracks if tr.id not in misread]
            cands = [tr for tr in cands if tr.id not in misread]
            if not cands:
                return []
        codes = []
        confs = []
        for tr in cands:
            code, weight = tr.votes.most_common(1)[0]
            share = tr.counts[code] / max(sum(tr.counts.values()), 1)
            mean_conf = weight / max(tr.counts[code], 1)
            confs.append(min(1.0, share * max(mean_conf, 0.0)))
            codes.append(code)
        # restored, not replayed: the same cards at the same places as a trick just cleared;
        # moved, not played: cards already reported that were pushed somewhere else
        restored = self._restore(cands, codes, t) or self._moved(cands, codes, t)
        for tr, code in zip(cands, codes, strict=True):
            tr.committed = True
            tr.read_as_code = t
            tr.code = code
        if restored:
            return []
        if self._late_part(cands, codes, confs, t) or self._twin_joker(cands, codes, confs, t):
            return []
        pid = self._new_id()
        t_rest = max(tr.still_since for tr in cands)
        conf = round(min(confs), 3)
        seat = self.seat
        earlier: Point | None = None
        if seat is None:
            seat, earlier = self._came_through(cands, codes)  # -1: the segmenter attributes it by direction
        order = sorted(range(len(cands)), key=lambda k: (cands[k].first_xy[0], cands[k].first_xy[1]))
        for tr in cands:
            tr.play = pid
        self.open_plays[pid] = (t, [cands[k] for k in order], tuple(codes[k] for k in order))
        self.recent[pid] = (t, [cands[k] for k in order])
        # where the cards came from: where they were first seen, and where they stopped
        ox = sum(tr.first_xy[0] for tr in cands) / len(cands)
        oy = sum(tr.first_xy[1] for tr in cands) / len(cands)
        if earlier is not None:
            ox, oy = earlier
        rx = sum(tr.anchor[0] for tr in cands) / len(cands)
        ry = sum(tr.anchor[1] for tr in cands) / len(cands)
        return [PlayObservation(seat, tuple(codes[k] for k in order), round(t_rest, 3), round(t, 3), conf,
                                conf < self.s.confirm_below, self.name, (ox, oy), (rx, ry), pid)]

    def _echoes(self, cands: list[Track], t: float) -> set[int]:
        """New cards that are a reported card read again: lying whole on a reported card of
        its rank (misread), the same code index on index (detected twice), a lone mark beside
        its index, paired across two reported cards, or any code on both indices of a card in
        sight (:func:`_same_place`; a card laid exactly over it would hide it)."""
        down = [tr for tr in self.tracks if tr.committed]
        return {tr.id for tr in cands
                if any(_suit_misread(tr.best, tr.points, o, self.s.suit_misread_mm)
                       or _seen_twice(tr, o, self.s.twice_mm, spread=tr.first_seen - o.still_since > self.s.twin_s)
                       or _index_on_index(tr, o, self.s.misread_mm)
                       or _lone_mark_on(tr, o, self._mark_mm, t)
                       or (o.last_seen >= t - SIGHT_S and _same_place(tr, o, self.s.misread_mm))
                       for o in down)
                or _paired_across(tr, down, self.s.twice_mm)
                or self._play_jokers_again(tr, down, t)}

    def _play_jokers_again(self, tr: Track, down: list[Track], t: float) -> bool:
        """Is the new joker ``tr`` the jokers of one reported play seen again
        (:func:`_jokers_again`, against the marks of that play's jokers of its code still in
        sight)?  Not when it showed up with the play (up to ``late_s`` after it was reported,
        in a seat's zone): two jokers stacked a few mm apart share most marks, and the second
        joins its play (:meth:`_late_part`).  In 24 simulated deals of held-out designs such
        thirds, first seen 1.8-2.5 s after their play, had made two plays wrong (JC SJ read
        SJ JC SJ; SJ SJ read SJ SJ SJ after a player straightened the two jokers); a BJ
        stacked 8-16 mm under another, seen 0.1 s after the play, is the play's second BJ."""
        late = self.s.late_s if self.seat is not None else 0.0
        marks: dict[int, list[Point]] = {}
        for o in down:
            if o.code == tr.best and o.play is not None and o.last_seen >= t - SIGHT_S:
                reported = self.recent.get(o.play, (-math.inf,))[0]
                if tr.first_seen >= reported + late:
                    marks.setdefault(o.play, []).extend(o.points)
        return any(_jokers_again(tr, known, self.s.twice_mm) for known in marks.values())

    @property
    def _mark_mm(self) -> float:
        """How near a reported card's index a lone mark is a piece of it (:func:`_lone_mark_on`):
        under a fan step in a seat's zone, index on index on a shared pile."""
        return self.s.suit_misread_mm if self.seat is not None else self.s.misread_mm

    def _split_within(self, cands: list[Track], t: float) -> set[int]:
        """New cards of one play that are another of them read a second time: all their
        indices lie on that card's (:func:`_suit_misread`: the same rank read with another
        suit; :func:`_seen_twice`: the same code; :func:`_index_on_index`: one index of the
        same rank right on one of the other's; :func:`_lone_mark_on`: one mark of its own beside
        one of the other's indices, paired with another of them, or a lone one :func:`_inward` of
        that index (outward, a lone index can lie that near in a fan: 2C 2D; nor for jokers,
        whose marks spread: BJ SJ); :func:`_inside_joker`: a piece of
        a joker within its outline; :func:`_same_place`: any code, index on index at both
        corners), and they show no more indices than it.
        The one showing more indices, or else the likelier reading, is kept.  (The detector can
        pair a card's indices and also give one of them alone, read otherwise: in 24 simulated
        deals of held-out designs 2S 2S came out 2S 2C 2S, 3C came out 3S 3C, JC JC came out
        KC JC JC, the KC a lone mark of the upper JC's picture.)"""
        def weight(tr: Track) -> tuple[int, float]:
            return len(tr.points), sum(tr.votes.values())

        dropped: set[int] = set()
        for tr in sorted(cands, key=weight):
            for other in cands:
                if other is tr or other.id in dropped or weight(other) <= weight(tr):
                    continue
                if (_suit_misread(tr.best, tr.points, other, self.s.suit_misread_mm)
                        or _seen_twice(tr, other, self.s.twice_mm) or _index_on_index(tr, other, self.s.misread_mm)
                        or (len(tr.points) > 1 and _lone_mark_on(tr, other, self._mark_mm, t, self.s.misread_mm))
                        or (len(tr.points) == 1 and not {tr.best, other.best} & JOKER_CODES
                            and _lone_mark_on(tr, other, self._mark_mm, t) and _inward(tr.points[0], other.points))
                        or _inside_joker(tr, other, self.s.joker_margin_mm)
                        or _same_place(tr, other, self.s.misread_mm)):
                    dropped.add(tr.id)
                    break
        return dropped

    def _beyond_decks(self, cands: list[Track], t: float) -> set[int]:
        """Cards of one play beyond the copies of their code the game's decks hold
        (``copies``): the same card read more than once (a joker's spread marks paired
        several ways had made BJ BJ into BJ BJ BJ in a two-deck game).  Those showing the
        fewest indices, then the least sure, are dropped."""
        if self.s.copies <= 0:
            return set()
        by_code: dict[str, list[Track]] = {}
        for tr in cands:
            by_code.setdefault(tr.best, []).append(tr)
        extra: set[int] = set()
        for code, trs in by_code.items():
            # the cards of that code reported and in sight anywhere on the table count too
            # (not those hidden: the new ones may be them, pushed, see _moved)
            room = self.s.copies - sum(1 for z in self.peers or [self] for o in z.tracks
                                       if o.committed and o.code == code and o.last_seen >= t - SIGHT_S)
            if len(trs) > room:
                trs = sorted(trs, key=lambda tr: (len(tr.points), sum(tr.votes.values())), reverse=True)
                extra |= {tr.id for tr in trs[max(room, 0):]}
        return extra

    def _late_part(self, cands: list[Track], codes: list[str], confs: list[float], t: float) -> bool:
        """Cards that showed up before (or, in a seat's zone, just after) this zone's last
        play was reported and settled only now (the detector read them late): they belong
        to that play, which is revised to include them, instead of making a play of their own."""
        arrived = max(tr.first_seen for tr in cands)
        # a seat's next play never comes this soon after its last; a shared pile's may
        late = self.s.late_s if self.seat is not None else 0.0
        best = None
        for pid, (tc, _trs, _before) in self.open_plays.items():
            if arrived < tc + late and (best is None or tc > self.open_plays[best][0]):
                best = pid
        if best is None:
            return False
        self._join(best, self.open_plays[best][2], cands, codes, confs, t)
        return True

    def _twin_joker(self, cands: list[Track], codes: list[str], confs: list[float], t: float) -> bool:
        """Jokers that settle within ``twin_s`` of a play of this zone holding the same joker,
        each within ``twin_mm`` of it: that play's other joker(s).  Two jokers fanned together
        show their marks close together, and the merge can join them into one card until the
        hand has moved away; the play is revised to hold them, not followed by a phantom play."""
        self.recent = {pid: v for pid, v in self.recent.items() if t - v[0] <= self.s.twin_s}
        if not all(c in JOKER_CODES for c in codes):
            return False

        def holds_them(trs: list[Track]) -> bool:
            twins = [[o for o in trs if o.code == code] for code in codes]
            return all(ts and min(_dist(tr.anchor, o.anchor) for o in ts) <= self.s.twin_mm
                       for tr, ts in zip(cands, twins, strict=True))

        found = [pid for pid, (_t, trs) in sorted(self.recent.items(), key=lambda kv: -kv[1][0]) if holds_them(trs)]
        if not found:
            return False
        # the play's cards as the log now has them (its revisions already applied)
        self._join(found[0], tuple(o.code or "" for o in self.recent[found[0]][1]), cands, codes, confs, t)
        return True

    def _join(self, pid: int, before: tuple[str, ...], cands: list[Track], codes: list[str], confs: list[float],
              t: float) -> None:
        """Add the candidates (read ``codes``) to the reported play ``pid``, whose cards were
        ``before``, and record the revision.  Candidates that would take the play beyond the
        copies of their code the decks hold (``copies``) are that play's cards read again:
        they are forgotten, not added.  (:meth:`_beyond_decks` counts the copies in sight;
        this counts the play's own, which a hand may be hiding.  It fired in none of 24
        simulated deals, and a test pins the case it is for.)"""
        if self.s.copies > 0:
            held = Counter(before)
            keep = []
            for k, code in enumerate(codes):
                held[code] += 1
                if held[code] <= self.s.copies:
                    keep.append(k)
            if len(keep) < len(codes):
                gone = {cands[k].id for k in range(len(codes)) if k not in keep}
                self.tracks = [tr for tr in self.tracks if tr.id not in gone]
                cands, codes, confs = [cands[k] for k in keep], [codes[k] for k in keep], [confs[k] for k in keep]
                if not cands:
                    return
        for tr in cands:
            tr.play = pid
        cards = (*before, *codes)
        if pid in self.open_plays:
            tc, trs, _ = self.open_plays[pid]
            self.open_plays[pid] = (tc, [*trs, *cands], cards)
        if pid in self.recent:
            tc, trs = self.recent[pid]
            self.recent[pid] = (tc, [*trs, *cands])
        self.revisions.append(PlayRevision(pid, cards, before, round(t, 3), round(min(confs), 3)))

    def _came_through(self, cands: list[Track], codes: list[str]) -> tuple[int, Point | None]:
        """Pile cards: the seat zone they were seen crossing just before (-1: none), and
        the earliest place on their way in (``None``: not seen before they settled)."""
        votes: Counter[int] = Counter()
        starts: list[Point] = []
        for tr, code in zip(cands, codes, strict=True):
            seen = [e for e in self.trail if e[1] == code and tr.first_seen - 1.0 <= e[0] <= tr.first_seen + 0.3]
            if not seen:
                continue
            seats = [e for e in seen if e[2] >= 0]
            if seats:
                votes[max(seats)[2]] += 1
            starts.append(min(seen)[3])
        origin = None
        if starts:
            origin = (sum(p[0] for p in starts) / len(starts), sum(p[1] for p in starts) / len(starts))
        if not votes:
            return -1, origin
        seat, n = votes.most_common(1)[0]
        return (seat if n * 2 > len(cands) or len(votes) == 1 else -1), origin

    def _moved(self, cands: list[Track], codes: list[str], t: float) -> bool:
        """Are these "new" cards old ones that were moved?

        Within a zone: every new card is a card reported there before (:func:`_same_card`),
        at most ``nudge_mm`` away, that is no longer in sight or no longer read as its code
        (a player straightening or pushing their play: a pushed fan's next card can slide onto
        where a card lay and keep its track seen; at gouji-yucheng-1000 t=23.4 the 8C of a
        pushed 8C 8D 8S 8S kept the 8D's track in sight, and the 8D found a few cm on was
        a phantom play); the moved cards keep the codes they were reported with
        (``codes`` is updated).  Into the shared pile: the new cards are
        (nearly) all the cards, two or more, of one other zone that vanished there just
        before (a trick pushed into the centre).
        The old cards are forgotten where they were; the new ones stay as reported.
        """
        since = min(tr.first_seen for tr in cands) - 0.05
        # within the zone: every new card is a card reported here before, a few cm away,
        # that is no longer in sight (a new play laid over old cards hides them too, but
        # it brings cards that were not there)
        hidden = [tr for tr in self.tracks if tr.committed and tr.read_as_code < t - SIGHT_S]
        hits: list[Track] = []
        for tr, code in zip(cands, codes, strict=True):
            gaps = [(min(_dist(p, q) for p in tr.points for q in o.points), o)
                    for o in hidden if o not in hits and _same_card(tr, code, o)]
            near = [(gap, o) for gap, o in gaps if gap <= self.s.nudge_mm]
            if not near:
                break
            # the same code first, then the nearest
            hits.append(min(near, key=lambda g: (g[1].code != code, g[0]))[1])
        if hits and len(hits) == len(cands):
            codes[:] = [h.code or c for h, c in zip(hits, codes, strict=True)]
            for tr, hit in zip(cands, hits, strict=True):
                self._hand_over(hit, tr)
            gone = {h.id for h in hits}
            self.tracks = [tr for tr in self.tracks if tr.id not in gone]
            return True
        if len(codes) < 2 or self.seat is not None:
            return False  # only the shared pile receives cards pushed from elsewhere
        for peer in self.peers:
            if peer is self:
                continue
            pools: list[list[Track]] = [[tr for tr in peer.tracks if tr.committed and tr.last_seen < since]]
            pools += [trs for tc, trs in peer.cleared if t - tc <= self.s.restore_s]
            for pool in pools:
                # the new cards are (nearly) all of what vanished there, not a few of many
                if not pool or Counter(codes) - Counter(tr.code for tr in pool) or len(codes) < 0.7 * len(pool):
                    continue
                # the cards came from there: forget them there
                gone = set()
                free = list(pool)
                for code in codes:
                    hit = next(o for o in free if o.code == code)
                    free.remove(hit)
                    gone.add(hit.id)
                peer.tracks = [tr for tr in peer.tracks if tr.id not in gone]
                peer.cleared = [(tc, [tr for tr in trs if tr.id not in gone]) for tc, trs in peer.cleared]
                return True
        return False

    def _hand_over(self, old: Track, new: Track) -> None:
        """The moved card ``new`` takes the place of ``old`` in the play that reported it: the
        play's cards are where they now lie (its jokers' marks, late parts and revisions are
        checked against them)."""
        new.play = old.play
        if old.play is None:
            return
        if old.play in self.open_plays:
            tc, trs, cards = self.open_plays[old.play]
            self.open_plays[old.play] = (tc, [new if o is old else o for o in trs], cards)
        if old.play in self.recent:
            tc, trs = self.recent[old.play]
            self.recent[old.play] = (tc, [new if o is old else o for o in trs])

    def _restore(self, cands: list[Track], codes: list[str], t: float) -> bool:
        self.cleared = [(tc, trs) for tc, trs in self.cleared if t - tc <= self.s.restore_s]
        for k, (_tc, old) in enumerate(self.cleared):
            if Counter(tr.code for tr in old) != Counter(codes):
                continue
            free = list(old)
            ok = True
            for tr, code in zip(cands, codes, strict=True):
                hit = next((o for o in free if o.code == code
                            and min(_dist(p, q) for p in tr.points for q in o.points) <= self.s.match_mm), None)
                if hit is None:
                    ok = False
                    break
                free.remove(hit)
            if ok:
                del self.cleared[k]
                return True
        return False

    def _maybe_clear(self, t: float) -> list[ZoneCleared]:
        committed = [tr for tr in self.tracks if tr.committed]
        if not committed or any(t - tr.last_seen < self.s.clear_s for tr in committed):
            return []
        if any(not tr.committed for tr in self.tracks):
            return []  # new cards are settling: they may be these ones moved (see _moved)
        self.tracks = [tr for tr in self.tracks if not tr.committed]
        self.cleared.append((t, committed))
        return [ZoneCleared(self.name, round(t, 3), tuple(tr.code or "" for tr in committed))]

    @property
    def on_table(self) -> list[str]:
        return [tr.code or "" for tr in self.tracks if tr.committed]


class PlaySegmenter:
    """All zones of a table: feed each frame's :class:`TableCard` list to :meth:`update`."""

    def __init__(self, layout: SeatLayout, settings: SegmenterSettings | None = None) -> None:
        self.layout = layout
        self.settings = settings or SegmenterSettings()
        ids = [0]
        self.zones = {z.name: ZoneTracker(z.name, z.seat, self.settings, ids) for z in layout.zones}
        trail: list[tuple[float, str, int, Point]] = []
        for tracker in self.zones.values():
            tracker.peers = list(self.zones.values())
            tracker.trail = trail
        self.frames = 0

    def update(self, t: float, cards: Sequence[TableCard]) -> tuple[list[PlayObservation], list[ZoneCleared]]:
        self.frames += 1
        by_zone: dict[str, list[TableCard]] = {name: [] for name in self.zones}
        for c in cards:
            if c.zone in by_zone:
                by_zone[c.zone].append(c)
        plays: list[PlayObservation] = []
        cleared: list[ZoneCleared] = []
        for name, tracker in self.zones.items():
            p, c = tracker.update(t, by_zone[name])
            plays.extend(self._attribute(p, tracker))
            cleared.extend(c)
        plays.sort(key=lambda o: (o.t, o.seat))
        return plays, cleared

    def _attribute(self, plays: list[PlayObservation], tracker: ZoneTracker) -> list[PlayObservation]:
        del tracker
        out = []
        for p in plays:
            if p.seat >= 0:
                out.append(p)
                continue
            out.append(replace(p, seat=self.layout.seat_towards(p.rest, p.origin)))
        return out

    def on_table(self) -> dict[str, list[str]]:
        return {name: z.on_table for name, z in self.zones.items()}

    def pop_revisions(self) -> list[PlayRevision]:
        """Plays whose cards read differently after more frames (taken once)."""
        out: list[PlayRevision] = []
        for z in self.zones.values():
            out.extend(z.revisions)
            z.revisions.clear()
        return sorted(out, key=lambda r: r.t)
