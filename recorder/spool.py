"""Recording through a network outage: a local outbox in front of the shared store.

A table's laptop records into the tournament's PostgreSQL.  When the server cannot be
reached, :class:`SpoolingRecorder` writes each line to a local SQLite outbox instead
(fsynced before ``record`` returns, so nothing shown is lost) and forwards the outbox,
in order, as soon as the server answers again.  Every line keeps the uid it was given
when it was first received, so a line forwarded just before a crash is recognised and
never recorded twice.  While lines wait, new lines queue behind them: order is kept.
A line the server refuses (a correction of a confirmed result) stays in the outbox
marked refused, with the reason.

A writer that claims a table (:meth:`SpoolingRecorder.claim`) is its only writer, as a plain
``store append`` is: the claim is a lock file beside the outbox (so a second writer through
the same outbox is refused even while the server is away) and the store's own table claim
whenever the server answers.  A writer that finds the table busy writes nothing.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardref.engine.events import Event

from . import claimfile
from .recorder import LockedError, Recorded, Recorder
from .store import EventStore, StoreError, TableBusy, now_iso, to_line

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Queued:
    """A line kept in the local outbox: durable here, not yet on the server."""

    table_id: str
    uid: str
    outbox_id: int
    waiting: int


class Outbox:
    """An append-only local queue of lines per table (SQLite, WAL, synchronous=FULL)."""

    def __init__(self, path: str | Path) -> None:
        Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=60)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = FULL")
        self._conn.execute("CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                           "table_id TEXT NOT NULL, line TEXT NOT NULL, uid TEXT NOT NULL UNIQUE, "
                           "queued_at TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'waiting', reason TEXT)")
        self._lock = threading.Lock()

    def put(self, table_id: str, line: str, uid: str) -> int:
        with self._lock:
            cur = self._conn.execute("INSERT INTO outbox (table_id, line, uid, queued_at) VALUES (?, ?, ?, ?)",
                                     (table_id, line, uid, now_iso()))
            return int(cur.lastrowid or 0)

    def waiting(self, table_id: str | None = None) -> list[tuple[int, str, str, str]]:
        sql = "SELECT id, table_id, line, uid FROM outbox WHERE status = 'waiting'"
        params: tuple[Any, ...] = ()
        if table_id is not None:
            sql += " AND table_id = ?"
            params = (table_id,)
        with self._lock:
            return [tuple(r) for r in self._conn.execute(sql + " ORDER BY id", params)]  # type: ignore[misc]

    def count(self, table_id: str | None = None) -> int:
        return len(self.waiting(table_id))

    def done(self, outbox_id: int) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM outbox WHERE id = ?", (outbox_id,))

    def refuse(self, outbox_id: int, reason: str) -> None:
        with self._lock:
            self._conn.execute("UPDATE outbox SET status = 'refused', reason = ? WHERE id = ?", (reason, outbox_id))

    def refused(self) -> list[tuple[int, str, str, str]]:
        with self._lock:
            return [tuple(r) for r in self._conn.execute(  # type: ignore[misc]
                "SELECT id, table_id, line, reason FROM outbox WHERE status = 'refused' ORDER BY id")]

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class SpoolingRecorder:
    """Records at the shared store when it answers, else into the local outbox.

    ``connect`` opens the shared store (e.g. ``lambda: open_store(url)``); it is called
    again at most every ``retry_s`` seconds while the server is away.
    """

    def __init__(self, connect: Callable[[], EventStore], outbox: str | Path, *, retry_s: float = 5.0) -> None:
        self._connect = connect
        self.outbox = Outbox(outbox)
        self.retry_s = retry_s
        self._outbox_path = Path(outbox).expanduser()
        self._recorder: Recorder | None = None
        self._next_try = 0.0
        self._lock = threading.RLock()
        self._claimed: dict[str, int | None] = {}  # table -> descriptor of its outbox lock file
        self._store_claims = contextlib.ExitStack()

    @property
    def store(self) -> EventStore | None:
        return self._recorder.store if self._recorder else None

    def _online(self, *, refuse_busy: bool = False) -> Recorder | None:
        if self._recorder is not None:
            return self._recorder
        if time.monotonic() < self._next_try:
            return None
        try:
            store = self._connect()
        except StoreError as exc:
            log.warning("shared store unreachable (%s); recording into the outbox", exc)
            self._next_try = time.monotonic() + self.retry_s
            return None
        try:
            for table_id in self._claimed:  # the claimed tables are claimed at the store too
                self._store_claims.enter_context(store.claim_table(table_id))
        except TableBusy as exc:
            self._store_claims.close()
            store.close()
            self._next_try = time.monotonic() + self.retry_s
            if refuse_busy:
                raise
            log.warning("%s; the lines wait in the outbox", exc)
            return None
        if hasattr(store, "reconnect_s"):
            store.reconnect_s = min(store.reconnect_s, 2.0)  # fall back to the outbox quickly
        self._recorder = Recorder(store)
        return self._recorder

    @contextlib.contextmanager
    def claim(self, table_id: str) -> Iterator[None]:
        """Be the only writer of ``table_id`` for the block, through this outbox and at the
        store; raises :class:`TableBusy` at once, before anything is written, when another
        writer holds it (here, or at the store while it answers)."""
        with self._lock:
            if table_id in self._claimed:
                raise TableBusy(f"table {table_id!r} is already claimed by this writer")
            self._claim_outbox(table_id)
            self._close_store()  # reconnect so that the store claim covers this table too
            self._next_try = 0.0
            try:
                self._online(refuse_busy=True)
            except BaseException:
                self._release_outbox(table_id)
                raise
        try:
            yield
        finally:
            with self._lock:
                self._release_outbox(table_id)
                self._close_store()

    def _claim_outbox(self, table_id: str) -> None:
        fd, holder = claimfile.take(self._outbox_path, table_id)
        if holder is not None:
            raise TableBusy(f"table {table_id!r} is being recorded through the outbox {self._outbox_path} by "
                            f"another writer ({holder}); nothing was written: wait until it has finished, or "
                            f"record at another --table")
        self._claimed[table_id] = fd

    def _release_outbox(self, table_id: str) -> None:
        claimfile.release(self._claimed.pop(table_id, None))

    def _close_store(self) -> None:
        """Close the connection to the store (and with it its table claims), if one is open."""
        self._store_claims.close()
        if self._recorder is not None:
            try:
                self._recorder.store.close()
            except Exception:  # noqa: BLE001 - it may already be broken
                pass
        self._recorder = None

    def _went_away(self, exc: BaseException) -> None:
        log.warning("shared store lost (%s); recording into the outbox", exc)
        self._close_store()
        self._next_try = time.monotonic() + self.retry_s

    def record(self, table_id: str, item: str | bytes | Mapping[str, Any] | Event) -> Recorded | Queued:
        """Record one line; returns :class:`Recorded` (on the server) or :class:`Queued`."""
        text = to_line(item)
        if not text:
            raise ValueError("a blank line is not an event")
        uid = uuid.uuid4().hex
        with self._lock:
            if self.outbox.count(table_id) == 0:
                rec = self._online()
                if rec is not None:
                    try:
                        return rec.record(table_id, text, uid=uid)
                    except StoreError as exc:
                        self._went_away(exc)
            outbox_id = self.outbox.put(table_id, text, uid)
            self.flush()
            if self.outbox.count(table_id) == 0:
                return Queued(table_id, uid, outbox_id, 0)  # forwarded at once
            return Queued(table_id, uid, outbox_id, self.outbox.count(table_id))

    def flush(self) -> int:
        """Forward waiting lines in order; returns how many reached the server."""
        sent = 0
        with self._lock:
            for outbox_id, table_id, line, uid in self.outbox.waiting():
                rec = self._online()
                if rec is None:
                    break
                try:
                    if not rec.store.has_uid(table_id, uid):
                        rec.record(table_id, line, uid=uid)
                    self.outbox.done(outbox_id)
                    sent += 1
                except LockedError as exc:
                    self.outbox.refuse(outbox_id, str(exc))
                except StoreError as exc:
                    self._went_away(exc)
                    break
        return sent

    def close(self) -> None:
        with self._lock:
            self._close_store()
            for table_id in list(self._claimed):
                self._release_outbox(table_id)
            self.outbox.close()
