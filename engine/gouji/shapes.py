"""Play shapes of 够级 and how they compare.  Pure functions on tuples of ints: hot path.

Order (004:15 "单牌从大到小：大花、小花、2、A、K … 4、3", suits don't matter) as small ints:
3→0, 4→1, 5→2 … A→11, 2→12, 小花→13, 大花→14.

A play is N cards of one *base* rank.  2s played with another rank become that rank
(挂钱/贴钱, 004:15-17: 2+2+8+8+8 is five 8s); jokers played with a base are 挂花 (004:15).
4 takes neither (004:15 "除了4"); 3 is played alone (憋3, 004:27).  A play of jokers
only has the smallest joker as base, e.g. 小花+大花 is 小花 base with a 大花 attached.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..cards import Card, Rank

THREE, FOUR, TEN, JACK, QUEEN, KING, ACE, TWO, SJ, BJ = 0, 1, 7, 8, 9, 10, 11, 12, 13, 14

#: gouji order index by ``Rank`` value (index 0, 1 unused).
ORDER: tuple[int, ...] = (-1, -1, TWO, THREE, FOUR, 2, 3, 4, 5, 6, TEN, JACK, QUEEN, KING, ACE, SJ, BJ)
#: printable code of each order index
RANK_CODE: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "SJ", "BJ")
#: the Rank of each order index
RANK_OF: tuple[Rank, ...] = (Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE,
                             Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO,
                             Rank.SMALL_JOKER, Rank.BIG_JOKER)


def order_of(card: Card) -> int:
    return ORDER[card.rank]


class Shape(NamedTuple):
    """A well-formed play.  ``jokers`` holds every joker's order, largest first."""

    n: int
    base: int
    jokers: tuple[int, ...]
    twos: int          # 2s attached to another base (挂钱); 0 when the base is 2
    gouji: bool        # 够级牌 (004:9)
    pure: bool         # 纯够级: a face rank 10..A reaching its count, nothing attached

    @property
    def is_three(self) -> bool:
        return self.base == THREE

    @property
    def is_four(self) -> bool:
        return self.base == FOUR

    def describe(self) -> str:
        return f"{self.n}×{RANK_CODE[self.base]}" + (f"+{len(self.jokers)}花" if self.jokers and
                                                     self.base < SJ else "")


class ShapeError(NamedTuple):
    """Why cards are not one play: a fault code and its facts."""

    code: str
    facts: dict


def make_min_table(min_count: dict[int, int]) -> tuple[int, ...]:
    """Per order index: the count from which N cards of that rank are 够级 (99: never)."""
    table = [99] * 15
    for rank, n in min_count.items():
        table[ORDER[rank]] = n
    table[TWO] = table[SJ] = table[BJ] = 1
    return tuple(table)


DEFAULT_MIN = make_min_table({10: 5, 11: 4, 12: 3, 13: 2, 14: 2})


def parse_shape(cards: Sequence[Card], min_table: tuple[int, ...] = DEFAULT_MIN) -> Shape | ShapeError:
    """The shape of one play, or why it is not a play."""
    base = -1
    twos = 0
    jokers: list[int] = []
    for card in cards:
        o = ORDER[card.rank]
        if o >= SJ:
            jokers.append(o)
        elif o == TWO:
            twos += 1
        elif base == -1:
            base = o
        elif o != base:
            return ShapeError("gouji.mixed_ranks", {"cards": list(cards)})
    n = len(cards)
    if n == 0:
        return ShapeError("play.empty", {})
    if base == THREE and (twos or jokers):
        return ShapeError("gouji.three_attached", {"cards": list(cards)})
    if base == FOUR and (twos or jokers):
        return ShapeError("gouji.four_attached", {"cards": list(cards)})
    if base == -1:
        if twos:
            base, twos = TWO, 0
        else:
            base = min(jokers)
    if len(jokers) > 1:
        jokers.sort(reverse=True)
    gouji = bool(jokers) or n >= min_table[base]
    pure = gouji and not jokers and not twos and base < TWO
    return Shape(n, base, tuple(jokers), twos, gouji, pure)


def beats(new: Shape, old: Shape, two_big_kill_one_big: bool = True) -> bool:
    """True when ``new`` beats ``old`` (004:2-3 of 002, 004:15): same count, strictly higher
    base; over a 挂花 play the jokers must be higher too (pairwise, largest first), except that
    more 大花 beat a play holding 大花 (两大王杀一大王挂花牌)."""
    if new.n != old.n or new.base <= old.base:
        return False
    oj = old.jokers
    if not oj:
        return True
    nj = new.jokers
    k = len(oj)
    if len(nj) < k:
        return False
    if all(nj[x] > oj[x] for x in range(k)):
        return True
    if two_big_kill_one_big and oj[0] == BJ:
        if nj.count(BJ) > oj.count(BJ) and all(nj[x] >= oj[x] for x in range(k)):
            return True
    return False


def hand_orders(cards: Sequence[Card]) -> list[int]:
    return [ORDER[c.rank] for c in cards]


def _base_ranks(cards: Sequence[Card]) -> Counter[Rank]:
    """The cards' ranks, 2s and jokers aside (they go with any rank: 挂钱, 挂花)."""
    return Counter(c.rank for c in cards if not c.is_joker and ORDER[c.rank] != TWO)


def one_card_off(cards: tuple[Card, ...]) -> bool:
    """D38: cards of two ranks (2s and jokers aside), one of them a single card: one card read
    as another rank makes them one rank (a pair read 10S 9S, KH 2H read KH 7S)."""
    ranks = _base_ranks(cards)
    return len(ranks) == 2 and min(ranks.values()) == 1


def gouji_on_one_card(shape: Shape, min_table: tuple[int, ...] = DEFAULT_MIN) -> bool:
    """D42: a 够级 only by one card: a single 2 or joker, or a play whose one joker brings it to
    its count (9C SJ; 004:15 挂王); D51: or a play of 2s on one card of a face rank (KH 2S, QH 2S
    2S: 挂钱, 004:15-17), that card giving it the rank.  That card read wrong (5C 2S read KH 2S),
    the play is no 够级 at all."""
    if not shape.gouji:
        return False
    if shape.n == 1:
        return shape.base >= TWO
    if not shape.jokers and shape.base < TWO and shape.n - shape.twos == 1:
        return True
    return len(shape.jokers) == 1 and shape.base < TWO and shape.n - 1 < min_table[shape.base]


#: D39: the faults of 3s or 4s with 2s or jokers attached
ATTACHED = frozenset({"gouji.three_attached", "gouji.four_attached"})


def attached_one_off(cards: tuple[Card, ...]) -> bool:
    """D39: 3s or 4s with 2s or jokers attached (憋3, 004:15-17), where the 3s (or 4s) or the
    cards attached are one card: that card read wrong makes the play legal (2C 2S read 2C 4H,
    BJ BJ SJ read BJ 3H SJ, 3H 3S 3S read 3H 3S 2S)."""
    base = sum(1 for c in cards if not c.is_joker and ORDER[c.rank] != TWO)
    return 0 < base < len(cards) and min(base, len(cards) - base) == 1


def one_odd(cards: tuple[Card, ...]) -> bool:
    """Three or more cards, all of one rank (2s and jokers aside) but for one card."""
    ranks = _base_ranks(cards)
    return len(cards) >= 3 and len(ranks) == 2 and min(ranks.values()) == 1 and max(ranks.values()) >= 2
