"""Declarations (亮主/冲主/续牌/粘牌/换底/反主/抄底/回头望), per seed line."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cardref.engine.judge import judge_text


def dec(seat: int, what: str, cards: str = "", **args: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "declare", "seat": seat, "what": what, **args}
    if cards:
        out["cards"] = cards.split()
    return out


def verdicts(game: str, trump: str | None, declares: list[dict[str, Any]], level: str = "7") -> list[str | None]:
    deal = {"type": "deal", "game": game, "level": level, "trump": trump, "dealer": 0}
    result = judge_text([json.dumps(e) for e in [deal, *declares]])
    return [v.fault.code if v.fault else None for v in result.verdicts[1:]]


GF = "guafeng-zibo"
AN, KQ, MC = "chaodipi-anchao", "chaodipi-kangqi", "chaodipi-mingchao"

# (game, trump, declares, expected codes, ref)
CASES = [
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H")], [None], "000:113 one joker and a pair"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H 6H 6H")], [None], "000:113 同花色的连对也可"),
    (GF, "H", [dec(1, "liangzhu", "5H 5H")], ["shengji.declare_bad_cards"], "000:113 needs a joker"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 6H")], ["shengji.declare_bad_cards"], "000:113 needs a pair"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H 6D 6D")], ["shengji.declare_bad_cards"], "000:113 pairs of one suit"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H"), dec(2, "chongzhu", "SJ BJ 6S 6S")], [None, None],
     "000:125 冲主 with two jokers"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H"), dec(2, "chongzhu", "SJ 6S 6S")],
     [None, "shengji.declare_bad_cards"], "000:131 对王冲单王"),
    (GF, "S", [dec(1, "liangzhu", "SJ BJ 5H 5H"), dec(2, "chongzhu", "SJ BJ 6S 6S")],
     [None, "guafeng.chongzhu_not_allowed"], "000:125 only over a one-joker 亮主"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "xupai", "SJ"), dec(2, "chongzhu", "SJ BJ 6S 6S")],
     [None, None, "guafeng.chongzhu_not_allowed"], "000:135 续牌 makes 冲主 harder"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "xupai", "6H 6H")], [None, None], "000:135 pair joins as a run"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H"), dec(0, "kou_di"), dec(2, "chongzhu", "SJ BJ 6S 6S")],
     [None, None, "guafeng.declare_after_kou_di"], "000:125 冲主 在发牌结束前; 000:159 扣底 after dealing"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H"), dec(0, "bury"), dec(2, "chongzhu", "SJ BJ 6S 6S")],
     [None, None, "guafeng.declare_after_kou_di"], "000:125, 000:159: `bury` is 扣底 too"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(0, "kou_di"), dec(1, "xupai", "6H 6H")],
     [None, None, "guafeng.declare_after_kou_di"], "000:135 续牌 在后续发牌中; 000:159 扣底 after dealing"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "xupai", "6H 6H"), dec(0, "kou_di")],
     [None, None, None], "000:135, 000:159 续牌 while dealing, then 扣底"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "xupai", "9H 9H")],
     [None, "guafeng.xupai_not_allowed"], "000:135 only a joining pair"),
    (GF, "H", [dec(1, "liangzhu", "SJ AH AH"), dec(1, "xupai", "2H 2H")], [None, None], "000:141 A前连"),
    (GF, "H", [dec(1, "liangzhu", "SJ AH AH"), dec(1, "xupai", "KH KH")], [None, None], "000:141 A后连"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "xupai", "BJ")], [None, "guafeng.xupai_not_allowed"],
     "000:135 the same joker"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(3, "xupai", "SJ")], [None, "guafeng.xupai_not_allowed"],
     "000:135 by the 亮主 seat"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H"), dec(2, "chongzhu", "SJ BJ 6S 6S"), dec(1, "xupai", "SJ")],
     [None, None, "guafeng.xupai_not_allowed"], "000:137 续牌 before 冲主"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H 6H 6H"), dec(0, "zhanpai", "BJ 6S 6S 7S 7S 8S 8S")], [None, None],
     "000:145 粘牌 example"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H 6H 6H"), dec(0, "zhanpai", "BJ 6S 6S 7S 7S")],
     [None, "guafeng.zhanpai_too_weak"], "000:145 多一对以上"),
    (GF, "S", [dec(1, "liangzhu", "SJ BJ 5H 5H"), dec(0, "zhanpai", "BJ 6S 6S 7S 7S")],
     [None, "guafeng.zhanpai_too_weak"], "000:145 王的数目大于或等于"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H 6H 6H"), dec(0, "zhanpai", "BJ 6S 6S 7S 7S 8S 8S"),
               dec(0, "zhan_return", "5S 4D 4D 6C 6C", to=1)], [None, None, None], "000:149 还牌"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H 6H 6H"), dec(0, "zhanpai", "BJ 6S 6S 7S 7S 8S 8S"),
               dec(0, "zhan_return", "4S 4D 4D 6C 6C", to=1)], [None, None, "guafeng.zhan_return_wrong"],
     "000:155 主必须给大小王、级牌、2、3、5"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H 6H 6H"), dec(0, "zhanpai", "BJ 6S 6S 7S 7S 8S 8S"),
               dec(0, "zhan_return", "5S 4D 4D", to=1)], [None, None, "guafeng.zhan_return_wrong"],
     "000:149 as many cards"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "exchange", "8S 9S", take=["8H", "9H"])], [None, None],
     "000:189 同点数的副牌换主牌"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "exchange", "8S 9S", take=["8H", "7H"])],
     [None, "guafeng.exchange_not_allowed"], "000:189 级牌 cannot be taken"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "exchange", "8S", take=["BJ"])],
     [None, "guafeng.exchange_not_allowed"], "000:167 大小王 cannot be taken"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(1, "exchange", "9S", take=["8H"])],
     [None, "guafeng.exchange_not_allowed"], "000:165 same rank"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(3, "exchange", "8S", take=["8H"])],
     [None, "guafeng.exchange_not_allowed"], "000:163 only the 亮主 seat"),
    (GF, "H", [dec(0, "menpai")], ["shengji.menpai_first_deal"],
     "000:217 如果第一局无人亮主，则须重新发牌 (a lone deal is a log's first; later deals: test_shengji_menpai)"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(0, "menpai")], [None, "shengji.declare_bad_cards"],
     "000:217 闷牌 only when nobody declared"),
    (AN, "S", [dec(1, "liangzhu", "7S")], [None], "003:24 亮主 with a level card"),
    (AN, "S", [dec(1, "liangzhu", "8S")], ["shengji.declare_bad_cards"], "003:24 a level card"),
    (AN, "D", [dec(1, "liangzhu", "7S"), dec(2, "fanzhu", "7D 7D")], [None, None], "003:142 方块对 over 亮主"),
    (MC, "S", [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "7S 7S"), dec(3, "fanzhu", "7C 7C")],
     [None, None, "chaodipi.fanzhu_too_low"], "003:176 梅花对 < 黑桃对 in 明炒"),
    (KQ, "C", [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "7D 7D"), dec(3, "fanzhu", "7C 7C")],
     [None, None, None], "003:162 方块对 < 梅花对 in 扛旗"),
    (MC, None, [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "SJ SJ"), dec(3, "fanzhu", "BJ BJ")],
     [None, None, None], "003:176 小王对 < 大王对"),
    (MC, None, [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "BJ BJ"), dec(3, "fanzhu", "SJ SJ")],
     [None, None, "chaodipi.fanzhu_too_low"], "003:176"),
    (MC, "S", [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "BJ BJ"), dec(3, "fanzhu", "5H 5H", suit="S")],
     [None, None, None], "003:32 红5对 picks a suit"),
    (MC, "S", [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "5H 5H", suit="D"), dec(1, "huitouwang", "7D 7D")],
     [None, None, None], "003:174 回头望 tops 红5对"),
    (KQ, "S", [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "7S 7S"), dec(1, "huitouwang", "7D 7D")],
     [None, None, "chaodipi.no_huitouwang"], "003:162 扛旗 has no 回头望"),
    (AN, "S", [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "7S 7S"), dec(3, "huitouwang", "7D 7D")],
     [None, None, "shengji.declare_bad_cards"], "003:140 only the 亮主 seat"),
    (AN, "S", [dec(1, "liangzhu", "7D 7D"), dec(2, "fanzhu", "7S 7S"), dec(1, "huitouwang", "7D 7D")],
     [None, None, "shengji.declare_bad_cards"], "003:140 only after showing one card"),
    (MC, "S", [dec(1, "liangzhu", "7D"), dec(2, "fanzhu", "7S 8S")], [None, "shengji.declare_bad_cards"],
     "003:26 a pair"),
    (MC, "S", [dec(0, "liangzhu", "7S"), dec(0, "bury"), dec(1, "chaodi", "SJ SJ"), dec(1, "bury")],
     [None, None, None, None], "003:34 抄底 then rebury"),
    (MC, "S", [dec(0, "liangzhu", "7S"), dec(0, "bury", "2C 3C")], [None, "shengji.bottom_wrong_size"],
     "003:8 底牌8张"),
    (GF, "H", [dec(0, "liangzhu", "SJ 5H 5H"), dec(2, "bury")], [None, None], "000:117 庄家亮牌 → partner buries"),
    (GF, "H", [dec(0, "liangzhu", "SJ 5H 5H"), dec(0, "bury")], [None, "guafeng.wrong_burier"], "000:117, 159"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(0, "bury")], [None, None], "000:119 非庄亮牌 → dealer buries"),
    (GF, "H", [dec(1, "liangzhu", "SJ 5H 5H"), dec(2, "bury")], [None, "guafeng.wrong_burier"], "000:159"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H 6H 6H"), dec(3, "zhanpai", "BJ 6S 6S 7S 7S 8S 8S"), dec(2, "bury")],
     [None, None, None], "000:171 粘牌 after an attacker's 亮主: the dealer side agrees"),
    (GF, "S", [dec(1, "liangzhu", "SJ 5H 5H 6H 6H"), dec(3, "zhanpai", "BJ 6S 6S 7S 7S 8S 8S"), dec(3, "bury")],
     [None, None, "guafeng.wrong_burier"], "000:171"),
    (GF, "S", [dec(0, "revolution")], ["shengji.unknown_declare"], "spec: declare what"),
    (AN, "S", [dec(0, "out")], [None], "spec: out"),
]


@pytest.mark.parametrize("game,trump,declares,expected,ref", CASES, ids=[c[4] for c in CASES])
def test_declares(game: str, trump: str | None, declares: list[dict[str, Any]], expected: list[str | None],
                  ref: str) -> None:
    assert verdicts(game, trump, declares) == expected, ref


def test_anchao_hidden_chaodi_failure_costs_80() -> None:
    """003 line 144: 暗炒 — a 炒底 lower than the trump is 炒底失败: dealer side +80 to attackers, attackers −80."""
    deal = {"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": None, "dealer": 0}
    events = [deal, dec(0, "liangzhu", "7S"), dec(1, "fanzhu", "BJ BJ"), dec(2, "chaodi", "7D 7D"),
              dec(3, "chaodi", "7C 7C")]
    result = judge_text([json.dumps(e) for e in events])
    assert all(v.ok for v in result.verdicts)
    assert result.summary()["deals"][0]["bonus_points"] == 80 - 80


def test_trump_must_match_declares() -> None:
    """The deal's trump contradicts what the shown cards declared: proven at the first play."""
    deal = {"type": "deal", "game": "guafeng-zibo", "level": "7", "trump": "S", "dealer": 0,
            "hand_sizes": [1, 1, 1, 1]}
    events = [deal, dec(1, "liangzhu", "SJ 5H 5H"), {"type": "play", "seat": 0, "cards": ["4D"]}]
    result = judge_text([json.dumps(e) for e in events])
    assert result.verdicts[1].fault.code == "shengji.trump_contradicts_declare"
    assert result.verdicts[1].fault.proven_at == 2
    events.append(dec(2, "liangzhu", "SJ 5S 5S"))
    result = judge_text([json.dumps(e) for e in events])
    assert result.verdicts[3].fault.code == "shengji.declare_after_play"


def test_first_deal_chongzhu_seat_deals() -> None:
    """000 line 127: 首轮冲主由冲主者为庄家."""
    deal = {"type": "deal", "game": "guafeng-zibo", "level": "A", "trump": "S", "dealer": 0,
            "hand_sizes": [1, 1, 1, 1]}
    events = [deal, dec(0, "liangzhu", "SJ 5H 5H"), dec(2, "chongzhu", "SJ BJ 6S 6S"),
              {"type": "play", "seat": 0, "cards": ["4D"]}]
    result = judge_text([json.dumps(e) for e in events])
    assert result.verdicts[2].fault.code == "shengji.first_dealer_not_declarer"
    events[0] = dict(deal, dealer=2)
    events[3] = {"type": "play", "seat": 2, "cards": ["4D"]}
    assert all(v.ok for v in judge_text([json.dumps(e) for e in events]).verdicts)


def test_every_case_cites_a_seed_line() -> None:
    """Each row names its seed (000 = shared/seeds/000_4e95b884d4f4d9e2.txt 刮风,
    003 = shared/seeds/003_50a5b68db21d70bd.txt 炒地皮) and line, or the spec."""
    for table in (CASES,):
        for row in table:
            assert re.match(r"^(000|003):\d|^spec|^hand events", row[-1]), row
