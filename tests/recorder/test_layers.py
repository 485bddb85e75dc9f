"""The recorder's modules import each other without cycles (issue #30): the store knows
the schema but not the judge, the migrations work through the SchemaWriter they are given
and touch no private member of the store, and open_store (a module above both) re-judges
the tables a migration left stale."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RECORDER = Path(__file__).resolve().parents[2] / "recorder"


def _recorder_imports(path: Path) -> set[str]:
    """The recorder modules a file imports, at the top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                out.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
            elif node.module and node.module.startswith("cardref.recorder"):
                rest = node.module.split(".")[2:]
                out.update(rest[:1] if rest else ["__init__"])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names if a.name.startswith("cardref.recorder."))
    return out - {path.stem}


def _graph() -> dict[str, set[str]]:
    return {p.stem: _recorder_imports(p) for p in RECORDER.glob("*.py")}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_graph_is_read() -> None:
    graph = _graph()
    assert {"store", "recorder", "segments", "migrations", "opening"} <= set(graph)
    assert "store" in graph["recorder"] and "segments" in graph["recorder"]
    assert _cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


def test_no_import_cycle_between_recorder_modules() -> None:
    graph = {k: v - {"__init__"} for k, v in _graph().items() if k != "__init__"}
    assert _cycle(graph) is None


def test_the_store_imports_only_schema_paths_and_the_claim_file() -> None:
    graph = _graph()
    assert graph["store"] <= {"schema", "paths", "claimfile"}
    assert graph["claimfile"] == set()  # a leaf: the spool's outbox claims tables with it too


def test_migrations_use_no_private_member_of_the_store() -> None:
    tree = ast.parse((RECORDER / "migrations.py").read_text(encoding="utf-8"))
    private = sorted({n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr.startswith("_")})
    assert private == []
    from_store = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "store"
                  for a in n.names}
    assert "SchemaWriter" in from_store and from_store.isdisjoint({"EventStore", "SQLiteStore", "PostgresStore"})


def test_connect_store_reports_stale_tables_and_open_store_rejudges(tmp_path) -> None:
    """A v1 store: connect_store migrates it and names the stale table; open_store has judged it."""
    import sqlite3

    from cardref.recorder import open_store
    from cardref.recorder.migrations import MIGRATIONS
    from cardref.recorder.schema import V1_TABLES
    from cardref.recorder.store import StoreError, connect_store

    def v1(path: Path) -> None:
        conn = sqlite3.connect(path)
        for stmt in V1_TABLES:
            conn.execute(stmt)
        conn.execute("INSERT INTO schema_version VALUES (1)")
        conn.execute("INSERT INTO events VALUES ('T', 0, ?, '2026-01-01T00:00:00+00:00')",
                     ('{"type":"deal","game":"gouji-shandong","seats":6,"leader":0}',))
        conn.execute("INSERT INTO events VALUES ('T', 1, '{\"type\":\"play\",\"seat\":3,\"cards\":[\"3S\"]}', "
                     "'2026-01-01T00:00:01+00:00')")
        conn.commit()
        conn.close()

    raw, judged = tmp_path / "raw.db", tmp_path / "judged.db"
    v1(raw)
    v1(judged)
    with pytest.raises(StoreError, match="schema version 1"):
        connect_store(str(raw))  # no migrations given: refused, not half-migrated
    store, stale = connect_store(str(raw), migrations=MIGRATIONS)
    with store:
        assert stale == ["T"] and store.verdicts("T") == {}  # the caller re-judges
    with open_store(str(judged)) as store:
        verdicts = store.verdicts("T")
        assert verdicts[0].ok and verdicts[1].fault is not None
