"""Card points and the scoring of the bottom (底牌).

Trick points: 5 = 5, 10 and K = 10 (003 line 10; the same in 刮风).
刮风's bottom (000 lines 187-213): 大王 100, 小王 50, level card 20 (line 203; line 187 says
30, see docs/rules/guafeng.md), 10/K 10, 5 5; a 5/10/K that is the level card counts 20 only.
It counts for the attackers only if they win the last trick with a trump play, times the
number of cards of that play (lines 209, 213).
炒地皮's 抠底 (003 lines 40-46): the bottom's point cards, ×2 if the last winning play is all
singles, ×4 if it holds a pair; 上天入地 for a same-suit 5-10-K (lines 38, 46, 158, 170, 186).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import Card, Rank
from .order import TrumpOrder
from .settings import BottomScoring, WushikBonus

_POINTS = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}


def card_points(card: Card) -> int:
    return _POINTS.get(card.rank, 0)


def points(cards: Iterable[Card]) -> int:
    return sum(_POINTS.get(c.rank, 0) for c in cards)


def guafeng_bottom_value(card: Card, order: TrumpOrder) -> int:
    """One buried card's worth in 刮风 (000 lines 199-207)."""
    if card.rank == Rank.BIG_JOKER:
        return 100
    if card.rank == Rank.SMALL_JOKER:
        return 50
    if card.rank == order.level:
        return order.settings.bottom_level_value
    return _POINTS.get(card.rank, 0)


def bottom_value(cards: Sequence[Card], order: TrumpOrder) -> int:
    if order.settings.bottom_scoring == BottomScoring.GUAFENG:
        return sum(guafeng_bottom_value(c, order) for c in cards)
    return points(cards)


def has_same_suit_wushik(cards: Sequence[Card]) -> bool:
    by_suit: dict[object, set[Rank]] = {}
    for c in cards:
        by_suit.setdefault(c.suit, set()).add(c.rank)
    return any(s is not None and {Rank.FIVE, Rank.TEN, Rank.KING} <= r for s, r in by_suit.items())


def is_exact_wushik(cards: Sequence[Card]) -> bool:
    return len(cards) == 3 and has_same_suit_wushik(cards)


@dataclass(frozen=True)
class BottomResult:
    points: int          # the bottom's value
    multiplier: int      # 0 when it does not count
    #: "attackers" / "dealer" when the last play earns 上天入地, else None
    shangtian: str | None = None

    @property
    def scored(self) -> int:
        return self.points * self.multiplier


def score_bottom(bottom: Sequence[Card], last_play: Sequence[Card], attackers_won: bool,
                 order: TrumpOrder) -> BottomResult:
    """Score the bottom once the last trick is known."""
    settings = order.settings
    value = bottom_value(bottom, order)
    shangtian = None
    bonus = settings.wushik_bonus
    if bonus == WushikBonus.EXACT_BOTH_SIDES and is_exact_wushik(last_play):
        shangtian = "attackers" if attackers_won else "dealer"
    elif bonus == WushikBonus.CONTAINS_ATTACKERS and attackers_won and has_same_suit_wushik(last_play):
        shangtian = "attackers"
    if not attackers_won or not last_play:
        return BottomResult(value, 0, shangtian)
    if settings.bottom_scoring == BottomScoring.GUAFENG:
        if not all(order.is_trump(c) for c in last_play):
            return BottomResult(value, 0, shangtian)
        return BottomResult(value, len(last_play), shangtian)
    has_pair = any(n >= 2 for n in Counter(last_play).values())
    return BottomResult(value, 4 if has_pair else 2, shangtian)
