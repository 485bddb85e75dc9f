"""O32 (docs/rules/chaodipi.md): a camera lead whose seat the turn order did not check proves
an earlier revoke of that seat only as a question.

Rules the cases rest on:

- seed 003 lines 54-56 (and 000:57): a seat without the led suit discards or trumps, so an
  off-suit follow is a revoke only if the seat held the suit, proven by its later cards;
- seed 003 line 12 and 000:115: the winner of a trick leads the next, which is how the turn
  order checks a lead's seat; after a trick missing a play, or one whose winner a misread card
  hides, any seat may lead unflagged (O10-O12, O14, O21), and a seat the camera read wrong
  there shows nowhere (O19 reads it only where the lead is flagged).

In each case seat 1 follows ♦9 with ♣7 (trick 0, legal unless seat 1 held a ♦) and later leads
♦8: when that lead's seat was checked, the ♦8 proves the revoke (an accusation, said at the
log's end, O20); when it was not, the revoke is the question ``observe.fault_or_slip`` (the ♦8
may be another seat's card), proven at the ♦8.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text

REVOKE, DECK, LEAD = "shengji.must_follow_suit", "deck.too_many_copies", "observe.unexpected_lead"
ASKED = "observe.fault_or_slip"


def C(seat: int, *cards: str) -> dict:
    """A camera's play (``source: "camera"``)."""
    return {"type": "play", "seat": seat, "cards": list(cards), "source": "camera"}


DEAL = {"type": "deal", "game": "chaodipi-anchao", "seats": 4, "level": "2", "trump": "S", "dealer": 0,
        "hand_sizes": [6] * 4}
#: trick 0: seat 1's ♣7 on the ♦ lead (lines 1-4); trick 1, seat 2 wins (lines 5-8)
OPENING = [C(0, "9D"), C(1, "7C"), C(2, "10D"), C(3, "JD"), C(3, "3C"), C(0, "9C"), C(1, "10C"), C(2, "JC")]
#: seat 1 leads ♦8, then a trick seat 0 leads
CLOSING = [C(1, "8D"), C(2, "QD"), C(3, "KD"), C(0, "AD"), C(0, "4C"), C(1, "6C"), C(2, "8C"), C(3, "KC")]

# (why, the plays after OPENING, the flags (line, code, proven at, the rule a question names))
CASES = [
    ("003:12: seat 2's ♥ lead seen and seat 1 wins it: its ♦8 lead is checked and proves the revoke",
     [C(2, "4H"), C(3, "6H"), C(0, "7H"), C(1, "AH"), *CLOSING], [(2, REVOKE, 13, None)]),
    ("O10-O12 after 003:12: seat 2's ♥ lead missed (the flag, line 9); after that gap any seat "
     "leads, so seat 1's ♦8 lead is not checked: the revoke it proves is asked",
     [C(3, "6H"), C(0, "7H"), C(1, "AH"), *CLOSING], [(2, ASKED, 12, REVOKE), (9, LEAD, 16, None)]),
    ("O14 + O21 after 003:12: a third ♥4 (line 11, 000:7 / 003:8) hides the ♥ trick's winner; any "
     "seat leads, so seat 1's ♦8 lead is not checked: the revoke it proves is asked",
     [C(2, "4H"), C(3, "4H"), C(0, "4H"), C(1, "6H"), *CLOSING], [(2, ASKED, 13, REVOKE), (11, DECK, None, None)]),
]


@pytest.mark.parametrize("why,plays,flags", CASES, ids=["checked", "after-a-gap", "after-a-misread-winner"])
def test_a_lead_the_turn_order_did_not_check_proves_only_a_question(why: str, plays: list, flags: list) -> None:
    verdicts = judge_text(json.dumps(x) for x in [DEAL, *OPENING, *plays]).verdicts
    assert [(v.i, v.fault.code, v.fault.proven_at, v.fault.facts.get("fault")) for v in verdicts
            if v.fault is not None] == flags
    assert [v.i for v in verdicts if v.accusation] == [f[0] for f in flags if f[1] == REVOKE]


def test_a_typed_lead_after_a_gap_still_proves() -> None:
    """O32 is the camera's: a lead a person typed after a missed play proves as before (003:54)."""
    typed = [{k: v for k, v in p.items() if k != "source"} for p in [*OPENING, C(3, "6H"), C(0, "7H"), C(1, "AH"),
                                                                     *CLOSING]]
    verdicts = judge_text(json.dumps(x) for x in [DEAL, *typed]).verdicts
    assert (2, REVOKE) in [(v.i, v.fault.code) for v in verdicts if v.fault is not None]
