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


def _fixed_whys() -> list[tuple[str, str]]:
    """Every literal ``"why": "..."`` a fault of the engine carries, with where it is."""
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if (isinstance(k, ast.Constant) and k.value == "why" and isinstance(v, ast.Constant)
                            and isinstance(v.value, str)):
                        out.append((f"{path.relative_to(ENGINE)}:{v.lineno}", v.value))
    return out


@pytest.mark.parametrize(("where", "why"), [w for w in _fixed_whys() if ENGLISH_WORD.search(w[1])])
def test_every_english_phrase_a_fault_carries_has_its_chinese(where, why):
    shown = messages.render("shengji.bad_option", {"key": "k", "value": 1, "why": why}, "zh")
    assert not ENGLISH_WORD.search(shown), (where, shown)
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
