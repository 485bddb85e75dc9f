"""A table laptop keeps recording through a network outage: local outbox, then forwarded."""

from __future__ import annotations

import psycopg
import sample_logs as logs  # tests/helpers (pytest pythonpath)

from cardref.engine.judge import judge_text
from cardref.recorder import StoreError, open_store
from cardref.recorder.spool import Queued, SpoolingRecorder

LOG = logs.DEAL_GOUJI


def test_outage_lines_wait_locally_and_arrive_in_order(pg_url, tmp_path):

    down = {"now": False}
    opened = []

    def connect():
        if down["now"]:
            raise StoreError("server unreachable")
        store = open_store(pg_url)
        real = store._connect

        def maybe():
            if down["now"]:
                raise psycopg.OperationalError("connection refused")
            return real()

        store._connect = maybe
        opened.append(store)
        return store

    spool = SpoolingRecorder(connect, tmp_path / "outbox.db", retry_s=0.0)
    try:
        for line in LOG[:3]:
            assert not isinstance(spool.record("T1", line), Queued)
        # the server goes away: the open connection dies and new ones are refused
        down["now"] = True
        pid = opened[-1].query_one("SELECT pg_backend_pid()")[0]
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        queued = [spool.record("T1", line) for line in LOG[3:7]]
        assert all(isinstance(q, Queued) for q in queued)
        assert spool.outbox.count("T1") == 4
        with open_store(pg_url) as server:
            assert server.lines("T1") == LOG[:3]
        # it is back: the waiting lines go first, then the new ones, in order, once each
        down["now"] = False
        assert spool.flush() == 4
        for line in LOG[7:]:
            assert not isinstance(spool.record("T1", line), Queued)
        assert spool.outbox.count() == 0
    finally:
        spool.close()
    with open_store(pg_url) as server:
        assert server.lines("T1") == LOG
        stored = server.verdict_json("T1", "en")
        assert [stored[i] for i in range(len(LOG))] == [v.to_json("en") for v in judge_text(LOG).verdicts]


def test_a_line_forwarded_before_a_crash_is_not_sent_twice(pg_url, tmp_path):
    box = tmp_path / "outbox.db"
    spool = SpoolingRecorder(lambda: open_store(pg_url), box)
    spool.record("T1", LOG[0])
    # a crash after the server committed a forwarded line but before the outbox forgot it
    spool.outbox.put("T1", LOG[1], "uid-1")
    spool._recorder.record("T1", LOG[1], uid="uid-1")
    spool.close()
    again = SpoolingRecorder(lambda: open_store(pg_url), box)
    try:
        assert again.flush() == 1
        again.record("T1", LOG[2])
    finally:
        again.close()
    with open_store(pg_url) as server:
        assert server.lines("T1") == LOG[:3]


def test_store_append_with_spool_and_no_server(tmp_path, capsys):
    from cardref.cli import main as cli

    log = tmp_path / "t.jsonl"
    log.write_text("\n".join(LOG[:3]) + "\n", encoding="utf-8")
    box = tmp_path / "box.db"
    nowhere = "postgresql://cardref:cardref@127.0.0.1:1/none"
    assert cli(["store", "append", "--db", nowhere, "--table", "T1", "--spool", str(box), "--echo", str(log)]) == 3
    out = capsys.readouterr()
    assert out.out.count("queued ") == 3 and "3 still waiting" in out.err
    # the same outbox, with the store reachable: the waiting lines go first
    db = str(tmp_path / "up.db")
    log.write_text(LOG[3] + "\n", encoding="utf-8")
    assert cli(["store", "append", "--db", db, "--table", "T1", "--spool", str(box), str(log)]) == 0
    with open_store(db) as store:
        assert store.lines("T1") == LOG[:4]
