"""The shape of the 够级 engine (issue 30): small classes, no import cycles between its
modules (type-checking imports included), and the phase and declare names as enums whose
values are the strings of the logs and of ``state()``."""

from __future__ import annotations

import ast
from pathlib import Path

from cardref.engine import gouji
from cardref.engine.gouji import GAMES
from cardref.engine.gouji.declare_names import Declare
from cardref.engine.gouji.declares import KNOWN
from cardref.engine.gouji.notation import parse_script
from cardref.engine.gouji.table import Phase
from cardref.engine.judge import LiveJudge

GOUJI = Path(gouji.__file__).resolve().parent
MAX_CLASS_LINES = 300


def _trees() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in GOUJI.glob("*.py")}


def _imports(trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """module -> the sibling modules it imports, at any depth of the file (``if TYPE_CHECKING:`` too)."""
    out: dict[str, set[str]] = {name: set() for name in trees}
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                targets = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                out[name].update(t for t in targets if t in trees)
    return out


def _reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph[m])
    return seen


def test_no_gouji_class_is_over_300_lines() -> None:
    sizes = {f"{name}.{node.name}": node.end_lineno - node.lineno + 1  # type: ignore[operator]
             for name, tree in _trees().items() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    assert "referee.GoujiReferee" in sizes
    assert {k: n for k, n in sizes.items() if n > MAX_CLASS_LINES} == {}


def test_no_import_cycle_between_gouji_modules() -> None:
    graph = _imports(_trees())
    assert "referee" in graph["__init__"] and "declares" in graph["referee"]    # the graph is read
    assert [m for m in graph if m in _reaches(graph, m)] == []


def test_phase_values_are_the_state_strings() -> None:
    assert [p.value for p in Phase] == ["prep", "chongdian", "play", "over", "void"]
    live = LiveJudge()
    for ev in parse_script("deal gouji-yucheng leader=2\n"):
        live.feed(ev)
    state = live.state()
    assert type(state["phase"]) is str and state["phase"] == Phase.PREP


def test_every_variant_declare_is_a_declare_name() -> None:
    assert KNOWN == frozenset(Declare) and len(Declare) == 16
    for rules in GAMES:
        assert rules.settings.declares <= KNOWN
        assert {what for what, _ in rules.settings.prep_stages} <= KNOWN
