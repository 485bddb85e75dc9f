"""#31 item 5: the events table's 开局 row names the deal in words (game title, 打几, 主,
庄家 / 首出 by seat name) in the page's language, never as ``level=4 trump=H``."""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text
from cardref.ui import views

GUAFENG = {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "4", "trump": "H", "dealer": 2,
           "names": ["东", "南", "西", "北"], "source": "manual"}
NO_TRUMP = {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "7", "trump": None, "dealer": 3}
GOUJI = {"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 4}

CASES = [
    (GUAFENG, "zh", "刮风 · 淄博 · 打4 · 主♥ · 庄家 西"),
    (GUAFENG, "en", "刮风 · Zibo · level 4 · trump ♥ · dealer West"),
    (NO_TRUMP, "zh", "刮风 · 淄博 · 打7 · 无主 · 庄家 北"),
    (NO_TRUMP, "en", "刮风 · Zibo · level 7 · no trump · dealer North"),
    (GOUJI, "zh", "够级 · 禹城 · 首出 5号位"),
    (GOUJI, "en", "够级 · Yucheng · leader Seat 5"),
]


@pytest.mark.parametrize(("deal", "lang", "expected"), CASES)
def test_deal_row_text_in_words(deal, lang, expected) -> None:
    lines = [json.dumps(deal, ensure_ascii=False)]
    out = views.rows(lines, judge_text(lines), lang)
    assert [r.kind for r in out] == ["deal"]
    assert out[0].text == expected
    assert "=" not in out[0].text and "guafeng" not in out[0].text and "gouji" not in out[0].text


def test_unknown_option_still_shown() -> None:
    deal = {**GUAFENG, "house_rule": "x"}
    lines = [json.dumps(deal, ensure_ascii=False)]
    text = views.rows(lines, judge_text(lines), "zh")[0].text
    assert text.endswith(" · house_rule x") and "names" not in text and "manual" not in text
