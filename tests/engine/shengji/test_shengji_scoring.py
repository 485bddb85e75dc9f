"""Points, the bottom and its multipliers, and the level tables, per seed line."""

from __future__ import annotations

import re

import pytest

from cardref.engine.cards import Rank, Suit, parse_cards
from cardref.engine.shengji.levels import TeamLevel, advance, level_index, table_outcome
from cardref.engine.shengji.order import TrumpOrder
from cardref.engine.shengji.points import bottom_value, points, score_bottom
from cardref.engine.shengji.settings import ALL_SETTINGS, ANCHAO, GUAFENG, KANGQI, MINGCHAO

GF = "guafeng-zibo"
AN, KQ, MC = "chaodipi-anchao", "chaodipi-kangqi", "chaodipi-mingchao"


def order(game: str, level: str = "7", trump: str | None = "S") -> TrumpOrder:
    rank = {r.code: r for r in Rank}[level]
    return TrumpOrder(ALL_SETTINGS[game], rank, Suit(trump) if trump else None)


@pytest.mark.parametrize("cards,value,ref", [
    ("5S", 5, "003:10 5 = 5"), ("10H", 10, "003:10 10 = 10"), ("KD", 10, "003:10 K = 10"),
    ("QC", 0, "003:10"), ("5H 10H KH", 25, "003:10"), ("BJ SJ AS", 0, "003:10"),
])
def test_card_points(cards: str, value: int, ref: str) -> None:
    assert points(parse_cards(cards.split())) == value, ref


# (game, level, bottom, value, ref)
BOTTOM_VALUES = [
    (GF, "7", "BJ 4S 4H 6D", 100, "000:199 大王 100"),
    (GF, "7", "SJ 4S 4H 6D", 50, "000:201 小王 50"),
    (GF, "7", "7H 4S 4H 6D", 20, "000:203 级牌 20 (not 30 of line 187)"),
    (GF, "7", "10H KS 4H 6D", 20, "000:205 10/K 10"),
    (GF, "7", "5H 4S 4H 6D", 5, "000:207 5 = 5"),
    (GF, "5", "5H 4S 4H 6D", 20, "000:207 a level 5 counts 20 only"),
    (GF, "10", "10H 4S 4H 6D", 20, "000:207 a level 10 counts 20 only"),
    (GF, "K", "KH KD BJ SJ", 190, "000:199-207"),
    (AN, "7", "5D 10D KD 4S 4H 6D 8C 9C", 25, "003:42 分牌分数"),
    (AN, "7", "BJ SJ 7H 4S 4H 6D 8C 9C", 0, "003:42 only 分牌 count"),
]


@pytest.mark.parametrize("game,level,cards,value,ref", BOTTOM_VALUES, ids=[b[4] for b in BOTTOM_VALUES])
def test_bottom_value(game: str, level: str, cards: str, value: int, ref: str) -> None:
    assert bottom_value(parse_cards(cards.split()), order(game, level)) == value, ref


# (game, bottom, last winning play, attackers won, multiplier, shangtian, ref)
MULTIPLIERS = [
    (GF, "BJ 4S 4H 6D", "4S", True, 1, None, "000:213 one card × bottom"),
    (GF, "BJ 4S 4H 6D", "4S 4S 6S 6S", True, 4, None, "000:213 four cards × bottom"),
    (GF, "BJ 4S 4H 6D", "AH", True, 0, None, "000:209 the winning play must be trump"),
    (GF, "BJ 4S 4H 6D", "4S", False, 0, None, "000:209 dealer side keeps the bottom"),
    (AN, "5D 10D KD 4S 4H 6D 8C 9C", "AH", True, 2, None, "003:42 singles ×2"),
    (AN, "5D 10D KD 4S 4H 6D 8C 9C", "AH AH", True, 4, None, "003:44 pairs ×4"),
    (AN, "5D 10D KD 4S 4H 6D 8C 9C", "AH KH", True, 2, None, "003:42"),
    (AN, "5D 10D KD 4S 4H 6D 8C 9C", "AH", False, 0, None, "003:40 庄家方大，不抠底"),
    (AN, "5D 10D KD 4S 4H 6D 8C 9C", "5C 10C KC", True, 2, "attackers", "003:46 上天入地"),
    (AN, "5D 10D KD 4S 4H 6D 8C 9C", "5C 10C KC", False, 0, "dealer", "003:158 保底 上天入地 in 暗炒"),
    (AN, "5D 10D KD 4S 4H 6D 8C 9C", "5C 5C 10C 10C KC KC", True, 4, None, "003:158 pairs: no 上天入地"),
    (KQ, "5D 10D KD 4S 4H 6D 8C 9C", "5C 5C 10C 10C KC KC", True, 4, "attackers", "003:170 含有"),
    (KQ, "5D 10D KD 4S 4H 6D 8C 9C", "5C 10C KC", False, 0, None, "003:170 attackers only"),
    (MC, "5D 10D KD 4S 4H 6D 8C 9C", "5C 10C KC 9C 9C 8C", True, 4, "attackers", "003:186 含有"),
]


@pytest.mark.parametrize("game,bottom,play,won,mult,shangtian,ref", MULTIPLIERS, ids=[m[6] for m in MULTIPLIERS])
def test_bottom_multiplier(game: str, bottom: str, play: str, won: bool, mult: int, shangtian: str | None,
                           ref: str) -> None:
    r = score_bottom(parse_cards(bottom.split()), parse_cards(play.split()), won, order(game))
    assert (r.multiplier, r.shangtian) == (mult, shangtian), ref


# 炒地皮 table (003 lines 88-128): (points, dealer keeps, levels)
CHAODIPI_TABLE = [
    (-20, True, 11, "003:88 类推"), (-15, True, 11, "003:88"), (-10, True, 10, "003:90"), (-5, True, 10, "003:90"),
    (0, True, 9, "003:92 大光"), (5, True, 8, "003:94"), (10, True, 7, "003:96"), (15, True, 7, "003:96"),
    (20, True, 6, "003:98"), (25, True, 6, "003:98"), (30, True, 5, "003:100"), (35, True, 5, "003:100"),
    (40, True, 4, "003:102"), (45, True, 4, "003:102"), (50, True, 3, "003:104"), (55, True, 3, "003:104"),
    (60, True, 2, "003:106"), (65, True, 2, "003:106"), (70, True, 1, "003:108"), (75, True, 1, "003:108"),
    (80, False, 0, "003:110 换庄"), (85, False, 0, "003:110"), (90, False, 1, "003:112"), (95, False, 1, "003:112"),
    (100, False, 2, "003:114"), (105, False, 2, "003:114"), (110, False, 3, "003:116"), (120, False, 4, "003:118"),
    (130, False, 5, "003:120"), (140, False, 6, "003:122"), (150, False, 7, "003:124"), (160, False, 8, "003:126"),
    (165, False, 8, "003:126"), (170, False, 9, "003:128 类推"), (180, False, 10, "003:128 类推"),
]


@pytest.mark.parametrize("settings", [ANCHAO, KANGQI, MINGCHAO], ids=lambda s: s.name)
@pytest.mark.parametrize("pts,keeps,levels,ref", CHAODIPI_TABLE, ids=[f"{t[3]}:{t[0]}" for t in CHAODIPI_TABLE])
def test_chaodipi_table(settings, pts: int, keeps: bool, levels: int, ref: str) -> None:
    out = table_outcome(pts, settings)
    assert (out.dealer_keeps, out.levels) == (keeps, levels), ref


GUAFENG_TABLE = [
    (-40, True, 4, "000:245"), (-5, True, 4, "000:245"), (0, True, 3, "000:247"),
    (-45, True, 5, "000:241 completed: every 40 a level"), (5, True, 2, "000:241 completed"),
    (35, True, 2, "000:241 completed"), (40, True, 1, "000:241 completed"), (75, True, 1, "000:241 completed"),
    (80, False, 0, "000:241 80 即上庄"), (115, False, 0, "000:241"), (120, False, 1, "000:241 每超40分升一级"),
    (160, False, 2, "000:241"), (200, False, 3, "000:241"),
]


@pytest.mark.parametrize("pts,keeps,levels,ref", GUAFENG_TABLE, ids=[f"{t[3]}:{t[0]}" for t in GUAFENG_TABLE])
def test_guafeng_table(pts: int, keeps: bool, levels: int, ref: str) -> None:
    out = table_outcome(pts, GUAFENG)
    assert (out.dealer_keeps, out.levels) == (keeps, levels), ref


def test_kangqi_flag_threshold() -> None:
    """003 line 164: 抓分方必须拿满 100 分才可以上台."""
    assert table_outcome(95, KANGQI, take_at=100).dealer_keeps
    assert not table_outcome(100, KANGQI, take_at=100).dealer_keeps


# (settings, start level, round, levels up, expected level, expected round, ref)
ADVANCE = [
    (GUAFENG, "9", 1, 4, "J", 1, "000:221 逢J必打"),
    (GUAFENG, "J", 1, 3, "K", 1, "000:229 逢K必打"),
    (GUAFENG, "Q", 1, 1, "K", 1, "000:229"),
    (GUAFENG, "K", 1, 2, "2", 2, "000:21 after K comes A again"),
    (GUAFENG, "A", 1, 2, "3", 1, "000:7 from A"),
    (ANCHAO, "Q", 1, 3, "2", 2, "003:152 A may be skipped in 圈 1"),
    (ANCHAO, "Q", 3, 3, "A", 3, "003:152 第三圈的A必打"),
    (MINGCHAO, "9", 1, 4, "J", 1, "003:180 J必打"),
    (MINGCHAO, "J", 1, 3, "K", 1, "003:180 title J、K必打"),
    (MINGCHAO, "K", 1, 3, "A", 1, "003:180 A必打"),
    (KANGQI, "Q", 1, 3, "A", 1, "003:164 A must be played before 扛旗"),
    (KANGQI, "2", 1, 3, "5", 1, "003:22"),
]


@pytest.mark.parametrize("settings,start,rnd,up,end,end_round,ref", ADVANCE, ids=[a[6] for a in ADVANCE])
def test_advance(settings, start: str, rnd: int, up: int, end: str, end_round: int, ref: str) -> None:
    rank = {r.code: r for r in Rank}
    new, _ = advance(TeamLevel(level_index(rank[start], settings), rnd), up, settings)
    assert (new.rank(settings).code, new.round) == (end, end_round), ref


def test_every_case_cites_a_seed_line() -> None:
    """Each row names its seed (000 = shared/seeds/000_4e95b884d4f4d9e2.txt 刮风,
    003 = shared/seeds/003_50a5b68db21d70bd.txt 炒地皮) and line, or the spec."""
    for table in (BOTTOM_VALUES, MULTIPLIERS, CHAODIPI_TABLE, GUAFENG_TABLE, ADVANCE):
        for row in table:
            assert re.match(r"^(000|003):\d|^spec|^hand events", row[-1]), row
