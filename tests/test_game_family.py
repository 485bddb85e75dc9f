"""The game family is read from the rules (``GameRules.family``), never guessed from the
game's name (issue 30: "six places outside the engine infer the game family from the name's
prefix")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardref.engine import registry

ROOT = Path(__file__).resolve().parents[1]
GUESS = re.compile(r"""startswith\(\s*["'](gouji|guafeng|chaodipi|shengji)""")


@pytest.mark.parametrize(("game", "family"), [
    ("gouji-shandong", "gouji"), ("gouji-yucheng", "gouji"), ("guafeng-zibo", "shengji"),
    ("chaodipi-anchao", "shengji"), ("chaodipi-kangqi", "shengji"), ("chaodipi-mingchao", "shengji"),
    ("gouji-nowhere", None), ("", None), (None, None),
])
def test_the_family_comes_from_the_rules(game, family):
    assert registry.family_of(game) == family
    assert registry.is_gouji(game) is (family == "gouji")


def test_no_runtime_module_guesses_the_family_from_the_name():
    guesses = [f"{p.relative_to(ROOT)}:{n}" for folder in ("ui", "vision", "recorder", "cardref")
               for p in sorted((ROOT / folder).rglob("*.py"))
               for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if GUESS.search(line)]
    assert guesses == []
