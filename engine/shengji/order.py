"""The card order of one deal, built once from the settings, the level and the trump suit.

Every card gets a :class:`CardInfo`: its *group* (``"T"`` for trumps, else the suit letter
of its side suit), its *strength* (single-card order inside the group; equal strengths tie
and the first played wins, 000 line 41 / 003 line 50) and its place in a *chain* (which
cards make tractors/雨牌 with which, by face value).

刮风 (000 lines 31-39): 大王 > 小王 > trump-suit level card > other level cards >
trump-suit 常主 5>3>2 > other 常主 5>3>2 > trump suit A..4 > side suits A..4.
炒地皮 (003 lines 4, 30, 36): ♥5 > 大王 > 小王 > trump-suit level card > other level cards >
trump suit A..2; with 无主 only ♥5, jokers and level cards are trumps.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..cards import ALL_CARDS, Card, Rank, Suit
from .settings import ShengjiSettings

TRUMP = "T"

#: chain ids: a side suit's letter, "T"+suit for the trump suit's own run, "J" for jokers.
JOKER_CHAIN = "J"


@dataclass(frozen=True, slots=True)
class CardInfo:
    card: Card
    group: str
    strength: int
    #: chain id and positions (an A may sit low before 2 and high after K); None: never in a run.
    chain: str | None
    positions: tuple[int, ...]
    #: rank value used to compare chains of different ids inside one group (jokers above the suit).
    chain_rank: int


class TrumpOrder:
    """The order of one deal.  Build once per deal; lookups are dict reads."""

    def __init__(self, settings: ShengjiSettings, level: Rank | None, trump: Suit | None) -> None:
        self.settings = settings
        self.level = level
        self.trump = trump
        self._chains: dict[Suit, list[Rank | None]] = {suit: self._chain_ranks(suit) for suit in Suit}
        self.info: dict[Card, CardInfo] = {card: self._build(card) for card in ALL_CARDS}
        self.group = {c: i.group for c, i in self.info.items()}
        self.strength = {c: i.strength for c, i in self.info.items()}

    # -- classification of single cards ------------------------------------------------
    def is_permanent(self, card: Card) -> bool:
        """常主/级牌/王/♥5: trumps whatever the trump suit."""
        if card.is_joker:
            return True
        if self.settings.heart_five_top and card.rank == Rank.FIVE and card.suit == Suit.HEARTS:
            return True
        return card.rank == self.level or card.rank in self.settings.permanent_ranks

    def is_trump(self, card: Card) -> bool:
        return self.group[card] == TRUMP

    def _build(self, card: Card) -> CardInfo:
        s = self.settings
        if card.is_joker:
            strength = 200 if card.rank == Rank.BIG_JOKER else 199
            return CardInfo(card, TRUMP, strength, JOKER_CHAIN, (0 if card.rank == Rank.SMALL_JOKER else 1,), 1)
        if s.heart_five_top and card.rank == Rank.FIVE and card.suit == Suit.HEARTS:
            return CardInfo(card, TRUMP, 300, None, (), 0)
        in_trump_suit = card.suit == self.trump
        if card.rank == self.level:
            strength = 190 if in_trump_suit else 180
            return self._chained(card, TRUMP, strength) if in_trump_suit else CardInfo(card, TRUMP, strength, None, (), 0)
        if card.rank in s.permanent_ranks:
            # 5>3>2 within each tier (000 line 35)
            tier = 170 if in_trump_suit else 160
            strength = tier + {Rank.FIVE: 3, Rank.THREE: 2, Rank.TWO: 1}.get(card.rank, 0)
            return self._chained(card, TRUMP, strength) if in_trump_suit else CardInfo(card, TRUMP, strength, None, (), 0)
        if in_trump_suit:
            return self._chained(card, TRUMP, 100 + int(card.rank))
        assert card.suit is not None
        return self._chained(card, card.suit.value, int(card.rank))

    def _removed(self, suit: Suit, rank: Rank) -> bool:
        """Ranks that left a side suit (level card, 常主, ♥5): they break or are skipped in its runs."""
        if rank == self.level or rank in self.settings.permanent_ranks:
            return suit != self.trump
        return self.settings.heart_five_top and rank == Rank.FIVE and suit == Suit.HEARTS

    def _chain_ranks(self, suit: Suit) -> list[Rank | None]:
        """The face-value run of one suit, A low to A high; ``None`` marks a gap that breaks runs."""
        natural = [Rank.ACE, *[r for r in Rank if Rank.TWO <= r <= Rank.ACE]]
        out: list[Rank | None] = []
        for idx, rank in enumerate(natural):
            if idx == 0 and self._removed(suit, Rank.TWO):
                continue  # A is low only right before a 2 of the same run (AA22, 000 line 65)
            if self._removed(suit, rank):
                if not self.settings.side_gap_skip:
                    out.append(None)
                continue
            out.append(rank)
        return out

    def _chained(self, card: Card, group: str, strength: int) -> CardInfo:
        assert card.suit is not None
        ranks = self._chains[card.suit]
        positions = tuple(i for i, r in enumerate(ranks) if r == card.rank)
        chain = ("T" + card.suit.value) if group == TRUMP else card.suit.value
        return CardInfo(card, group, strength, chain, positions, 0)

    def describe(self) -> dict[str, object]:
        return {"level": self.level.code if self.level else None,
                "trump": self.trump.value if self.trump else None}


@lru_cache(maxsize=256)
def trump_order(settings: ShengjiSettings, level: Rank | None, trump: Suit | None) -> TrumpOrder:
    """The (immutable) order for these settings, level and trump, built once and shared."""
    return TrumpOrder(settings, level, trump)
