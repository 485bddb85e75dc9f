"""What cards exist in each game, and a multiset of what has been seen so far.

A play that would show more copies of a card than the game's decks hold is a misread
or a foreign card; :class:`SeenCards` finds it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from .cards import ALL_CARDS, Card, Rank


@dataclass(frozen=True)
class DeckComposition:
    """How many copies of each face a game's decks hold.

    ``decks`` full 54-card decks, then ``rank_limits`` caps whole ranks (whatever the
    suit) where cards were taken out, as 够级 takes out ten 3s and ten 4s.
    """

    name: str
    decks: int
    rank_limits: tuple[tuple[Rank, int], ...] = ()

    def copies(self, card: Card) -> int:
        return self.decks

    def rank_limit(self, rank: Rank) -> int | None:
        return self.limits.get(rank)

    @cached_property
    def limits(self) -> dict[Rank, int]:
        """``rank_limits`` as a mapping."""
        return dict(self.rank_limits)

    @property
    def size(self) -> int:
        total = 54 * self.decks
        for _rank, limit in self.rank_limits:
            total -= 4 * self.decks - limit
        return total

    def counts_by_rank(self) -> dict[Rank, int]:
        counts: Counter[Rank] = Counter()
        for card in ALL_CARDS:
            counts[card.rank] += self.decks
        for rank, limit in self.rank_limits:
            counts[rank] = limit
        return dict(counts)


#: 升级 family (刮风, 炒地皮): two full decks, 108 cards.
TWO_DECKS = DeckComposition("two-decks", decks=2)
#: 够级: four decks less ten 3s and ten 4s (six of each remain), 196 cards.
#: Seeds: 004 line 17 (去掉10张3，10张4，共196张); 002 line 21 (只有6个3,6个4).
GOUJI_DECKS = DeckComposition("gouji", decks=4, rank_limits=((Rank.THREE, 6), (Rank.FOUR, 6)))


@dataclass(frozen=True)
class Overflow:
    """A card seen more often than the decks hold."""

    card: Card
    seen: int
    limit: int
    whole_rank: bool


@dataclass
class SeenCards:
    """Multiset of the cards shown so far in one deal."""

    composition: DeckComposition
    counts: Counter[Card] = field(default_factory=Counter)
    rank_counts: Counter[Rank] = field(default_factory=Counter)

    def check(self, cards: Iterable[Card]) -> Overflow | None:
        """The first overflow adding ``cards`` would cause, without adding them."""
        counts: dict[Card, int] = {}
        ranks: dict[Rank, int] = {}
        for card in cards:
            counts[card] = counts.get(card, 0) + 1
            ranks[card.rank] = ranks.get(card.rank, 0) + 1
        copies = self.composition.decks
        for card, n in counts.items():
            if self.counts[card] + n > copies:
                return Overflow(card, self.counts[card] + n, copies, whole_rank=False)
        if self.composition.rank_limits:
            for card in counts:
                limit = self.composition.rank_limit(card.rank)
                if limit is not None and self.rank_counts[card.rank] + ranks[card.rank] > limit:
                    return Overflow(card, self.rank_counts[card.rank] + ranks[card.rank], limit, whole_rank=True)
        return None

    def add(self, cards: Iterable[Card]) -> Overflow | None:
        """Add the cards; returns the overflow if any (the cards are still counted): the same
        overflow :meth:`check` gives before adding them, found after, in one pass (the judge's
        hot path)."""
        cards = tuple(cards)
        counts, rank_counts = self.counts, self.rank_counts
        for card in cards:
            counts[card] += 1
            rank_counts[card.rank] += 1
        copies = self.composition.decks
        for card in cards:
            if counts[card] > copies:
                return Overflow(card, counts[card], copies, whole_rank=False)
        limits = self.composition.limits
        if limits:
            for card in cards:
                limit = limits.get(card.rank)
                if limit is not None and rank_counts[card.rank] > limit:
                    return Overflow(card, rank_counts[card.rank], limit, whole_rank=True)
        return None

    def remove(self, cards: Iterable[Card]) -> None:
        for card in cards:
            if self.counts[card] > 0:
                self.counts[card] -= 1
                self.rank_counts[card.rank] -= 1
