"""Before play: 买3买4, 宣点, 扛贡, 进贡, 革命, 冲点 and the head choices, as ``declare`` events
judged where the cards are visible.  Each case cites its seed line."""

from __future__ import annotations

import pytest

Y = "deal gouji-yucheng leader=0"
S = "deal gouji-shandong leader=0"

CASES = [
    ("004:17 买3: a seat without 3 pays its 对头 a 2", f"""
{Y}
hand 0 5H 2H
hand 3 3H 3S 6H
0 !buy3 from=3 2H
"""),
    ("004:17 买3 from the 对头 first when it has a spare", f"""
{Y}
hand 0 5H 2H
hand 2 3H 3S
hand 3 3H 3S 6H
0 !buy3 from=2   # gouji.buy_wrong_seller
0 !buy3 from=3 2H
"""),
    ("004:17 对头 with one 3 only: ask the 联邦 (free)", f"""
{Y}
hand 0 5H 2H
hand 2 3H 3S
hand 3 3H 6H
0 !buy3 from=3 2H   # gouji.buy_no_spare
0 !buy3 from=2
"""),
    ("004:17 then the 对头's 联邦, paying a 2", f"""
{Y}
hand 0 5H 2H
hand 2 3H 9S
hand 4 3C 9S
hand 3 3H 6H
hand 1 3S 3D
0 !buy3 from=1 2H
"""),
    ("004:17 a teammate with a spare comes before the other team", f"""
{Y}
hand 0 5H 2H
hand 4 3H 3S
hand 3 3H 6H
0 !buy3 from=1 2H   # gouji.buy_wrong_seller
"""),
    ("004:17 without 3 and without 2: the 3 is free", f"""
{Y}
hand 0 5H 6H
hand 3 3H 3S
0 !buy3 from=3
"""),
    ("004:17 paid with a 2 when one is held", f"""
{Y}
hand 0 5H 2H
hand 3 3H 3S
0 !buy3 from=3   # gouji.buy_wrong_payment
"""),
    ("004:17 禹城 buys with a 2 only, never a joker (decision D16)", f"""
{Y}
hand 0 5H SJ
hand 3 3H 3S
0 !buy3 from=3 SJ   # gouji.buy_wrong_payment
0 !buy3 from=3
"""),
    ("002:24 山东: no 2 → pay with a joker", f"""
{S}
hand 0 5H SJ
hand 3 3H 3S
0 !buy3 from=3   # gouji.buy_wrong_payment
0 !buy3 from=3 SJ
"""),
    ("002:23 a seat holding a 3 does not buy", f"""
{Y}
hand 0 3D 2H
hand 3 3H 3S
0 !buy3 from=3 2H   # gouji.buy_not_needed
"""),
    ("004:17-19 买4 works the same way", f"""
{Y}
hand 0 5H 2H
hand 3 4H 4S
0 !buy4 from=3 2H
"""),
    ("004:17 the seller is a seat", f"""
{Y}
0 !buy3 from=0   # gouji.buy_bad_seller
"""),
    ("002:23 3每个人必须有一张: a seat starting play without a 3", """
deal gouji-yucheng leader=0 sizes=2,2,2,2,2,2
hand 0 5H 6H
0 5H   # gouji.must_buy3
"""),
    ("004:19 宣点 names the 对家", f"""
{Y}
0 !xuandian target=2   # gouji.xuandian_target
0 !xuandian
"""),
    ("004:19 3大 扛自己", f"""
{Y}
hand 0 BJ BJ BJ 5H
0 !kangong
"""),
    ("004:19 4小 扛自己", f"""
{Y}
hand 0 SJ SJ SJ SJ 5H
0 !kangong
"""),
    ("004:19 two 大花 and three 小花 are not enough", f"""
{Y}
hand 0 BJ BJ SJ SJ SJ
0 !kangong   # gouji.kangong_not_allowed
"""),
    ("002:41 山东 needs four of a kind of joker", f"""
{S}
hand 0 BJ BJ BJ 5H
0 !kangong   # gouji.kangong_not_allowed
"""),
    ("004:19 扛自己: the seat pays no tribute this deal", f"""
{Y}
hand 0 BJ BJ BJ 5H
0 !kangong
0 !tribute target=3 kind=dian BJ   # gouji.tribute_shielded
"""),
    ("002:41 四大扛全场: all teammates' tributes cleared", f"""
{S}
hand 0 BJ BJ BJ BJ 5H
0 !kangong
2 !tribute target=5 kind=dian 2H   # gouji.tribute_shielded
1 !tribute target=4 kind=dian 2H
"""),
    ("004:19 进贡 the largest card", f"""
{Y}
hand 0 BJ 5H
0 !tribute target=3 kind=dian 5H   # gouji.tribute_not_largest
0 !tribute target=3 kind=dian BJ
"""),
    ("004:19 suits don't matter for the largest", f"""
{Y}
hand 0 AH AS 5H
0 !tribute target=3 kind=luo AS
"""),
    ("004:19 进贡顺序 点、烧、闷、落", f"""
{Y}
0 !tribute target=3 kind=luo 5H
1 !tribute target=4 kind=dian 6H   # gouji.tribute_order
"""),
    ("002:25 吃了不吐: a 2 received for a 3 is never given as tribute", f"""
{Y}
hand 0 5H 2H
hand 3 3H 3S AH
0 !buy3 from=3 2H
3 !tribute target=0 kind=dian AH
"""),
    ("002:25 吃了不吐: the 2 received for a 3 is not itself a tribute", f"""
{Y}
hand 0 5H 2H
hand 3 3H 3S AH
0 !buy3 from=3 2H
3 !tribute target=0 kind=dian 2H   # gouji.tribute_eaten
3 !tribute target=0 kind=dian AH
"""),
    ("002:25 吃了不吐: an own 2 of another suit is still the tribute", f"""
{Y}
hand 0 5H 2H
hand 3 3H 3S 2S
0 !buy3 from=3 2H
3 !tribute target=0 kind=dian 2H   # gouji.tribute_eaten
3 !tribute target=0 kind=dian 2S
"""),
    ("002:25 吃了不吐: an own copy of the same card may be given", f"""
{Y}
hand 0 5H 2H
hand 3 3H 3S 2H
0 !buy3 from=3 2H
3 !tribute target=0 kind=dian 2H
"""),
    ("002:27 吃了的贡就是点数最大也不能进: a received tribute is not given on", f"""
{Y}
hand 0 BJ 5H
hand 3 KH 9H
0 !tribute target=3 kind=dian BJ
3 !tribute target=1 kind=men BJ   # gouji.tribute_eaten
3 !tribute target=1 kind=men KH
"""),
    ("002:27 吃了的贡 cannot be passed on", f"""
{Y}
hand 0 BJ 5H
hand 3 KH 9H
0 !tribute target=3 kind=dian BJ
3 !tribute target=1 kind=men KH
"""),
    ("002:41 山东: cards below a 2 are no tribute", f"""
{S}
hand 0 AH 5H
0 !tribute target=3 kind=dian AH   # gouji.tribute_too_small
"""),
    ("002:52 山东 order: 扛贡 → 宣点 → 买3买4 → 进贡 → 冲点", f"""
{S}
0 !tribute target=3 kind=dian 2H
1 !xuandian   # gouji.declare_out_of_order
"""),
    ("004:11 革命: no 大小王 and no 2 in hand", f"""
{Y}
hand 0 5H 6H 7H
hand 1 2H 6H 7H
1 !revolution   # gouji.revolution_not_allowed
0 !revolution
"""),
    ("004:13 同一局中如果有2个玩家革命，则此局作废", f"""
{Y}
0 !revolution
1 !revolution
0 5H   # gouji.deal_void
"""),
    ("002:46 has 冲点 but no 革命 (a 禹城 rule, 004:11)", f"""
{S}
0 !revolution   # gouji.not_in_variant
"""),
    ("004:11 冲点 only after 革命", f"""
{Y}
0 !chongdian   # gouji.chongdian_needs_revolution
"""),
    ("004:11 没有三手纯够级不能冲点", f"""
{Y}
hand 0 KH KS QH QS QD 5H
0 !revolution
0 !chongdian   # gouji.chongdian_not_allowed
"""),
    ("002:46 冲点: nothing above an A", f"""
{S}
hand 0 KH KS QH QS QD JH JS JD JC 2H
0 !chongdian   # gouji.chongdian_not_allowed
"""),
    ("002:48 three 冲点 void the deal", f"""
{S}
0 !chongdian
1 !chongdian
2 !chongdian
0 KH KS   # gouji.deal_void
"""),
    ("004:9 要头 belongs to the 对家 of a 革命 seat", f"""
{Y}
0 !revolution
1 !yaotou   # gouji.head_choice_not_allowed
3 !yaotou
"""),
    ("004:9 认点 after 开点 makes no sense", f"""
{Y}
0 KH KS
3 pass
0 4H
0 !rendian   # gouji.rendian_after_kaidian
"""),
    ("spec: `out` for logs without hands; not while cards are left", """
deal gouji-yucheng leader=0 sizes=2,2,2,2,2,2
0 5H
0 !out   # gouji.out_with_cards
"""),
]


@pytest.mark.parametrize("cite,text", CASES, ids=[c[0] for c in CASES])
def test_declare(script, cite: str, text: str) -> None:
    script(text)


CHONG = """
deal gouji-yucheng leader=1
0 !revolution
0 !chongdian
0 KH KS
3 {a1}
0 QH QS QD
3 {a2}
0 JH JS JD JC
3 {a3}
1 5H
"""

# (seed line, answers of the 对门 (or "pass"), 冲点 seat's slot, 开点 set)
CHONG_CASES = [
    ("004:11 case 1: all three beaten, one with 纯够级 → 大拉, 对门 开点",
     ("AH AS", "KH KS KD", "QH QS QC QD"), 5, [3]),
    ("004:11 case 2: all three beaten with 挂王 → 大拉, nobody 开点",
     ("SJ AS", "SJ KH KS", "SJ QH QS QC"), 5, []),
    ("004:13 case 3: one stood, one beaten with 纯够级 → 四科 开点, 对门 开点",
     ("AH AS", "pass", "SJ QH QS QC"), 3, [0, 3]),
    ("004:13 case 4: none beaten → 四科 开点, 对门 not",
     ("pass", "pass", "pass"), 3, [0]),
    ("004:13 case 4: beaten only with 挂王 → 四科 开点, 对门 not",
     ("SJ AS", "pass", "SJ QH QS QC"), 3, [0]),
]


@pytest.mark.parametrize("cite,answers,slot,kaidian", CHONG_CASES, ids=[c[0] for c in CHONG_CASES])
def test_chongdian_yucheng(script, cite: str, answers: tuple[str, str, str], slot: int, kaidian: list[int]) -> None:
    text = CHONG.format(**{f"a{k + 1}": a for k, a in enumerate(answers)})
    deal = script(text).summary()["deals"][0]
    assert deal["slots"][slot] == 0
    assert deal["kaidian"] == kaidian


@pytest.mark.parametrize("answers,kaidian,slot", [
    (("AH AS", "KH KS KD", "QH QS QC QD"), [3], 3),
    (("AH AS", "pass", "QH QS QC QD"), [0], 3),
], ids=["002:46 all three beaten: 四客 without 开点, 对门 开点", "002:46 one stood: 四客 and 开点"])
def test_chongdian_shandong(script, answers: tuple[str, str, str], kaidian: list[int], slot: int) -> None:
    text = CHONG.format(**{f"a{k + 1}": a for k, a in enumerate(answers)})
    text = text.replace("gouji-yucheng", "gouji-shandong").replace("0 !revolution\n", "")
    deal = script(text).summary()["deals"][0]
    assert deal["slots"][slot] == 0 and deal["kaidian"] == kaidian


def test_chongdian_failure_throws_fours(script) -> None:
    """002:46 对门被视为开点并且扔掉4继续游戏: the 对门 has no 4 left to play."""
    text = CHONG.format(a1="AH AS", a2="KH KS KD", a3="QH QS QC QD").replace(
        "gouji-yucheng", "gouji-shandong").replace("0 !revolution\n", "")
    script(text + "2 pass\n3 4H   # gouji.four_discarded\n")


def test_throw4_gives_the_count_back(script) -> None:
    """002:46 扔掉4: without hands, ``throw4`` tells how many cards the 对门 has left."""
    text = CHONG.format(a1="AH AS", a2="KH KS KD", a3="QH QS QC QD").replace(
        "gouji-yucheng", "gouji-shandong").replace("0 !revolution\n", "").replace(
        "deal gouji-shandong leader=1", "deal gouji-shandong leader=1 sizes=20,20,20,20,20,20")
    result = script(text + "3 !throw4 4H 4S\n1 !throw4 4C   # gouji.throw4_bad\n")
    assert result.deals[0].referee.counts[3] == 20 - 9 - 2


def test_chongdian_plays_must_be_pure(script) -> None:
    script("""
deal gouji-yucheng leader=1
0 !revolution
0 !chongdian
0 2H KH KS   # gouji.chongdian_not_pure
0 KH KS
1 5H         # observe.missing_play
""")


def test_chongdian_unfinished_with_hands_is_a_fault(script) -> None:
    """004:11 冲点 is three plays in a row; with the 冲点 seat's hand known no gap explains
    another seat's play before they are over (docs/rules/observation.md, O4)."""
    script("""
deal gouji-yucheng leader=1
hand 0 KH KS QH QS QD AH AS 5S
0 !revolution
0 !chongdian
0 KH KS
1 5H         # gouji.chongdian_unfinished
""")


def test_revolution_without_chongdian(script) -> None:
    """004:13 选择不冲点：革命方默认为本局四科，不开点，对门默认自动开点."""
    deal = script("""
deal gouji-yucheng leader=0
0 !revolution
1 5H
0 6H   # gouji.revolution_out
""").summary()["deals"][0]
    assert deal["slots"][3] == 0 and deal["kaidian"] == [3]


def test_quan_san_hu(script) -> None:
    """004:13 革命 seat's partners take 头科 二科: it counts 三科 (圈三户), 串贡 follow."""
    deal = script("""
deal gouji-yucheng leader=2
0 !revolution
2 5H
2 3D
3 6H
4 7H
4 3H
5 8H   # gouji.deal_over
""").summary()["deals"][0]
    assert deal["order"][:3] == [2, 4, 0] and deal["chuan"] is True
    assert {"from": 1, "to": 4, "count": 1, "kind": "chuan"} in deal["tributes"]


def test_yaotou_three_dead_gouji_then_wutou() -> None:
    """004:9 要头: the first three 够级 of the 对家 are 死够级 (nobody answers, only burning),
    then it is 无头 and anyone may answer."""
    from cardref.engine.gouji.notation import parse_script
    from cardref.engine.judge import LiveJudge

    live = LiveJudge()
    owners = []
    for ev in parse_script("""
deal gouji-yucheng leader=3
0 !revolution
3 !yaotou
3 KH KS
3 QH QS QD
3 JH JS JD JC
3 KH KS
"""):
        verdicts = live.feed(ev)
        assert all(v.ok for v in verdicts), verdicts
        owners.append(live.state().get("gouji_owner"))
    assert owners[3:6] == [3, 3, 3]            # three 死够级: only burning may take them
    assert owners[6] is None                   # after three: 无头
    assert 3 in live.state()["wutou"]


@pytest.mark.parametrize("head,kaidian", [("", [0]), ("3 !wutou\n", [0]), ("3 !youtou\n", [0, 3])],
                         ids=["002:49-50 default 无头 (D15)", "002:50 无头 loses 开点", "002:50 有头 keeps 开点"])
def test_shandong_head_after_successful_chongdian(script, head: str, kaidian: list[int]) -> None:
    """002:49-50 有头 keeps 开点 for the 对门 of a successful 冲点, 无头 (chosen or default) loses it."""
    text = CHONG.format(a1="AH AS", a2="pass", a3="QH QS QC QD").replace(
        "gouji-yucheng", "gouji-shandong").replace("0 !revolution\n", "")
    text = text.replace("1 5H\n", head + "1 5H\n")
    text += "3 6H\n4 pass\n5 pass\n1 pass\n2 pass\n3 KH KS\n4 pass\n5 pass\n1 pass\n2 pass\n3 4H\n"
    deal = script(text).summary()["deals"][0]
    assert deal["kaidian"] == kaidian
