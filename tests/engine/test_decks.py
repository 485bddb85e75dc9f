"""Deck compositions and the conservation check (issue 2, item 3)."""

import pytest

from cardref.engine.cards import Rank, parse_cards
from cardref.engine.decks import GOUJI_DECKS, TWO_DECKS, SeenCards

# (composition, rank, copies) — seeds 004 line 17 "4副牌，去掉10张3，10张4，共196张", 002 line 21 "只有6个3,6个4".
RANK_COUNTS = [
    (TWO_DECKS, Rank.ACE, 8), (TWO_DECKS, Rank.THREE, 8), (TWO_DECKS, Rank.SMALL_JOKER, 2),
    (TWO_DECKS, Rank.BIG_JOKER, 2), (TWO_DECKS, Rank.TEN, 8),
    (GOUJI_DECKS, Rank.THREE, 6), (GOUJI_DECKS, Rank.FOUR, 6), (GOUJI_DECKS, Rank.FIVE, 16),
    (GOUJI_DECKS, Rank.TWO, 16), (GOUJI_DECKS, Rank.SMALL_JOKER, 4), (GOUJI_DECKS, Rank.BIG_JOKER, 4),
    (GOUJI_DECKS, Rank.ACE, 16),
]


@pytest.mark.parametrize(("composition", "rank", "count"), RANK_COUNTS)
def test_counts_per_rank(composition, rank, count) -> None:
    assert composition.counts_by_rank()[rank] == count


@pytest.mark.parametrize(("composition", "size"), [(TWO_DECKS, 108), (GOUJI_DECKS, 196)])
def test_deck_sizes(composition, size) -> None:
    assert composition.size == size
    assert sum(composition.counts_by_rank().values()) == size


def test_sixth_three_is_fine_and_the_seventh_is_flagged_in_gouji() -> None:
    seen = SeenCards(GOUJI_DECKS)
    assert seen.add(parse_cards(["3S", "3H", "3D", "3C", "3S", "3H"])) is None
    overflow = seen.add(parse_cards(["3D"]))
    assert overflow is not None and overflow.whole_rank and overflow.limit == 6 and overflow.seen == 7


def test_fifth_copy_of_a_face_is_flagged_in_gouji() -> None:
    seen = SeenCards(GOUJI_DECKS)
    assert seen.add(parse_cards(["QH"] * 4)) is None
    overflow = seen.add(parse_cards(["QH"]))
    assert overflow is not None and not overflow.whole_rank and overflow.limit == 4


def test_third_copy_is_flagged_with_two_decks() -> None:
    seen = SeenCards(TWO_DECKS)
    assert seen.add(parse_cards(["BJ", "BJ"])) is None
    assert seen.check(parse_cards(["BJ"])) is not None
    assert seen.check(parse_cards(["SJ", "SJ"])) is None


def test_check_does_not_count() -> None:
    seen = SeenCards(TWO_DECKS)
    seen.check(parse_cards(["AS", "AS", "AS"]))
    assert seen.counts == {}


@pytest.mark.parametrize("composition", [TWO_DECKS, GOUJI_DECKS])
def test_add_reports_the_overflow_check_gives_before_adding(composition) -> None:
    # add() finds the overflow after counting, in one pass; it must be check()'s, card for card
    import random

    from cardref.engine.cards import ALL_CARDS

    rng = random.Random(5)
    faces = [c for c in ALL_CARDS if c.rank in (Rank.THREE, Rank.FOUR, Rank.ACE) or c.is_joker]
    seen, twin = SeenCards(composition), SeenCards(composition)
    overflows = 0
    for _ in range(300):
        play = tuple(rng.choice(faces) for _ in range(rng.randint(1, 5)))
        expected = twin.check(play)
        for card in play:
            twin.counts[card] += 1
            twin.rank_counts[card.rank] += 1
        assert seen.add(play) == expected
        overflows += expected is not None
        if rng.random() < 0.3:
            seen.remove(play)
            twin.remove(play)
    assert overflows > 50          # the walk overflows often, by card and by whole rank
