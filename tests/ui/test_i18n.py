"""Every sentence the dashboard asks for exists in both languages; game terms stay Chinese."""

from __future__ import annotations

import re
from pathlib import Path

from cardref.ui import i18n

UI = Path(__file__).resolve().parents[2] / "ui"


def test_every_key_used_by_the_dashboard_exists() -> None:
    used: set[str] = set()
    for path in UI.rglob("*.py"):
        used |= set(re.findall(r"""\btr\(\s*["']([a-z_]+\.[a-z_0-9]+)["']""", path.read_text(encoding="utf-8")))
    used |= {f"type.{k}" for k in ("deal", "hand", "bottom", "play", "pass", "declare", "correct", "error")}
    missing = sorted(k for k in used if k not in i18n.keys())
    assert not missing, missing
    assert len(used) > 80


def test_both_languages_and_chinese_game_terms() -> None:
    assert i18n.tr("page.replay", "zh") == "回放" and i18n.tr("page.replay", "en") == "Replay"
    for key in ("score.gouji", "score.burning", "score.kaidian", "score.bottom_multiplier"):
        en = i18n.tr(key, "en")
        assert re.search(r"[\u4e00-\u9fff]", en), f"{key}: the game's own term stays in Chinese: {en!r}"
    assert i18n.tr("corr.done", "en", j=9, ref=3) == "Correction #9 appended: re-judged from event 3."
    assert i18n.tr("no.such.key") == "no.such.key"


def test_declarations_follow_the_game() -> None:
    assert "revolution" in i18n.declares_for("gouji-yucheng") and "liangzhu" not in i18n.declares_for("gouji-yucheng")
    assert "liangzhu" in i18n.declares_for("guafeng-zibo") and "burn" not in i18n.declares_for("guafeng-zibo")
    assert all(i18n.declare_title(w, "zh") != w for w in i18n.declares_for("gouji-shandong"))
    assert len(set(i18n.declares_for("gouji-yucheng"))) == len(i18n.declares_for("gouji-yucheng"))
