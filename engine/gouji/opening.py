"""The opening of a 够级 deal: its leader (the previous deal's 大落, 004:17, decision D29),
the ``hand`` events of the preparation, and the checks when play starts (买3, hand sizes;
革命 without 冲点, 004:13, 004:23).  :class:`DealOpening` is mixed into the referee
(:mod:`.referee`; ``self`` is the referee).
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..events import DealEvent, HandEvent
from ..referee import DealReferee
from ..verdict import Fault
from .chongdian_state import ChongdianState
from .hands import Hand
from .outs import Progress
from .points import Points
from .settings import GoujiSettings
from .shapes import THREE
from .table import Phase
from .table import opp as _opp


def _previous_daluo(previous: DealReferee | None, settings: GoujiSettings) -> int | None:
    """The 大落 (last place) of the previous deal when it was a 够级 deal of the same rules
    whose last place is known; else ``None``."""
    if not isinstance(previous, DealOpening) or previous.s is not settings or previous.phase == Phase.VOID:
        return None
    places = previous.order()  # type: ignore[attr-defined]
    return places[-1] if places else None


class DealOpening:
    """The deal's leader, its hands, and the start of play (a mixin; ``self`` is the referee)."""

    # provided by the referee
    deal: DealEvent
    rules: Any
    s: GoujiSettings
    phase: Phase
    leader: int | None
    daluo: int | None
    hands: list[Hand | None]
    eaten: list[list[Card]]
    sizes: tuple[int, ...] | None
    counts: list[int | None]
    progress: Progress
    revolts: list[int]
    chong: ChongdianState
    points: Points
    hands_known: bool

    def opening_faults(self, previous: DealReferee | None) -> list[Fault]:
        """A ``leader`` option that is not a seat 0-5 (absent is fine: the first play leads).

        From the second deal of a log on, the previous 够级 deal's 大落 leads (004:17
        「第二局开始由大落上班」, decision D29): when that deal's last place is known, it becomes
        the leader of this deal; a ``leader`` option naming another seat is ``gouji.bad_option``.
        A previous deal whose last place is unknown (a camera log cut short) checks nothing."""
        leader = self.deal.options.get("leader")
        if leader is not None and self.leader is None:
            return [Fault("gouji.bad_option", {"key": "leader", "value": leader, "why": "a seat 0-5"})]
        daluo = _previous_daluo(previous, self.s)
        if daluo is None:
            return []
        self.daluo = daluo
        if self.leader is None:
            self.leader = daluo
        elif self.leader != daluo:
            return [Fault("gouji.bad_option", {"key": "leader", "value": leader,
                                               "why": "the previous deal's 大落, seat {daluo} (第二局开始由大落上班, 004:17)",
                                               "daluo": daluo})]
        return []

    def _hand(self, event: HandEvent) -> list[Fault]:
        if self.phase != Phase.PREP:
            return [Fault("gouji.hand_too_late", {"seat": event.seat})]
        self.hands[event.seat] = Hand(event.cards)
        self.eaten[event.seat] = []
        if self.sizes is None and all(h is not None for h in self.hands):
            total = sum(h.n for h in self.hands if h is not None)
            if total != self.rules.composition.size:
                return [Fault("gouji.deck_size", {"total": total, "expected": self.rules.composition.size})]
        return []

    def _start_play(self) -> list[Fault]:
        faults: list[Fault] = []
        chong_seats = {c.seat for c in self.chong.declared}
        for seat, hand in enumerate(self.hands):
            if hand is None:
                continue
            n = hand.n
            if seat not in self.revolts and hand.count(THREE) == 0:
                faults.append(Fault("gouji.must_buy3", {"seat": seat}))
            if self.sizes is not None and self.sizes[seat] != n:
                faults.append(Fault("hand.wrong_size", {"seat": seat, "got": n, "expected": self.sizes[seat]}))
            self.counts[seat] = n
        for c in self.revolts:
            if c not in chong_seats:       # 革命 without 冲点: 四科, 对门 开点 (004:13, 004:23)
                self.progress.fixed[c] = 3
                self.points.kaidian.add(_opp(c))
                self.progress.active.discard(c)
        self.phase = Phase.CHONGDIAN if self.chong.declared else Phase.PLAY
        self.hands_known = all(h is not None for h in self.hands)
        return faults
