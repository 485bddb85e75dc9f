"""Hostile inputs through the real commands (issue #32 items 3-8 and 10): each ends in a
clear message naming the input and what to do, or in a correct result; never a traceback,
and nothing already written is lost or changed.

Every case runs ``cardref.cli.main`` (or ``python -m cardref.cli``) on temporary paths;
the store cases run against SQLite and PostgreSQL (see conftest.py)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardref.cli import main as cli
from cardref.recorder import Recorder, TableBusy, open_store
from cardref.recorder.exchange import import_lines

DEAL = '{"type":"deal","game":"gouji-shandong","seats":6,"leader":0}'
PLAYS = ['{"type":"play","seat":0,"cards":["3S","3H"],"t":1.0}', '{"type":"play","seat":1,"cards":["5D","5C"],"t":2.5}',
         '{"type":"play","seat":2,"cards":["9S","9D"],"t":4.0}']
HUGE = "7" * 5000  # beyond Python's int-string limit of 4,300 digits

# (case, bad line, stable code)
BAD_LINES = [
    ("5000-digit seat", '{"type":"play","seat":' + HUGE + ',"cards":["3S"]}', "log.bad_number"),
    ("NaN t", '{"type":"play","seat":1,"cards":["3S"],"t":NaN}', "log.bad_number"),
    ("1e999 t", '{"type":"play","seat":1,"cards":["3S"],"t":1e999}', "log.bad_number"),
    ("seat twice", '{"type":"play","seat":1,"seat":2,"cards":["3S"]}', "log.duplicate_key"),
]


pytestmark = pytest.mark.usefixtures("never_the_users_store")


def _err_is_clear(err: str, *words: str) -> None:
    assert "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)


def _write(path: Path, lines: list[str], encoding: str = "utf-8") -> Path:
    path.write_text("\n".join(lines) + "\n", encoding=encoding)
    return path


def _sub_env() -> dict[str, str]:
    return dict(os.environ, PYTHONUNBUFFERED="1", YOLO_OFFLINE="1")


# -- item 3: a UTF-8 byte-order mark ------------------------------------------------------
@pytest.mark.parametrize("command", ["import", "append"])
def test_a_log_with_a_byte_order_mark_is_recorded_whole(store_url, tmp_path, capsys, command):
    log = _write(tmp_path / "bom.jsonl", [DEAL, *PLAYS], encoding="utf-8-sig")
    argv = (["import", str(log), "--table", "T"] if command == "import"
            else ["store", "append", "--table", "T", str(log)])
    assert cli([*argv, "--db", store_url]) == 0
    _err_is_clear(capsys.readouterr().err)
    with open_store(store_url) as store:
        events = store.events("T")
        assert [(e.status, e.type) for e in events] == [("ok", "deal")] + [("ok", "play")] * 3
        assert events[0].line == DEAL  # stored without the mark
        verdicts = store.verdict_json("T", "en")
        assert all(v.get("code") != "log.no_deal" for v in verdicts.values())
        assert verdicts[1] == {"i": 1, "ok": True}


# -- items 4 and 5: one bad line, the rest kept -------------------------------------------
@pytest.mark.parametrize(("case", "bad", "code"), BAD_LINES, ids=[c for c, _, _ in BAD_LINES])
def test_import_keeps_every_line_and_rejects_only_the_bad_one(store_url, tmp_path, capsys, case, bad, code):
    log = _write(tmp_path / "log.jsonl", [DEAL, PLAYS[0], bad, PLAYS[1], PLAYS[2]])
    assert cli(["import", str(log), "--db", store_url, "--table", "T"]) == 0
    out, err = capsys.readouterr()
    _err_is_clear(err)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["lines"] == 5 and result["rejected"] == 1
    with open_store(store_url) as store:
        (match,) = store.matches(table_id="T")  # one match, holding every line: no empty one
        events = store.events("T", match_id=match.id)
        assert [e.status for e in events] == ["ok", "ok", "rejected", "ok", "ok"]
        assert events[2].code == code and events[2].line == bad and events[2].reason.startswith("line 3: ")
        assert store.verdict_json("T", "en")[2]["code"] == code


@pytest.mark.parametrize(("case", "bad", "code"), BAD_LINES, ids=[c for c, _, _ in BAD_LINES])
def test_store_append_does_not_stop_at_a_bad_line(store_url, tmp_path, capsys, case, bad, code):
    log = _write(tmp_path / "log.jsonl", [DEAL, PLAYS[0], bad, PLAYS[1], PLAYS[2]])
    assert cli(["store", "append", "--db", store_url, "--table", "T", "--echo", str(log)]) == 0
    out, err = capsys.readouterr()
    _err_is_clear(err, "5 lines recorded", "1 rejected")
    assert out.split() == ["recorded", "0", "recorded", "1", "recorded", "2", "recorded", "3", "recorded", "4"]
    with open_store(store_url) as store:
        assert [e.code for e in store.events("T")] == [None, None, code, None, None]
        assert store.lines("T")[3:] == [PLAYS[1], PLAYS[2]]


# -- item 6: a corrupt or foreign --db ----------------------------------------------------
def _commands(db: str, tmp_path: Path) -> list[list[str]]:
    log = _write(tmp_path / "in.jsonl", [DEAL, *PLAYS])
    return [["store", "info", "--db", db], ["store", "tables", "--db", db], ["store", "matches", "--db", db],
            ["store", "events", "--db", db, "--table", "T"], ["store", "append", "--db", db, "--table", "T", str(log)],
            ["store", "rejudge", "--db", db, "--table", "T"], ["import", str(log), "--db", db, "--table", "T"],
            ["export", "--db", db, "--table", "T"], ["report", "--db", db, "--match", "1", "--csv",
                                                     str(tmp_path / "r.csv")],
            ["tournament", "list", "--db", db]]


def _foreign_sqlite(path: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.execute("INSERT INTO invoices (total) VALUES (9.5)")
    conn.commit()
    conn.close()


NOT_STORES = {
    "text": lambda p: p.write_text("my notes, not a database\n"),
    "random-bytes": lambda p: p.write_bytes(bytes((k * 7919) % 251 for k in range(6000))),
    "png": lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 200),
    "sqlite-header-then-garbage": lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\xa5" * 8176),
    "another-programs-sqlite": _foreign_sqlite,
}


@pytest.mark.parametrize("kind", sorted(NOT_STORES))
def test_a_file_that_is_not_a_store_is_named_and_left_untouched(tmp_path, capsys, kind):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "cardref.db"
    NOT_STORES[kind](db)
    before = db.read_bytes()
    for argv in _commands(str(db), tmp_path):
        assert cli(argv) == 2, argv
        out, err = capsys.readouterr()
        _err_is_clear(err, str(db))
        assert "--db" in err, err  # what to do: give another store
    assert db.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["cardref.db"]  # no -wal, -shm or lock files beside it


def test_a_folder_as_db_is_named(tmp_path, capsys):
    for argv in _commands(str(tmp_path), tmp_path)[:3]:
        assert cli(argv) == 2
        _err_is_clear(capsys.readouterr().err, str(tmp_path), "folder")


def test_a_damaged_store_is_named_and_not_written(tmp_path, capsys):
    db = tmp_path / "store.db"
    log = _write(tmp_path / "g.jsonl", [DEAL, *PLAYS] * 60)
    assert cli(["import", str(log), "--db", str(db), "--table", "T"]) == 0
    capsys.readouterr()
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0  # checkpointed on close
    data = bytearray(db.read_bytes())
    pages = len(data) // 4096
    for p in range(pages // 2, pages):  # the second half of the file (table pages) is overwritten
        data[p * 4096:(p + 1) * 4096] = b"\x55" * 4096
    db.write_bytes(bytes(data))
    for argv in _commands(str(db), tmp_path):
        if argv[:2] in (["store", "info"], ["store", "tables"], ["tournament", "list"]):
            continue  # these may not read a damaged page at all
        assert cli(argv) == 2, argv
        _err_is_clear(capsys.readouterr().err, str(db), "damaged")
    assert db.read_bytes() == bytes(data)


# -- item 7: two writers at one table -----------------------------------------------------
def test_a_claimed_table_refuses_a_second_writer_before_it_writes(store_url, tmp_path, capsys):
    log = _write(tmp_path / "log.jsonl", [DEAL, *PLAYS])
    with open_store(store_url) as holder, holder.claim_table("T"):
        holder.append("T", DEAL)  # the holder writes; nobody else may
        for argv in (["store", "append", "--db", store_url, "--table", "T", str(log)],
                     ["import", str(log), "--db", store_url, "--table", "T"]):
            assert cli(argv) == 2
            _err_is_clear(capsys.readouterr().err, "'T'", "another writer", "nothing was written")
        with open_store(store_url) as other:
            with pytest.raises(TableBusy):
                with other.claim_table("T"):
                    pass  # pragma: no cover - refused
            assert other.lines("T") == [DEAL]
        assert cli(["store", "append", "--db", store_url, "--table", "U", str(log)]) == 0  # other tables go on
        capsys.readouterr()
    assert cli(["store", "append", "--db", store_url, "--table", "T", str(log)]) == 0  # released
    with open_store(store_url) as store:
        assert store.lines("T") == [DEAL, DEAL, *PLAYS] and len(store.lines("U")) == 4


def test_two_store_append_processes_at_one_table(store_url, tmp_path):
    """The first writer holds the table while its pipe is open; the second is refused, writes
    nothing and says so; when the first is killed (-9) its claim ends with it."""
    cmd = [sys.executable, "-m", "cardref.cli", "store", "append", "--db", store_url, "--table", "T"]
    first = subprocess.Popen([*cmd, "--echo", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=_sub_env())
    assert first.stdin is not None and first.stdout is not None
    try:
        first.stdin.write(DEAL + "\n")
        first.stdin.flush()
        assert first.stdout.readline().strip() == "recorded 0"
        second_log = _write(tmp_path / "second.jsonl", ['{"type":"deal","game":"guafeng-zibo","seats":4}', *PLAYS])
        second = subprocess.run([*cmd, str(second_log)], capture_output=True, text=True, env=_sub_env(), timeout=120)
        assert second.returncode == 2
        _err_is_clear(second.stderr, "'T'", "another writer", "nothing was written")
        first.stdin.write(PLAYS[0] + "\n")
        first.stdin.flush()
        assert first.stdout.readline().strip() == "recorded 1"
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
        first.communicate(timeout=60)
    with open_store(store_url) as store:
        assert store.lines("T") == [DEAL, PLAYS[0]]  # the first writer's lines only, in order
    third = subprocess.run([*cmd, str(second_log)], capture_output=True, text=True, env=_sub_env(), timeout=120)
    assert third.returncode == 0, third.stderr
    with open_store(store_url) as store:
        assert [e.seq for e in store.events("T")] == list(range(6))


# -- item 8: an interrupted import --------------------------------------------------------
def _big_log(deals: int) -> list[str]:
    out = []
    for d in range(deals):
        out.append(DEAL)
        out.extend(json.dumps({"type": "play", "seat": k % 6, "cards": ["3S"], "t": float(k), "d": d})
                   for k in range(40))
    return out


@pytest.mark.parametrize("interrupt", [RuntimeError("disk full"), KeyboardInterrupt()], ids=["error", "ctrl-c"])
def test_an_import_that_fails_midway_leaves_nothing_and_can_be_repeated(store_url, monkeypatch, interrupt):
    lines = [DEAL, *PLAYS] * 5
    with open_store(store_url) as store:
        store.append("T", DEAL)  # the table already holds a match: it must stay as it was
        before = (store.lines("T"), store.matches(table_id="T"), store.table("T"))
        real = Recorder.record_many
        calls = []

        def failing(self, table_id, items, **kw):
            calls.append(len(items))
            if len(calls) == 3:
                raise interrupt
            return real(self, table_id, items, **kw)

        monkeypatch.setattr(Recorder, "record_many", failing)
        with pytest.raises(type(interrupt)):
            import_lines(store, lines, "T", batch=4)
        assert calls == [4, 4, 4]  # two batches had been written inside the transaction
        assert (store.lines("T"), store.matches(table_id="T"), store.table("T")) == before
        monkeypatch.setattr(Recorder, "record_many", real)
        result = import_lines(store, lines, "T", batch=4)
        assert result.count == len(lines) and result.first_seq == 1
        assert store.lines("T") == [DEAL, *lines]  # once, not twice
        assert len(store.matches(table_id="T")) == 2


def test_import_interrupted_in_the_command_leaves_no_match(tmp_path, monkeypatch, capsys):
    db = str(tmp_path / "s.db")
    log = _write(tmp_path / "log.jsonl", [DEAL, *PLAYS] * 3)

    def interrupted(self, table_id, items, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(Recorder, "record_many", interrupted)
    assert cli(["import", str(log), "--db", db, "--table", "T"]) == 130
    monkeypatch.undo()
    with open_store(db) as store:
        assert store.matches() == [] and store.count_events() == 0


def test_import_of_an_empty_log_is_refused_and_opens_no_match(tmp_path, capsys):
    db = str(tmp_path / "s.db")
    log = _write(tmp_path / "empty.jsonl", ["", "   "])
    assert cli(["import", str(log), "--db", db, "--table", "T"]) == 2
    _err_is_clear(capsys.readouterr().err, "no events", "nothing was imported")
    with open_store(db) as store:
        assert store.matches() == []


def _writer_lock_busy(db: str) -> bool:
    try:
        fd = os.open(f"{db}-writer.lock", os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # closing also releases a lock we took
    return False


def test_import_killed_9_inside_its_transaction_leaves_nothing(tmp_path, capsys):
    db = str(tmp_path / "s.db")
    with open_store(db) as store:  # schema made beforehand: the import's own transaction is the only writer
        store.append("other", DEAL)
    lines = _big_log(40)
    log = _write(tmp_path / "big.jsonl", lines)
    proc = subprocess.Popen([sys.executable, "-m", "cardref.cli", "import", str(log), "--db", db, "--table", "T"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_sub_env())
    deadline = time.monotonic() + 120
    while not _writer_lock_busy(db):  # the import is writing its transaction
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.002)
    time.sleep(0.3)  # some batches are written (inside the transaction)
    assert proc.poll() is None, "the import finished before it could be killed: give it a longer log"
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    with open_store(db) as store:
        assert store.matches(table_id="T") == [] and store.count_events("T") == 0
        assert store.lines("other") == [DEAL]
    assert cli(["import", str(log), "--db", db, "--table", "T"]) == 0
    assert json.loads(capsys.readouterr().out)["lines"] == len(lines)
    with open_store(db) as store:
        assert store.lines("T") == lines and len(store.matches(table_id="T")) == 1


# -- item 10: detect without its models, bench store on a real store -----------------------
@pytest.fixture
def image(tmp_path) -> str:
    import cv2
    import numpy as np

    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((120, 160, 3), 90, np.uint8))
    return str(path)


def test_detect_names_the_missing_model_files(tmp_path, monkeypatch, capsys, image):
    import cardref.vision.detector as detector

    empty = tmp_path / "models"
    empty.mkdir()
    monkeypatch.setattr(detector, "models_dir", lambda: empty)
    assert cli(["detect", image]) == 2
    _err_is_clear(capsys.readouterr().err, str(empty / "cards-yolo11n"), "cardref train")
    assert cli(["detect", image, "--model", str(empty / "mine.onnx")]) == 2
    _err_is_clear(capsys.readouterr().err, str(empty / "mine.onnx"), "not found")


def test_detect_names_the_missing_models_folder(monkeypatch, capsys, image):
    monkeypatch.setitem(sys.modules, "cardref.models", None)  # as if models/ had been deleted
    assert cli(["detect", image]) == 2
    _err_is_clear(capsys.readouterr().err, "models folder is missing", "reinstall")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_bench_store_refuses_an_existing_store(tmp_path, capsys):
    from cardref.recorder.bench import main as bench

    real = tmp_path / "real.db"
    with open_store(str(real)) as store:
        store.append("final-table", DEAL)
    before = _digest(real)
    for target in (str(real), f"sqlite:///{real}"):
        assert bench(["--db", target, "--writers", "1", "--events", "5", "--batch", "5"]) == 2
        _err_is_clear(capsys.readouterr().err, str(real), "exists", "does not exist yet")
    assert _digest(real) == before
    with open_store(str(real)) as store:
        assert [t.id for t in store.tables()] == ["final-table"]
    fresh = tmp_path / "bench.db"
    assert bench(["--db", str(fresh), "--writers", "1", "--events", "5", "--batch", "5", "1"]) == 0
    assert capsys.readouterr().out.count("count+checksum OK") == 2  # each run in a fresh store
    assert not fresh.exists()  # a throwaway: removed after the run


# -- item 10: a GBK or binary calibration file ---------------------------------------------
@pytest.mark.parametrize(("content", "words"), [
    ('{"version": 1, "note": "东南西北"}'.encode("gbk"), "not UTF-8"),
    (b"\x00\x01\x02\xff\xfe" * 40, "not UTF-8"),
    (b'{"version": 1, "homography": [[NaN, 0, 0], [0, 1, 0], [0, 0, 1]]}', "NaN"),
    (b'{"version": 1, "image_size": [' + HUGE.encode() + b', 1]}', "calibration"),
], ids=["gbk", "binary", "nan", "huge-int"])
def test_a_calibration_file_that_is_not_utf8_json_is_named(tmp_path, content, words):
    from cardref.vision.calibration import CalibrationError, load_calibration

    path = tmp_path / "calibration.json"
    path.write_bytes(content)
    with pytest.raises(CalibrationError) as err:
        load_calibration(str(path))
    assert err.value.code == "calibration.bad_file"
    assert str(path) in str(err.value) and words in str(err.value)


def test_an_empty_sqlite_file_with_only_sqlite_tables_becomes_a_store(tmp_path):
    import sqlite3

    path = tmp_path / "empty.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT)")
    conn.execute("INSERT INTO t DEFAULT VALUES")
    conn.execute("DROP TABLE t")  # leaves SQLite's own sqlite_sequence behind
    conn.commit()
    conn.close()
    with open_store(str(path)) as store:
        store.append("T", DEAL)
        assert store.lines("T") == [DEAL]


def test_a_postgresql_claim_is_taken_again_after_a_lost_connection(pg_url):
    """The advisory lock ends with its connection: after reconnecting, the writer holds it
    again before it writes, and a second writer is still refused."""
    import psycopg

    with open_store(pg_url) as store, store.claim_table("T"):
        store.append("T", DEAL)
        pid = store.query_one("SELECT pg_backend_pid()")[0]
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        assert store.lines("T") == [DEAL]  # the read reconnects, and the claim is taken again
        assert store.query_one("SELECT pg_backend_pid()")[0] != pid
        with open_store(pg_url) as other:
            with pytest.raises(TableBusy):
                with other.claim_table("T"):
                    pass  # pragma: no cover - refused
        store.append("T", PLAYS[0])
    with open_store(pg_url) as other, other.claim_table("T"):  # released at the end of the block
        assert other.lines("T") == [DEAL, PLAYS[0]]


def test_opened_names_a_failing_file_but_lets_constraint_errors_through(tmp_path):
    """The one place commands meet store failures: a damaged or busy file becomes a
    CommandError naming it; a constraint (a duplicate name) stays the command's to word."""
    import argparse
    import sqlite3

    from cardref.recorder.cliutil import CommandError, opened

    args = argparse.Namespace(db=str(tmp_path / "s.db"))
    for exc, words in ((sqlite3.DatabaseError("database disk image is malformed"), "damaged"),
                       (sqlite3.OperationalError("database is locked"), "busy"),
                       (TableBusy("table 'T' is being recorded by another writer"), "another writer")):
        with pytest.raises(CommandError) as err:
            with opened(args):
                raise exc
        assert words in str(err.value) and (str(tmp_path / "s.db") in str(err.value) or "'T'" in str(err.value))
    with pytest.raises(sqlite3.IntegrityError):
        with opened(args):
            raise sqlite3.IntegrityError("UNIQUE constraint failed: tournaments.name")
