"""What the segmenter reports (typed records), and the typed records it keeps per zone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from cardref.vision.zones import Point

from .tracks import Track


@dataclass(frozen=True)
class PlayObservation:
    """A seat put these cards down (V2: reported once every new card settled)."""

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
    #: every card read surely by most of its frames (False: one was not; None: the detector does not say)
    sure: bool | None = None
    #: how the new cards lie: the angle (degrees, table frame, modulo 180) of the line through
    #: the two index corners of each card seen by exactly two (V23)
    lie: tuple[float, ...] = ()


def all_sure(cards: Iterable[bool | None]) -> bool | None:
    """A play's ``sure`` from its cards': False when one was not read surely, True when all
    were, None when the detector did not say for some."""
    seen = list(cards)
    if any(v is False for v in seen):
        return False
    return True if seen and all(v is True for v in seen) else None


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
    """A zone's reported cards all vanished for ``clear_s``: the trick was collected."""

    zone: str
    t: float
    cards: tuple[str, ...]


@dataclass
class OpenPlay:
    """A reported play still read again (for ``revise_s``): its tracks and its cards as the log has them."""

    t: float
    tracks: list[Track]
    cards: tuple[str, ...]


@dataclass
class RecentPlay:
    """A play of the zone reported within ``twin_s``: its time and its cards' tracks."""

    t: float
    tracks: list[Track]


@dataclass(frozen=True)
class TrailEntry:
    """A candidate lost lately (a card on its way in): when last seen, its code, the seat
    zone it was in (-1: the pile) and where it first showed up."""

    t: float
    code: str
    seat: int
    first: Point


@dataclass
class ClearedTrick:
    """Cards of a zone cleared at ``t`` (kept ``restore_s`` to restore them if they come back)."""

    t: float
    tracks: list[Track] = field(default_factory=list)
