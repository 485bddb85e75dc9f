"""The live state for the dashboard, the registry entries and the fault catalogue."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cardref.engine import registry
from cardref.engine.gouji import GAMES, SHANDONG, YUCHENG
from cardref.engine.gouji.notation import parse_script
from cardref.engine.judge import LiveJudge
from cardref.engine.messages import known_codes, render

STATE_KEYS = {"game", "phase", "luanchan", "to_play", "to_lead", "current_play", "gouji_owner", "may_answer",
              "passed", "burning", "burn_declared", "rangpai", "finished", "order", "place_names", "men",
              "zhashao", "revolution", "chongdian", "kaidian", "rendian", "xuandian", "kangong", "wutou",
              "tributes", "burns", "played", "remaining"}


def feed(text: str) -> LiveJudge:
    live = LiveJudge()
    for ev in parse_script(text):
        live.feed(ev)
    return live


def test_registry_has_both_games() -> None:
    assert registry.get("gouji-yucheng").settings is YUCHENG
    assert registry.get("gouji-shandong").settings is SHANDONG
    for rules in GAMES:
        assert rules.seats == 6 and rules.family == "gouji" and rules.composition.size == 196


def test_state_keys_and_json() -> None:
    state = feed("deal gouji-yucheng leader=2\n").state()
    assert set(state) == STATE_KEYS
    json.dumps(state, ensure_ascii=False)
    assert state["phase"] == "prep" and state["to_play"] == 2


def test_state_gouji_owner_and_may_answer() -> None:
    """004:23 有人出够级牌时，只有对家可以上牌或非对家烧牌."""
    state = feed("deal gouji-yucheng leader=0\n0 KH KS\n").state()
    assert state["current_play"]["cards"] == ["KH", "KS"] and state["current_play"]["pure"] is True
    assert state["gouji_owner"] == 0 and state["may_answer"] == [3] and state["to_play"] == 3


def test_state_burning_and_declared() -> None:
    state = feed("deal gouji-yucheng leader=0\n0 KH KS\n2 !burn\n").state()
    assert state["burn_declared"] == [2] and state["to_play"] == 2
    state = feed("deal gouji-yucheng leader=0\n0 KH KS\n1 AH AS\n").state()
    assert state["burning"] == {"seat": 1, "target": 0, "plays": 0}
    assert state["gouji_owner"] == 1


def test_state_counts_and_finishers() -> None:
    state = feed("deal gouji-yucheng leader=0 sizes=2,2,3,3,3,3\n0 5H\n1 6H\n1 3S\n").state()
    assert state["remaining"] == [1, 0, 3, 3, 3, 3] and state["played"] == [1, 2, 0, 0, 0, 0]
    assert state["finished"] == [1] and state["to_lead"] == 2      # 接风: the 下家 (004:27)


def test_state_luanchan_after_two_finish() -> None:
    """004:27 无人革命，二科出完牌 → 四户乱缠."""
    state = feed("deal gouji-yucheng leader=0\n0 5H\n0 3H\n1 6H\n1 3S\n").state()
    assert state["luanchan"] is True and state["finished"] == [0, 1]
    assert state["wutou"] == [2, 3, 4, 5]


def test_every_code_used_is_registered_in_both_languages() -> None:
    root = Path(__file__).resolve().parents[3] / "engine" / "gouji"
    used = set()
    for path in root.glob("*.py"):
        used |= set(re.findall(r'"(gouji\.[a-z_0-9]+)"', path.read_text(encoding="utf-8")))
    missing = used - known_codes()
    assert not missing
    for code in used:
        for lang in ("zh", "en"):
            text = render(code, {"seat": 1, "target": 2, "owner": 0}, lang)
            assert text and not text.startswith("gouji.")


def test_english_keeps_game_terms_in_chinese() -> None:
    """Brief: the games' own terms (够级, 烧牌, 开点, 闷 …) stay in Chinese in English too."""
    for term in ("够级", "烧牌", "闷", "冲点", "解烧"):
        codes = [c for c in known_codes() if c.startswith("gouji.") and term in render(c, {}, "zh")]
        assert codes
        assert any(term in render(c, {}, "en") for c in codes), term


import pytest  # noqa: E402

from cardref.engine.judge import judge_text as _judge_text  # noqa: E402


@pytest.mark.parametrize("leader", ["x", 7, -1, True, 2.5])
def test_bad_leader_is_bad_option(leader) -> None:
    """Issue 32 item 5: a 够级 ``leader`` that is not a seat 0-5 is ``gouji.bad_option``, as in 升级."""
    import json
    result = _judge_text([json.dumps({"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": leader})])
    assert [v.fault.code if v.fault else None for v in result.verdicts] == ["gouji.bad_option"]
