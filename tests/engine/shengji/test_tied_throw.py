"""O35 (docs/rules/chaodipi.md): a failed throw of the play that opened a choice of readings,
the choice closed tied (O28) and a slip reading left has no such throw, is not charged at the
deal's end: its question (O26) stays.

Rules the cases rest on: seed 003 line 12 (the dealer leads the first trick), 003:50 (a follow
has as many cards as the lead) and 003:58 (甩错: a throw another seat beats fails).  炒地皮·明炒,
level Q, no trump suit, seat 3 deals.  Seat 3's ♥Q ♥Q lead is never seen: seat 0's ♥5 ♦Q is
then either a first lead out of turn, a throw ♠BJ ♠BJ beats (the log as read), or a follow of
the missed lead (O11, no throw at all).  Seat 2's single ♣Q, a wrong count in both readings,
closes the choice tied.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text

#: the first lead missed: the log as read (a failed throw) tied with O11's reading (a follow)
TIED = [(0, "5H QD"), (1, "BJ BJ"), (2, "QC"), (1, "2S"), (2, "4S"), (3, "AS"), (0, "6S")]
#: the dealer's own throw, beaten at once: no choice of readings, charged at the deal's end (O26)
DEALER_THROW = [(3, "5H QD"), (0, "BJ BJ"), (1, "QC QS"), (2, "2S 3S")]


def _log(plays: list[tuple[int, str]], sizes: list[int]) -> list[dict]:
    return [{"type": "deal", "game": "chaodipi-mingchao", "seats": 4, "level": "Q", "dealer": 3, "hand_sizes": sizes},
            *({"type": "play", "seat": seat, "cards": cards.split(), "source": "camera"} for seat, cards in plays)]


@pytest.mark.parametrize("plays,sizes,expected", [
    # O35: line 1 keeps its slip flag, not the failed throw; seat 2's wrong count is still accused
    (TIED, [3, 3, 2, 3], [(1, "observe.missing_play", False), (3, "shengji.wrong_count", True),
                          (4, "observe.missing_play", False)]),
    # no tied choice: the failed throw is charged at the deal's end as before (O26)
    (DEALER_THROW, [2, 2, 2, 2], [(1, "shengji.failed_throw", True)]),
], ids=["tied-not-charged", "dealer-throw-charged"])
def test_a_throw_a_tied_slip_reading_explains_is_not_charged(
        plays: list[tuple[int, str]], sizes: list[int], expected: list[tuple[int, str, bool]]) -> None:
    verdicts = judge_text(json.dumps(e) for e in _log(plays, sizes)).verdicts
    assert [(v.i, v.fault.code, v.accusation) for v in verdicts if v.fault is not None] == expected
