"""What cards make (风牌/连对, 雨牌, 雷牌, 闪牌, 5-10-K, 甩牌), per seed line."""

from __future__ import annotations

import re

import pytest

from cardref.engine.cards import Rank, Suit, parse_cards
from cardref.engine.shengji.combos import Kind, classify
from cardref.engine.shengji.order import TrumpOrder
from cardref.engine.shengji.settings import ALL_SETTINGS

GF = "guafeng-zibo"
AN, KQ, MC = "chaodipi-anchao", "chaodipi-kangqi", "chaodipi-mingchao"


def combo(game: str, level: str, trump: str | None, text: str):
    rank = {r.code: r for r in Rank}[level]
    o = TrumpOrder(ALL_SETTINGS[game], rank, Suit(trump) if trump else None)
    return classify(parse_cards(text.split()), o)


# (game, level, trump, cards, kind, tractor length or None, ref)
CASES = [
    (GF, "7", "S", "6S 6S", Kind.PAIR, None, "000:43 黑桃66"),
    (GF, "7", "S", "3S 3S 4S 4S", Kind.TRACTOR, 2, "000:43 黑桃3344"),
    (GF, "7", "H", "5H 5H 6H 6H 7H 7H", Kind.TRACTOR, 3, "000:43 红桃556677 with ♥ trump"),
    (GF, "7", "S", "3H 3H 4H 4H", Kind.MIXED, None, "000:45 红桃3344 is not 风牌"),
    (GF, "7", "S", "5D 5D 6D 6D 7D 7D", Kind.MIXED, None, "000:45 方块556677 is not 风牌"),
    (GF, "7", "S", "2S 2S 3S 3S", Kind.TRACTOR, 2, "000:45 黑桃2233 is 风牌"),
    (GF, "7", "S", "AS AS 2S 2S", Kind.TRACTOR, 2, "000:65 AA22"),
    (GF, "7", "S", "BJ BJ SJ SJ", Kind.TRACTOR, 2, "000:55 jokers 姊妹对"),
    (GF, "7", "S", "6H 6H 8H 8H", Kind.TRACTOR, 2, "000:63 decision: the level rank is skipped"),
    (GF, "7", "S", "7H 7H 7D 7D", Kind.THROW, None, "000:47 off-suit level pairs never join"),
    (GF, "7", "S", "5H 5H 5D 5D", Kind.THROW, None, "000:45 off-suit 常主 pairs never join"),
    (GF, "7", "S", "AS AS 4S 4S", Kind.THROW, None, "000:47 主牌 runs only by face value"),
    (GF, "7", "S", "6H 6H 7S 7S", Kind.MIXED, None, "000:47 主牌和副牌不能相连"),
    (GF, "7", "S", "QD QD KD KD AD AD", Kind.TRACTOR, 3, "000:63"),
    (GF, "7", "S", "3H 4H 5H 6H 6H 7H 8H 8H 9H", Kind.MIXED, None, "000:79 off-suit 常主 not in 雨牌"),
    (GF, "7", "H", "3H 4H 5H 6H 6H 7H 8H 8H 9H", Kind.YU, None, "000:77 红桃3、4、5、66、7、88、9"),
    (GF, "9", "S", "8H 10H JH QH KH", Kind.YU, None, "000:77 five in a row (9 skipped)"),
    (GF, "7", "S", "6D 8D 9D 10D JD", Kind.YU, None, "000:79 6788910 without the 7"),
    (GF, "7", "S", "8D 9D 10D JD", Kind.THROW, None, "000:77 four is not 雨牌"),
    (GF, "7", "S", "5S 5H 5D 5C", Kind.LEI, None, "000:85 雷牌"),
    (GF, "7", "S", "7S 7H 7D 7C", Kind.LEI, None, "000:93 level card 雷"),
    (GF, "7", "S", "2S 2H 2D 2C", Kind.LEI, None, "000:93"),
    (GF, "7", "S", "3S 3H 3D 3C", Kind.LEI, None, "000:93"),
    (GF, "7", "S", "5S 5H 5D 5D", Kind.THROW, None, "000:91 花色必须齐全"),
    (GF, "7", "S", "5S 5S 5H 5D 5C", Kind.SHAN, None, "000:97 闪牌 of five"),
    (GF, "7", "S", "5S 5S 5H 5H 5D 5D 5C 5C", Kind.SHAN, None, "000:97 闪牌 of eight"),
    (GF, "7", "S", "7S 7S 7H 7D 7C 7C", Kind.SHAN, None, "000:105-107"),
    (GF, "7", "S", "AH KH", Kind.THROW, None, "003:58 甩牌 of two side singles (000 silent)"),
    (AN, "7", "S", "BJ BJ SJ SJ", Kind.TRACTOR, 2, "003:62"),
    (AN, "7", "H", "5H 5H 6H 6H", Kind.THROW, None, "003:64 ♥5 pairs never in tractors"),
    (AN, "7", "H", "4H 4H 6H 6H", Kind.THROW, None, "003:154 gaps break in 暗炒"),
    (KQ, "7", "H", "4H 4H 6H 6H", Kind.TRACTOR, 2, "003:166 扛旗 skips"),
    (AN, "7", "S", "AD AD 2D 2D", Kind.TRACTOR, 2, "003:66 AA22"),
    (AN, "7", "S", "KD KD AD AD", Kind.TRACTOR, 2, "003:66 AAKK"),
    (AN, "7", "S", "KD KD AD AD 2D 2D", Kind.THROW, None, "003:66 never KKAA22"),
    (AN, "7", "S", "6D 6D 8D 8D", Kind.THROW, None, "003:154 level pair gap breaks"),
    (KQ, "7", "S", "6D 6D 8D 8D", Kind.TRACTOR, 2, "003:166 跳过级牌"),
    (MC, "7", "S", "6D 6D 8D 8D", Kind.THROW, None, "003:182"),
    (AN, "7", "S", "6S 6S 7S 7S", Kind.TRACTOR, 2, "003:74 级牌 by face value in trump suit"),
    (AN, "7", "S", "7D 7D 7C 7C", Kind.THROW, None, "003:154 级牌对不能形成副牌的连对"),
    (AN, "7", "S", "5D 10D KD", Kind.WUSHIK, None, "003:76 5、10、K"),
    (AN, "7", "S", "5D 5D 10D 10D KD KD", Kind.WUSHIK_PAIRS, None, "003:76 5对、10对、K对"),
    (AN, "7", "S", "5D 10C KD", Kind.MIXED, None, "003:76 同花色"),
    (AN, "7", "S", "5H 10H KH", Kind.WUSHIK, None, "003:156 ♥5 joins ♥10 ♥K in 暗炒"),
    (MC, "7", "S", "5H 10H KH", Kind.WUSHIK, None, "003:184 明炒 too"),
    (KQ, "7", "S", "5H 10H KH", Kind.MIXED, None, "003:168 not in 扛旗"),
    (AN, "7", "S", "5S 10S KS", Kind.WUSHIK, None, "003:78 trump 5-10-K"),
    (AN, "7", None, "5S 10S KS", Kind.WUSHIK, None, "003:80 side 5-10-K in 无主"),
    (AN, "K", "S", "5D 10D KD", Kind.MIXED, None, "003:76 decision: a level K is not side-suit"),
    (AN, "7", "S", "5H 5H", Kind.PAIR, None, "003:32 红5对"),
    (AN, "7", None, "SJ SJ BJ BJ", Kind.TRACTOR, 2, "003:62 in 无主"),
    (MC, "7", "S", "AS KS", Kind.THROW, None, "003:58 甩牌"),
    (MC, "7", "S", "AD 7D", Kind.MIXED, None, "003:36 level card left the suit"),
]


@pytest.mark.parametrize("game,level,trump,cards,kind,length,ref", CASES, ids=[f"{c[6]}|{c[3]}" for c in CASES])
def test_classify(game: str, level: str, trump: str | None, cards: str, kind: Kind, length: int | None,
                  ref: str) -> None:
    c = combo(game, level, trump, cards)
    assert c.kind == kind, ref
    if length is not None:
        assert c.tractor_lengths == (length,), ref


def test_tractor_order_by_face_value() -> None:
    """000 line 65: AA22 < 2233 < 3344 < … < 两对王 in the trump suit."""
    keys = [combo(GF, "7", "S", t).key for t in
            ("AS AS 2S 2S", "2S 2S 3S 3S", "3S 3S 4S 4S", "QS QS KS KS", "KS KS AS AS", "SJ SJ BJ BJ")]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_chaodipi_ace_low_and_high() -> None:
    """003 line 74: A is the smallest in AA22…, the largest in AAKK."""
    low = combo(AN, "7", "S", "AD AD 2D 2D").key
    mid = combo(AN, "7", "S", "3D 3D 4D 4D").key
    high = combo(AN, "7", "S", "KD KD AD AD").key
    assert low < mid < high


def test_every_case_cites_a_seed_line() -> None:
    """Each row names its seed (000 = shared/seeds/000_4e95b884d4f4d9e2.txt 刮风,
    003 = shared/seeds/003_50a5b68db21d70bd.txt 炒地皮) and line, or the spec."""
    for table in (CASES,):
        for row in table:
            assert re.match(r"^(000|003):\d|^spec|^hand events", row[-1]), row
