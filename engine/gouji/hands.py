"""A seat's known cards, kept as small ints so the referee's hot path stays cheap.

A card's key is ``rank * 8 + suit`` (suit 0..3, jokers 4); ``ranks`` counts cards per 够级
order index (see :mod:`.shapes`), so "only 3s left" or "still holds a 4" are O(1).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card
from .shapes import ORDER

_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}
_CARD: dict[int, Card] = {}


def card_key(card: Card) -> int:
    suit = card.suit
    key = card.rank * 8 + (4 if suit is None else _SUIT[suit._value_])
    if key not in _CARD:
        _CARD[key] = card
    return key


class Hand:
    """Multiset of cards with per-rank counts."""

    __slots__ = ("keys", "ranks", "n")

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        self.keys: dict[int, int] = {}
        self.ranks = [0] * 15
        self.n = 0
        for card in cards:
            self.add(card)

    def add(self, card: Card) -> None:
        k = card_key(card)
        self.keys[k] = self.keys.get(k, 0) + 1
        self.ranks[ORDER[card.rank]] += 1
        self.n += 1

    def missing(self, cards: Iterable[Card]) -> list[Card]:
        """Cards of ``cards`` this hand does not hold (copies counted)."""
        need: dict[int, int] = {}
        out = []
        keys = self.keys
        for card in cards:
            k = card_key(card)
            used = need.get(k, 0) + 1
            need[k] = used
            if keys.get(k, 0) < used:
                out.append(card)
        return out

    def remove(self, cards: Iterable[Card]) -> None:
        keys = self.keys
        ranks = self.ranks
        for card in cards:
            k = card_key(card)
            left = keys.get(k, 0)
            if left > 0:
                keys[k] = left - 1
                ranks[ORDER[card.rank]] -= 1
                self.n -= 1

    def holds(self, card: Card) -> int:
        return self.keys.get(card_key(card), 0)

    def count(self, order: int) -> int:
        return self.ranks[order]

    def only(self, order: int) -> bool:
        return self.n > 0 and self.ranks[order] == self.n

    def cards(self) -> list[Card]:
        return [_CARD[k] for k, n in self.keys.items() for _ in range(n)]

    def first_of(self, order: int) -> Card | None:
        for k, n in self.keys.items():
            if n > 0 and ORDER[k >> 3] == order:
                return _CARD[k]
        return None

    def by_order(self) -> dict[int, list[Card]]:
        out: dict[int, list[Card]] = {}
        for k, n in self.keys.items():
            if n > 0:
                out.setdefault(ORDER[k >> 3], []).extend([_CARD[k]] * n)
        return out

    def largest(self, exclude: Iterable[Card] = ()) -> int | None:
        """Largest order index held, not counting ``exclude`` (吃了不吐)."""
        ranks = list(self.ranks)
        used: dict[int, int] = {}
        for card in exclude:
            k = card_key(card)
            used[k] = used.get(k, 0) + 1
            if self.keys.get(k, 0) >= used[k]:
                ranks[ORDER[card.rank]] -= 1
        for o in range(14, -1, -1):
            if ranks[o] > 0:
                return o
        return None

    def copy(self) -> Hand:
        h = Hand()
        h.keys = dict(self.keys)
        h.ranks = list(self.ranks)
        h.n = self.n
        return h
