"""Every fault code the 升级 referee can emit has a Chinese and an English sentence."""

from __future__ import annotations

import re
from pathlib import Path

import cardref.engine.shengji as shengji
from cardref.engine.messages import known_codes, render
from cardref.engine.shengji.messages import CATALOGUE

SOURCE = Path(shengji.__file__).parent


def emitted_codes() -> set[str]:
    found: set[str] = set()
    for path in SOURCE.glob("*.py"):
        found.update(re.findall(r'Fault\(\s*"([a-z_.]+)"', path.read_text(encoding="utf-8")))
        found.update(re.findall(r'code = "([a-z_.]+)"', path.read_text(encoding="utf-8")))
        found.update(re.findall(r'"((?:guafeng|shengji|chaodipi)\.[a-z_]+)" if', path.read_text(encoding="utf-8")))
    return found


def test_every_emitted_code_is_registered() -> None:
    codes = emitted_codes()
    assert len(codes) > 30
    assert codes <= known_codes(), sorted(codes - known_codes())


def test_codes_are_namespaced_and_render_in_both_languages() -> None:
    for code, texts in CATALOGUE.items():
        assert code.split(".")[0] in ("shengji", "guafeng", "chaodipi"), code
        for lang in ("zh", "en"):
            assert render(code, {}, lang), code
            assert texts[lang]


def test_game_terms_stay_chinese_in_english() -> None:
    """Brief: 毙, 甩牌, 扣底, 上天入地 … stay in Chinese in the English messages too."""
    assert "甩牌" in CATALOGUE["shengji.failed_throw"]["en"]
    assert "雷牌" in CATALOGUE["guafeng.must_play_lei"]["en"]
    assert "扛旗" in CATALOGUE["chaodipi.flag_no_bottom"]["en"]
