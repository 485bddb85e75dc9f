"""One zone's tracks over frames (V2): detections matched, cards followed, noise forgotten.

:class:`ZoneTracks` keeps the zone's :class:`~.tracks.Track` list and the zone's frame
times.  Each frame (:meth:`ZoneTracks.step`) the detections are matched to the tracks
(:mod:`.association`), matched tracks learn their indices and votes, unmatched detections
start candidates, and candidates lost or hopeless are forgotten (remembered briefly in the
table's trail, for the pile).  Whether candidates make a play is the zone's decision
(:class:`~.zone.ZoneTracker`).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any, Protocol

from cardref.vision.classes import JOKER_CODES
from cardref.vision.zones import Point, TableCard

from .association import match
from .geometry import dist, gap, nearest, own_index, within
from .predicates import fanned_pair
from .records import TrailEntry
from .settings import SegmenterSettings
from .trace import TraceRecord
from .tracks import Track, TrackState

#: (rule, track, play id, other track) -> None: a decision for the trace
Tracer = Callable[[str, Track, "int | None", "Track | None"], None]


class TableView(Protocol):
    """What a zone asks of the table it belongs to (:class:`~.table.PlaySegmenter`): ids, the
    trail of cards on their way in, copies in sight, cards pushed into the pile."""

    trace: list[TraceRecord]

    def new_id(self) -> int: ...
    def lose(self, entry: TrailEntry, t: float) -> None: ...
    def prune_trail(self, t: float) -> None: ...
    def reported_in_sight(self, code: str, t: float) -> int: ...
    def came_through(self, cands: list[Track], codes: list[str]) -> tuple[int, Point | None]: ...
    def moved_into_pile(self, zone: Any, codes: list[str], since: float, t: float) -> bool: ...


class ZoneTracks:
    """The tracks of one zone (see the module doc).  ``table`` hands out ids and keeps the
    trail (:class:`~.zone.TableView`); ``is_open`` tells whether a play is still read again."""

    def __init__(self, seat: int | None, settings: SegmenterSettings, table: TableView,
                 is_open: Callable[[int | None], bool], trace: Tracer) -> None:
        self.seat = seat
        self.s = settings
        self.table = table
        self.is_open = is_open
        self.trace = trace
        self.tracks: list[Track] = []
        self.frame_times: list[float] = []

    # ------------------------------------------------------------------ update
    def step(self, t: float, dets: list[TableCard]) -> None:
        """Match this frame's detections to the tracks, follow and learn them, start tracks
        for new cards, forget lost candidates (into the table's trail) and merge duplicates."""
        s = self.s
        self.frame_times.append(t)
        if len(self.frame_times) > s.frame_history:
            del self.frame_times[:s.frame_history // 2]
        matched, fresh = match(dets, self.tracks, s)
        seen_ids = set()
        for i, tr in matched.items():
            det = dets[i]
            seen_ids.add(tr.id)
            if len(det.points) > 1:
                self._absorb(tr, det)
            self._observe(tr, det, t)
        self._shed_claimed(dets, matched, fresh)
        for i in fresh:
            det = dets[i]
            p = det.xy
            tr = Track(self.table.new_id(), list(det.points), p, t, t, t, p)
            tr.vote(det.card, det.conf, det.sure)
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
            if tr.removed:
                continue
            recent = tr.committed or t - tr.last_seen <= s.drop_s
            if tr.committed or (recent and not self._hopeless(tr, t)):
                keep.append(tr)
            else:
                if recent:
                    self.trace("track.hopeless", tr, None, None)
                self.table.lose(TrailEntry(tr.last_seen, tr.best, -1 if self.seat is None else self.seat,
                                           tr.first_xy), t)
        self.tracks = keep
        self.table.prune_trail(t)
        self._merge_duplicates()

    def _observe(self, tr: Track, det: TableCard, t: float) -> None:
        s = self.s
        if tr.committed and self.is_open(tr.play):
            tr.later[det.card] += 1
        if tr.committed and det.card != tr.code:
            # another code where a reported card lies: a misread, or a card moved onto it — not a
            # sighting of its code, but a card is there: the trick has not been collected
            tr.last_seen = t
            return
        if not tr.committed:
            # a track merged away this frame and matched again comes back as a card at rest from now
            moved = not tr.points or min(dist(q, p) for q in det.points for p in tr.points) > s.move_mm
            if moved:
                tr.state = TrackState.CANDIDATE
                tr.anchor = det.xy
                tr.still_since = t
                tr.seen_since_still = 0
                tr.frames_since_still = 0
                tr.sightings.clear()
                # while cards slide, neighbours can swap tracks: only votes at rest count
                tr.forget_votes()
                tr.points = list(det.points)
            tr.vote(det.card, det.conf, det.sure)
            tr.seen_since_still += 1
            tr.frames_since_still += 1
            tr.sightings.append(t)
            if len(tr.sightings) > s.sighting_history:
                del tr.sightings[:s.sighting_history // 2]
        # learn corners that were hidden so far; follow small drifts of known ones
        for q in det.points:
            j = min(range(len(tr.points)), key=lambda k: dist(q, tr.points[k]))
            if dist(q, tr.points[j]) <= s.match_mm:
                # a reported card stays where it was put: following it would let a new card of
                # the same code sliding past drag it along (a pushed card is found by V14)
                a = s.reported_drift if tr.committed else s.candidate_drift
                tr.points[j] = (tr.points[j][0] * (1 - a) + q[0] * a, tr.points[j][1] * (1 - a) + q[1] * a)
            elif len(tr.points) < s.max_points:
                tr.points.append(q)
        tr.last_seen = t
        if tr.committed and self._in_place(tr, det):
            tr.read_as_code = t

    def _in_place(self, tr: Track, det: TableCard) -> bool:
        """Does ``det`` lie where the reported card ``tr`` was put: an index within ``move_mm``
        (detector jitter) of one of its own?  A reported card does not follow its detections
        (``reported_drift``); one nudged a little further is still matched to it, but is no
        longer read where it lies, so that the cards seen at its new place are taken for it
        moved (V14) rather than for a new play."""
        return not self.s.enabled("play.moved_within") or any(
            nearest(q, tr.points) <= self.s.move_mm for q in det.points)

    def _hopeless(self, tr: Track, t: float) -> bool:
        """Rule ``track.hopeless`` (V2): seen in too few frames for too long: noise, not a card
        (it would block the zone)."""
        s = self.s
        span = s.hopeless_settles * s.settle_s
        if not s.enabled("track.hopeless") or t - tr.still_since < span:
            return False
        seen, frames = self._window(tr, t, span)
        return seen < s.hopeless_ratio * frames

    def _absorb(self, tr: Track, det: TableCard) -> None:
        """Rule ``track.absorb`` (V16): one detection spans this card and another candidate of
        the same code: the other was this card's other index, seen alone before."""
        s = self.s
        if not s.enabled("track.absorb"):
            return
        for other in self.tracks:
            if other is tr or other.state is not TrackState.CANDIDATE or other.best != det.card or tr.best != det.card:
                continue
            # the index that matches the other candidate must be one this card has not shown
            new_points = [q for q in det.points if not tr.points or min(dist(q, p) for p in tr.points) > s.match_mm]
            # … and the other must show nothing else: an index of its own makes it a second
            # card of the code sharing that index (a fan, V16)
            near = s.match_mm * s.same_index_share
            if (new_points and gap(new_points, other.points) <= near
                    and not (s.enabled("track.fanned_pair") and own_index(other.points, (*det.points, *tr.points), near))):
                tr.take_votes(other)
                tr.first_seen = min(tr.first_seen, other.first_seen)
                tr.took_twin = tr.took_twin or det.card in JOKER_CODES
                self.trace("track.absorb", other, None, tr)
                other.remove()

    def _shed_claimed(self, dets: list[TableCard], matched: dict[int, Track], fresh: list[int]) -> None:
        """Rule ``track.shed_claimed`` (V20): a card that learnt an index of a second card of
        its code gives it back.  While two cards of one code are laid in a tight fan, the
        merge can pair their neighbouring indices (two jokers' corner marks, side by side)
        into one card, whose track learns both.  When a frame then shows the card by an index
        of its own and the other index alone, a fan step (beyond ``same_index_share`` of
        ``match_mm``, within ``shed_mm``) from the card's nearest index seen now, that index
        is the other card's: the track forgets it, so that the lone index starts a card of
        its own instead of being merged into this one (``track.duplicates``) for good.  A
        card's own indices lie a card's side or diagonal apart, beyond ``shed_mm``; a joker's
        marks, spread over its face, lie within the box of the marks seen with them (widened
        by the same ``same_index_share`` of ``match_mm``), and are never given away."""
        s = self.s
        if not fresh or not s.enabled("track.shed_claimed"):
            return
        near = s.match_mm * s.same_index_share
        for i in fresh:
            det = dets[i]
            if len(det.points) != 1:
                continue
            b = det.points[0]
            for k, tr in matched.items():
                seen = dets[k].points
                # the lower card of a fan shows its index beside the upper card's face, never
                # on it: an index within the box of the card's indices seen now (a joker's
                # marks spread over its face) is the card's own.  Outside that box (widened by
                # ``near``) it lies beyond ``near`` of every index seen, so only ``shed_mm`` is left
                if (tr.best != det.card or len(tr.points) < 2 or len(seen) < 2 or within(b, seen, near)
                        or nearest(b, seen) > s.shed_mm):
                    continue
                kept = [p for p in tr.points if dist(p, b) > near]
                if len(kept) in (0, len(tr.points)):  # nothing learnt there, or nothing else
                    continue
                tr.points = kept
                self.trace("track.shed_claimed", tr, tr.play, None)
                break

    def _merge_duplicates(self) -> None:
        """Rule ``track.duplicates`` (V16): two candidates that turn out to share a corner are
        one card seen two ways (one corner first, the other later): keep the older one."""
        s = self.s
        cands = [tr for tr in self.tracks if not tr.committed]
        if len(cands) < 2 or not s.enabled("track.duplicates"):
            return
        near = s.match_mm * s.same_index_share
        gone: set[int] = set()
        for i, a in enumerate(cands):
            if a.id in gone:
                continue
            for b in cands[i + 1:]:
                if b.id in gone or a.best != b.best:
                    continue
                if gap(a.points, b.points) <= near and not (s.enabled("track.fanned_pair") and fanned_pair(a, b, near)):
                    keep, drop = (a, b) if a.first_seen <= b.first_seen else (b, a)
                    for q in drop.points:
                        if min(dist(q, p) for p in keep.points) > s.match_mm and len(keep.points) < s.max_points:
                            keep.points.append(q)
                    keep.take_votes(drop)
                    keep.took_twin = keep.took_twin or keep.best in JOKER_CODES
                    keep.seen_since_still = max(keep.seen_since_still, drop.seen_since_still)
                    keep.sightings = sorted(set(keep.sightings) | set(drop.sightings))
                    gone.add(drop.id)
                    self.trace("track.duplicates", drop, None, keep)
                    if drop is a:
                        break
        if gone:
            self.tracks = [tr for tr in self.tracks if tr.id not in gone]

    def eligible(self, tr: Track, t: float) -> bool:
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

