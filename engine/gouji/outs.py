"""Seats leaving a 够级 deal: 走科, 闷 (004:5-7, 004:27; 002:16; presumed without counts,
decision D14), 四户乱缠 and 串三户 (004:9-13), and seats presumed out that play on after all
(decision D30).  :class:`SeatsOut` is mixed into the referee (:mod:`.referee`; ``self`` is the
referee).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..verdict import Fault
from .shapes import Shape
from .table import SEATS, Current, Phase

if TYPE_CHECKING:
    from .hands import Hand
    from .settings import GoujiSettings


@dataclass
class Progress:
    """Who is still in play and how the others left: 走科 order, 闷 (seat, by), 诈烧, the
    places fixed by 冲点 / 革命, 四户乱缠 and 串三户, the seats whose last play was beaten
    (seat -> (event, by): 闷 presumed, D14) and those that went out on a 3 without a hand
    (seat -> event: proven wrong should they play again)."""

    active: set[int] = field(default_factory=lambda: set(range(SEATS)))
    finished: list[int] = field(default_factory=list)
    men: list[tuple[int, int]] = field(default_factory=list)
    zhashao: list[int] = field(default_factory=list)
    fixed: dict[int, int] = field(default_factory=dict)
    luanchan: bool = False
    chuan: bool = False
    beaten: dict[int, tuple[int, int]] = field(default_factory=dict)
    three_i: dict[int, int] = field(default_factory=dict)


class SeatsOut:
    """Who is out of play, and what ends the deal (a mixin; ``self`` is the referee)."""

    # provided by the referee
    s: GoujiSettings
    phase: Phase
    camera: bool
    hands: list[Hand | None]
    counts: list[int | None]
    progress: Progress
    cur: Current | None

    if TYPE_CHECKING:
        def to_lead(self) -> int | None: ...
        def order(self) -> list[int | None]: ...
        def _classify(self, seat: int, shape: Shape, final: bool) -> tuple[str, Fault | None, bool, bool]: ...

    def _presumed_out(self, seat: int) -> bool:
        """``seat`` is out by what the plays suggested, not by what its hand shows: 诈烧, or 闷 or
        a last 3 while the count says it holds cards (no ``hand`` of it known)."""
        if self.hands[seat] is not None or seat in self.progress.active:
            return False
        if seat in self.progress.zhashao:
            return True
        if self.camera and seat in self.progress.finished:
            return True         # O10: a seat with no card left cannot play: the camera missed one
        held = (self.counts[seat] or 0) > 0
        return held and (seat in self.progress.finished or any(m == seat for m, _ in self.progress.men))

    def _reopen(self, seat: int) -> bool:
        """A seat plays after the deal ended.  Seats put out by a 3 while the count said they
        held more (O3: a play presumed unseen), and ``seat`` if it was presumed out, were not out
        after all: they are in play again and the deal goes on.  False when there is none."""
        seats = [s for s in self.progress.three_i if self.hands[s] is None and (self.counts[s] or 0) > 0]
        if self._presumed_out(seat) and seat not in seats:
            seats.append(seat)
        if not seats:
            return False
        for s in seats:
            self._back_in_play(s)
        return self.phase == Phase.PLAY

    def _back_in_play(self, seat: int) -> None:
        """Undo a presumed 诈烧, 闷 or going out of ``seat``: it is in play again."""
        if seat in self.progress.zhashao:
            self.progress.zhashao.remove(seat)
        if seat in self.progress.finished:
            self.progress.finished.remove(seat)
        self.progress.three_i.pop(seat, None)
        self.progress.men = [(m, by) for m, by in self.progress.men if m != seat]
        self.progress.active.add(seat)
        if self.phase == Phase.OVER:
            self.phase = Phase.PLAY
        self.progress.luanchan = len(self.progress.active) <= self.s.luanchan_at
        self.progress.chuan = False
        self._progress()

    def _presume_men(self, seat: int, shape: Shape, final: bool) -> tuple[str, bool, bool] | None:
        """Without card counts, a seat expected to lead (接风) whose last play was beaten and who
        stays silent while the next seat leads was 闷 (decision D14).  Returns the classification
        of the play once that is presumed, or ``None`` (nothing presumed)."""
        placed: list[tuple[int, tuple[int, int]]] = []
        while True:
            cur = self.cur
            lead = self.to_lead()
            if (lead is None or lead == seat or self.counts[lead] is not None or lead not in self.progress.beaten
                    or (cur is not None and cur.seat in self.progress.active)):
                break
            placed.append((lead, self.progress.beaten.pop(lead)))
            self.progress.men.append((lead, placed[-1][1][1]))
            self.progress.active.discard(lead)
        if not placed:
            return None
        kind, fault, burning, zhashao = self._classify(seat, shape, final)
        if fault is None:
            self._progress()
            return kind, burning, zhashao
        for lead, beat in reversed(placed):
            self.progress.men.pop()
            self.progress.active.add(lead)
            self.progress.beaten[lead] = beat
        return None

    def _place_men(self, seat: int, by: int) -> None:
        self.progress.men.append((seat, by))
        self.progress.active.discard(seat)
        self._progress()

    def finish(self, seat: int) -> None:
        """A seat went out without a visible last play (``declare out``)."""
        if seat in self.progress.active:
            self.progress.active.discard(seat)
            self.progress.finished.append(seat)
            self._progress()

    def _progress(self) -> None:
        if len(self.progress.active) <= self.s.luanchan_at and self.phase in (Phase.PLAY, Phase.CHONGDIAN):
            self.progress.luanchan = True                      # 四户乱缠 (004:9-11, 004:27)
        order = self.order()
        top = order[:3]
        if all(s is not None for s in top) and len({s % 2 for s in top}) == 1:   # type: ignore[operator]
            self.progress.chuan = True                         # 串三户 / 圈三户 (004:13)
            if self.s.chuan:
                self.phase = Phase.OVER
        if len(self.progress.active) <= 1:
            self.phase = Phase.OVER
