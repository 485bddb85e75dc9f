"""One zone's cards and their state: detections in, plays and cleared tricks out (V2).

A :class:`ZoneTracker` keeps a :class:`~.tracks.Track` per physical card.  A card is known
by where its corner indices lie, so a card laid over earlier ones is told apart from them
even with the same code, and one half covered keeps its identity by the corner that shows.
A play is reported when every candidate has been at rest for ``settle_s`` and was seen in
most frames of that time (codes by confidence-weighted votes).  Candidates that are a known
card read again are dropped by the rule table (:mod:`.rules`); reported cards pushed or
restored make no play (V14, V17).  A zone whose reported cards all stay unseen for
``clear_s`` is cleared (trick collected).  What crosses zones (ids, the trail of cards on
their way into the pile, cards pushed into it, copies in sight) is asked of the table
(:class:`TableView`), which owns it.
"""

from __future__ import annotations

from collections import Counter

from cardref.vision.zones import Point, TableCard

from . import rules
from .geometry import card_lie, gap, mean
from .playbook import PlayBook
from .predicates import same_card
from .records import ClearedTrick, PlayObservation, PlayRevision, ZoneCleared, all_sure
from .settings import SegmenterSettings
from .trace import TraceRecord
from .tracking import TableView, ZoneTracks
from .tracks import Track


class ZoneTracker:
    """The cards of one zone and their state (see the module doc)."""

    def __init__(self, name: str, seat: int | None, settings: SegmenterSettings, table: TableView) -> None:
        self.name = name
        self.seat = seat
        self.s = settings
        self.table = table
        self.cleared: list[ClearedTrick] = []
        self.book = PlayBook(settings, seat, self._trace_to)
        self.cards = ZoneTracks(seat, settings, table, self.book.is_open, self._trace_to)
        self._t = 0.0
        self._pending: list[TraceRecord] = []  # this step's drops, given the play they changed

    @property
    def tracks(self) -> list[Track]:
        """The zone's tracks (candidates and reported cards)."""
        return self.cards.tracks

    @tracks.setter
    def tracks(self, tracks: list[Track]) -> None:
        self.cards.tracks = tracks

    @property
    def revisions(self) -> list[PlayRevision]:
        return self.book.revisions

    def join_play(self, pid: int, into: int, t: float, conf: float, rule: str) -> bool:
        """The play ``pid`` this zone just reported is the late part of its play ``into`` (a
        table-level rule found so, V25): its cards join that play, a revision of it, and
        ``pid`` is withdrawn.  False, and nothing changed, when either is no longer open."""
        refused = self.book.merge(pid, into, conf, t, rule)
        if refused is None:
            return False
        if refused:
            self.tracks = [tr for tr in self.tracks if tr.id not in refused]
        return True

    def _trace_to(self, rule: str, tr: Track, play: int | None, other: Track | None = None) -> None:
        self.table.trace.append(TraceRecord(rule, self.name, round(self._t, 3), tr.best, tr.id,
                                            other.best if other is not None else None, play))

    # ------------------------------------------------------------------ update
    def update(self, t: float, dets: list[TableCard]) -> tuple[list[PlayObservation], list[ZoneCleared]]:
        self._t = t
        self.cards.step(t, dets)
        plays = self._maybe_play(t)
        self.book.revise(t)
        cleared = self._maybe_clear(t)
        return plays, cleared

    # ------------------------------------------------------------------ plays
    def _context(self, t: float) -> rules.Context:
        # how near a reported card's index a lone mark is a piece of it (V6): under a fan step
        # in a seat's zone, index on index on a shared pile
        mark_mm = self.s.suit_misread_mm if self.seat is not None else self.s.misread_mm
        late = self.s.late_s if self.seat is not None else 0.0
        return rules.Context(self.s, t, mark_mm, late, self.book.reported_at())

    def _maybe_play(self, t: float) -> list[PlayObservation]:
        """V2: once every candidate that is no echo has settled, drop the echoes and the
        second readings (``echo.*``, ``split.*``, V15), then restore (V17), move (V14), join
        (V12, V13) or report the rest as a new play."""
        cands = [tr for tr in self.tracks if not tr.committed]
        if not cands:
            return []
        ctx = self._context(t)
        down = [tr for tr in self.tracks if tr.committed]
        echoes = {}
        for tr in cands:
            found = rules.echo_of(ctx, tr, down)
            if found is not None:
                echoes[tr.id] = (tr, *found)
        # an echo of a reported card, flickering as a hand or a card passes over it, does
        # not hold back the cards that did settle
        waiting = [tr for tr in cands if tr.id not in echoes] or cands
        later = self._arrived_later(waiting, t)
        if later is None:
            return []
        self._pending = [TraceRecord(rule.name, self.name, round(t, 3), tr.best, tr.id,
                                     o.best if o is not None else None) for tr, rule, o in echoes.values()]
        if later:
            cands = [tr for tr in cands if tr.id not in later]
            self._pending += [TraceRecord("play.arrived_later", self.name, round(t, 3), tr.best, tr.id)
                              for tr in waiting if tr.id in later]
        misread = set(echoes) | self._split_within(cands, ctx)
        misread |= self._beyond_decks([tr for tr in cands if tr.id not in misread], t)
        if misread:
            self.tracks = [tr for tr in self.tracks if tr.id not in misread]
            cands = [tr for tr in cands if tr.id not in misread]
            if not cands:
                self._flush(None)
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
            tr.report(code, t)
        if restored:
            self._flush(None)
            return []
        for step in (self.book.late_part, self.book.twin_joker):
            joined, refused = step(cands, codes, confs, t)
            if joined is not None:
                if refused:
                    self.tracks = [tr for tr in self.tracks if tr.id not in refused]
                self._flush(joined)
                return []
        pid = self.table.new_id()
        self._flush(pid)
        return [self._report(pid, cands, codes, confs, t)]

    def _arrived_later(self, waiting: list[Track], t: float) -> set[int] | None:
        """V2, V24.  ``None`` while a candidate has not settled, unless, on the pile (the one
        zone every seat plays into), every one that has not showed up ``arrival_gap_s`` or
        more after all those that have were at rest (``play.arrived_later``): those are
        another seat's play, held back for their own report (their ids).  An empty set:
        every candidate settled."""
        ready = [tr for tr in waiting if self.cards.eligible(tr, t)]
        if len(ready) == len(waiting):
            return set()
        if not ready or self.seat is not None or not self.s.enabled("play.arrived_later"):
            return None
        rested = max(tr.still_since for tr in ready)
        late = [tr for tr in waiting if tr not in ready]
        if any(tr.first_seen < rested + self.s.arrival_gap_s for tr in late):
            return None
        return {tr.id for tr in late}

    def _flush(self, play: int | None) -> None:
        """This step's drops go to the trace with the play they changed."""
        for rec in self._pending:
            self.table.trace.append(TraceRecord(rec.rule, rec.zone, rec.t, rec.card, rec.track, rec.other, play))
        self._pending = []

    def _report(self, pid: int, cands: list[Track], codes: list[str], confs: list[float],
                t: float) -> PlayObservation:
        t_rest = max(tr.still_since for tr in cands)
        conf = round(min(confs), 3)
        seat = self.seat
        earlier: Point | None = None
        if seat is None:
            seat, earlier = self.table.came_through(cands, codes)  # -1: the segmenter attributes it by direction
        order = sorted(range(len(cands)), key=lambda k: (cands[k].first_xy[0], cands[k].first_xy[1]))
        for tr in cands:
            tr.play = pid
        self.book.add(pid, t, [cands[k] for k in order], tuple(codes[k] for k in order))
        # where the cards came from: where they were first seen, and where they stopped
        origin = mean([tr.first_xy for tr in cands]) if earlier is None else earlier
        rest = mean([tr.anchor for tr in cands])
        readings = [tr.read_surely(code) for tr, code in zip(cands, codes, strict=True)]
        if self.s.enabled("sure.few_frames"):  # V22: sure on the evidence of enough frames
            thin = [k for k, tr in enumerate(cands)
                    if readings[k] is True and tr.sure_counts[codes[k]] < self.s.sure_min_frames]
            for k in thin:
                readings[k] = False
                self._trace_to("sure.few_frames", cands[k], pid)
        sure = all_sure(readings)
        twins = [tr for tr in cands if tr.took_twin] if self.s.enabled("sure.merged_joker") else []
        for tr in twins:
            self._trace_to("sure.merged_joker", tr, pid)
        # how the cards lie, for a pile play the table still has to give a seat (V23)
        lie = () if seat >= 0 else tuple(
            a for a in (card_lie(tr.points, self.s.lie_min_mm) for tr in cands) if a is not None)
        return PlayObservation(seat, tuple(codes[k] for k in order), round(t_rest, 3), round(t, 3), conf,
                               conf < self.s.confirm_below, self.name, origin, rest, pid,
                               False if twins else sure, lie)

    def _split_within(self, cands: list[Track], ctx: rules.Context) -> set[int]:
        """New cards of one play that are another of them read a second time (the ``split.*``
        rules), showing no more indices than it: the one showing more indices, or else the
        likelier reading, is kept."""
        def weight(tr: Track) -> tuple[int, float]:
            return len(tr.points), sum(tr.votes.values())

        dropped: set[int] = set()
        for tr in sorted(cands, key=weight):
            for other in cands:
                if other is tr or other.id in dropped or weight(other) <= weight(tr):
                    continue
                rule = rules.split_of(ctx, tr, other)
                if rule is not None:
                    dropped.add(tr.id)
                    self._pending.append(TraceRecord(rule.name, self.name, round(ctx.t, 3), tr.best, tr.id,
                                                     other.best))
                    break
        return dropped

    def _beyond_decks(self, cands: list[Track], t: float) -> set[int]:
        """Rule ``play.beyond_decks`` (V15): cards of one play beyond the copies of their code
        the decks hold, less those reported and in sight anywhere on the table (not those
        hidden: the new ones may be them, pushed).  The fewest indices, then the least sure,
        are dropped."""
        if self.s.copies <= 0 or not self.s.enabled("play.beyond_decks"):
            return set()
        by_code: dict[str, list[Track]] = {}
        for tr in cands:
            by_code.setdefault(tr.best, []).append(tr)
        extra: set[int] = set()
        for code, trs in by_code.items():
            room = self.s.copies - self.table.reported_in_sight(code, t)
            if len(trs) > room:
                trs = sorted(trs, key=lambda tr: (len(tr.points), sum(tr.votes.values())), reverse=True)
                for tr in trs[max(room, 0):]:
                    extra.add(tr.id)
                    self._pending.append(TraceRecord("play.beyond_decks", self.name, round(t, 3), tr.best, tr.id))
        return extra

    def _moved(self, cands: list[Track], codes: list[str], t: float) -> bool:
        """V14: are these "new" cards old ones that were moved, within the zone or (for the
        pile) from another zone (asked of the table)?"""
        since = min(tr.first_seen for tr in cands) - self.s.pushed_slack_s
        if self.s.enabled("play.moved_within") and self._moved_within(cands, codes, t):
            return True
        if len(codes) < 2 or self.seat is not None or not self.s.enabled("play.moved_into_pile"):
            return False  # only the shared pile receives cards pushed from elsewhere
        if self.table.moved_into_pile(self, codes, since, t):
            for tr in cands:
                self._trace_to("play.moved_into_pile", tr, None)
            return True
        return False

    def _moved_within(self, cands: list[Track], codes: list[str], t: float) -> bool:
        """Every new card is a card reported here before (:func:`~.predicates.same_card`), at
        most ``nudge_mm`` away, no longer in sight or no longer read as its code (a player
        straightening or pushing their play).  The moved cards keep their reported codes
        (``codes`` is updated) and take the old cards' places in their plays."""
        hidden = [tr for tr in self.tracks if tr.committed and tr.read_as_code < t - self.s.sight_s]
        hits: list[Track] = []
        for tr, code in zip(cands, codes, strict=True):
            gaps = [(gap(tr.points, o.points), o) for o in hidden if o not in hits and same_card(tr, code, o)]
            near = [(g, o) for g, o in gaps if g <= self.s.nudge_mm]
            if not near:
                break
            # the same code first, then the nearest
            hits.append(min(near, key=lambda g: (g[1].code != code, g[0]))[1])
        if not hits or len(hits) != len(cands):
            return False
        codes[:] = [h.code or c for h, c in zip(hits, codes, strict=True)]
        for tr, hit in zip(cands, hits, strict=True):
            self.book.hand_over(hit, tr)
            self._trace_to("play.moved_within", tr, hit.play, hit)
        gone = {h.id for h in hits}
        self.tracks = [tr for tr in self.tracks if tr.id not in gone]
        return True

    # ------------------------------------------------------------- for the table
    def vanished(self, since: float, t: float) -> list[list[Track]]:
        """Pools of reported cards that vanished here: those unseen since ``since``, then each
        trick cleared within ``restore_s`` (cards pushed into the pile come from one)."""
        pools = [[tr for tr in self.tracks if tr.committed and tr.last_seen < since]]
        return pools + [c.tracks for c in self.cleared if t - c.t <= self.s.restore_s]

    def forget(self, ids: set[int]) -> None:
        """The table moved these cards elsewhere: forget them here (tracks and cleared tricks)."""
        self.tracks = [tr for tr in self.tracks if tr.id not in ids]
        self.cleared = [ClearedTrick(c.t, [tr for tr in c.tracks if tr.id not in ids]) for c in self.cleared]

    # ------------------------------------------------------------------ tricks
    def _restore(self, cands: list[Track], codes: list[str], t: float) -> bool:
        """Rule ``play.restore`` (V17): the same cards at the same places as a trick cleared
        within ``restore_s`` (a hand had covered them all) are restored, not replayed."""
        self.cleared = [c for c in self.cleared if t - c.t <= self.s.restore_s]
        if not self.s.enabled("play.restore"):
            return False
        for k, trick in enumerate(self.cleared):
            if Counter(o.code for o in trick.tracks) != Counter(codes):
                continue
            free = list(trick.tracks)
            ok = True
            for tr, code in zip(cands, codes, strict=True):
                hit = next((o for o in free if o.code == code and gap(tr.points, o.points) <= self.s.match_mm), None)
                if hit is None:
                    ok = False
                    break
                free.remove(hit)
            if ok:
                del self.cleared[k]
                for tr in cands:
                    self._trace_to("play.restore", tr, None)
                return True
        return False

    def _maybe_clear(self, t: float) -> list[ZoneCleared]:
        committed = [tr for tr in self.tracks if tr.committed]
        if not committed or any(t - tr.last_seen < self.s.clear_s for tr in committed):
            return []
        if any(not tr.committed for tr in self.tracks):
            return []  # new cards are settling: they may be these ones moved (V14)
        self.tracks = [tr for tr in self.tracks if not tr.committed]
        self.cleared.append(ClearedTrick(t, committed))
        return [ZoneCleared(self.name, round(t, 3), tuple(tr.code or "" for tr in committed))]

    @property
    def on_table(self) -> list[str]:
        return [tr.code or "" for tr in self.tracks if tr.committed]

