"""The detector's class list: the 54 card codes in one fixed order, written down once.

The order is :data:`cardref.engine.cards.ALL_CARDS` (suits S H D C, each A 2..10 J Q K,
then ``SJ`` small joker 小王 and ``BJ`` big joker 大王).  Every dataset, model and
decoder uses :data:`CLASS_NAMES`; never spell the list out anywhere else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardref.engine.cards import ALL_CARDS, JOKERS, parse_card

#: Class id -> card code, e.g. ``CLASS_NAMES[0] == "AS"``, ``CLASS_NAMES[53] == "BJ"``.
CLASS_NAMES: tuple[str, ...] = tuple(card.code for card in ALL_CARDS)
#: Card code -> class id.
CLASS_INDEX: Mapping[str, int] = {name: i for i, name in enumerate(CLASS_NAMES)}
NUM_CLASSES: int = len(CLASS_NAMES)

#: The two jokers' codes (small 小王, big 大王): cards without a rank or suit.
JOKER_CODES: frozenset[str] = frozenset(card.code for card in JOKERS)

#: Names other datasets use for things that are not card faces; they map to no class.
NON_CARD_NAMES: frozenset[str] = frozenset({"BACK", "BACKS", "CARD_BACK"})

#: Class names of a class-agnostic corner finder (ultralytics calls its single class "item").
CORNER_CLASS_NAMES: frozenset[str] = frozenset({"ITEM", "CORNER"})
#: The code a class-agnostic detector gives a corner until the corner namer names it.
UNNAMED: str = "?"


def rank_of(code: str) -> str:
    """The rank part of a canonical card code (``"10H"`` -> ``"10"``); the two jokers, which
    have no suit, share the rank ``"joker"``."""
    return "joker" if code in JOKER_CODES else code[:-1]


def suit_of(code: str) -> str | None:
    """The suit letter of a canonical card code (``"10H"`` -> ``"H"``); ``None`` for a joker."""
    return None if code in JOKER_CODES else code[-1]


def class_id(code: str) -> int:
    """Class id of a card code (any spelling :func:`parse_card` accepts, e.g. ``th`` -> 10H)."""
    return CLASS_INDEX[parse_card(code).code]


def foreign_class_map(names: Sequence[str] | Mapping[int, str]) -> dict[int, int | None]:
    """Map another dataset's class ids to ours.

    ``names`` is that dataset's ``names`` (list or ``{id: name}`` as in a YOLO data.yaml).
    Card backs and other non-card names map to ``None`` (to be ignored); an unknown name
    raises ``ValueError`` naming it, so a silent mislabel cannot slip through.
    """
    items = names.items() if isinstance(names, Mapping) else enumerate(names)
    out: dict[int, int | None] = {}
    for idx, name in items:
        key = str(name).strip().upper()
        if key in NON_CARD_NAMES:
            out[int(idx)] = None
            continue
        try:
            out[int(idx)] = class_id(key)
        except ValueError as exc:
            raise ValueError(f"class {idx} {name!r} is not a card code nor a known non-card name") from exc
    return out


#: The real-cards data set (/work/shared/data/real-cards/data.yaml) in its own order.
REAL_CARDS_NAMES: tuple[str, ...] = (
    "10C", "10D", "10H", "10S", "2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S",
    "4C", "4D", "4H", "4S", "5C", "5D", "5H", "5S", "6C", "6D", "6H", "6S",
    "7C", "7D", "7H", "7S", "8C", "8D", "8H", "8S", "9C", "9D", "9H", "9S",
    "AC", "AD", "AH", "AS", "BACK", "SJ", "JC", "JD", "JH", "JS", "KC", "KD",
    "KH", "KS", "QC", "QD", "QH", "QS", "BJ",
)
#: real-cards class id -> our class id (``None`` for ``BACK``, class 40).
REAL_CARDS_TO_OURS: dict[int, int | None] = foreign_class_map(REAL_CARDS_NAMES)
