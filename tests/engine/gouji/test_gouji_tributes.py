"""点贡 matrices of both variants, 烧贡/闷贡/落贡/串贡 and the finishing order (头科 … 大落)."""

from __future__ import annotations

import pytest

from cardref.engine.gouji.placement import finishing_order
from cardref.engine.gouji.settings import SHANDONG, YUCHENG
from cardref.engine.gouji.tributes import tributes

T, F = True, False

# (seed line, a declared 宣点, b declared, a opened 开点, b opened, a gives b, b gives a); a=0, b=3
YUCHENG_DIAN = [
    ("004:7 双方都宣点 1. 自己开点对家没开 → 对家进4张", T, T, T, F, 0, 4),
    ("004:7 双方都宣点 1. (mirror)", T, T, F, T, 4, 0),
    ("004:7 双方都宣点 2. 都没开 → 互进2张", T, T, F, F, 2, 2),
    ("004:7 双方都宣点 3. 都开点 → 互进2张", T, T, T, T, 2, 2),
    ("004:7 双方都不宣点 1. 自己开点对家没开 → 对家进1张", F, F, T, F, 0, 1),
    ("004:7 双方都不宣点 1. (mirror)", F, F, F, T, 1, 0),
    ("004:7 双方都不宣点 2. 都没开 → 互进1张", F, F, F, F, 1, 1),
    ("004:7 silent; 002:33 都开点不需要进贡 (decision D12)", F, F, T, T, 0, 0),
    ("004:7 一方宣点 1. 双方都开点 → 宣点方给没宣点方进2张", T, F, T, T, 2, 0),
    ("004:7 一方宣点 2. 双方都没开点 → 没宣点方进2张, 宣点方进1张", T, F, F, F, 1, 2),
    ("004:7 一方宣点 3. 宣点方开点, 没宣点方没开 → 没宣点方进3张", T, F, T, F, 0, 3),
    ("004:7 一方宣点 4. 宣点方没开点, 没宣点方开点 → 宣点方进3张", T, F, F, T, 3, 0),
    ("004:7 一方宣点 1. (b declared)", F, T, T, T, 0, 2),
    ("004:7 一方宣点 2. (b declared)", F, T, F, F, 2, 1),
    ("004:7 一方宣点 3. (b declared, opened)", F, T, F, T, 3, 0),
    ("004:7 一方宣点 4. (b declared, a opened)", F, T, T, F, 0, 3),
]

SHANDONG_DIAN = [
    ("002:32 一方开点一方不开点 → 不开点一方进1张", F, F, T, F, 0, 1),
    ("002:32 (mirror)", F, F, F, T, 1, 0),
    ("002:33 都开点 → 不需要进贡", F, F, T, T, 0, 0),
    ("002:33 都不开点 → 不需要进贡", F, F, F, F, 0, 0),
    ("002:34 被宣点者没开点, 宣点者开点 → 被宣点者进2张", T, F, T, F, 0, 2),
    ("002:34 被宣点者没开点, 宣点者也没开点 → 都不进贡", T, F, F, F, 0, 0),
    ("002:34 被宣点者开点 → 宣点者给被宣点者进2张", T, F, F, T, 2, 0),
    ("002:34 被宣点者开点 (宣点者也开点) → 宣点者进2张", T, F, T, T, 2, 0),
    ("002:34 (b declared) 被宣点 a 没开, b 开点 → a 进2张", F, T, F, T, 2, 0),
    ("002:34 (b declared) a 开点 → b 进2张", F, T, T, F, 0, 2),
    ("002:34 (b declared) 都没开", F, T, F, F, 0, 0),
    ("002:34 (b declared) 都开点", F, T, T, T, 0, 2),
    ("002:34 both declared (D12: the two declarations add up): a opened", T, T, T, F, 0, 4),
    ("002:34 both declared: b opened", T, T, F, T, 4, 0),
    ("002:34 both declared: neither opened", T, T, F, F, 0, 0),
    ("002:34 both declared: both opened", T, T, T, T, 2, 2),
]


def _dian(settings, da, db, oa, ob):  # noqa: ANN001, ANN202
    got = tributes(settings, xuandian={s for s, d in ((0, da), (3, db)) if d},
                   kaidian={s for s, o in ((0, oa), (3, ob)) if o}, burns=[], men=[],
                   order=[None] * 6, complete=False, chuan=False)
    pair = [t for t in got if {t["from"], t["to"]} == {0, 3}]
    ab = sum(t["count"] for t in pair if t["from"] == 0)
    ba = sum(t["count"] for t in pair if t["from"] == 3)
    assert all(t["kind"] == "dian" for t in pair)
    return ab, ba


@pytest.mark.parametrize("cite,da,db,oa,ob,ab,ba", YUCHENG_DIAN, ids=[c[0] for c in YUCHENG_DIAN])
def test_yucheng_dian(cite, da, db, oa, ob, ab, ba) -> None:  # noqa: ANN001
    assert _dian(YUCHENG, da, db, oa, ob) == (ab, ba)


@pytest.mark.parametrize("cite,da,db,oa,ob,ab,ba", SHANDONG_DIAN, ids=[c[0] for c in SHANDONG_DIAN])
def test_shandong_dian(cite, da, db, oa, ob, ab, ba) -> None:  # noqa: ANN001
    assert _dian(SHANDONG, da, db, oa, ob) == (ab, ba)


def test_order_of_kinds_and_counts() -> None:
    """004:19 进贡顺序 点、烧、闷、落; 烧贡 1 (004:5), 闷贡 1 (004:7), 落贡 2 and 1 (004:19)."""
    got = tributes(YUCHENG, xuandian=set(), kaidian={0}, burns=[(1, 2)], men=[(5, 4)],
                   order=[0, 1, 2, 3, 4, 5], complete=True, chuan=False)
    kinds = [t["kind"] for t in got]
    assert kinds == sorted(kinds, key=["dian", "shao", "men", "luo"].index)
    assert {"from": 2, "to": 1, "count": 1, "kind": "shao"} in got
    assert {"from": 5, "to": 4, "count": 1, "kind": "men"} in got
    assert {"from": 5, "to": 0, "count": 2, "kind": "luo"} in got
    assert {"from": 4, "to": 1, "count": 1, "kind": "luo"} in got


def test_luo_same_team_waivable_in_shandong() -> None:
    """002:30 拉贡如果是同帮的话可以免贡."""
    got = tributes(SHANDONG, xuandian=set(), kaidian=set(), burns=[], men=[],
                   order=[0, 2, 1, 3, 5, 4], complete=True, chuan=False)
    assert {"from": 4, "to": 0, "count": 2, "kind": "luo", "waivable": True} in got


# (seed line, finished, bottom (诈烧 first, then 闷), fixed, remaining, complete, order)
ORDERS = [
    ("004:19 plain finishing order", [0, 1, 2, 3, 4], [], {}, [5], True, [0, 1, 2, 3, 4, 5]),
    ("004:27 first 闷 is 大落", [0, 1, 2, 3], [5], {}, [4], True, [0, 1, 2, 3, 4, 5]),
    ("004:27 second 闷 is 二落", [0, 1, 2], [5, 4], {}, [3], True, [0, 1, 2, 3, 4, 5]),
    ("004:27 third 闷 is 四科", [0, 1], [5, 4, 3], {}, [2], True, [0, 1, 2, 3, 4, 5]),
    ("002:17-18 诈烧 is 拉客, the 闷 seat 二拉", [0, 1, 2, 3], [4, 5], {}, [], True, [0, 1, 2, 3, 5, 4]),
    ("004:13 革命 不冲点 is 四科", [1, 2, 3, 4], [], {0: 3}, [5], True, [1, 2, 3, 0, 4, 5]),
    ("004:11 革命 冲点 all beaten is 大拉", [1, 2, 3, 4, 5], [], {0: 5}, [], True, [1, 2, 3, 4, 5, 0]),
    ("004:19 a deal in progress: only decided places are filled", [2], [4], {}, [0, 1, 3, 5], False, [2, None, None, None, None, 4]),
]


@pytest.mark.parametrize("cite,finished,bottom,fixed,remaining,complete,order", ORDERS, ids=[c[0] for c in ORDERS])
def test_finishing_order(cite, finished, bottom, fixed, remaining, complete, order) -> None:  # noqa: ANN001
    assert finishing_order(finished, bottom, fixed, remaining, complete) == order


def test_xuandian_and_kaidian_through_plays(script) -> None:
    """004:7 一方宣点, 宣点方开点, 没宣点方没开点 → 没宣点方进3张, judged from a log."""
    deal = script("""
deal gouji-yucheng leader=0
0 !xuandian
0 KH KS
3 pass
0 4H
""").summary()["deals"][0]
    assert {"from": 3, "to": 0, "count": 3, "kind": "dian"} in deal["tributes"]
    assert deal["kaidian"] == [0]
