"""Who wins a trick: same shape, 毙, 盖毙, and the seed's worked examples (003 line 56)."""

from __future__ import annotations

import re

import pytest

from cardref.engine.cards import Rank, Suit, parse_cards
from cardref.engine.shengji.combos import classify
from cardref.engine.shengji.compare import contest_key
from cardref.engine.shengji.order import TrumpOrder
from cardref.engine.shengji.settings import ALL_SETTINGS

GF = "guafeng-zibo"
AN, KQ, MC = "chaodipi-anchao", "chaodipi-kangqi", "chaodipi-mingchao"


def winner(game: str, level: str, trump: str | None, plays: list[str]) -> int:
    rank = {r.code: r for r in Rank}[level]
    o = TrumpOrder(ALL_SETTINGS[game], rank, Suit(trump) if trump else None)
    lead = classify(parse_cards(plays[0].split()), o)
    best, best_key = 0, contest_key(lead, lead, o)
    for k, text in enumerate(plays[1:], start=1):
        key = contest_key(classify(parse_cards(text.split()), o), lead, o)
        if key is not None and best_key is not None and key > best_key:
            best, best_key = k, key
    return best


# (game, level, trump, plays in order, index of the winning play, ref)
CASES = [
    # 003 line 56, worked examples (trump ♠, level 3 so 2 and 7-9 are plain trumps)
    (AN, "3", "S", ["AD KD 5D 5D 4D 4D", "9S 9S 8S 8S 7S 2S"], 1, "003:56 998872 毙 AK5544"),
    (AN, "3", "S", ["AD AD 5D 5D 4D 4D", "9S 9S 8S 8S 7S 2S"], 0, "003:56 998872 cannot 毙 AA5544"),
    (AN, "3", "S", ["5D 4D 4D", "9S 7S 7S"], 1, "003:56 977 毙 544"),
    (AN, "3", "S", ["5D 4D 4D", "9S 7S 7S", "8S 8S 4S"], 2, "003:56 884 盖毙 977"),
    (AN, "3", "S", ["5D 6D 7D", "9S 7S 7S"], 1, "003:56 977 毙 567"),
    (AN, "3", "S", ["5D 6D 7D", "9S 7S 7S", "8S 8S 4S"], 1, "003:56 884 cannot 盖毙 977 on 567"),
    (MC, "3", "S", ["AD KD 5D 5D 4D 4D", "9S 9S 8S 8S 7S 2S"], 1, "003:56 明炒 the same"),
    (KQ, "3", "S", ["5D 4D 4D", "9S 7S 7S", "8S 8S 4S"], 2, "003:56 扛旗 the same"),
    (AN, "3", "S", ["5D 4D 4D", "9S 7S 6S"], 0, "003:56 毙 without the pair is 垫牌"),
    (AN, "3", "S", ["5D 4D 4D", "9S 7S 7D"], 0, "003:56 毙 must be all trumps"),
    # same-shape rules
    (GF, "7", "S", ["8H 8H", "4S 4S"], 1, "000:57 trump pair over side pair"),
    (GF, "7", "S", ["8H 8H", "4S 6S"], 0, "000:57 only the same shape"),
    (GF, "7", "S", ["8H 8H 9H 9H", "8S 8S 9S 9S"], 1, "000:69 trump 风牌 over side 风牌"),
    (GF, "7", "S", ["8H 8H 9H 9H", "4S 4S 9S 9S"], 0, "000:69 two pairs are not a 风牌"),
    (GF, "7", "S", ["8H 8H 9H 9H", "JH JH QH QH"], 1, "000:63 higher 风牌"),
    (GF, "7", "S", ["8H 8H 9H 9H", "JH JH AH AH"], 0, "000:63 not a 风牌"),
    (GF, "7", "S", ["QS QS KS KS", "SJ SJ BJ BJ"], 1, "000:65 两对王 highest"),
    (GF, "7", "S", ["AS AS 2S 2S", "2S 2S 3S 3S"], 1, "000:65 AA22<2233"),
    (GF, "7", "S", ["7H", "7D"], 0, "000:41 equal cards: first played wins"),
    (GF, "7", "S", ["7H", "7S"], 1, "000:31 trump-suit level card higher"),
    (GF, "7", "S", ["AH", "4S"], 1, "000:37-39 trump beats side single"),
    (GF, "7", "S", ["AH", "KD"], 0, "003:54 垫牌 of another side suit loses"),
    (GF, "7", "S", ["5H 5S 5D 5C", "3H 3S 3D 3C"], 0, "000:87 雷 by card: 5 > 3"),
    (GF, "7", "S", ["3H 3S 3D 3C", "7H 7S 7D 7C"], 1, "000:87 level 雷 over 3 雷"),
    (GF, "7", "S", ["3H 3S 3D 3C 3C", "5H 5S 5D 5C 5C"], 1, "000:99 闪 of equal size"),
    (GF, "7", "S", ["3H 3S 3D 3C 3C", "5H 5S 5D 5C 2C"], 0, "000:99 only the same 闪 shape"),
    (GF, "7", "S", ["4H 6H 8H 9H 10H", "JH QH KH AH 6H"], 0, "000:81 雨 needs the same shape"),
    (GF, "7", "S", ["4H 6H 8H 9H 10H", "8H 9H 10H JH QH"], 1, "000:81 larger 雨"),
    (GF, "7", "D", ["4H 6H 8H 9H 10H", "8D 9D 10D JD QD"], 1, "000:81 trump 雨 over side 雨"),
    (AN, "7", "S", ["5D 10D KD", "AD AD QD"], 0, "003:80 side 5-10-K: only a trump 5-10-K beats it"),
    (AN, "7", "S", ["5D 10D KD", "5S 10S KS"], 1, "003:80 trump 5-10-K beats it"),
    (AN, "7", "S", ["5D 10D KD", "BJ BJ SJ"], 0, "003:80 other trumps do not"),
    (AN, "7", "S", ["5S 10S KS", "5S 10S KS"], 0, "003:78 first trump 5-10-K wins"),
    (AN, "7", "S", ["KD KD AD AD", "AD AD 2D 2D"], 0, "003:74 AAKK over AA22"),
    (AN, "7", "S", ["6D 6D", "5H 5H"], 1, "003:32 红5对 tops every pair"),
    (AN, "7", "S", ["AH KH", "QS JS"], 1, "003:58 毙 of a throw with singles"),
    (AN, "7", "S", ["AH KH", "QH JH"], 0, "003:58 a throw wins in its suit"),
    (AN, "7", "S", ["AH KH", "QS JS", "BJ 4S"], 2, "003:56 盖毙 of singles by the highest card"),
    (KQ, "2", None, ["AH", "2C"], 1, "003:30 无主 level card trumps"),
    (KQ, "2", None, ["AH AH", "SJ SJ"], 1, "003:30 无主"),
    (AN, "7", "S", ["6S 6S 7S 7S", "SJ SJ BJ BJ"], 1, "003:62 joker 连对 over trump-suit 连对"),
]


@pytest.mark.parametrize("game,level,trump,plays,expected,ref", CASES, ids=[c[5] for c in CASES])
def test_trick_winner(game: str, level: str, trump: str | None, plays: list[str], expected: int, ref: str) -> None:
    assert winner(game, level, trump, plays) == expected, ref


def test_every_case_cites_a_seed_line() -> None:
    """Each row names its seed (000 = shared/seeds/000_4e95b884d4f4d9e2.txt 刮风,
    003 = shared/seeds/003_50a5b68db21d70bd.txt 炒地皮) and line, or the spec."""
    for table in (CASES,):
        for row in table:
            assert re.match(r"^(000|003):\d|^spec|^hand events", row[-1]), row
