"""Whole 够级 deals from the lead to 大落, with and without hands, checked verdict by verdict
and by their summary (order, 开点, tributes)."""

from __future__ import annotations

import pytest

DEAL_A = """
deal {game} leader=0 sizes=2,2,2,2,2,2
0 5H
1 pass
2 pass
3 pass
4 pass
5 pass
0 3H        # 头科 (004:27 憋3: the 3 goes last)
1 pass
2 pass
3 pass
4 pass
5 pass
1 6H        # 接风: the 下家 leads (004:27)
2 pass
3 pass
4 pass
5 pass
1 3S        # 二科 → 四户乱缠 (004:27)
2 pass
3 pass
4 pass
5 pass
2 7H
3 pass
4 pass
5 pass
2 3D
3 pass
4 pass
5 pass
3 8H
4 pass
5 pass
3 3C
4 pass
5 pass
4 9H
5 pass
4 3H        # 二落 is the last to go out; 5 is 大落
5 10H       # gouji.deal_over
"""


def test_deal_a_yucheng(script) -> None:
    """004:19 落贡 (大落→头科 2, 二落→二科 1) and 点贡 (nobody opened: 互进1张)."""
    result = script(DEAL_A.format(game="gouji-yucheng"))
    deal = result.summary()["deals"][0]
    assert deal["order"] == [0, 1, 2, 3, 4, 5]
    assert deal["complete"] is True
    assert deal["kaidian"] == []
    tributes = {(t["from"], t["to"], t["kind"]): t["count"] for t in deal["tributes"]}
    assert tributes == {(5, 0, "luo"): 2, (4, 1, "luo"): 1,
                        (0, 3, "dian"): 1, (3, 0, "dian"): 1, (1, 4, "dian"): 1, (4, 1, "dian"): 1,
                        (2, 5, "dian"): 1, (5, 2, "dian"): 1}


def test_deal_a_shandong(script) -> None:
    """002:40 拉贡 (大拉→头客 2, 二拉→二客 1), 002:30 same-team 拉贡 waivable, 002:33 no 点贡."""
    result = script(DEAL_A.format(game="gouji-shandong"))
    deal = result.summary()["deals"][0]
    assert deal["order"] == [0, 1, 2, 3, 4, 5]
    assert deal["tributes"] == [{"from": 5, "to": 0, "count": 2, "kind": "luo"},
                                {"from": 4, "to": 1, "count": 1, "kind": "luo"}]


DEAL_B = """
deal gouji-yucheng leader=0 sizes=4,3,3,3,3,3
hand 0 KH KS 4H 3H
hand 1 5H 5S 3S
hand 2 6H SJ 3D
hand 3 7H 7S 3C
hand 4 8H 8S 3H
hand 5 9H 9S 3S
0 KH KS     # 纯够级: only the 对门 3 may answer (004:23)
3 pass
0 4H        # 开点 (004:9)
1 5H        # 0 holds only its 3: 闷 by 1 (004:5-7)
2 6H
3 7H
4 8H
5 9H
1 pass
2 pass
3 pass
4 pass
5 9S
1 pass
2 SJ        # 5 闷 by 2; four seats left: 四户乱缠
3 pass
4 pass
2 3D        # 头科
3 7S
4 8S        # 3 闷 by 4 (third 闷 → 四科, 004:27)
1 pass
4 3H        # 二科; 1 is the only seat left
0 3H        # gouji.deal_over
"""


def test_deal_b_men_kaidian(script) -> None:
    result = script(DEAL_B)
    deal = result.summary()["deals"][0]
    assert deal["order"] == [2, 4, 1, 3, 5, 0]            # 闷: 大落, 二落, 四科 in turn (004:27)
    assert deal["kaidian"] == [0]
    assert deal["men"] == [{"seat": 0, "by": 1}, {"seat": 5, "by": 2}, {"seat": 3, "by": 4}]
    t = {(x["from"], x["to"], x["kind"]): x["count"] for x in deal["tributes"]}
    assert t[(3, 0, "dian")] == 1 and (0, 3, "dian") not in t       # 004:19 自己开点对家没开
    assert t[(0, 1, "men")] == 1 and t[(5, 2, "men")] == 1 and t[(3, 4, "men")] == 1   # 004:5-7 闷贡
    assert t[(0, 2, "luo")] == 2 and t[(5, 4, "luo")] == 1          # 004:19 落贡
    kinds = [x["kind"] for x in deal["tributes"]]
    assert kinds == sorted(kinds, key=["dian", "shao", "men", "luo"].index)   # 点、烧、闷、落


DEAL_C = """
deal gouji-yucheng leader=0 sizes=3,5,3,3,3,3
0 KH KS
1 AH AS     # 烧牌: seat 1 burns seat 0's 够级 (004:11)
1 5H SJ     # every burn play carries a joker
1 3S        # the burner goes out: 烧牌成功, 头科
2 pass
3 pass
4 pass
5 pass
0 pass
2 6H        # 接风
3 pass
4 pass
5 pass
0 pass
2 7H
3 pass
4 pass
5 pass
0 pass
2 3D
"""


def test_deal_c_burn(script) -> None:
    result = script(DEAL_C)
    deal = result.summary()["deals"][0]
    assert deal["burns"] == [{"seat": 1, "target": 0}]
    assert {"from": 0, "to": 1, "count": 1, "kind": "shao"} in deal["tributes"]   # 004:19 烧贡
    assert deal["slots"][:2] == [1, 2]


@pytest.mark.parametrize("game", ["gouji-yucheng", "gouji-shandong"], ids=["004:27 憋3 禹城", "002:19 山东"])
def test_deal_observation_only_same_order(script, game: str) -> None:
    """Without hand sizes the 3s mark who went out (004:27 憋3); same order as with sizes."""
    text = DEAL_A.format(game=game).replace(" sizes=2,2,2,2,2,2", "")
    result = script(text)
    assert result.summary()["deals"][0]["order"] == [0, 1, 2, 3, 4, 5]


CHUAN = """
deal gouji-yucheng leader=0
0 5H
0 3H
1 pass
2 6H
2 3D
3 pass
4 7H
4 3S        # 头科 二科 三科 all one team: 串三户, the deal ends (004:13)
5 8H        # gouji.deal_over
"""


def test_chuan_san_hu(script) -> None:
    deal = script(CHUAN).summary()["deals"][0]
    assert deal["chuan"] is True and deal["order"][:3] == [0, 2, 4]
    chuan = [t for t in deal["tributes"] if t["kind"] == "chuan"]
    assert chuan == [{"from": s, "to": (s + 3) % 6, "count": 1, "kind": "chuan"} for s in (1, 3, 5)]
    assert not [t for t in deal["tributes"] if t["kind"] == "luo"]     # 004:19 串三户 replaces 落贡


def test_chuan_shandong_plays_on(script) -> None:
    """002 is silent on 串三户: the Shandong deal goes on to 大拉 (decision D11)."""
    text = CHUAN.replace("gouji-yucheng", "gouji-shandong").replace("5 8H        # gouji.deal_over", "5 8H")
    deal = script(text).summary()["deals"][0]
    assert deal["complete"] is False and "chuan" in deal


def test_jieshao_by_the_burners_opposite_owes_nothing(script) -> None:
    """002:12 解烧直接终止烧牌行为; 004:11 解烧后不用交烧贡."""
    result = script("""
deal gouji-shandong leader=0
0 KH KS
1 AH AS
4 2H 2S
""")
    deal = result.summary()["deals"][0]
    assert "burns" not in deal and result.deals[0].referee.state()["burning"] is None


def test_fanshao_success_takes_the_shao_tribute(script) -> None:
    """002:11 反烧: the counter-burner who goes out is owed the 烧贡 by the first burner."""
    deal = script("""
deal gouji-shandong leader=0 sizes=9,9,5,9,9,9
0 KH KS
1 AH AS
2 2H 2S
2 5H SJ
2 3D
""").summary()["deals"][0]
    assert deal["burns"] == [{"seat": 2, "target": 1}]
    assert {"from": 1, "to": 2, "count": 1, "kind": "shao"} in deal["tributes"]
