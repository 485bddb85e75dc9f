"""Single-card order and trump membership, per seed line (000 = 刮风, 003 = 炒地皮)."""

from __future__ import annotations

import re

import pytest

from cardref.engine.cards import Rank, Suit, parse_card
from cardref.engine.shengji.order import TRUMP, TrumpOrder
from cardref.engine.shengji.settings import ALL_SETTINGS


def order(game: str, level: str, trump: str | None) -> TrumpOrder:
    rank = {r.code: r for r in Rank}[level]
    return TrumpOrder(ALL_SETTINGS[game], rank, Suit(trump) if trump else None)


GF = "guafeng-zibo"
AN, KQ, MC = "chaodipi-anchao", "chaodipi-kangqi", "chaodipi-mingchao"

# (game, level, trump, higher, lower, seed ref)
HIGHER = [
    (GF, "7", "S", "BJ", "SJ", "000:31"),
    (GF, "7", "S", "SJ", "7S", "000:31"),
    (GF, "7", "S", "7S", "7H", "000:31"),
    (GF, "7", "S", "7H", "5S", "000:33-35"),
    (GF, "7", "S", "5S", "3S", "000:35"),
    (GF, "7", "S", "3S", "2S", "000:35"),
    (GF, "7", "S", "2S", "5H", "000:35"),
    (GF, "7", "S", "5H", "3D", "000:35"),
    (GF, "7", "S", "3D", "2C", "000:35"),
    (GF, "7", "S", "2C", "AS", "000:35-37"),
    (GF, "7", "S", "AS", "KS", "000:37"),
    (GF, "7", "S", "4S", "AH", "000:37-39"),
    (GF, "7", "S", "AH", "KH", "000:39"),
    (GF, "7", "S", "6H", "4H", "000:39"),
    (GF, "5", "H", "5H", "5S", "000:31-33 level 5 in trump suit"),
    (GF, "5", "H", "5S", "3H", "000:33-35 level card over 常主"),
    (GF, "A", "D", "AD", "AC", "000:31-33 level A"),
    (AN, "7", "S", "5H", "BJ", "003:4,30 ♥5 highest"),
    (AN, "7", "S", "BJ", "SJ", "003:30"),
    (AN, "7", "S", "SJ", "7S", "003:30"),
    (AN, "7", "S", "7S", "7D", "003:36"),
    (AN, "7", "S", "7D", "AS", "003:36"),
    (AN, "7", "S", "2S", "AH", "003:36 trump suit over side"),
    (KQ, "2", None, "5H", "BJ", "003:30 无主"),
    (KQ, "2", None, "2S", "AS", "003:30 无主: level cards trump"),
    (MC, "K", "H", "KH", "KC", "003:36"),
    (MC, "K", "H", "5H", "KH", "003:4"),
]

EQUAL = [
    (GF, "7", "S", "7H", "7D", "000:33,41 other level cards tie"),
    (GF, "7", "S", "5H", "5C", "000:35,41"),
    (GF, "7", "S", "3D", "3H", "000:35,41"),
    (AN, "9", "C", "9H", "9S", "003:36,50"),
    (KQ, "Q", None, "QH", "QS", "003:30,50"),
]

TRUMPS = [
    (GF, "7", "S", "2H", True, "000:11 常主"),
    (GF, "7", "S", "3D", True, "000:11"),
    (GF, "7", "S", "5C", True, "000:11"),
    (GF, "7", "S", "7H", True, "000:7 level card"),
    (GF, "7", "S", "4S", True, "000:13 trump suit"),
    (GF, "7", "S", "4H", False, "000:15 副牌"),
    (GF, "7", "S", "AC", False, "000:15"),
    (AN, "7", "S", "5H", True, "003:30"),
    (AN, "7", "S", "5S", True, "003:36 trump suit"),
    (AN, "7", "S", "5D", False, "003:30 5 is no 常主 in 炒地皮 (only 红5)"),
    (AN, "7", "S", "2D", False, "003:22 2 is no 常主"),
    (KQ, "7", None, "AS", False, "003:30 无主"),
    (KQ, "7", None, "7C", True, "003:30"),
    (MC, "7", None, "SJ", True, "003:30"),
]


@pytest.mark.parametrize("game,level,trump,hi,lo,ref", HIGHER, ids=[f"{r[5]}:{r[3]}>{r[4]}" for r in HIGHER])
def test_single_order(game: str, level: str, trump: str | None, hi: str, lo: str, ref: str) -> None:
    o = order(game, level, trump)
    a, b = parse_card(hi), parse_card(lo)
    if o.group[a] == o.group[b]:
        assert o.strength[a] > o.strength[b], ref
    else:
        assert o.group[a] == TRUMP and o.group[b] != TRUMP, ref


@pytest.mark.parametrize("game,level,trump,a,b,ref", EQUAL, ids=[f"{r[5]}:{r[3]}={r[4]}" for r in EQUAL])
def test_ties(game: str, level: str, trump: str | None, a: str, b: str, ref: str) -> None:
    o = order(game, level, trump)
    assert o.strength[parse_card(a)] == o.strength[parse_card(b)], ref


@pytest.mark.parametrize("game,level,trump,card,is_trump,ref", TRUMPS, ids=[f"{r[5]}:{r[3]}" for r in TRUMPS])
def test_trump_membership(game: str, level: str, trump: str | None, card: str, is_trump: bool, ref: str) -> None:
    assert order(game, level, trump).is_trump(parse_card(card)) is is_trump, ref


def test_every_case_cites_a_seed_line() -> None:
    """Each row names its seed (000 = shared/seeds/000_4e95b884d4f4d9e2.txt 刮风,
    003 = shared/seeds/003_50a5b68db21d70bd.txt 炒地皮) and line, or the spec."""
    for table in (HIGHER, EQUAL, TRUMPS):
        for row in table:
            assert re.match(r"^(000|003):\d|^spec|^hand events", row[-1]), row
