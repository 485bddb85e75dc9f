"""One physical card followed over frames (V2): a :class:`Track` with an explicit state.

A track is a *candidate* (a new card not yet reported), *reported* (part of a play), or
*removed* (merged into another track this frame; forgotten at the next clean-up).  A
reported card unseen for ``sight_s`` is *hidden* (under a hand, pushed, collected):
:meth:`Track.status` gives that state for a moment in time.
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from dataclasses import dataclass, field

from cardref.vision.zones import Point


class TrackState(enum.Enum):
    CANDIDATE = "candidate"  # new, not reported yet
    REPORTED = "reported"  # part of a reported play
    HIDDEN = "hidden"  # reported, unseen for sight_s (only from Track.status)
    REMOVED = "removed"  # merged into another track; dropped at the next clean-up


@dataclass(eq=False)
class Track:
    """A card of one zone.  ``points`` are its index (mark) positions in table mm."""

    id: int
    points: list[Point]
    anchor: Point
    first_seen: float
    last_seen: float
    still_since: float
    first_xy: Point
    votes: Counter[str] = field(default_factory=Counter)  # confidence-weighted
    counts: Counter[str] = field(default_factory=Counter)  # frames
    #: frames of each code the detector read surely / not surely (neither: it does not say)
    sure_counts: Counter[str] = field(default_factory=Counter)
    unsure_counts: Counter[str] = field(default_factory=Counter)
    seen_since_still: int = 0
    frames_since_still: int = 0
    sightings: list[float] = field(default_factory=list)  # frame times it was seen at rest
    state: TrackState = TrackState.CANDIDATE
    code: str | None = None  # fixed when reported
    play: int | None = None  # the play that reported it
    later: Counter[str] = field(default_factory=Counter)  # codes read (frames) after it was reported
    read_as_code: float = -math.inf  # when its reported code was last read where it lies
    #: a joker that took in another candidate of its code (V21; read when the card is reported)
    took_twin: bool = False

    def vote(self, code: str, conf: float, sure: bool | None) -> None:
        """One frame read this card as ``code``."""
        self.votes[code] += conf
        self.counts[code] += 1
        if sure is not None:
            (self.sure_counts if sure else self.unsure_counts)[code] += 1

    def take_votes(self, other: Track) -> None:
        """The frames of ``other`` (the same card) count for this track too."""
        for mine, theirs in ((self.votes, other.votes), (self.counts, other.counts),
                             (self.sure_counts, other.sure_counts), (self.unsure_counts, other.unsure_counts)):
            mine.update(theirs)

    def forget_votes(self) -> None:
        for votes in (self.votes, self.counts, self.sure_counts, self.unsure_counts):
            votes.clear()

    def read_surely(self, code: str) -> bool | None:
        """Whether most frames that read ``code`` read it surely; ``None``: the detector
        never said."""
        sure, unsure = self.sure_counts[code], self.unsure_counts[code]
        if sure + unsure == 0:
            return None
        return sure > unsure

    @property
    def best(self) -> str:
        """Its reported code, or the code with the most confidence-weighted votes."""
        return self.code if self.code is not None else self.votes.most_common(1)[0][0]

    @property
    def committed(self) -> bool:
        """Reported (part of a play)."""
        return self.state is TrackState.REPORTED

    @property
    def removed(self) -> bool:
        return self.state is TrackState.REMOVED

    def in_sight(self, t: float, sight_s: float) -> bool:
        """Seen (with any code) within ``sight_s`` before ``t``."""
        return self.last_seen >= t - sight_s

    def status(self, t: float, sight_s: float) -> TrackState:
        """The state at ``t``: a reported card unseen for ``sight_s`` is HIDDEN."""
        if self.state is TrackState.REPORTED and not self.in_sight(t, sight_s):
            return TrackState.HIDDEN
        return self.state

    def report(self, code: str, t: float) -> None:
        """Made part of a play with ``code``."""
        self.state = TrackState.REPORTED
        self.read_as_code = t
        self.code = code

    def remove(self) -> None:
        """Merged into another track: forgotten at the next clean-up, its indices dropped."""
        self.state = TrackState.REMOVED
        self.points = []
