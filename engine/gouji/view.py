"""What the dashboard and the judge output see of a 够级 deal: finishing order, tributes
owed, the summary, who may answer and who is to play, and the live ``state`` (its keys are
listed in :mod:`.referee`).  :class:`DealView` is mixed into the referee (``self`` is the
referee) and only reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .burning import priority
from .placement import finishing_order
from .shapes import RANK_CODE
from .table import SEATS, Phase
from .table import opp as _opp
from .tributes import tributes as tributes_owed

if TYPE_CHECKING:
    from ..events import DealEvent
    from .burning import BurnState
    from .chongdian_state import ChongdianState
    from .outs import Progress
    from .points import Points
    from .settings import GoujiSettings
    from .table import Current


class DealView:
    """Results and live state of a deal (a mixin; ``self`` is the referee, only read)."""

    # provided by the referee
    deal: DealEvent
    s: GoujiSettings
    phase: Phase
    progress: Progress
    points: Points
    burning: BurnState
    chong: ChongdianState
    revolts: list[int]
    cur: Current | None
    passed: set[int]
    rang: int | None
    last_actor: int | None
    played: list[int]
    counts: list[int | None]

    if TYPE_CHECKING:
        def to_lead(self) -> int | None: ...
        def is_wutou(self, seat: int) -> bool: ...

    def order(self) -> list[int | None]:
        fixed = dict(self.progress.fixed)
        if self.s.chuan:
            for seat, slot in list(fixed.items()):
                mates = {(seat + 2) % SEATS, (seat + 4) % SEATS}
                if slot == 3 and set(self.progress.finished[:2]) == mates:
                    fixed[seat] = 2                   # 革命 counts 三科 (004:13)
        bottom = list(self.progress.zhashao) + [m for m, _ in self.progress.men]
        complete = self.phase == Phase.OVER
        remaining = [s for s in range(SEATS) if s in self.progress.active]
        return finishing_order(self.progress.finished, bottom, fixed, remaining, complete)

    def tributes(self) -> list[dict[str, Any]]:
        return tributes_owed(self.s, xuandian=self.points.xuandian, kaidian=self.points.kaidian,
                             burns=self.burning.done, men=self.progress.men, order=self.order(),
                             complete=self.phase == Phase.OVER, chuan=self.progress.chuan)

    def summary(self) -> dict[str, Any]:
        slots = self.order()
        top: list[int] = []
        for seat in slots:
            if seat is None:
                break
            top.append(seat)
        out: dict[str, Any] = {
            "order": top,
            "slots": slots,
            "kaidian": sorted(self.points.kaidian),
            "tributes": self.tributes(),
            "complete": self.phase == Phase.OVER,
        }
        if self.phase == Phase.VOID:
            out["void"] = True
        if self.progress.men:
            out["men"] = [{"seat": s, "by": b} for s, b in self.progress.men]
        if self.progress.zhashao:
            out["zhashao"] = list(self.progress.zhashao)
        if self.burning.done:
            out["burns"] = [{"seat": s, "target": t} for s, t in self.burning.done]
        if self.revolts:
            out["revolution"] = list(self.revolts)
        if self.progress.chuan:
            out["chuan"] = True
        out["places"] = {str(seat): self.s.place_names[x] for x, seat in enumerate(slots) if seat is not None}
        return out

    def may_answer(self) -> list[int]:
        cur = self.cur
        if cur is None:
            return []
        out = []
        for s in range(SEATS):
            if s == cur.seat or s not in self.progress.active:
                continue
            if cur.restricted:
                if s == _opp(cur.seat) or (self.is_wutou(s) and s not in self.passed):
                    out.append(s)
            elif s not in self.passed:
                out.append(s)
        return out

    def to_play(self) -> int | None:
        cur = self.cur
        if self.phase in (Phase.OVER, Phase.VOID):
            return None
        if cur is None:
            return self.to_lead()
        if self.burning.declared:
            return priority(self.burning.declared, cur.seat)[0]
        answer = self.may_answer()
        if not answer:
            return self.to_lead()
        start = self.last_actor if self.last_actor is not None else cur.seat
        s = start
        for _ in range(SEATS):
            s = (s + 1) % SEATS
            if s in answer:
                return s
            if s == cur.seat:
                break
        return answer[0] if cur.restricted else self.to_lead()

    def state(self) -> dict[str, Any]:
        cur, burn = self.cur, self.burning.current
        return {
            "game": self.deal.game,
            "phase": str(self.phase),
            "luanchan": self.progress.luanchan,
            "to_play": self.to_play(),
            "to_lead": self.to_lead(),
            "current_play": None if cur is None else {
                "seat": cur.seat, "cards": [c.code for c in cur.cards], "gouji": cur.shape.gouji,
                "pure": cur.shape.pure, "restricted": cur.restricted, "rank": RANK_CODE[cur.shape.base]},
            "gouji_owner": cur.seat if cur is not None and cur.restricted else None,
            "may_answer": self.may_answer(),
            "passed": sorted(self.passed),
            "burning": None if burn is None else {"seat": burn.seat, "target": burn.target, "plays": burn.plays},
            "burn_declared": list(self.burning.declared),
            "rangpai": self.rang,
            "finished": list(self.progress.finished),
            "order": self.order(),
            "place_names": list(self.s.place_names),
            "men": [{"seat": s, "by": b} for s, b in self.progress.men],
            "zhashao": list(self.progress.zhashao),
            "revolution": list(self.revolts),
            "chongdian": [{"seat": c.seat, "sets": [list(x) for x in c.sets], "done": c.done}
                          for c in self.chong.declared],
            "kaidian": sorted(self.points.kaidian),
            "rendian": sorted(self.points.rendian),
            "xuandian": sorted(self.points.xuandian),
            "kangong": {str(k): v for k, v in self.points.kangong.items()},
            "wutou": [s for s in range(SEATS) if s in self.progress.active and self.is_wutou(s)],
            "tributes": self.tributes(),
            "burns": [{"seat": s, "target": t} for s, t in self.burning.done],
            "played": list(self.played),
            "remaining": list(self.counts),
        }
