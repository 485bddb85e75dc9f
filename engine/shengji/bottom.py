"""The bottom (底牌) of a 升级-family deal: its ``bottom`` event and its score at the deal's end.

:class:`DealBottom` is mixed into the deal referee (:mod:`.referee`; ``self`` is the referee).
It judges the bottom shown (twice, in a 扛旗 deal, of the wrong size, 翻底's trump), says what
waited on it (O16, O20: its cards count against the decks too, :mod:`.deferred`) and, once the
last trick closes (``_deal_over``), takes 保红5 (:mod:`.red_fives`) and scores the bottom.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card, Rank, Suit
from ..events import BottomEvent
from ..verdict import Fault
from .declared import fandi_trump_fault
from .points import BottomResult, score_bottom
from .red_fives import kept_red_fives

if TYPE_CHECKING:
    from .order import TrumpOrder
    from .settings import ShengjiSettings
    from .tricks import Tricks


class DealBottom:
    """The bottom's event and score (a mixin; ``self`` is the referee)."""

    # provided by the referee
    settings: ShengjiSettings
    order: TrumpOrder
    flag: bool
    fandi: bool
    level: Rank | None
    trump: Suit | None
    attackers: tuple[int, ...]
    tricks: Tricks
    bottom: tuple[Card, ...] | None
    bottom_size: int
    bottom_result: BottomResult | None
    red_five_points: int
    waiting: dict[Card, list[Fault]]
    deferred: list[Fault]

    if TYPE_CHECKING:
        @property
        def complete(self) -> bool:
            """Whether the deal is over (the referee's)."""

        def _said_at_end(self, bottom: tuple[Card, ...]) -> list[Fault]:
            """O16, O20: the faults that waited for the deal's end (:class:`.deferred.DeferredFaults`'s)."""

    def _bottom(self, ev: BottomEvent) -> list[Fault]:
        faults = self._bottom_faults(ev)
        if self.bottom is ev.cards and self.complete and (self.waiting or self.deferred):
            faults.extend(self._said_at_end(ev.cards))      # O16: the bottom's cards count too
        return faults

    def _bottom_faults(self, ev: BottomEvent) -> list[Fault]:
        if self.bottom is not None:
            return [Fault("shengji.bottom_twice", {})]
        self.bottom = ev.cards
        if self.flag and ev.cards:
            return [Fault("chaodipi.flag_no_bottom", {})]
        if len(ev.cards) != self.bottom_size:
            return [Fault("shengji.bottom_wrong_size", {"expected": self.bottom_size, "got": len(ev.cards)})]
        if self.fandi:
            fault = fandi_trump_fault(ev.cards, self.level, self.trump)
            if fault is not None:
                return [fault]
        if self.complete:
            self._score_bottom()
        return []

    def _deal_over(self) -> None:
        """The last trick closed: 保红5, then the bottom scored (unless the dealer side keeps it unseen)."""
        last = self.tricks
        self.red_five_points += kept_red_fives(last.last_trick, last.last_winner, self.attackers,
                                               self.settings.red_five_bonus)
        if self.bottom is not None or self.bottom_size == 0 or last.last_winner not in self.attackers:
            self._score_bottom()  # a bottom the dealer side keeps does not change the points

    def _score_bottom(self) -> None:
        last = self.tricks
        if not last.last_trick:
            return
        win = next(p for p in last.last_trick if p.seat == last.last_winner)
        self.bottom_result = score_bottom(self.bottom or (), win.cards, last.last_winner in self.attackers,
                                          self.order)
