"""Following rules with a known hand, per seed line; every case also runs observation-only."""

from __future__ import annotations

import re

import pytest

from cardref.engine.cards import Rank, Suit, parse_cards
from cardref.engine.shengji.combos import classify
from cardref.engine.shengji.follow import follow_fault, is_imperfect
from cardref.engine.shengji.order import TrumpOrder
from cardref.engine.shengji.settings import ALL_SETTINGS

GF = "guafeng-zibo"
AN, KQ, MC = "chaodipi-anchao", "chaodipi-kangqi", "chaodipi-mingchao"


def setup(game: str, level: str, trump: str | None) -> TrumpOrder:
    rank = {r.code: r for r in Rank}[level]
    return TrumpOrder(ALL_SETTINGS[game], rank, Suit(trump) if trump else None)


# (game, level, trump, lead, hand (incl. the play), play, expected code or None, ref)
CASES = [
    (GF, "7", "S", "AH", "KH 4D 6C", "4D", "shengji.must_follow_suit", "000:57 follow suit"),
    (GF, "7", "S", "AH", "KH 4D 6C", "KH", None, "000:57"),
    (GF, "7", "S", "AH", "4D 6C 4S", "4S", None, "000:57 void: 毙 allowed"),
    (GF, "7", "S", "AH", "4D 6C 4S", "6C", None, "003:54 垫牌 when void"),
    (GF, "7", "S", "AH", "7H 4D", "4D", None, "000:45 a level ♥7 is trump, not ♥"),
    (GF, "7", "S", "4S", "7H 4D", "4D", "shengji.must_follow_suit", "000:11 level card is trump"),
    (GF, "7", "S", "4S", "2D 4D", "4D", "shengji.must_follow_suit", "000:11 常主 is trump"),
    (GF, "7", "S", "8H 8H", "QH QH 4H 6C", "QH 4H", "shengji.must_follow_pairs", "000:59 pair for pair"),
    (GF, "7", "S", "8H 8H", "QH QH 4H 6C", "QH QH", None, "000:59"),
    (GF, "7", "S", "8H 8H", "QH JH 4H 6C", "QH JH", None, "000:59 从大到小"),
    (GF, "7", "S", "8H 8H", "QH JH 4H 6C", "QH 4H", "shengji.not_largest_first", "000:59 从大到小"),
    (GF, "7", "S", "8H 8H", "QH 4D 6C", "QH 6C", None, "000:57 only one ♥"),
    (GF, "7", "S", "8H 8H", "QH 4D 6C", "4D 6C", "shengji.must_follow_suit", "000:57"),
    (GF, "7", "S", "8H 8H 9H 9H", "QH QH KH KH 4H 6C", "QH QH KH KH", None, "000:71 风牌 for 风牌"),
    (GF, "7", "S", "8H 8H 9H 9H", "QH QH KH KH 4H 4H", "QH QH 4H 4H", "shengji.must_follow_tractor",
     "000:71 风牌 for 风牌"),
    (GF, "7", "S", "8H 8H 9H 9H", "QH QH 10H 10H 4H 6C", "QH QH 10H 10H", None, "000:71 else pairs"),
    (GF, "7", "S", "8H 8H 9H 9H", "QH QH AH 10H 4H 6C", "QH QH AH 10H", None, "000:73 pairs first, then largest"),
    (GF, "7", "S", "8H 8H 9H 9H", "QH QH AH 10H 4H 6C", "QH QH AH 4H", "shengji.not_largest_first",
     "000:73 从大到小 singles"),
    (GF, "7", "S", "8H 8H 9H 9H", "QH QH AH 10H 4H 6C", "AH 10H 4H QH", "shengji.must_follow_pairs",
     "000:73 必须先出对"),
    (GF, "7", "S", "8H 8H 9H 9H", "AH KH 10H 4H 6C", "AH KH 10H 4H", None, "000:71 no pairs: largest"),
    (GF, "7", "S", "8H 8H 9H 9H", "AH KH 10H 4H 6C", "AH KH 4H 6C", "shengji.must_follow_suit", "000:57"),
    (GF, "7", "S", "5S 5H 5D 5C", "3S 3H 3D 3C 4S", "3S 3H 3D 3C", None, "000:89 有雷出雷"),
    (GF, "7", "S", "5S 5H 5D 5C", "3S 3H 3D 3C BJ", "3S 3H 3D BJ", "guafeng.must_play_lei", "000:89 有雷出雷"),
    (GF, "7", "S", "5S 5H 5D 5C", "BJ SJ 4S 6S 8S", "BJ SJ 8S 6S", None, "000:89 没雷从大到小"),
    (GF, "7", "S", "5S 5H 5D 5C", "BJ SJ 4S 6S 8S", "BJ SJ 8S 4S", "shengji.not_largest_first",
     "000:89 没雷从大到小"),
    (GF, "7", "S", "5S 5H 5D 5C 5C", "3S 3H 3D 3C 3C 4S", "3S 3H 3D 3C 3C", None, "000:101 闪 for 闪"),
    (GF, "7", "S", "5S 5H 5D 5C 5C", "3S 3H 3D 3C 3C 4S", "3S 3H 3D 3C 4S", "guafeng.must_play_shan",
     "000:101"),
    (GF, "7", "S", "4H 6H 8H 9H 10H", "AH KH QH JH 4H 6C", "AH KH QH JH 4H", None, "000:77 follow a 雨 with the suit"),
    (GF, "7", "S", "4H 6H 8H 9H 10H", "AH KH QH JH 4H 6C", "AH KH QH JH 6C", "shengji.must_follow_suit",
     "000:77"),
    (AN, "7", "S", "AH", "KH 4D", "4D", "shengji.must_follow_suit", "003:54 垫牌 only when void"),
    (AN, "7", "S", "AH", "5H 4D", "4D", None, "003:30 ♥5 is trump, not ♥"),
    (AN, "7", "S", "8D 8D", "QD QD 4D 6C", "QD 4D", "shengji.must_follow_pairs", "003:52 有对牌必须出对牌"),
    (AN, "7", "S", "8D 8D", "QD JD 4D 6C", "4D JD", None, "003:52 炒地皮 has no 从大到小"),
    (AN, "7", "S", "8D 8D 9D 9D", "QD QD KD KD 4D 6C", "QD QD KD 4D", "shengji.must_follow_tractor",
     "003:52 有连对必须出连对"),
    (AN, "7", "S", "8D 8D 9D 9D", "QD QD 10D 10D 4D 6C", "QD QD 10D 4D", "shengji.must_follow_pairs",
     "003:52 若无连对，则必须出对牌"),
    (AN, "7", "S", "8D 8D 9D 9D", "QD QD 10D 10D 4D 6C", "QD QD 10D 10D", None, "003:52"),
    (AN, "7", "S", "8D 8D 9D 9D", "QD QD 10D 4D 3D 6C", "QD QD 3D 4D", None, "003:52 then anything"),
    (AN, "7", "S", "8D 8D 9D 9D", "QD QD 2D 2D 3D 3D", "QD QD 2D 2D", "shengji.must_follow_tractor",
     "003:66 2233 is a 连对"),
    (AN, "7", "S", "5S 10S KS", "5S 10S KS 4S", "5S 10S 4S", "chaodipi.must_play_wushik", "003:78 则必出"),
    (AN, "7", "S", "5S 10S KS", "5S 10S KS 4S", "5S 10S KS", None, "003:78"),
    (AN, "7", "S", "5S 10S KS", "5S 10S KS BJ", "5S 10S KS", None, "003:78 the 5-10-K, not the largest"),
    (AN, "7", "S", "5S 10S KS", "BJ 10S 9S 4S", "BJ 10S 9S", None, "003:78 largest trumps"),
    (AN, "7", "S", "5S 10S KS", "BJ 10S 9S 4S", "BJ 10S 4S", "shengji.not_largest_first", "003:78 最大的牌应对"),
    (AN, "7", "S", "5D 5D 10D 10D KD KD", "AD AD 9D 9D 3D 4D 6C", "AD AD 9D 9D 3D 4D", None, "003:80 逼对"),
    (AN, "7", "S", "5D 5D 10D 10D KD KD", "AD AD 9D 9D 3D 4D 6C", "AD AD 9D 3D 4D 6C", "shengji.must_follow_suit",
     "003:80"),
    (AN, "7", "S", "5D 5D 10D 10D KD KD", "AD AD 9D 9D 3D 4D 8D", "AD AD 9D 3D 4D 8D", "shengji.must_follow_pairs",
     "003:80 逼对"),
    (AN, "7", "S", "AD KD", "QD JD 2C", "QD JD", None, "003:58 follow a throw"),
    (AN, "7", "S", "AD KD", "QD JD 2C", "QD 2C", "shengji.must_follow_suit", "003:58"),
    (KQ, "7", None, "AS", "7S 4D", "4D", None, "003:30 无主: 7S is trump"),
    (KQ, "7", None, "AS", "KS 4D", "4D", "shengji.must_follow_suit", "003:30"),
    (KQ, "7", "S", "8D 8D 9D 9D", "6D 6D 8D 8D 4D 2C", "6D 6D 8D 4D", "shengji.must_follow_tractor",
     "003:166 扛旗 skips the level: 6688"),
    (MC, "7", "S", "8D 8D 9D 9D", "6D 6D 8D 8D 4D 2C", "6D 6D 8D 8D", None, "003:182 明炒: 6688 is no 连对"),
    (MC, "7", "S", "8D 8D", "6D 6D 8D 4D", "8D 4D", "shengji.must_follow_pairs", "003:52"),
    (MC, "7", "S", "SJ SJ", "BJ BJ 4S 4S 2D", "4S 4S", None, "003:52 any trump pair"),
    (MC, "7", "S", "SJ SJ", "BJ BJ 4S 3S 2D", "4S 3S", "shengji.must_follow_pairs", "003:52"),
]


@pytest.mark.parametrize("game,level,trump,lead,hand,play,code,ref", CASES, ids=[f"{c[7]}|{c[5]}" for c in CASES])
def test_follow_with_hand(game: str, level: str, trump: str | None, lead: str, hand: str, play: str,
                          code: str | None, ref: str) -> None:
    o = setup(game, level, trump)
    lead_combo = classify(parse_cards(lead.split()), o)
    fault = follow_fault(1, lead_combo, parse_cards(play.split()), parse_cards(hand.split()), o)
    assert (fault.code if fault else None) == code, ref


@pytest.mark.parametrize("game,level,trump,lead,hand,play,code,ref", CASES, ids=[f"{c[7]}|{c[5]}" for c in CASES])
def test_follow_observation_only(game: str, level: str, trump: str | None, lead: str, hand: str, play: str,
                                 code: str | None, ref: str) -> None:
    """Without a hand the same fault must be provable once the rest of the hand shows up,
    and a follow flagged as beyond doubt must never be faulty."""
    o = setup(game, level, trump)
    lead_combo = classify(parse_cards(lead.split()), o)
    played = parse_cards(play.split())
    if code is not None:
        assert is_imperfect(lead_combo, played, o), ref
    # the cards seen with the play alone never prove a fault
    assert follow_fault(1, lead_combo, played, played, o) is None, ref


def test_every_case_cites_a_seed_line() -> None:
    """Each row names its seed (000 = shared/seeds/000_4e95b884d4f4d9e2.txt 刮风,
    003 = shared/seeds/003_50a5b68db21d70bd.txt 炒地皮) and line, or the spec."""
    for table in (CASES,):
        for row in table:
            assert re.match(r"^(000|003):\d|^spec|^hand events", row[-1]), row
