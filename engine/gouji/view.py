"""What the dashboard and the judge output see of a 够级 deal: finishing order, tributes
owed, the summary, who may answer and who is to play, and the live ``state`` (its keys are
listed in :mod:`.referee`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .burning import priority
from .placement import finishing_order
from .shapes import RANK_CODE
from .table import Phase
from .tributes import tributes

if TYPE_CHECKING:
    from .referee import GoujiReferee

SEATS = 6


def _opp(seat: int) -> int:
    return (seat + 3) % SEATS


def order(ref: GoujiReferee) -> list[int | None]:
    fixed = dict(ref.progress.fixed)
    if ref.s.chuan:
        for seat, slot in list(fixed.items()):
            mates = {(seat + 2) % SEATS, (seat + 4) % SEATS}
            if slot == 3 and set(ref.progress.finished[:2]) == mates:
                fixed[seat] = 2                   # 革命 counts 三科 (004:13)
    bottom = list(ref.progress.zhashao) + [m for m, _ in ref.progress.men]
    complete = ref.phase == Phase.OVER
    remaining = [s for s in range(SEATS) if s in ref.progress.active]
    return finishing_order(ref.progress.finished, bottom, fixed, remaining, complete)


def tributes_owed(ref: GoujiReferee) -> list[dict[str, Any]]:
    return tributes(ref.s, xuandian=ref.points.xuandian, kaidian=ref.points.kaidian, burns=ref.burning.done,
                    men=ref.progress.men, order=order(ref), complete=ref.phase == Phase.OVER, chuan=ref.progress.chuan)


def summary(ref: GoujiReferee) -> dict[str, Any]:
    slots = order(ref)
    top: list[int] = []
    for seat in slots:
        if seat is None:
            break
        top.append(seat)
    out: dict[str, Any] = {
        "order": top,
        "slots": slots,
        "kaidian": sorted(ref.points.kaidian),
        "tributes": tributes_owed(ref),
        "complete": ref.phase == Phase.OVER,
    }
    if ref.phase == Phase.VOID:
        out["void"] = True
    if ref.progress.men:
        out["men"] = [{"seat": s, "by": b} for s, b in ref.progress.men]
    if ref.progress.zhashao:
        out["zhashao"] = list(ref.progress.zhashao)
    if ref.burning.done:
        out["burns"] = [{"seat": s, "target": t} for s, t in ref.burning.done]
    if ref.revolts:
        out["revolution"] = list(ref.revolts)
    if ref.progress.chuan:
        out["chuan"] = True
    out["places"] = {str(seat): ref.s.place_names[x] for x, seat in enumerate(slots) if seat is not None}
    return out


def may_answer(ref: GoujiReferee) -> list[int]:
    cur = ref.cur
    if cur is None:
        return []
    out = []
    for s in range(SEATS):
        if s == cur.seat or s not in ref.progress.active:
            continue
        if cur.restricted:
            if s == _opp(cur.seat) or (ref.is_wutou(s) and s not in ref.passed):
                out.append(s)
        elif s not in ref.passed:
            out.append(s)
    return out


def to_play(ref: GoujiReferee) -> int | None:
    cur = ref.cur
    if ref.phase in (Phase.OVER, Phase.VOID):
        return None
    if cur is None:
        return ref.to_lead()
    if ref.burning.declared:
        return priority(ref.burning.declared, cur.seat)[0]
    answer = may_answer(ref)
    if not answer:
        return ref.to_lead()
    start = ref.last_actor if ref.last_actor is not None else cur.seat
    s = start
    for _ in range(SEATS):
        s = (s + 1) % SEATS
        if s in answer:
            return s
        if s == cur.seat:
            break
    return answer[0] if cur.restricted else ref.to_lead()


def state(ref: GoujiReferee) -> dict[str, Any]:
    cur = ref.cur
    return {
        "game": ref.deal.game,
        "phase": str(ref.phase),
        "luanchan": ref.progress.luanchan,
        "to_play": to_play(ref),
        "to_lead": ref.to_lead(),
        "current_play": None if cur is None else {
            "seat": cur.seat, "cards": [c.code for c in cur.cards], "gouji": cur.shape.gouji,
            "pure": cur.shape.pure, "restricted": cur.restricted, "rank": RANK_CODE[cur.shape.base]},
        "gouji_owner": cur.seat if cur is not None and cur.restricted else None,
        "may_answer": may_answer(ref),
        "passed": sorted(ref.passed),
        "burning": None if ref.burning.current is None else {
            "seat": ref.burning.current.seat, "target": ref.burning.current.target, "plays": ref.burning.current.plays},
        "burn_declared": list(ref.burning.declared),
        "rangpai": ref.rang,
        "finished": list(ref.progress.finished),
        "order": order(ref),
        "place_names": list(ref.s.place_names),
        "men": [{"seat": s, "by": b} for s, b in ref.progress.men],
        "zhashao": list(ref.progress.zhashao),
        "revolution": list(ref.revolts),
        "chongdian": [{"seat": c.seat, "sets": [list(x) for x in c.sets], "done": c.done}
                      for c in ref.chong.declared],
        "kaidian": sorted(ref.points.kaidian),
        "rendian": sorted(ref.points.rendian),
        "xuandian": sorted(ref.points.xuandian),
        "kangong": {str(k): v for k, v in ref.points.kangong.items()},
        "wutou": [s for s in range(SEATS) if s in ref.progress.active and ref.is_wutou(s)],
        "tributes": tributes_owed(ref),
        "burns": [{"seat": s, "target": t} for s, t in ref.burning.done],
        "played": list(ref.played),
        "remaining": list(ref.counts),
    }
