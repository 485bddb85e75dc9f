"""All zones of a table (V1): the segmenter that turns each frame's cards into plays.

:class:`PlaySegmenter` feeds each zone its cards and owns what crosses zones: the ids of
tracks and plays, the trail of candidates lost lately (cards sliding through a seat's zone
into the pile, V19), the count of reported copies in sight (V15), and the cards pushed from
a zone into the pile (V14): the table forgets them where they were.  Pile plays are given
the seat they came through, or the seat their movement points to.  The decisions of every
rule are kept in :attr:`PlaySegmenter.trace` (:mod:`.trace`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from cardref.vision.zones import Point, SeatLayout, TableCard

from .records import PlayObservation, PlayRevision, TrailEntry, ZoneCleared
from .settings import SegmenterSettings
from .trace import RuleSummary, TraceRecord, summarise
from .tracks import Track
from .zone import ZoneTracker


class PlaySegmenter:
    """All zones of a table: feed each frame's :class:`TableCard` list to :meth:`update`."""

    def __init__(self, layout: SeatLayout, settings: SegmenterSettings | None = None) -> None:
        self.layout = layout
        self.settings = settings or SegmenterSettings()
        self._last_id = 0
        #: candidates lost lately, oldest first (cards on their way in)
        self.trail: list[TrailEntry] = []
        #: every rule decision so far (:func:`~.trace.summarise` counts them per rule)
        self.trace: list[TraceRecord] = []
        self.zones = {z.name: ZoneTracker(z.name, z.seat, self.settings, self) for z in layout.zones}
        self.frames = 0
        #: the pile's last play reported (V25)
        self._last_pile: PlayObservation | None = None

    # ---------------------------------------------------------------- for the zones
    def new_id(self) -> int:
        """A fresh id for a track or a play (one sequence for both)."""
        self._last_id += 1
        return self._last_id

    def lose(self, entry: TrailEntry, t: float) -> None:
        """A zone forgot a candidate: keep where it was for ``trail_s``."""
        del t
        self.trail.append(entry)

    def prune_trail(self, t: float) -> None:
        """Forget the trail older than ``trail_s`` (once its oldest entry is)."""
        if self.trail and self.trail[0].t < t - self.settings.trail_s:
            self.trail = [e for e in self.trail if e.t >= t - self.settings.trail_s]

    def reported_in_sight(self, code: str, t: float) -> int:
        """Reported cards of ``code`` in sight anywhere on the table."""
        sight = self.settings.sight_s
        return sum(1 for z in self.zones.values() for o in z.tracks
                   if o.committed and o.code == code and o.last_seen >= t - sight)

    def came_through(self, cands: list[Track], codes: list[str]) -> tuple[int, Point | None]:
        """V19.  Pile cards: the seat zone they were seen crossing just before (-1: none), and
        the earliest place on their way in (``None``: not seen before they settled)."""
        s = self.settings
        votes: Counter[int] = Counter()
        starts: list[Point] = []
        for tr, code in zip(cands, codes, strict=True):
            seen = [e for e in self.trail
                    if e.code == code and tr.first_seen - s.came_before_s <= e.t <= tr.first_seen + s.came_after_s]
            if not seen:
                continue
            seats = [e for e in seen if e.seat >= 0]
            if seats:
                votes[max(seats, key=_trail_key).seat] += 1
            starts.append(min(seen, key=_trail_key).first)
        origin = None
        if starts:
            origin = (sum(p[0] for p in starts) / len(starts), sum(p[1] for p in starts) / len(starts))
        if not votes:
            return -1, origin
        seat, n = votes.most_common(1)[0]
        return (seat if n * 2 > len(cands) or len(votes) == 1 else -1), origin

    def moved_into_pile(self, zone: ZoneTracker, codes: list[str], since: float, t: float) -> bool:
        """V14.  Are the pile's new cards (``codes``, two or more) (nearly) all the cards of one
        other zone that vanished there just before (a trick pushed into the centre)?  Then
        that zone forgets them."""
        for peer in self.zones.values():
            if peer is zone:
                continue
            for pool in peer.vanished(since, t):
                # the new cards are (nearly) all of what vanished there, not a few of many
                if (not pool or Counter(codes) - Counter(tr.code for tr in pool)
                        or len(codes) < self.settings.pushed_share * len(pool)):
                    continue
                gone = set()
                free = list(pool)
                for code in codes:
                    hit = next(o for o in free if o.code == code)
                    free.remove(hit)
                    gone.add(hit.id)
                peer.forget(gone)
                return True
        return False

    # ---------------------------------------------------------------- frames
    def update(self, t: float, cards: Sequence[TableCard]) -> tuple[list[PlayObservation], list[ZoneCleared]]:
        """One frame's cards (each with its zone): the plays reported and the zones cleared."""
        self.frames += 1
        by_zone: dict[str, list[TableCard]] = {name: [] for name in self.zones}
        for c in cards:
            if c.zone in by_zone:
                by_zone[c.zone].append(c)
        plays: list[PlayObservation] = []
        cleared: list[ZoneCleared] = []
        for name, tracker in self.zones.items():
            p, c = tracker.update(t, by_zone[name])
            plays.extend(self._same_seat(tracker, self._attribute(p), t))
            cleared.extend(c)
        plays.sort(key=lambda o: (o.t, o.seat))
        return plays, cleared

    def _attribute(self, plays: list[PlayObservation]) -> list[PlayObservation]:
        """Pile plays not seen coming through a seat's zone go to the seat they moved from."""
        return [p if p.seat >= 0 else replace(p, seat=self._came_from(p)) for p in plays]

    def _came_from(self, p: PlayObservation) -> int:
        """V23.  The seat a pile play came from, by its movement (V1) among the seats its
        cards lie as if put down by (``pile.lie``), or when it barely moved, the seat in front
        of which it lies (``pile.in_front``).  A rule is traced when it changed the seat."""
        s, layout = self.settings, self.layout
        lie, in_front = s.enabled("pile.lie"), s.enabled("pile.in_front")
        seats = layout.seats_lying_as(p.lie, s.index_diagonal_deg, s.lie_tolerance_deg) if lie else None

        def towards(pool: list[int] | None, front: bool) -> int:
            return layout.seat_towards(p.rest, p.origin, s.pile_move_mm, seats=pool, in_front=front)

        seat = towards(seats, in_front)
        if seats is not None and len(seats) < layout.seats and towards(None, in_front) != seat:
            self._trace_seat("pile.lie", p, seat)
        if in_front and towards(seats, False) != seat:
            self._trace_seat("pile.in_front", p, seat)
        return seat

    def _same_seat(self, zone: ZoneTracker, plays: list[PlayObservation], t: float) -> list[PlayObservation]:
        """V25.  A pile play of the seat whose pile play was reported just before it (resting
        within ``same_seat_s`` of that report) is that play's late part, not a play of its
        own: a seat plays again only after the others answered or passed, seconds later.  At
        a few frames a second the second card of a play is first seen after the first was
        reported on its own.  Only a straggler joins (``same_seat_cards``): a block of cards
        landing together is a play of its own, whatever seat the pile's rules gave it.  The
        cards join the earlier play (a revision of it)."""
        if zone.seat is not None:
            return plays
        s = self.settings
        out = []
        for p in plays:
            last = self._last_pile
            if (last is not None and s.enabled("pile.same_seat") and p.seat >= 0 and p.seat == last.seat
                    and p.t - last.t_emit <= s.same_seat_s and len(p.cards) <= s.same_seat_cards
                    and zone.join_play(p.play, last.play, t, p.conf, "pile.same_seat")):
                continue
            out.append(p)
            self._last_pile = p
        return out

    def _trace_seat(self, rule: str, p: PlayObservation, seat: int) -> None:
        self.trace.append(TraceRecord(rule, p.zone, round(p.t_emit, 3), p.cards[0], -1, f"seat {seat}", p.play))

    def on_table(self) -> dict[str, list[str]]:
        return {name: z.on_table for name, z in self.zones.items()}

    def pop_revisions(self) -> list[PlayRevision]:
        """Plays whose cards read differently after more frames (taken once)."""
        out: list[PlayRevision] = []
        for z in self.zones.values():
            out.extend(z.revisions)
            z.revisions.clear()
        return sorted(out, key=lambda r: r.t)

    def rule_summary(self) -> list[RuleSummary]:
        """Per rule of the table: cards it decided about and plays it changed so far."""
        return summarise(self.trace)


def _trail_key(e: TrailEntry) -> tuple[float, str, int, Point]:
    """Trail entries compare as the (t, code, seat, first place) tuples they were."""
    return (e.t, e.code, e.seat, e.first)
