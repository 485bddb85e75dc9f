"""The event store against both back ends: nothing lost, verdicts kept, resumable."""

from __future__ import annotations

import json
import threading

import pytest
import sample_logs as logs  # tests/helpers (pytest pythonpath)

from cardref.engine.judge import judge_text
from cardref.recorder import LockedError, Recorder, open_store, table_rows
from cardref.recorder.schema import CURRENT_VERSION

LOG = logs.DEAL_GOUJI + logs.DEAL_GUAFENG


def _verdicts_json(verdicts):
    return [v.to_json("en") for v in verdicts]


def test_append_keeps_every_line_and_parses_it(store):
    out = [store.append("T1", line) for line in LOG]
    assert [a.seq for a in out] == list(range(len(LOG)))
    events = store.events("T1")
    assert [e.line for e in events] == LOG
    rejected = {e.seq: (e.code, e.reason) for e in events if e.status == "rejected"}
    assert set(rejected) == {3, 4, 13, 15}
    assert rejected[3][0] == "log.bad_json" and "line 4" in rejected[3][1]
    assert rejected[4][0] == "event.bad_card" and "ZZ" in rejected[4][1]
    assert rejected[15][0] == "log.unknown_type"
    assert events[15].type == "explode"
    assert (events[1].type, events[1].seat, events[1].source) == ("play", 0, "camera")
    assert (events[7].ref, events[7].who, events[7].why) == (4, "referee Li", "camera misread 9H")
    assert store.count_events("T1") == len(LOG)


def test_blank_lines_are_not_events(store):
    with pytest.raises(ValueError):
        store.append("T1", "   \n")
    assert store.count_events() == 0


def test_hostile_input_is_stored_verbatim_as_rejected(store):
    table = "T1'; DROP TABLE events; --"
    lines = ['{"type":"play","seat":0,"cards":["3S"]} \x00 trailing', "\ud800 lone surrogate",
             '{"type":"deal","game":"' + "x" * 5000 + '"}', "[" * 100000 + "]" * 100000,
             b'{"type":"pass","seat":1}\xff'.decode("latin-1")]
    for line in lines:
        store.append(table, line)
    events = store.events(table)
    assert len(events) == len(lines)
    assert "\x00" not in events[0].line and events[0].status == "rejected"
    assert events[1].status == "rejected"
    assert events[3].status == "rejected" and len(events[3].line) == 200000
    assert store.count_events() == len(lines)
    assert store.tables()[0].id == table


def test_matches_and_deals(store):
    store.append_many("T1", logs.DEAL_GOUJI)
    second = store.start_match("T1", "round 2")
    store.append_many("T1", logs.DEAL_GUAFENG)
    matches = store.matches(table_id="T1")
    assert [m.id for m in matches][-1] == second and len(matches) == 2
    assert matches[0].ended_at is not None and matches[1].ended_at is None
    deals = store.deals(table_id="T1")
    assert [(d.start_seq, d.game, d.match_id) for d in deals] == [
        (0, "gouji-shandong", matches[0].id), (10, "guafeng-zibo", second)]
    assert [e.seq for e in store.events("T1", match_id=second)] == list(range(10, 16))
    assert [e.seq for e in store.events("T1", deal_id=deals[0].id)] == list(range(10))


def test_recorder_verdicts_equal_the_offline_judge(store):
    rec = Recorder(store)
    shown = []
    for line in LOG:
        done = rec.record("T1", line)
        shown.append(done.seq)
        assert any(v.i == done.seq for v in done.verdicts)
    offline = judge_text(LOG)
    stored = store.verdict_json("T1", "en")
    assert [stored[i] for i in range(len(LOG))] == _verdicts_json(offline.verdicts)
    deals = store.deals(table_id="T1")
    assert [d.summary for d in deals] == offline.summary()["deals"]
    rows = table_rows(store, "T1", lang="en")
    assert rows[4]["status"] == "rejected" and rows[4]["code"] != "event.bad_card"  # the correction fixed ZZ
    assert rows[6]["code"] != "event.bad_seat"  # the seat correction fixed seat 9
    assert rows[3]["ok"] is False and rows[3]["code"] == "log.bad_json"


def test_resume_after_restart_continues_the_deal(store_url):
    with open_store(store_url) as first:
        rec = Recorder(first)
        for line in LOG[:8]:
            rec.record("T1", line)
    with open_store(store_url) as again:
        rec = Recorder(again)
        assert len(rec.live("T1").lines) == 8
        for line in LOG[8:]:
            rec.record("T1", line)
        offline = judge_text(LOG)
        stored = again.verdict_json("T1", "en")
        assert [stored[i] for i in range(len(LOG))] == _verdicts_json(offline.verdicts)
        assert rec.state("T1") == _state_of(LOG)


def _state_of(lines):
    from cardref.engine.judge import LiveJudge

    live = LiveJudge()
    for line in lines:
        live.feed_text(line)
    return live.state()


def test_corrections_audit_trail(store):
    rec = Recorder(store)
    for line in logs.DEAL_GOUJI[:7]:
        rec.record("T1", line)
    with pytest.raises(ValueError):
        rec.correct("T1", 4, who="", why="x", cards=["9H"])
    with pytest.raises(ValueError):
        rec.correct("T1", 99, who="Li", why="x", cards=["9H"])
    done = rec.correct("T1", 4, who="Li", why="misread", cards=["9H", "9S"])
    trail = store.corrections("T1")
    assert len(trail) == 1
    entry = trail[0]
    assert (entry["seq"], entry["ref"], entry["who"], entry["why"]) == (done.seq, 4, "Li", "misread")
    assert entry["original"] == logs.DEAL_GOUJI[4]
    assert json.loads(entry["correction"])["cards"] == ["9H", "9S"]
    assert entry["recorded_at"]
    assert store.verdicts("T1")[4].fault is None or store.verdicts("T1")[4].fault.code != "event.bad_card"
    assert [a["action"] for a in store.audit_log(table_id="T1")] == ["correct"]


def test_confirmed_results_refuse_corrections_without_authorisation(store):
    rec = Recorder(store)
    for line in logs.DEAL_GOUJI[:5]:
        rec.record("T1", line)
    match_id = store.events("T1")[0].match_id
    store.confirm_match(match_id, "director Wang")
    with pytest.raises(LockedError):
        rec.correct("T1", 4, who="Li", why="late", cards=["9H", "9S"])
    assert store.count_events("T1") == 5
    audit = store.audit_log(table_id="T1")
    assert audit[-1]["outcome"].startswith("refused")
    before = store.verdict_json("T1")[4]
    rec.correct("T1", 4, who="Li", why="late", cards=["9H", "9S"], authorized_by="director Wang")
    assert before["code"] == "event.bad_card" and store.verdict_json("T1")[4].get("code") != "event.bad_card"
    # new events after confirmation open a new match
    done = rec.record("T1", logs.DEAL_GUAFENG[0])
    assert done.appended.match_id != match_id


def test_concurrent_writers_lose_and_duplicate_nothing(store_url):
    per_writer = 60
    errors: list[BaseException] = []

    def writer(table: str) -> None:
        try:
            with open_store(store_url) as s:
                for k in range(per_writer):
                    s.append(table, {"type": "pass", "seat": k % 4, "n": k})
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    with open_store(store_url):
        pass
    threads = [threading.Thread(target=writer, args=(t,)) for t in ("A", "B", "C", "A")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with open_store(store_url) as s:
        for table, writers in (("A", 2), ("B", 1), ("C", 1)):
            events = s.events(table)
            assert [e.seq for e in events] == list(range(per_writer * writers))
            ns = sorted(json.loads(e.line)["n"] for e in events)
            assert ns == sorted(list(range(per_writer)) * writers)


def test_newer_store_is_refused(tmp_path):
    import sqlite3

    from cardref.recorder import StoreError

    path = tmp_path / "future.db"
    with open_store(str(path)):
        pass
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        open_store(str(path))


def test_default_path_follows_xdg_and_env(monkeypatch, tmp_path):
    from cardref.recorder.paths import resolve_db

    monkeypatch.delenv("CARDREF_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert resolve_db() == str(tmp_path / "cardref" / "cardref.db")
    monkeypatch.setenv("CARDREF_DB", "/x/y.db")
    assert resolve_db() == "/x/y.db"
    assert resolve_db("/explicit.db") == "/explicit.db"
    with open_store(str(tmp_path / "a" / "b.db")) as s:
        assert s.query_one("PRAGMA journal_mode")[0] == "wal"
        assert s.query_one("PRAGMA synchronous")[0] == 2  # FULL


def test_two_recorders_on_one_table_stay_consistent(store_url):
    """A second writer at the same table (two laptops by mistake): seqs stay unique and each
    recorder re-reads the log before judging, so the verdicts are those of the whole log."""
    with open_store(store_url) as one, open_store(store_url) as two:
        r1, r2 = Recorder(one), Recorder(two)
        for k, line in enumerate(logs.DEAL_GOUJI):
            (r1 if k % 3 else r2).record("T1", line)
        assert [e.seq for e in one.events("T1")] == list(range(len(logs.DEAL_GOUJI)))
        stored = one.verdict_json("T1", "en")
        assert [stored[i] for i in range(len(logs.DEAL_GOUJI))] == _verdicts_json(judge_text(logs.DEAL_GOUJI).verdicts)


def test_store_commands(tmp_path, capsys):
    from cardref.cli import main as cli

    db = str(tmp_path / "c.db")
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(logs.DEAL_GOUJI) + "\n\n", encoding="utf-8")
    assert cli(["store", "append", "--db", db, "--table", "T1", str(log), "--verdicts", "--lang", "en"]) == 0
    verdicts = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert {v["i"] for v in verdicts} == set(range(len(logs.DEAL_GOUJI)))
    assert cli(["store", "info", "--db", db]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["events"] == len(logs.DEAL_GOUJI) and info["schema_version"] == CURRENT_VERSION == 3
    assert cli(["store", "events", "--db", db, "--table", "T1", "--lang", "en"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rows[3]["status"] == "rejected" and "not JSON" in rows[3]["message"]
    assert cli(["store", "corrections", "--db", db]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert cli(["store", "rejudge", "--db", db, "--table", "T1"]) == 0
    capsys.readouterr()
    with open_store(db) as s:
        assert [s.verdict_json("T1", "en")[i] for i in range(len(logs.DEAL_GOUJI))] == \
            _verdicts_json(judge_text(logs.DEAL_GOUJI).verdicts)
    assert cli(["store", "events", "--db", db, "--table", "nope"]) == 2
    assert cli(["store", "append", "--db", db, "--table", "T1", str(tmp_path / "missing.jsonl")]) == 2
    assert cli(["store", "append", "--db", db, "--table", "T1", "--resume", str(log)]) == 0
    assert "already stored" in capsys.readouterr().err
    assert cli(["store", "info", "--db", "mysql://x"]) == 2


def test_lost_connections_lose_and_duplicate_nothing(pg_url):
    """PostgreSQL: the server drops the connection between appends, and after a COMMIT
    whose acknowledgement never arrives; the recorder reconnects, nothing is lost or doubled."""
    from contextlib import contextmanager

    import psycopg

    with open_store(pg_url) as store:
        rec = Recorder(store)
        for line in logs.DEAL_GOUJI[:3]:
            rec.record("T1", line)
        pid = store.query_one("SELECT pg_backend_pid()")[0]
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        rec.record("T1", logs.DEAL_GOUJI[3])  # the first statement finds the connection dead

        real_write = store._write
        failures = {"left": 1}

        @contextmanager
        def ack_lost():
            with real_write():
                yield
            if failures["left"]:
                failures["left"] -= 1
                raise psycopg.OperationalError("server closed the connection unexpectedly")

        store._write = ack_lost
        rec.record("T1", logs.DEAL_GOUJI[4])  # committed, but the client never heard so
        rec.record_many("T1", logs.DEAL_GOUJI[5:7])
        failures["left"] = 1
        rec.record_many("T1", logs.DEAL_GOUJI[7:9])  # committed, not acknowledged, found by uid
        failures["left"] = 1
        store.ensure_table("T2")  # idempotent: repeated after the lost acknowledgement
        failures["left"] = 1
        store.append_many("T2", logs.DEAL_GOUJI[:4])  # no judge: the store itself finds the commit
        store._write = real_write
        for line in logs.DEAL_GOUJI[9:]:
            rec.record("T1", line)
        assert store.lines("T1") == logs.DEAL_GOUJI
        assert store.lines("T2") == logs.DEAL_GOUJI[:4]
        stored = store.verdict_json("T1", "en")
        assert [stored[i] for i in range(len(logs.DEAL_GOUJI))] == _verdicts_json(
            judge_text(logs.DEAL_GOUJI).verdicts)


def test_events_are_append_only_in_the_database(store):
    store.append("T1", logs.DEAL_GOUJI[0])
    for sql in ("UPDATE events SET line = 'x'", "DELETE FROM events"):
        with pytest.raises(Exception, match="append-only"):
            with store.transaction() as run:
                run(sql)
    assert store.lines("T1") == logs.DEAL_GOUJI[:1]
