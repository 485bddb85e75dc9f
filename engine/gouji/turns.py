"""The turn order of a 够级 deal: who leads (接风, 004:27), who has passed (过牌, 004:23;
让牌, 004:25), whether only the 对门 may answer a 够级 play (无头, 004:9; 002:49), and
whether 开点 is still open (004:9, 004:23-25; 002:50).  :class:`TurnOrder` is mixed into the
referee (:mod:`.referee`; ``self`` is the referee); it changes only the passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..verdict import Fault
from . import chongdian
from .declare_names import Declare
from .outs import Progress
from .points import Points
from .shapes import Shape
from .table import SEATS, Current, Phase
from .table import opp as _opp

if TYPE_CHECKING:
    from .burning import BurnState
    from .chongdian_state import ChongdianState
    from .settings import GoujiSettings


class TurnOrder:
    """Leads, passes, 无头 and 开点 (a mixin; ``self`` is the referee)."""

    # provided by the referee
    s: GoujiSettings
    phase: Phase
    leader: int | None
    progress: Progress
    passed: set[int]
    said_pass: set[int]
    cur_passes: set[int]
    last_actor: int | None
    rang: int | None
    cur: Current | None
    burning: BurnState
    revolts: list[int]
    chong: ChongdianState
    head: dict[int, str]
    yaotou_left: dict[int, int]
    points: Points

    def to_lead(self) -> int | None:
        """Who leads when the current play stands: its player, or the next seat in play after a
        player who went out (接风, 004:27)."""
        cur = self.cur
        if cur is None:
            lead = self.leader
            if lead is None or (lead in self.progress.active and lead not in self._leaving()):
                return lead
            return self._next_active(lead)
        if cur.seat in self.progress.active:
            return cur.seat
        return self._next_active(cur.seat)

    def _leaving(self) -> set[int]:
        """革命 seats without 冲点: out of play once play starts (004:13)."""
        if self.phase != Phase.PREP or not self.revolts:
            return set()
        return set(self.revolts) - {c.seat for c in self.chong.declared}

    def _next_active(self, seat: int) -> int | None:
        s = seat
        leaving = self._leaving()
        for _ in range(SEATS):
            s = (s + 1) % SEATS
            if s in self.progress.active and s not in leaving:
                return s
        return None

    def _all_passed(self) -> bool:
        cur = self.cur
        if cur is None:
            return True
        if cur.restricted:
            opp = _opp(cur.seat)
            if opp in self.cur_passes:
                return True
            if opp not in self.progress.active:      # 死够级 / 有头 without 对门: stands unless burned
                return all(s in self.cur_passes for s in self.progress.active if s != cur.seat)
            return False
        return all(s in self.passed for s in self.progress.active if s != cur.seat)

    def _skipped(self, seat: int) -> list[int]:
        cur = self.cur
        assert cur is not None
        start = self.last_actor if self.last_actor is not None else cur.seat
        out = []
        s = (start + 1) % SEATS
        while s != seat and s != start:
            if s in self.progress.active and s not in self.passed and s != cur.seat:
                out.append(s)
            s = (s + 1) % SEATS
        return out

    def _new_round(self) -> None:
        """A lead: no one has passed, and no 让牌 stands (004:23-25)."""
        self.passed, self.said_pass, self.rang = set(), set(), None

    def _imply_passes(self, seat: int, playing: bool) -> None:
        for s in self._skipped(seat):
            if s == self.rang and not playing:
                continue          # 让牌: stays open while the next two pass (004:25)
            self.passed.add(s)
        if self.rang is not None and playing and seat != self.rang:
            self.passed.add(self.rang)

    def _pass(self, i: int, seat: int) -> list[Fault]:
        if self.phase in (Phase.OVER, Phase.VOID, Phase.PREP) or seat not in self.progress.active:
            return []
        if self.phase == Phase.CHONGDIAN:
            chongdian.chong_pass(self, i, seat)  # type: ignore[arg-type]  # the referee is a GoujiDeal
            return []
        cur = self.cur
        if cur is None or seat == cur.seat:
            if seat == self.to_lead():
                return [Fault("gouji.leader_must_play", {"seat": seat})]
            return []
        if seat == self.to_lead() and self._all_passed():
            return []                 # the 接风 seat lets the last card stand, then leads
        if not cur.restricted:
            self._imply_passes(seat, False)
        self.passed.add(seat)
        self.said_pass.add(seat)
        self.cur_passes.add(seat)
        self.last_actor = seat
        if seat in self.burning.declared:
            self.burning.declared.remove(seat)
        return []

    def is_wutou(self, seat: int) -> bool:
        """无头: in 四户乱缠 everyone (004:9, 004:23); a seat whose 对门 went out (走科) before;
        one that chose 无头, or used up its 要头 死够级 (004:9)."""
        if self.progress.luanchan:
            return True
        head = self.head.get(seat)
        if head == Declare.WUTOU:
            return True
        if head == Declare.YAOTOU:
            return self.yaotou_left.get(seat, 0) <= 0
        if head == Declare.YOUTOU:
            return False
        opp = _opp(seat)
        if opp in self.revolts or opp in self.chong.out:
            return True        # 对家革命可选无头 (004:9), 002:49; default 无头 (decision D15)
        return opp in self.progress.finished

    def _restricted(self, seat: int, shape: Shape) -> bool:
        if self.burning.current is not None and self.burning.current.seat == seat:
            return True
        return shape.gouji and not self.progress.luanchan and not self.is_wutou(seat)

    def _kaidian_open(self, seat: int) -> bool:
        """开点 still possible for ``seat`` (004:9, 004:23-25; 002:50)."""
        points, progress = self.points, self.progress
        if (progress.luanchan or seat in points.kaidian or seat in points.rendian or seat in points.no_kaidian
                or len(progress.finished) >= self.s.kaidian_closes_after or _opp(seat) in progress.finished):
            return False
        if self.s.wutou_no_kaidian_after_chong and _opp(seat) in self.chong.out and self.is_wutou(seat):
            chong = next((c for c in self.chong.declared if c.seat == _opp(seat)), None)
            if chong is not None and chong.success:
                return False     # 选择无头若对门冲点成功则不能开点 (002:50)
        return True
