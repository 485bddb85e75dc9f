"""O39 (docs/rules/chaodipi.md): when a choice of readings closes with the log as read kept tied
with a camera-slip reading (O28), the tricks from the opening play on may be grouped one play out
of phase: as after a flagged trick (O23), their follows and throws prove nothing later.

Rules the cases rest on: seed 003 line 50 (a follow has as many cards as the lead; the seats
follow in turn), 003:12 / 000:115 (the winner leads the next trick), 003:54-56 and 003:58 (a
revoke, a failed throw, proven by cards seen later).  The deals are the benchmark's
(``cardref bench verdicts --deals 100 --slips 0.03 0.02 --seed SEED``): the lines it accused
falsely before O39, each a follow or a throw of a trick the log as read grouped out of phase
after a tied choice; with O39 none is accused and the deal has no false accusation left.
"""

from __future__ import annotations

import pytest
from slips_bench import slips_deal

#: (game, seed, deal, lines accused before O39)
TIED_OUT_OF_PHASE = [
    # seat 0's ♣6 lead read ♥K, then seat 3's ♣10 and seat 2's ♦7 ♦7 lead missed: seat 3's
    # ♦Q ♦10 is a wrong count (log as read) or a lead after a gap (O10), tied for 8 plays; seat
    # 0's ♦A ♦J and ♠A ♠10 were failed throws and seat 3's ♦5 ♦5 a revoke, proven later
    ("guafeng-zibo", 5, 69, [5, 9, 11]),
]


@pytest.mark.parametrize("game,seed,n,lines", TIED_OUT_OF_PHASE,
                         ids=[f"{g}-seed{s}-deal{n}" for g, s, n, _ in TIED_OUT_OF_PHASE])
def test_the_log_as_read_kept_tied_proves_nothing_after(game: str, seed: int, n: int, lines: list[int]) -> None:
    verdicts, false_at = slips_deal(game, n, 0.03, 0.02, seed=seed)
    assert false_at == []
    assert not any(verdicts[i].accusation for i in lines)
