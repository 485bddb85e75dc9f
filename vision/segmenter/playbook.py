"""The plays one zone reported lately: read again (V18), joined by late cards (V12, V13).

A :class:`PlayBook` keeps, per zone, the plays still open for revision (``revise_s``), the
plays reported within ``twin_s`` and the revisions not yet taken.  It decides which play
late cards join; the zone forgets the cards a join refuses (:meth:`PlayBook.join` returns them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from cardref.vision.classes import JOKER_CODES

from .geometry import gap
from .records import OpenPlay, PlayRevision, RecentPlay
from .settings import SegmenterSettings
from .tracks import Track

#: (rule, track, play id) -> None: how the book reports a decision to the trace
Tracer = Callable[[str, Track, int | None], None]


class PlayBook:
    """Reported plays of one zone (see the module doc)."""

    def __init__(self, settings: SegmenterSettings, seat: int | None, trace: Tracer) -> None:
        self.s = settings
        self.seat = seat
        self._trace = trace
        self.open: dict[int, OpenPlay] = {}
        self.recent: dict[int, RecentPlay] = {}
        self.revisions: list[PlayRevision] = []

    def add(self, pid: int, t: float, tracks: list[Track], cards: tuple[str, ...]) -> None:
        """A play just reported: its tracks in the order of its cards."""
        self.open[pid] = OpenPlay(t, tracks, cards)
        self.recent[pid] = RecentPlay(t, list(tracks))

    def is_open(self, pid: int | None) -> bool:
        return pid in self.open

    def reported_at(self) -> dict[int, float]:
        """Play id -> when reported, for the plays within ``twin_s`` (as last pruned)."""
        return {pid: rp.t for pid, rp in self.recent.items()}

    def revise(self, t: float) -> None:
        """V18: plays reported ``revise_s`` ago are read again: a card whose later readings
        (``revise_min_frames`` or more) agree on another code by ``revise_share`` takes it."""
        s = self.s
        for pid, op in list(self.open.items()):
            if t - op.t < s.revise_s:
                continue
            del self.open[pid]
            if not s.enabled("play.revise"):
                continue
            codes = []
            changed = False
            confs = []
            for tr in op.tracks:
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
                        self._trace("play.revise", tr, pid)
                codes.append(code)
            if changed:
                self.revisions.append(PlayRevision(pid, tuple(codes), op.cards, round(t, 3), round(min(confs), 3)))

    def late_part(self, cands: list[Track], codes: list[str], confs: list[float],
                  t: float) -> tuple[int | None, set[int]]:
        """V12: cards that showed up before (or, in a seat's zone, ``late_s`` after) this zone's
        last open play was reported belong to it; ``(play joined or None, ids the join refused)``."""
        if not self.s.enabled("play.late_part"):
            return None, set()
        arrived = max(tr.first_seen for tr in cands)
        # a seat's next play never comes this soon after its last; a shared pile's may
        late = self.s.late_s if self.seat is not None else 0.0
        best = None
        for pid, op in self.open.items():
            if arrived < op.t + late and (best is None or op.t > self.open[best].t):
                best = pid
        if best is None:
            return None, set()
        return best, self.join(best, self.open[best].cards, cands, codes, confs, t, "play.late_part")

    def twin_joker(self, cands: list[Track], codes: list[str], confs: list[float],
                   t: float) -> tuple[int | None, set[int]]:
        """V13: jokers that settle within ``twin_s`` of a play of this zone holding the same
        joker, each with a mark within ``twin_mm`` of one of its marks (a fan step), are that
        play's other joker(s)."""
        self.recent = {pid: rp for pid, rp in self.recent.items() if t - rp.t <= self.s.twin_s}
        if not self.s.enabled("play.twin_joker") or not all(c in JOKER_CODES for c in codes):
            return None, set()

        def holds_them(trs: list[Track]) -> bool:
            twins = [[o for o in trs if o.code == code] for code in codes]
            return all(ts and min(gap(tr.points, o.points) for o in ts) <= self.s.twin_mm
                       for tr, ts in zip(cands, twins, strict=True))

        found = [pid for pid, rp in sorted(self.recent.items(), key=lambda kv: -kv[1].t) if holds_them(rp.tracks)]
        if not found:
            return None, set()
        # the play's cards as the log now has them (its revisions already applied)
        before = tuple(o.code or "" for o in self.recent[found[0]].tracks)
        return found[0], self.join(found[0], before, cands, codes, confs, t, "play.twin_joker")

    def join(self, pid: int, before: tuple[str, ...], cands: list[Track], codes: list[str], confs: list[float],
             t: float, rule: str) -> set[int]:
        """Add the candidates (read ``codes``) to the reported play ``pid`` (cards ``before``)
        and record the revision.  Candidates that would take the play beyond the copies of
        their code the decks hold (``copies``; rule ``play.join_beyond_decks``, V15) are that
        play's cards read again: their ids are returned, for the zone to forget."""
        gone: set[int] = set()
        if self.s.copies > 0 and self.s.enabled("play.join_beyond_decks"):
            held = Counter(before)
            keep = []
            for k, code in enumerate(codes):
                held[code] += 1
                if held[code] <= self.s.copies:
                    keep.append(k)
            if len(keep) < len(codes):
                gone = {cands[k].id for k in range(len(codes)) if k not in keep}
                for k in range(len(codes)):
                    if k not in keep:
                        self._trace("play.join_beyond_decks", cands[k], pid)
                cands, codes, confs = [cands[k] for k in keep], [codes[k] for k in keep], [confs[k] for k in keep]
                if not cands:
                    return gone
        for tr in cands:
            tr.play = pid
            self._trace(rule, tr, pid)
        cards = (*before, *codes)
        if pid in self.open:
            op = self.open[pid]
            self.open[pid] = OpenPlay(op.t, [*op.tracks, *cands], cards)
        if pid in self.recent:
            rp = self.recent[pid]
            self.recent[pid] = RecentPlay(rp.t, [*rp.tracks, *cands])
        self.revisions.append(PlayRevision(pid, cards, before, round(t, 3), round(min(confs), 3)))
        return gone

    def merge(self, pid: int, into: int, conf: float, t: float, rule: str) -> set[int] | None:
        """The open play ``pid`` is the late part of the open play ``into`` (V25): it is
        withdrawn and its cards join ``into`` (:meth:`join`: the ids it refuses are returned).
        ``None``, and nothing changed, when the two are one play or either is no longer open."""
        if pid == into or pid not in self.open or into not in self.open:
            return None
        new = self.open.pop(pid)
        self.recent.pop(pid, None)
        return self.join(into, self.open[into].cards, new.tracks, list(new.cards), [conf] * len(new.tracks), t, rule)

    def hand_over(self, old: Track, new: Track) -> None:
        """The moved card ``new`` takes the place of ``old`` in the play that reported it (V14)."""
        new.play = old.play
        if old.play is None:
            return
        if old.play in self.open:
            op = self.open[old.play]
            self.open[old.play] = OpenPlay(op.t, [new if o is old else o for o in op.tracks], op.cards)
        if old.play in self.recent:
            rp = self.recent[old.play]
            self.recent[old.play] = RecentPlay(rp.t, [new if o is old else o for o in rp.tracks])
