"""O33 (docs/rules/chaodipi.md): a revoke proven before a choice of readings opened, and held
until the next lead (O8), does not count as a flag of the reading that says it.

Rules the cases rest on:

- seed 003 lines 54-56 (and 000:57): an off-suit follow is a revoke only if the seat held the
  led suit, proven by its later cards: seat 2's ♣7 on ♦9 (line 3), proven by its ♦8 lead
  (line 9), which O8 holds until the next lead;
- seed 003 line 50: a follow has as many cards as the lead; 003:12 and 000:115: the trick's
  winner leads the next.

Seat 1's ♦A, winning the ♦ trick, is never seen (line 12 on, the log as the camera gave it):
its ♥6 pair lead of the next trick is then either a wrong count against the ♦8 (the log as
read) or a lead after a missed follow (O10), whose next lead says the held revoke.  The plays
after it fit O10 only.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text

REVOKE, MISSING = "shengji.must_follow_suit", "observe.missing_play"


def C(seat: int, *cards: str) -> dict:
    """A camera's play (``source: "camera"``)."""
    return {"type": "play", "seat": seat, "cards": list(cards), "source": "camera"}


DEAL = {"type": "deal", "game": "chaodipi-anchao", "seats": 4, "level": "2", "trump": "S", "dealer": 0,
        "hand_sizes": [5] * 4}
BEFORE = [C(0, "9D"), C(1, "10D"), C(2, "7C"), C(3, "JD"), C(3, "3C"), C(0, "9C"), C(1, "10C"), C(2, "JC"),
          C(2, "8D"), C(3, "KD"), C(0, "QD")]
AFTER = [C(1, "6H", "6H"), C(2, "7H", "7H"), C(3, "8H", "8H"), C(0, "9H", "9H")]

# (why, the log after the deal line, the flags (line, code, proven at, asked))
CASES = [
    ("every play seen: the revoke, proven by the ♦8 lead (003:54)",
     [*BEFORE, C(1, "AD"), *AFTER], [(3, REVOKE, 9, False)]),
    ("seat 1's ♦A missed: one missing play (O10) and the revoke; not a wrong count (003:50)",
     [*BEFORE, *AFTER], [(3, REVOKE, 9, False), (12, MISSING, None, True)]),
]


@pytest.mark.parametrize("why,plays,flags", CASES, ids=["seen", "follow-missed"])
def test_a_revoke_held_before_a_choice_is_no_flag_of_its_reading(why: str, plays: list, flags: list) -> None:
    verdicts = judge_text(json.dumps(x) for x in [DEAL, *plays]).verdicts
    assert [(v.i, v.fault.code, v.fault.proven_at, v.confirm) for v in verdicts if v.fault is not None] == flags
