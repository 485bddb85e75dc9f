"""Migrations: ``MIGRATIONS[v](writer)`` brings a store at version ``v`` to ``v + 1``.

Each runs inside the schema transaction the store opens (see
:func:`.store.connect_store`), works only through the :class:`.store.SchemaWriter` it is
given, and returns the ids of tables whose verdicts must be rebuilt by re-judging their
logs (:func:`cardref.recorder.open_store` does that).
"""

from __future__ import annotations

import json

from . import schema
from .store import Migration, SchemaWriter, now_iso, to_line


def _v1_to_v2(store: SchemaWriter) -> list[str]:
    """v1 kept raw lines only.  Parse them into v2 rows (malformed ones as rejected), give
    each table one match holding its whole log, and re-judge every table afterwards."""
    run = store.run
    run("ALTER TABLE events RENAME TO events_v1")
    run("ALTER TABLE tables RENAME TO tables_v1")
    for stmt in schema.v2_statements(store.pk):
        run(stmt)
    tables = run("SELECT id, name, created_at FROM tables_v1 ORDER BY id").fetchall()
    known = {r[0] for r in tables}
    orphans = [r[0] for r in run("SELECT DISTINCT table_id FROM events_v1 ORDER BY table_id").fetchall()
               if r[0] not in known]
    stats = {"from": 1, "to": 2, "tables": 0, "events": 0, "blank_lines_skipped": 0, "renumbered": []}
    migrated: list[str] = []
    for table_id, name, created in [*tables, *((t, None, now_iso()) for t in orphans)]:
        store.add_table(table_id, name, created or now_iso())
        store.new_match(table_id, "migrated from schema v1")
        rows = run("SELECT seq, line, recorded_at FROM events_v1 WHERE table_id = ? ORDER BY seq",
                   (table_id,)).fetchall()
        lines, stamps, seqs = [], [], []
        for seq, line, at in rows:
            text = to_line(line or "")
            if not text:
                stats["blank_lines_skipped"] += 1
                continue
            lines.append(text)
            stamps.append(at or now_iso())
            seqs.append(seq)
        if seqs != list(range(len(seqs))):
            stats["renumbered"].append(table_id)  # gaps in v1 seqs: the log index is the line's position
        if lines:
            store.append_lines(table_id, lines, stamps)
        stats["tables"] += 1
        stats["events"] += len(lines)
        migrated.append(table_id)
    run("DROP TABLE events_v1")
    run("DROP TABLE tables_v1")
    for stmt in schema.APPEND_ONLY[store.dialect]:
        run(stmt)
    run("INSERT INTO audit (at, actor, action, outcome, detail) VALUES (?, ?, ?, ?, ?)",
        (now_iso(), "cardref", "migrate", "ok", json.dumps(stats)))
    return migrated


def _v2_to_v3(store: SchemaWriter) -> list[str]:
    """v3 marks verdicts that are questions (``confirm``): add the column and re-judge every
    table, so its verdicts say which of them are questions."""
    for stmt in schema.V3_STATEMENTS:
        store.run(stmt)
    tables = [r[0] for r in store.run("SELECT id FROM card_tables ORDER BY id").fetchall()]
    store.run("INSERT INTO audit (at, actor, action, outcome, detail) VALUES (?, ?, ?, ?, ?)",
              (now_iso(), "cardref", "migrate", "ok", json.dumps({"from": 2, "to": 3, "tables": len(tables)})))
    return tables


MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2, 2: _v2_to_v3}
