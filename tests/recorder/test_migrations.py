"""A store written by an older cardref (schema v1) is migrated, not broken."""

from __future__ import annotations

import sqlite3

from cardref.engine.judge import judge_text
from cardref.recorder import open_store
from cardref.recorder.schema import CURRENT_VERSION, V1_TABLES

V1_LOG = [
    '{"type":"deal","game":"gouji-shandong","seats":6,"leader":0}',
    '{"type":"play","seat":0,"cards":["3S","3H"]}',
    "{broken",
    '{"type":"play","seat":1,"cards":["QQ"]}',
    '{"type":"correct","ref":3,"cards":["5D"],"who":"ref","why":"misread"}',
]


def _make_v1(url: str) -> None:
    """Build a v1 store by hand, the way cardref 0.0 wrote it."""
    rows = [("T1", k, line, f"2026-01-01T00:00:{k:02d}+00:00") for k, line in enumerate(V1_LOG)]
    rows += [("T2", 0, '{"type":"deal","game":"guafeng-zibo","seats":4,"level":"2","trump":"S","dealer":0}',
              "2026-01-02T00:00:00+00:00"), ("T2", 1, "   ", "2026-01-02T00:00:01+00:00")]
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            for stmt in V1_TABLES:
                conn.execute(stmt)
            conn.execute("INSERT INTO schema_version VALUES (1)")
            conn.execute("INSERT INTO tables VALUES ('T1', 'old table', '2026-01-01T00:00:00+00:00')")
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO events VALUES (%s, %s, %s, %s)", rows)
        return
    conn = sqlite3.connect(url)
    for stmt in V1_TABLES:
        conn.execute(stmt)
    conn.execute("INSERT INTO schema_version VALUES (1)")
    conn.execute("INSERT INTO tables VALUES ('T1', 'old table', '2026-01-01T00:00:00+00:00')")
    conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()


def test_v1_store_is_migrated(store_url):
    _make_v1(store_url)
    with open_store(store_url) as store:
        assert store.schema_version() == CURRENT_VERSION
        assert [t.id for t in store.tables()] == ["T1", "T2"]
        assert store.table("T1").name == "old table"
        events = store.events("T1")
        assert [e.line for e in events] == V1_LOG
        assert events[2].status == "rejected" and events[2].code == "log.bad_json"
        assert events[3].status == "rejected" and events[3].code == "event.bad_card"
        assert (events[4].ref, events[4].who) == (3, "ref")
        assert events[1].recorded_at == "2026-01-01T00:00:01+00:00"
        expected = [v.to_json("en") for v in judge_text(V1_LOG).verdicts]
        assert list(store.verdict_json("T1", "en").values()) == expected
        assert store.deals(table_id="T1")[0].game == "gouji-shandong"
        assert store.count_events("T2") == 1  # the blank v1 line is not an event
        migrate = [a for a in store.audit_log() if a["action"] == "migrate"]
        assert migrate[0]["detail"]["blank_lines_skipped"] == 1 and migrate[0]["detail"]["events"] == 6
        store.append("T1", '{"type":"pass","seat":2}')
        assert store.events("T1")[-1].seq == len(V1_LOG)
    with open_store(store_url) as again:  # opening twice is harmless
        assert again.count_events("T1") == len(V1_LOG) + 1


#: A camera log whose only fault rests on a doubtful reading (conf 0.3): the judge asks,
#: it does not accuse, so the verdict is stored as a question (schema v3, ``confirm``).
GAP_LOG = [
    '{"type":"deal","game":"guafeng-zibo","seats":4,"level":"2","trump":"S","dealer":0}',
    '{"type":"play","seat":1,"cards":["3H"],"source":"camera","conf":0.3}',
]


def test_v2_store_is_migrated_and_its_questions_marked(tmp_path):
    url = str(tmp_path / "v2.db")
    expected = [v.to_json("en") for v in judge_text(GAP_LOG).verdicts]
    assert any(v.get("confirm") for v in expected)  # the log holds a question to mark
    with open_store(url) as store:
        store.append_many("T", GAP_LOG)
    conn = sqlite3.connect(url)  # take it back to v2: no confirm column, as cardref wrote it then
    conn.execute("ALTER TABLE verdicts DROP COLUMN confirm")
    conn.execute("UPDATE schema_version SET version = 2")
    conn.commit()
    conn.close()
    with open_store(url) as store:
        assert store.schema_version() == CURRENT_VERSION == 3
        assert list(store.verdict_json("T", "en").values()) == expected
        assert any(a["action"] == "migrate" and a["detail"].get("to") == 3 for a in store.audit_log())
