"""Seats leaving a 够级 deal: 走科, 闷 (004:5-7, 004:27; 002:16; presumed without counts,
decision D14), 四户乱缠 and 串三户 (004:9-13), and seats presumed out that play on after all
(decision D30).  :class:`SeatsOut` is mixed into the referee (:mod:`.referee`; ``self`` is the
referee).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..verdict import Fault
from .shapes import Shape
from .table import Current, Phase

if TYPE_CHECKING:
    from .hands import Hand
    from .settings import GoujiSettings


class SeatsOut:
    """Who is out of play, and what ends the deal (a mixin; ``self`` is the referee)."""

    # provided by the referee
    s: GoujiSettings
    phase: Phase
    hands: list[Hand | None]
    counts: list[int | None]
    active: set[int]
    finished: list[int]
    men: list[tuple[int, int]]
    zhashao: list[int]
    beaten: dict[int, tuple[int, int]]
    three_i: dict[int, int]
    cur: Current | None
    luanchan: bool
    chuan: bool

    if TYPE_CHECKING:
        def to_lead(self) -> int | None: ...
        def order(self) -> list[int | None]: ...
        def _classify(self, seat: int, shape: Shape, final: bool) -> tuple[str, Fault | None, bool, bool]: ...

    def _presumed_out(self, seat: int) -> bool:
        """``seat`` is out by what the plays suggested, not by what its hand shows: 诈烧, or 闷 or
        a last 3 while the count says it holds cards (no ``hand`` of it known)."""
        if self.hands[seat] is not None or seat in self.active:
            return False
        if seat in self.zhashao:
            return True
        held = (self.counts[seat] or 0) > 0
        return held and (seat in self.finished or any(m == seat for m, _ in self.men))

    def _reopen(self, seat: int) -> bool:
        """A seat plays after the deal ended.  Seats put out by a 3 while the count said they
        held more (O3: a play presumed unseen), and ``seat`` if it was presumed out, were not out
        after all: they are in play again and the deal goes on.  False when there is none."""
        seats = [s for s in self.three_i if self.hands[s] is None and (self.counts[s] or 0) > 0]
        if self._presumed_out(seat) and seat not in seats:
            seats.append(seat)
        if not seats:
            return False
        for s in seats:
            self._back_in_play(s)
        return self.phase == Phase.PLAY

    def _back_in_play(self, seat: int) -> None:
        """Undo a presumed 诈烧, 闷 or going out of ``seat``: it is in play again."""
        if seat in self.zhashao:
            self.zhashao.remove(seat)
        if seat in self.finished:
            self.finished.remove(seat)
        self.three_i.pop(seat, None)
        self.men = [(m, by) for m, by in self.men if m != seat]
        self.active.add(seat)
        if self.phase == Phase.OVER:
            self.phase = Phase.PLAY
        self.luanchan = len(self.active) <= self.s.luanchan_at
        self.chuan = False
        self._progress()

    def _presume_men(self, seat: int, shape: Shape, final: bool) -> tuple[str, bool, bool] | None:
        """Without card counts, a seat expected to lead (接风) whose last play was beaten and who
        stays silent while the next seat leads was 闷 (decision D14).  Returns the classification
        of the play once that is presumed, or ``None`` (nothing presumed)."""
        placed: list[tuple[int, tuple[int, int]]] = []
        while True:
            cur = self.cur
            lead = self.to_lead()
            if (lead is None or lead == seat or self.counts[lead] is not None or lead not in self.beaten
                    or (cur is not None and cur.seat in self.active)):
                break
            placed.append((lead, self.beaten.pop(lead)))
            self.men.append((lead, placed[-1][1][1]))
            self.active.discard(lead)
        if not placed:
            return None
        kind, fault, burning, zhashao = self._classify(seat, shape, final)
        if fault is None:
            self._progress()
            return kind, burning, zhashao
        for lead, beat in reversed(placed):
            self.men.pop()
            self.active.add(lead)
            self.beaten[lead] = beat
        return None

    def _place_men(self, seat: int, by: int) -> None:
        self.men.append((seat, by))
        self.active.discard(seat)
        self._progress()

    def finish(self, seat: int) -> None:
        """A seat went out without a visible last play (``declare out``)."""
        if seat in self.active:
            self.active.discard(seat)
            self.finished.append(seat)
            self._progress()

    def _progress(self) -> None:
        if len(self.active) <= self.s.luanchan_at and self.phase in (Phase.PLAY, Phase.CHONGDIAN):
            self.luanchan = True                      # 四户乱缠 (004:9-11, 004:27)
        order = self.order()
        top = order[:3]
        if all(s is not None for s in top) and len({s % 2 for s in top}) == 1:   # type: ignore[operator]
            self.chuan = True                         # 串三户 / 圈三户 (004:13)
            if self.s.chuan:
                self.phase = Phase.OVER
        if len(self.active) <= 1:
            self.phase = Phase.OVER
