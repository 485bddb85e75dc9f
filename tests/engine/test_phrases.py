"""Facts that carry an English phrase are shown in Chinese in a Chinese sentence (issue 31
item 4: "本局设置 level 的值无效：None（a rank 2-10, …）")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cardref.engine import messages
from cardref.engine.gouji import messages as _gouji_sentences  # noqa: F401 - registers its catalogue
from cardref.engine.judge import judge_text
from cardref.engine.shengji import messages as _shengji_sentences  # noqa: F401 - registers its catalogue

ENGINE = Path(messages.__file__).resolve().parent
#: an English word: three ASCII letters or more; "null" (the log's word for 无主) and a log
#: key named in brackets after its Chinese ("打几（level）") aside
ENGLISH_WORD = re.compile(r"(?<![（A-Za-z])(?!null\b)[A-Za-z]{3,}")


def _whys() -> list[tuple[str, ast.expr]]:
    """Every ``"why": ...`` a fault of the engine carries (and the ``why`` of the 升级
    declarations' ``_bad(what, cards, why)``), with where it is."""
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                out += [(f"{path.relative_to(ENGINE)}:{v.lineno}", v) for k, v in zip(node.keys, node.values, strict=True)
                        if isinstance(k, ast.Constant) and k.value == "why"]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_bad" and len(node.args) >= 3:
                out.append((f"{path.relative_to(ENGINE)}:{node.lineno}", node.args[2]))
    return out


def _fixed_whys() -> list[tuple[str, str]]:
    return [(where, v.value) for where, v in _whys() if isinstance(v, ast.Constant) and isinstance(v.value, str)]


def test_no_fault_builds_an_english_why_in_an_f_string():
    """An f-string cannot be put in Chinese: a phrase with ``{fields}`` and the facts instead."""
    built = [(where, ast.unparse(v)) for where, v in _whys() if isinstance(v, ast.JoinedStr)
             and ENGLISH_WORD.search("".join(p.value for p in v.values if isinstance(p, ast.Constant)))]
    assert built == []


def test_a_phrase_fills_its_fields_from_the_facts():
    facts = {"why": "only seat {owner} (亮主/粘牌) may swap", "owner": 2}
    assert messages.render("guafeng.exchange_not_allowed", facts, "zh").endswith("只有座位 2（亮主/粘牌）能换底")
    assert messages.render("guafeng.exchange_not_allowed", facts, "en").endswith("only seat 2 (亮主/粘牌) may swap")


@pytest.mark.parametrize(("where", "why"), [w for w in _fixed_whys() if ENGLISH_WORD.search(w[1])])
def test_every_english_phrase_a_fault_carries_has_its_chinese(where, why):
    shown = messages.render("shengji.bad_option", {"key": "k", "value": 1, "why": why}, "zh")
    assert not ENGLISH_WORD.search(shown), (where, shown)
    if "{" not in why:  # phrases with fields: test_a_phrase_fills_its_fields_from_the_facts
        assert why in messages.render("shengji.bad_option", {"key": "k", "value": 1, "why": why}, "en")


@pytest.mark.parametrize(("header", "zh_part", "en_part"), [
    ('{"type":"deal","game":"guafeng-zibo","seats":4,"dealer":0,"trump":"S"}',
     "2-10、J、Q、K 或 A", "a rank 2-10, J, Q, K or A"),
    ('{"type":"deal","game":"guafeng-zibo","seats":4,"dealer":7,"level":"2","trump":"S"}',
     "0-3 号座位", "a seat 0-3"),
    ('{"type":"deal","game":"gouji-shandong","seats":6,"leader":9}', "0-5 号座位", "a seat 0-5"),
])
def test_a_bad_deal_option_is_said_in_one_language(header, zh_part, en_part):
    (verdict,) = judge_text([header]).verdicts
    assert verdict.to_json()["code"].endswith(".bad_option")
    zh, en = verdict.to_json("zh")["message"], verdict.to_json("en")["message"]
    assert zh_part in zh and not ENGLISH_WORD.search(zh)
    assert en_part in en


def test_the_second_deals_leader_is_said_in_each_language():
    """004:17 「第二局开始由大落上班」: the reason names the previous deal's 大落."""
    facts = {"key": "leader", "value": 2, "why": "the previous deal's 大落, seat {daluo} (第二局开始由大落上班, 004:17)",
             "daluo": 5}
    assert messages.render("gouji.bad_option", facts, "zh") == \
        "本局设置 首家（leader） 的值无效：2（应为上局大落座位 5（第二局开始由大落上班，004:17））"
    assert messages.render("gouji.bad_option", facts, "en") == \
        "deal option leader has a bad value: 2 (the previous deal's 大落, seat 5 (第二局开始由大落上班, 004:17))"
