"""Play shapes, 够级 thresholds and beating, table-driven; each case cites its seed line."""

from __future__ import annotations

import pytest

from cardref.engine.cards import parse_cards
from cardref.engine.gouji.shapes import Shape, ShapeError, beats, parse_shape


def shape(text: str) -> Shape:
    s = parse_shape(parse_cards(text.split()))
    assert isinstance(s, Shape), s
    return s


# (seed:line, cards, n, base, gouji, pure)
SHAPES = [
    ("004:15 single", "5H", 1, "5", False, False),
    ("004:15 N of one rank", "8H 8S 8D", 3, "8", False, False),
    ("004:15-17 挂钱 2+2+8+8+8 is five 8s", "2H 2S 8H 8S 8D", 5, "8", False, False),
    ("004:15 挂花 2 小花 + 3×8", "SJ SJ 8H 8S 8D", 5, "8", True, False),
    ("004:9 5×10 纯够级", "10H 10S 10D 10C 10H", 5, "10", True, True),
    ("004:9 4×10 not 够级", "10H 10S 10D 10C", 4, "10", False, False),
    ("004:9 4×J 纯够级", "JH JS JD JC", 4, "J", True, True),
    ("004:9 3×J not 够级", "JH JS JD", 3, "J", False, False),
    ("004:9 3×Q 纯够级", "QH QS QD", 3, "Q", True, True),
    ("004:9 2×Q not 够级", "QH QS", 2, "Q", False, False),
    ("004:9 2×K 纯够级", "KH KS", 2, "K", True, True),
    ("004:9 1×K not 够级", "KH", 1, "K", False, False),
    ("004:9 2×A 纯够级", "AH AS", 2, "A", True, True),
    ("004:9 1×A not 够级", "AH", 1, "A", False, False),
    ("004:9 one 2 is 够级, not 纯", "2H", 1, "2", True, False),
    ("004:9 one 小花 is 够级", "SJ", 1, "SJ", True, False),
    ("004:9 one 大花 is 够级", "BJ", 1, "BJ", True, False),
    ("004:9 any 挂花 play is 够级", "SJ 5H", 2, "5", True, False),
    ("004:15 bigger count: 6×J 纯够级", "JH JS JD JC JH JS", 6, "J", True, True),
    ("004:15 bigger rank same count: 5×Q 纯够级", "QH QS QD QC QH", 5, "Q", True, True),
    ("004:15 count and rank both: 6×9 is not 够级", "9H 9S 9D 9C 9H 9S", 6, "9", False, False),
    ("004:9 挂钱 to 5×10 is 够级 but not 纯", "2H 10S 10D 10C 10H", 5, "10", True, False),
    ("004:9 2 2 is 够级 (listed after 纯够级)", "2H 2S", 2, "2", True, False),
    ("004:15 2s with jokers: 2 base 挂花", "2H 2S SJ", 3, "2", True, False),
    ("004:15 mixed jokers: 小花 base with 大花", "SJ BJ", 2, "SJ", True, False),
    ("004:15 N 4s", "4H 4S", 2, "4", False, False),
    ("004:27 3s alone", "3H", 1, "3", False, False),
    ("002:4 3×Q is 够级 (002 example list)", "QC QD QS", 3, "Q", True, True),
]


@pytest.mark.parametrize("cite,cards,n,base,gouji,pure", SHAPES, ids=[c[0] for c in SHAPES])
def test_shape(cite: str, cards: str, n: int, base: str, gouji: bool, pure: bool) -> None:
    s = shape(cards)
    assert (s.n, s.describe().split("×")[1].split("+")[0], s.gouji, s.pure) == (n, base, gouji, pure)


BAD = [
    ("004:15 two face ranks", "5H 6H", "gouji.mixed_ranks"),
    ("004:15 4 never takes 2s", "4H 2S", "gouji.four_attached"),
    ("004:15 4 never takes jokers", "4H 4S SJ", "gouji.four_attached"),
    ("004:27 3 takes no 2 (不贴钱)", "3H 2S", "gouji.three_attached"),
    ("004:27 3 takes no joker (不挂花)", "3H BJ", "gouji.three_attached"),
    ("004:15 3 with another rank", "3H 5H", "gouji.mixed_ranks"),
]


@pytest.mark.parametrize("cite,cards,code", BAD, ids=[c[0] for c in BAD])
def test_bad_shape(cite: str, cards: str, code: str) -> None:
    s = parse_shape(parse_cards(cards.split()))
    assert isinstance(s, ShapeError) and s.code == code


# (seed:line, new, old, beats?)
BEATS = [
    ("002:2-3 3×5 beaten by 3×6", "6H 6S 6D", "5H 5S 5D", True),
    ("002:3 3×5 beaten by 3×8", "8H 8S 8D", "5H 5S 5D", True),
    ("002:2 counts must match", "8H 8S", "5H 5S 5D", False),
    ("004:15 equal plays don't beat", "5H 5S", "5D 5C", False),
    ("004:15 lower does not beat", "4H 4S", "5D 5C", False),
    ("004:15 order 2 > A", "2H", "AH", True),
    ("004:15 order 小花 > 2", "SJ", "2H", True),
    ("004:15 order 大花 > 小花", "BJ", "SJ", True),
    ("004:15 nothing beats 大花", "BJ", "BJ", False),
    ("004:15 order A > K", "AH", "KH", True),
    ("004:15 order 4 > 3", "4H", "3H", True),
    ("004:15 order 5 > 4", "5H", "4H", True),
    ("004:15 suits don't matter", "KS", "KH", False),
    ("004:15-17 挂钱 counts as the base: five 9s beat 2+2+8+8+8", "9H 9S 9D 9C 9H", "2H 2S 8H 8S 8D", True),
    ("004:15-17 挂钱 five 8s do not beat five 8s", "2H 2S 8H 8S 8D", "8H 8S 8D 8C 8H", False),
    ("004:15 over a 挂花 play both parts higher: 大花+3×9 beats 小花+3×8", "BJ 9H 9S 9D", "SJ 8H 8S 8D", True),
    ("004:15 over a 挂花 play: same joker, higher base is not enough", "SJ 9H 9S 9D", "SJ 8H 8S 8D", False),
    ("004:15 over a 挂花 play: higher joker, same base is not enough", "BJ 8H 8S 8D", "SJ 8H 8S 8D", False),
    ("004:15 over a 挂花 play: no joker is not enough", "9H 9S 9D 9C", "SJ 8H 8S 8D", False),
    ("004:15 两大王杀一大王挂花牌", "BJ BJ 9H 9S", "BJ 8H 8S 8D", True),
    ("004:15 one 大花 does not beat a 大花 挂花 play", "BJ 9H 9S 9D", "BJ 8H 8S 8D", False),
    ("004:15 a plain play is beaten by a 挂花 play of a higher base", "SJ JH JS JD JC", "10H 10S 10D 10C 10H", True),
    ("004:15 挂花 with an equal base does not beat", "SJ 10H 10S 10D 10C", "10H 10S 10D 10C 10H", False),
    ("004:15 two 小花 beat two 2s", "SJ SJ", "2H 2S", True),
    ("004:15 小花+2 does not beat 2 2 (base 2 = 2)", "SJ 2H", "2H 2S", False),
    ("004:15 大花 大花 beat 小花 大花 (两大王)", "BJ BJ", "SJ BJ", True),
    ("004:15 大花 小花 does not beat 小花 小花 (base equal)", "BJ SJ", "SJ SJ", False),
    ("004:15 大花 大花 beat 小花 小花", "BJ BJ", "SJ SJ", True),
    ("004:9 2×A beats 2×K", "AH AS", "KH KS", True),
    ("004:9 2 2 beat 2×A", "2H 2S", "AH AS", True),
]


@pytest.mark.parametrize("cite,new,old,expected", BEATS, ids=[c[0] for c in BEATS])
def test_beats(cite: str, new: str, old: str, expected: bool) -> None:
    assert beats(shape(new), shape(old)) is expected
