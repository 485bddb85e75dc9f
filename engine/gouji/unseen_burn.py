"""A 诈烧 the camera could not see (docs/rules/observation.md O11; decision D34 in
docs/rules/gouji.md).

A seat whose 够级 play stood leads again with no joker.  Had that 够级 play burned a 够级 the
camera missed (004:11), this lead is 诈烧 and the seat is out as 拉客 (002:13) though nothing
seen says so.  The judge follows the table as seen, and keeps beside it, for the rest of the
deal, the reading in which the seat went out there.  Nothing is flagged for it: the first play
that only such a reading explains is flagged as usual (its own slip readings, O1-O10), and
the reading waits beside them.  Should a later play fit only that reading (the seats in play
are fewer than the judge thought, so 四户乱缠 starts earlier and any seat may answer a 够级,
004:9), the table followed it and it is adopted without a second flag: one missed play, one
flag.
:class:`UnseenBurns` is mixed into the referee (:mod:`.referee`; ``self`` is the referee).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from ..events import AnyEvent, PlayEvent
from ..verdict import Fault
from .burning import Burn, BurnState
from .shapes import Shape, parse_shape
from .table import Phase

if TYPE_CHECKING:
    from .hands import Hand
    from .outs import Progress
    from .slips import Readings
    from .table import Current


class UnseenBurns:
    """Keeps the reading "this lead was an unseen 诈烧" (a mixin of the referee)."""

    # provided by the referee
    s: Any
    min_table: tuple[int, ...]
    phase: Phase
    hands: list[Hand | None]
    progress: Progress
    cur: Current | None
    burning: BurnState
    readings: Readings

    if TYPE_CHECKING:
        def _copy(self) -> Self: ...
        def _durable_room(self) -> int: ...
        def _is_final(self, seat: int, shape: Shape) -> bool: ...
        def _feed(self, i: int, event: AnyEvent) -> list[Fault]: ...

    def feed(self, i: int, event: AnyEvent) -> list[Fault]:
        before = self._before_unseen_burn(event)
        faults: list[Fault] = super().feed(i, event)  # type: ignore[misc]
        if before is not None and not faults and isinstance(event, PlayEvent):
            self._keep_unseen_burn(before, i, event)
        return faults

    def _before_unseen_burn(self, event: AnyEvent) -> Self | None:
        """A copy of the deal before ``event`` when it is a camera lead (no hand known, no
        joker, not the seat's last) of a seat whose 够级 play is on the table, outside a burn
        and outside 四户乱缠, with 诈烧 placing the seat last (002:13); else None."""
        if not isinstance(event, PlayEvent) or event.source != "camera" or not self.s.zhashao_places_last:
            return None
        cur, seat = self.cur, event.seat
        if (cur is None or cur.seat != seat or not cur.shape.gouji or self.phase != Phase.PLAY
                or self.progress.luanchan or self.hands[seat] is not None or seat not in self.progress.active
                or any(c.is_joker for c in event.cards)):
            return None
        burn = self.burning.current
        if (burn is not None and burn.seat == seat) or self.readings.doubt or self._durable_room() <= 0:
            return None
        shape = parse_shape(event.cards, self.min_table)
        if not isinstance(shape, Shape) or self._is_final(seat, shape):
            return None
        return self._copy()

    def _keep_unseen_burn(self, before: Self, i: int, event: PlayEvent) -> None:
        """Keep ``before`` with ``event`` played within a burn of its seat, i.e. as 诈烧 (the
        seat out, 拉客), as a durable reading that waits for a flag (``Readings.waits``).  The
        burn's target, the seat of the 够级 not seen, is not known; the burn ends at this play,
        so the target is never used (the seat's own number stands in)."""
        cur = before.cur
        assert cur is not None
        before.burning.current = Burn(event.seat, event.seat, cur.i)
        if before._feed(i, event) or event.seat not in before.progress.zhashao:
            return
        before.readings.durable = before.readings.waits = True
        self.readings.alts.append(before)
