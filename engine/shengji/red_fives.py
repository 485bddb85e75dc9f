"""The ♥5 bonus of a 升级-family deal (逼红5 / 保红5; ``ShengjiSettings.red_five_bonus``).

Pure functions of a closed trick: the referee (:mod:`.referee`) adds what they return to its
``red_five_points``, the attackers' side of the bonus (positive: theirs, negative: the dealer
side's).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, Rank, Suit
from .tricks import Played

HEART_FIVE = Card(Rank.FIVE, Suit.HEARTS)


def forced_red_fives(trick: Sequence[Played], winner: int, attackers: tuple[int, ...], bonus: int) -> int:
    """逼红5: the points of the ♥5s of a closed ``trick`` forced out under the other side's
    ``winner`` (``bonus`` each, to the winner's side; 0 with no bonus)."""
    points = 0
    if bonus:
        for p in trick:
            n = p.cards.count(HEART_FIVE)
            if n and (p.seat % 2) != (winner % 2):  # 逼红5: forced out under the other side
                points += -bonus * n if p.seat in attackers else bonus * n
    return points


def kept_red_fives(last_trick: Sequence[Played], last_winner: int | None, attackers: tuple[int, ...],
                   bonus: int) -> int:
    """保红5: the points of the deal's ``last_trick`` when its lead is ♥5s only and its leader
    won it (``last_winner``): ``bonus`` each, to the leader's side; 0 with no bonus."""
    if bonus and last_trick:
        lead = last_trick[0]
        if lead.cards and all(c == HEART_FIVE for c in lead.cards) and lead.seat == last_winner:
            n = len(lead.cards)  # 保红5: the seat that won the trick before leads its last ♥5(s)
            return bonus * n if lead.seat in attackers else -bonus * n
    return 0
