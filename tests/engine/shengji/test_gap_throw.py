"""O38 (docs/rules/chaodipi.md): a camera throw beaten at its first follow (O17, O26) in a trick
closed with one seat missing (O10), that seat the one just before the thrower, whose play in
the trick before was its last and had as many cards as the throw: the gap may lie one play
earlier (O12's shape: that play led this trick, its follow of the trick before missed), the
"throw" then a follow.  Its question stays; it is not charged at the deal's end.

Rules the cases rest on: seed 003 line 58 (甩错: a throw another seat beats fails, the penalty
a card), 003:50 (a follow has as many cards as the lead; the seats follow in turn) and 003:12 /
000:115 (the winner leads).  炒地皮·暗炒, level 2, spades trump, seat 1 deals.  Seat 0's ♥7 ♥7
(winning seat 1's ♥4 ♥4) is missed; its ♣10 ♣10 lead is read as its follow, seat 1's ♣Q ♣8
follow then as a throw seat 2's ♣9 beats, and seat 0's single ♥K closes that trick short.
"""

from __future__ import annotations

import json

import pytest
from shengji_logs import deal_log

from cardref.engine.judge import judge_text

#: seat 0's ♥7 ♥7 missed before its ♣10 ♣10 (the last play of trick 1 as read): O38 applies
GAP = [(1, "4H 4H"), (2, "3H 8H"), (3, "6H 9H"), (0, "10C 10C"), (1, "QC 8C"), (2, "3C 9C"), (3, "4C 4C"),
       (0, "KH"), (1, "QH"), (2, "7H"), (3, "10H")]
#: seat 0's play before the throw had one card (the throw two): not O12's shape, charged (O26)
OTHER_COUNT = [(1, "AH"), (2, "3H"), (3, "6H"), (0, "10C"), (1, "QC 8C"), (2, "3C 9C"), (3, "4C 4C"),
               (0, "KH"), (1, "QH"), (2, "7H"), (3, "10H")]


def _log(plays: list[tuple[int, str]], typed: bool) -> list[dict]:
    return deal_log(plays, [5, 5, 5, 5] if plays is GAP else [3, 4, 4, 4], typed, dealer=1)


@pytest.mark.parametrize("plays,typed,code,ask", [
    (GAP, False, "observe.fault_or_slip", True),       # O38: asked, never charged
    (GAP, True, "shengji.failed_throw", False),         # typed: said as its trick closes (O17)
    (OTHER_COUNT, False, "shengji.failed_throw", False),  # not O12's shape: charged at the end (O26)
], ids=["camera-gap-asked", "typed-charged", "other-count-charged"])
def test_a_throw_in_a_trick_closed_short_after_its_seat(
        plays: list[tuple[int, str]], typed: bool, code: str, ask: bool) -> None:
    result = judge_text(json.dumps(e) for e in _log(plays, typed))
    throw = result.verdicts[5]
    assert throw.fault is not None and (throw.fault.code, throw.confirm) == (code, ask)
    if ask:
        assert throw.fault.facts["fault"] == "shengji.failed_throw"
        assert result.summary()["deals"][0]["penalty_points"] == 0
