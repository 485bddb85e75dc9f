"""Card codes (spec: "Cards")."""

import pytest

from cardref.engine.cards import (
    ALL_CARDS,
    BIG_JOKER,
    SMALL_JOKER,
    Card,
    CardCodeError,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)

FACES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@pytest.mark.parametrize("suit", "SHDC")
@pytest.mark.parametrize("rank", FACES)
def test_every_face_code_round_trips(rank: str, suit: str) -> None:
    card = parse_card(rank + suit)
    assert card.code == rank + suit
    assert card.suit == Suit(suit)
    assert card.rank.code == rank


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10H", Card(Rank.TEN, Suit.HEARTS)),
        ("TH", Card(Rank.TEN, Suit.HEARTS)),  # spec: T accepted for 10
        ("th", Card(Rank.TEN, Suit.HEARTS)),  # case-insensitive
        ("qs", Card(Rank.QUEEN, Suit.SPADES)),
        (" 2c ", Card(Rank.TWO, Suit.CLUBS)),
        ("SJ", SMALL_JOKER),
        ("sj", SMALL_JOKER),
        ("BJ", BIG_JOKER),
        ("Bj", BIG_JOKER),
    ],
)
def test_accepted_spellings(text: str, expected: Card) -> None:
    assert parse_card(text) == expected


def test_canonical_output_is_upper_case_with_10() -> None:
    assert format_cards(parse_cards(["th", "as", "sj", "bj"])) == ["10H", "AS", "SJ", "BJ"]


@pytest.mark.parametrize(
    "bad", ["", "1H", "11H", "10", "H", "ZZ", "10X", "JK", "RJ", "0S", "AH1", "T", "S", "J", None, 10, ["AS"], "1 0H"]
)
def test_bad_codes_are_rejected(bad: object) -> None:
    with pytest.raises(CardCodeError):
        parse_card(bad)


def test_parse_cards_rejects_a_bare_string() -> None:
    with pytest.raises(CardCodeError):
        parse_cards("AS")


def test_all_cards_has_54_distinct_faces_in_a_fixed_order() -> None:
    assert len(ALL_CARDS) == 54
    assert len(set(ALL_CARDS)) == 54
    assert ALL_CARDS[0].code == "AS"
    assert ALL_CARDS[-2:] == (SMALL_JOKER, BIG_JOKER)


def test_jokers_have_no_suit_and_faces_need_one() -> None:
    with pytest.raises(ValueError):
        Card(Rank.SMALL_JOKER, Suit.SPADES)
    with pytest.raises(ValueError):
        Card(Rank.ACE, None)
    assert SMALL_JOKER.is_joker and not parse_card("AS").is_joker
