"""The deal after a 够级 deal in the same log: 「第二局开始由大落上班」 (004:17, decision D29 in
docs/rules/gouji.md).  Each case is a script in ``engine.gouji.notation`` (``# code``: the fault
expected on that line) and names the seed line it checks."""

from __future__ import annotations

import pytest

#: A whole first deal whose finishing order is 0, 1, 2, 3, 4 and 5 (大落), as in test_gouji_deals.
FIRST = """
deal gouji-yucheng leader=0 sizes=2,2,2,2,2,2
0 5H
0 3H
1 6H
1 3S
2 7H
2 3D
3 8H
3 3C
4 9H
4 3H
"""

#: A first deal cut short (a camera log that stopped): nobody's place is known.
CUT = """
deal gouji-yucheng leader=0
0 5H
1 6H
"""

CASES = [
    ("004:17 第二局开始由大落上班: the previous 大落 (seat 5) leads", FIRST, """
deal gouji-yucheng
5 5H
0 6H
"""),
    ("004:17 第二局开始由大落上班: another seat's first lead is a fault, proven by the 大落's lead (D32)", FIRST, """
deal gouji-yucheng
0 5H   # gouji.not_your_lead @13
5 5H
"""),
    ("004:17 a deal naming the 大落 as leader agrees", FIRST, """
deal gouji-yucheng leader=5
5 5H
"""),
    ("004:17 a deal naming another leader contradicts the 大落", FIRST, """
deal gouji-yucheng leader=2   # gouji.bad_option
2 5H
"""),
    ("004:17 first deal's places unknown: nothing to check", CUT, """
deal gouji-yucheng
2 5H
"""),
    ("004:17 首局随机指定: the first deal of a log may start anywhere", "", """
deal gouji-yucheng
3 5H
"""),
]


@pytest.mark.parametrize(("seed", "first", "second"), CASES, ids=[c[0] for c in CASES])
def test_next_deal_leader(script, seed: str, first: str, second: str) -> None:
    script(first.strip("\n") + "\n" + second.strip("\n"))


def test_not_your_lead_names_daluo(script) -> None:
    """004:17: the fault on a wrong first lead names the 大落 it should have been."""
    result = script(FIRST.strip("\n") + "\n" + CASES[1][2].strip("\n"))
    fault = next(v.fault for v in result.verdicts if v.fault is not None)
    assert fault.facts == {"seat": 0, "leader": 5, "daluo": 5}
    assert result.summary()["deals"][0]["order"] == [0, 1, 2, 3, 4, 5]
