"""Round flow of 够级 judged through ``Judge``: turn order, 够级 and the 对门, 烧牌, 开点, 闷,
接风, 四户乱缠, 让牌.  Each case is a script in ``engine.gouji.notation``; a ``# code`` comment
is the fault expected on that line (``@k``: proven by line k); lines without one must be ok.
Every case names the seed line it rests on."""

from __future__ import annotations

import pytest

Y = "deal gouji-yucheng leader=0"
S = "deal gouji-shandong leader=0"

CASES = [
    ("004:23 plays go round 逆时针, each beating the last", f"""
{Y}
0 5H 5S
1 6H 6S
2 7H 7S
3 8H 8S
"""),
    ("spec deal options: without `leader` the first play names the leader", """
deal gouji-shandong
3 5H
4 6H
"""),
    ("004:23 由上班的人出牌: only the leader opens (proven by its lead, D32)", f"""
{Y}
1 5H   # gouji.not_your_lead @2
0 5H
"""),
    ("004:23 过牌之后不能再上牌", f"""
{Y}
0 5H
1 pass
2 6H
1 7H   # gouji.passed_already
"""),
    ("spec turn order: a later seat's play implies the passes between", f"""
{Y}
0 5H
2 6H
1 7H   # gouji.passed_already
3 7H
"""),
    ("002:2 同样张数才能比较: counts must match", f"""
{Y}
0 5H 5S
1 6H   # gouji.count_mismatch
1 6H 6S
"""),
    ("002:2-3 点数增大: a lower play does not beat", f"""
{Y}
0 6H
1 5H   # gouji.does_not_beat
"""),
    ("004:15 equal plays don't beat", f"""
{Y}
0 6H 6S
1 6D 6C   # gouji.does_not_beat
"""),
    ("004:23 the round's winner leads again once all passed", f"""
{Y}
0 5H
1 6H
1 8H
0 9H
"""),
    ("004:23 only the winner may lead the next round", f"""
{Y}
0 5H
1 6H
1 pass  # gouji.leader_must_play
2 pass
3 pass
4 pass
5 pass
0 pass
2 4H    # gouji.not_your_lead
1 4H
"""),
    ("004:15 4 takes no 2s", f"""
{Y}
0 4H 2S   # gouji.four_attached
0 4H 4S
"""),
    ("004:15 4 takes no jokers", f"""
{Y}
0 4H SJ   # gouji.four_attached
"""),
    ("004:27 憋3: 3 不挂花", f"""
{Y}
0 3H SJ   # gouji.three_attached
"""),
    ("004:27 憋3: 3 不贴钱", f"""
{Y}
0 3H 2H   # gouji.three_attached
"""),
    ("004:15 one rank per play (plus 2s and jokers)", f"""
{Y}
0 5H 6H   # gouji.mixed_ranks
"""),
    ("004:27 憋3 with card counts only: a missing play at once, 憋3 once the seat plays again (O3)", """
deal gouji-yucheng leader=0 sizes=3,3,3,3,3,3
0 3H      # gouji.three_not_last @2
0 5H
"""),
    ("004:27 憋3 with the hand known: caught at once", """
deal gouji-yucheng leader=0 sizes=3,3,3,3,3,3
hand 0 3H 5H 6H
0 3H      # gouji.three_not_last
0 5H
"""),
    ("004:27 憋3 observation-only: proven when the seat plays again", f"""
{Y}
0 3H      # gouji.three_not_last @5
1 4H
1 5H
2 6H
0 7H
"""),
    ("004:23 够级: only the 对家 may 上, others only burn; a passed seat cannot burn", f"""
{Y}
0 KH KS
1 pass
1 AH AS   # gouji.burn_after_pass
3 AH AS
"""),
    ("004:23 a passed seat cannot burn, whatever its cards (typed: D37 is for camera plays only)", f"""
{Y}
0 KH KS
1 pass
1 5H 5S   # gouji.burn_after_pass
3 AH AS
"""),
    ("004:23 无论对家有没有过牌，对家都可以上牌", f"""
{Y}
0 5H 5S
1 pass
2 pass
3 pass
4 6H 6S
5 pass
0 KH KS
3 AH AS
"""),
    ("004:25 烧牌 by a non-对门 seat that has not passed", f"""
{Y}
0 KH KS
1 AH AS
1 5H SJ
"""),
    ("004:23 烧牌优先: once declared, the 对门 waits", f"""
{Y}
0 KH KS
2 !burn
3 AH AS   # gouji.burn_first
2 AH AS
"""),
    ("004:25-27 several declare: the 够级 player's own team burns first (decision D9)", f"""
{Y}
0 KH KS
1 !burn
2 !burn
1 AH AS   # gouji.burn_priority
2 AH AS
"""),
    ("004:25-27 declarers all of one side: play order decides", f"""
{Y}
0 KH KS
5 !burn
1 !burn
5 AH AS   # gouji.burn_priority
1 AH AS
"""),
    ("004:25 不能烧对家: one answers the 对门, never burns it", f"""
{Y}
0 KH KS
3 !burn   # gouji.burn_opposite
3 AH AS
"""),
    ("004:25 a burn declared with no 够级 on the table", f"""
{Y}
0 5H
1 !burn   # gouji.burn_nothing
"""),
    ("004:11 解烧之后此轮不可再烧", f"""
{Y}
0 KH KS
1 AH AS
4 2H 2S
5 SJ SJ   # gouji.burn_after_jieshao
1 SJ SJ
"""),
    ("004:27 anyone who beats the burner ends the burn (解烧) in 禹城", f"""
{Y}
0 KH KS
1 AH AS
2 2H 2S
5 SJ SJ
"""),
    ("002:11 反烧: another seat takes over the burn in 山东", f"""
{S}
0 KH KS
1 AH AS
2 2H 2S
2 5H SJ
"""),
    ("004:11/004:25 cond.3: burn plays after the first carry a joker", f"""
{Y}
0 KH KS
1 AH AS
1 5H      # gouji.burn_needs_joker
1 5H BJ
1 6H SJ
"""),
    ("004:11 the last burn play may go without a joker (the 3)", f"""
{Y}
0 KH KS
1 AH AS
1 5H SJ
1 3S
"""),
    ("004:25 cond.4: a seat still holding a 4 may not burn (proven when the 4 shows)", f"""
{Y}
0 KH KS
1 AH AS   # gouji.burn_before_four @11
4 2H 2S
4 6H
5 7H
0 8H
1 9H
2 pass
3 pass
4 pass
1 4H
"""),
    ("002:14 烧牌可以烧队友 (both variants, decision D8)", f"""
{S}
0 KH KS
2 AH AS
"""),
    ("002:13 诈烧: a burn play without a joker makes the burner 拉客", f"""
{S}
0 KH KS
1 AH AS
1 5H
1 6H      # play.after_out
"""),
    ("004:9/004:25 无头 (对家走科) seats beat any 够级 and anyone beats theirs", """
deal gouji-yucheng leader=3 sizes=2,9,9,9,9,9
3 5H
4 pass
5 pass
0 6H
1 pass
2 pass
3 pass
4 pass
5 pass
0 3S
1 pass
2 pass
3 7H
4 pass
5 pass
1 pass
2 pass
3 KH KS
4 AH AS
5 2H 2S
3 SJ SJ
0 BJ BJ   # play.after_out
"""),
    ("004:25 cond.2 无头 seats do not burn", """
deal gouji-yucheng leader=3 sizes=2,9,9,9,9,9
3 5H
4 pass
5 pass
0 6H
1 pass
2 pass
3 pass
4 pass
5 pass
0 3S
1 pass
2 pass
3 pass
4 7H
5 pass
1 pass
2 pass
3 pass
4 KH KS
3 !burn   # gouji.burn_wutou
3 AH AS
"""),
    ("004:25 让牌: the next two pass, the yielding seat plays", f"""
{Y}
0 5H
1 pass
2 pass
3 !rangpai
4 pass
5 pass
3 6H
"""),
    ("004:25 without 让牌 the same seat has passed once the next seats act", f"""
{Y}
0 5H
1 pass
2 pass
4 pass
5 pass
3 6H      # gouji.not_your_lead
"""),
    ("004:25 让牌: a next seat plays, the yielding seat counts as passed", f"""
{Y}
0 5H
1 pass
2 pass
3 !rangpai
4 6H
3 7H      # gouji.passed_already
"""),
    ("004:25 让牌 only on the 对门's non-够级 play", f"""
{Y}
0 KH KS
3 !rangpai   # gouji.rangpai_bad
"""),
    ("002 has no 让牌 (decision D10)", f"""
{S}
0 5H
3 !rangpai   # gouji.not_in_variant
"""),
    ("004:9 开点: an unanswered 纯够级 then at once a 4", f"""
{Y}
0 KH KS
3 pass
0 4H
"""),
    ("004:9 an answered 够级 gives no 开点", f"""
{Y}
0 KH KS
3 AH AS
3 5H
4 pass
5 pass
0 4H      # gouji.does_not_beat
"""),
    ("004:9 a spoken 开点 is confirmed only when earned", f"""
{Y}
0 KH KS
3 pass
0 4H
0 !kaidian
1 !kaidian   # gouji.kaidian_not_earned
"""),
    ("004:11 四户乱缠后不可烧牌: nothing to burn, everyone answers as 无头", f"""
{Y}
0 5H
0 3H
1 6H
1 3S
2 KH KS
4 !burn      # gouji.burn_nothing
4 AH AS
"""),
    ("004:9 可以直接发4认点 (a 4 led otherwise)", f"""
{Y}
0 4H
1 5H
"""),
    ("spec declare: an unknown `what` is flagged, the log goes on", f"""
{Y}
0 5H
1 !nonsense   # gouji.unknown_declare
1 6H
"""),
    ("004:17 four decks dealt out, no 底牌: a bottom event is flagged", f"""
{Y}
0 5H
bottom 5H 6H   # gouji.no_bottom
"""),
    ("004:17 买3 is before play", f"""
{Y}
0 5H
1 !buy3 from=4   # gouji.declare_too_late
"""),
    ("004:27 闷 observation-only: a beaten seat that leads its 3 on 接风 was 闷", f"""
{Y}
0 5H
5 6H
5 3S
0 3H      # gouji.men_out
1 7H
"""),
    ("004:27 闷 observation-only with counts: one card left is the 3", """
deal gouji-yucheng leader=0 sizes=2,9,9,9,9,2
0 5H
5 6H
5 3S
1 7H
0 8H      # gouji.men_out
"""),
    ("004:27 接风: the 下家 of a finished seat leads", """
deal gouji-yucheng leader=0 sizes=2,9,9,9,9,9
0 5H
1 pass
2 pass
3 pass
4 pass
5 pass
0 3H
1 pass
2 pass
3 pass
4 pass
5 pass
2 6H      # gouji.not_your_lead
1 6H
"""),
    ("004:27 接风 after a 够级 last play: only the 对家 may answer", """
deal gouji-yucheng leader=0 sizes=2,9,9,9,9,9
0 KH KS
2 AH AS   # gouji.gouji_only_opposite
3 AH AS
"""),
]


KAIDIAN_CLOSED = [
    ("004:9 有人走头科后不能开点 (禹城)", "gouji-yucheng", []),
    ("004:25 山东 (002 silent): open until 四户乱缠, decision D7", "gouji-shandong", [1]),
]


@pytest.mark.parametrize("cite,game,kaidian", KAIDIAN_CLOSED, ids=[c[0] for c in KAIDIAN_CLOSED])
def test_kaidian_after_touke(script, cite: str, game: str, kaidian: list[int]) -> None:
    deal = script(f"""
deal {game} leader=0
0 5H
0 3H
1 KH KS
4 pass
1 4H
""").summary()["deals"][0]
    assert deal["kaidian"] == kaidian


def test_kaidian_closed_after_the_opposite_went_out(script) -> None:
    """004:25 对家出完牌（革命除外）自己不能开点."""
    deal = script("""
deal gouji-shandong leader=4
4 5H
4 3H
5 6H
1 7H
2 pass
3 pass
5 pass
0 pass
1 KH KS
2 pass
3 pass
5 pass
0 pass
1 4H
""").summary()["deals"][0]
    assert deal["kaidian"] == []


def test_zhashao_ranks_below_men(script) -> None:
    """002:18 诈烧判定的拉客严重于被闷判定为的拉客."""
    deal = script("""
deal gouji-shandong leader=0
0 KH KS
1 AH AS
1 7H      # 诈烧: a burn play without a joker (002:13)
2 8H
2 3D
3 9H
4 10H
5 pass
0 pass
3 JH
3 3C
4 3H      # gouji.men_out
""").summary()["deals"][0]
    assert deal["zhashao"] == [1] and deal["men"] == [{"seat": 4, "by": 3}]
    assert deal["slots"][5] == 1 and deal["slots"][4] == 4 and deal["order"] == [2, 3]


@pytest.mark.parametrize("cite,text", CASES, ids=[c[0] for c in CASES])
def test_flow(script, cite: str, text: str) -> None:
    script(text)
