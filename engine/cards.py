"""Card codes of the event log: parse, format and the ranks and suits behind them.

A card is ``<rank><suit>`` (``10H``, ``QS``; ``T`` is accepted for 10) or a joker
(``SJ`` small joker 小王/小花, ``BJ`` big joker 大王/大花).  Input is case-insensitive;
output is the canonical upper-case form.  Several decks are in play, so cards are plain
values: two ``QH`` from two decks are equal and both count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum


class Suit(StrEnum):
    """The four French suits, by their event-log letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def zh(self) -> str:
        return {"S": "黑桃", "H": "红桃", "D": "方块", "C": "梅花"}[self.value]

    @property
    def symbol(self) -> str:
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]


class Rank(IntEnum):
    """Face ranks in plain numeric order (2 low, A high), then the jokers.

    This is *not* any game's playing order: each game builds its own order from it.
    """

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    SMALL_JOKER = 15
    BIG_JOKER = 16

    @property
    def code(self) -> str:
        return _RANK_CODE[self]

    @property
    def is_joker(self) -> bool:
        return self >= Rank.SMALL_JOKER


_RANK_CODE = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A", Rank.SMALL_JOKER: "SJ", Rank.BIG_JOKER: "BJ",
}
_SUIT_INDEX = {Suit.SPADES: 1, Suit.HEARTS: 2, Suit.DIAMONDS: 3, Suit.CLUBS: 4}
_CODE_RANK = {code: rank for rank, code in _RANK_CODE.items() if not rank.is_joker}
_CODE_RANK["T"] = Rank.TEN
FACE_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if not r.is_joker)


class CardCodeError(ValueError):
    """A string that is not a card code of the event log."""

    def __init__(self, text: object) -> None:
        self.text = text
        super().__init__(f"not a card code: {text!r} (expected e.g. 10H, TS, QD, SJ, BJ)")


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One physical card's face: a rank and a suit, or a joker (suit ``None``).

    Cards are compared and hashed by a small integer key (``rank * 8 + suit``), which keeps
    the multisets of the judge's hot path cheap.
    """

    rank: Rank
    suit: Suit | None
    key: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank.is_joker != (self.suit is None):
            raise ValueError(f"jokers have no suit and other cards need one: {self.rank!r} {self.suit!r}")
        object.__setattr__(self, "key", int(self.rank) * 8 + (_SUIT_INDEX[self.suit] if self.suit else 0))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.key == other.key
        return NotImplemented

    def __hash__(self) -> int:
        return self.key

    @property
    def code(self) -> str:
        return self.rank.code if self.suit is None else self.rank.code + self.suit.value

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


SMALL_JOKER = Card(Rank.SMALL_JOKER, None)
BIG_JOKER = Card(Rank.BIG_JOKER, None)
JOKERS: tuple[Card, Card] = (SMALL_JOKER, BIG_JOKER)

#: All 54 distinct faces, in one fixed order: suits S H D C each A..K, then SJ, BJ.
#: The detector's class list is built from this order (see ``vision.classes``).
ALL_CARDS: tuple[Card, ...] = tuple(
    Card(rank, suit)
    for suit in Suit
    for rank in (Rank.ACE, *[r for r in FACE_RANKS if r != Rank.ACE])
) + JOKERS


def parse_card(text: object) -> Card:
    """Parse one card code (case-insensitive, ``T`` for 10, surrounding spaces ignored)."""
    if not isinstance(text, str):
        raise CardCodeError(text)
    known = _BY_CODE.get(text)
    if known is not None:
        return known
    code = text.strip().upper()
    if code == "SJ":
        return SMALL_JOKER
    if code == "BJ":
        return BIG_JOKER
    if len(code) < 2:
        raise CardCodeError(text)
    rank = _CODE_RANK.get(code[:-1])
    try:
        suit = Suit(code[-1])
    except ValueError:
        raise CardCodeError(text) from None
    if rank is None:
        raise CardCodeError(text)
    return Card(rank, suit)


_BY_CODE: dict[str, Card] = {c.code: c for c in ALL_CARDS}


def parse_cards(texts: Iterable[object]) -> tuple[Card, ...]:
    """Parse a list of card codes; raises :class:`CardCodeError` naming the first bad one."""
    if isinstance(texts, str):
        raise CardCodeError(texts)
    return tuple(parse_card(t) for t in texts)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]
