"""O27 (docs/rules/chaodipi.md): at the deal's end, a camera revoke that fits the deck is still
a question when a card the camera never saw could be the card it misread.

Rules the cases rest on:

- seed 003 line 8: 炒地皮 deals two decks, 25 cards a seat and 8 to the bottom, so by the deal's
  end every card has been played or shown in the bottom;
- seed 003 lines 54-56 (and 000:57): a seat without the led suit discards or trumps, so an
  off-suit follow is a revoke only if the seat held the suit, proven by its later cards;
- seed 003 line 50: each seat follows in turn, the winner leads the next trick (003:12).

The deal is built whole: 27 tricks of four singles of one group, seat 0 leading each and
winning it with the group's highest card left, so every play is legal.  Trick 0 is hearts;
seat 1's follow there is the card changed in each case.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine import registry
from cardref.engine.cards import ALL_CARDS, Card, Rank, Suit
from cardref.engine.judge import judge_text
from cardref.engine.shengji.order import trump_order

GAME = "chaodipi-anchao"
REVOKE, ASKED = "shengji.must_follow_suit", "observe.fault_or_slip"


def _tricks() -> tuple[list[list[Card]], list[Card]]:
    """The tricks (seat 0's card first, the highest) and the bottom of the whole deal."""
    rules = registry.get(GAME)
    assert rules is not None
    order = trump_order(rules.settings, Rank.TWO, Suit.SPADES)
    groups: dict[str, list[Card]] = {}
    for card in ALL_CARDS:
        groups.setdefault(order.group[card], []).extend([card, card])      # 003:8: two decks
    tricks: list[list[Card]] = []
    bottom: list[Card] = []
    for group in ("H", "D", "T", "C"):
        cards = sorted(groups[group], key=lambda c: order.strength[c])
        # the bottom: each group's lowest cards past a multiple of four (♥5 is a trump here),
        # the rest of the eight the lowest trumps
        keep = len(cards) % 4 + (8 - sum(len(g) % 4 for g in groups.values()) if group == "T" else 0)
        bottom += cards[:keep]
        for k in range(keep, len(cards), 4):
            low, top = cards[k:k + 3], cards[k + 3]
            tricks.append([top, *low])
    return tricks, bottom


TRICKS, BOTTOM = _tricks()
#: seat 1's follow in trick 0 (a heart) and a club it plays in the deal's last trick
HEART, CLUB = TRICKS[0][1], TRICKS[-1][1]


def _log(tricks: list[list[Card]], drop: tuple[int, int] | None = None) -> list[dict]:
    log: list[dict] = [{"type": "deal", "game": GAME, "seats": 4, "level": "2", "trump": "S", "dealer": 0}]
    for t, trick in enumerate(tricks):
        for seat, card in enumerate(trick):
            if (t, seat) != drop:
                log.append({"type": "play", "seat": seat, "cards": [str(card)], "source": "camera"})
    log.append({"type": "bottom", "cards": [str(c) for c in BOTTOM]})
    return log


def _with(changes: dict[tuple[int, int], Card]) -> list[list[Card]]:
    return [[changes.get((t, seat), card) for seat, card in enumerate(trick)] for t, trick in enumerate(TRICKS)]


def _first_hearts_trick_after(t0: int, seat: int) -> int:
    return next(t for t in range(t0 + 1, len(TRICKS)) if TRICKS[t][seat].suit == Suit.HEARTS)


# (why, the tricks, a play never seen (trick, seat), the verdict on seat 1's follow in trick 0)
CASES = [
    ("003:54 a real revoke (seat 1 plays its club on the heart lead and the heart last), every card "
     "seen: accused at the deal's end (O20)",
     _with({(0, 1): CLUB, (len(TRICKS) - 1, 1): HEART}), None, REVOKE),
    ("the same revoke, and a play of another heart never seen: the follow may be that heart misread: asked",
     _with({(0, 1): CLUB, (len(TRICKS) - 1, 1): HEART}), (_first_hearts_trick_after(0, 2), 2), ASKED),
    ("the same revoke, and a play of a diamond never seen: no unseen card explains it: accused",
     _with({(0, 1): CLUB, (len(TRICKS) - 1, 1): HEART}), (6, 2), REVOKE),
    ("seat 1's heart read as the club, whose genuine copy's play was never seen: asked (before: accused)",
     _with({(0, 1): CLUB}), (len(TRICKS) - 1, 1), ASKED),
]


@pytest.mark.parametrize("why,tricks,drop,want", CASES, ids=[c[0][:60] for c in CASES])
def test_a_revoke_an_unseen_card_explains_is_asked(why: str, tricks: list, drop: tuple | None, want: str) -> None:
    verdicts = judge_text(json.dumps(e) for e in _log(tricks, drop)).verdicts
    follow = verdicts[2]                                # deal line 0, the lead 1, seat 1's follow 2
    assert follow.fault is not None and follow.fault.code == want, [v.to_json() for v in verdicts if v.fault]
    assert follow.fault.proven_at == 1 + 4 * _first_hearts_trick_after(0, 1) + 1
    if want == ASKED:
        assert follow.confirm and follow.fault.facts["fault"] == REVOKE
    else:
        assert follow.accusation


def test_the_built_deal_is_legal() -> None:
    verdicts = judge_text(json.dumps(e) for e in _log(TRICKS)).verdicts
    assert [v.to_json() for v in verdicts if v.fault] == []
    assert len(TRICKS) == 25 and all(len(t) == 4 for t in TRICKS)


def test_without_the_bottom_shown_no_card_counts_as_unseen() -> None:
    """The log stops before the bottom is shown: the cards not seen may be the bottom's, so
    they explain nothing, and the revoke is said as it was (O20, said as the log ends)."""
    log = _log(_with({(0, 1): CLUB, (len(TRICKS) - 1, 1): HEART}), (_first_hearts_trick_after(0, 2), 2))
    verdicts = judge_text(json.dumps(e) for e in log[:-1]).verdicts
    assert verdicts[2].fault is not None and verdicts[2].fault.code == REVOKE and verdicts[2].accusation


def test_confirming_the_follow_makes_it_the_revoke() -> None:
    """The referee confirms seat 1's club (spec `correct`, `why: "confirm"`): the reading is
    settled, so the revoke is accused."""
    log = _log(_with({(0, 1): CLUB, (len(TRICKS) - 1, 1): HEART}), (_first_hearts_trick_after(0, 2), 2))
    log.append({"type": "correct", "ref": 2, "cards": [str(CLUB)], "why": "confirm"})
    follow = judge_text(json.dumps(e) for e in log).verdicts[2]
    assert follow.fault is not None and follow.fault.code == REVOKE and follow.accusation
