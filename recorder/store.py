"""The event store: one small interface over SQLite (default) and PostgreSQL.

``connect_store(url_or_path)`` returns a :class:`SQLiteStore` for a file path (or
``sqlite:///path``) or a :class:`PostgresStore` for ``postgresql://…``, with the tables
a migration left to re-judge (:func:`cardref.recorder.open_store` re-judges them).  Both
speak the same SQL (see :mod:`.schema`), always with bound parameters.  This module
imports nothing else of the recorder but :mod:`.schema`, :mod:`.paths` and :mod:`.claimfile`.

What is stored
--------------
Each table (a physical card table) has one event log.  :meth:`EventStore.append` gives a
line the next ``seq`` of its table (the spec's 0-based line index ``i``, which ``correct``
events refer to), stores the raw JSON text exactly as received (malformed lines too, as
``status='rejected'`` with the error code and reason: nothing is ever dropped), plus
what was parsed from it (type, seat, correction ref/who/why), and commits before it
returns.  A ``judge`` callback may be given; it runs inside the same transaction, so an
event and the verdicts it caused are committed together.

Durability
----------
PostgreSQL commits are durable on return (``synchronous_commit`` is left on).  SQLite
runs in WAL mode with ``synchronous=FULL`` by default: every commit is fsynced, so an
event survives a killed process *and* a power cut.  ``sync="normal"`` (or
``$CARDREF_DB_SYNC=normal``) fsyncs only at checkpoints: still safe against a killed or
crashed process (the commit is in the WAL file when ``append`` returns) but a power cut
may lose the last commits; it is much faster on slow disks.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

from cardref.engine.cards import CardCodeError, parse_cards
from cardref.engine.eventlog import BOM, LogLine, dump_event, parse_line
from cardref.engine.events import CorrectEvent, DealEvent, Event
from cardref.engine.verdict import Fault, Verdict

from . import claimfile, schema
from .paths import is_postgres, resolve_db

log = logging.getLogger(__name__)


class StoreError(RuntimeError):
    """A store that cannot be opened or used (newer schema, bad URL, missing driver)."""


class TableBusy(StoreError):
    """Another writer holds the table (see :meth:`EventStore.claim_table`); nothing was written."""


class StoreDisconnected(StoreError):
    """The connection to the server was lost during a write.  ``reconnected`` says whether
    a new connection is ready; the write itself did not happen unless the caller finds it
    (``append`` checks and never records a line twice)."""

    def __init__(self, message: str, *, reconnected: bool = False) -> None:
        super().__init__(message)
        self.reconnected = reconnected


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def to_line(item: str | bytes | Mapping[str, Any] | Event) -> str:
    """One log line as text: stripped (a byte-order mark too), NUL-free, valid UTF-8 (what
    the store keeps)."""
    if isinstance(item, Event):
        text = dump_event(item)  # type: ignore[arg-type]
    elif isinstance(item, Mapping):
        text = json.dumps(dict(item), ensure_ascii=False, separators=(",", ":"))
    elif isinstance(item, bytes):
        text = item.decode("utf-8", errors="replace")
    else:
        text = str(item)
    text = text.strip().lstrip(BOM).strip()
    if "\x00" in text:  # never valid in a JSON line and not storable in PostgreSQL text
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", errors="replace").decode("utf-8")
    return text


def facts_json(facts: Mapping[str, Any]) -> str:
    def plain(value: Any) -> Any:
        if hasattr(value, "code") and not isinstance(value, str):
            return value.code
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        return value

    return json.dumps({k: plain(v) for k, v in facts.items()}, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class JudgeUpdate:
    """What judging one line changed: verdicts (its own and earlier ones) and deal
    summaries keyed by the ``seq`` of their ``deal`` event."""

    verdicts: Sequence[Verdict] = ()
    summaries: Mapping[int, dict[str, Any]] = field(default_factory=dict)


#: ``judge(seq, line, match_id)``, called inside the append transaction.
JudgeFn = Callable[[int, LogLine, int], JudgeUpdate]


@dataclass(frozen=True)
class SchemaWriter:
    """What a migration may do, inside the schema transaction: ``run(sql, params)`` one
    statement (returns the cursor); ``add_table(id, name, created_at)``;
    ``new_match(table_id, name)`` -> match id; ``append_lines(table_id, lines, recorded_at)``
    parses and stores lines as :meth:`EventStore.append_many` does (unjudged)."""

    dialect: str
    pk: str
    run: Callable[..., Any]
    add_table: Callable[[str, str | None, str], None]
    new_match: Callable[[str, str | None], int]
    append_lines: Callable[[str, list[str], Sequence[str]], list[Appended]]


#: ``migration(writer)`` brings the schema one version up; returns the tables to re-judge.
Migration = Callable[[SchemaWriter], list[str]]


@dataclass(frozen=True)
class Appended:
    """A line safely stored: its ``seq`` in the table's log and how it was read."""

    table_id: str
    seq: int
    status: str
    code: str | None
    reason: str | None
    match_id: int
    deal_id: int | None
    verdicts: tuple[Verdict, ...] = ()

    @property
    def rejected(self) -> bool:
        return self.status == "rejected"


@dataclass(frozen=True)
class StoredEvent:
    table_id: str
    seq: int
    line: str
    type: str | None
    seat: int | None
    status: str
    code: str | None
    reason: str | None
    ref: int | None
    who: str | None
    why: str | None
    source: str | None
    recorded_at: str
    match_id: int | None
    deal_id: int | None


_EVENT_COLS = ("table_id, seq, line, type, seat, status, code, reason, ref, who, why, source, recorded_at, "
               "match_id, deal_id")


@dataclass(frozen=True)
class TableInfo:
    id: str
    name: str | None
    tournament_id: int | None
    events: int
    open_match_id: int | None
    created_at: str


@dataclass(frozen=True)
class MatchInfo:
    id: int
    table_id: str
    round_id: int | None
    name: str | None
    team_a: int | None
    team_b: int | None
    seats: dict[str, Any]
    started_at: str
    ended_at: str | None
    confirmed_at: str | None
    confirmed_by: str | None

    @property
    def confirmed(self) -> bool:
        return self.confirmed_at is not None


_DEAL_COLS = "id, table_id, match_id, start_seq, game, summary, updated_at"
_MATCH_COLS = ("id, table_id, round_id, name, team_a, team_b, seats, started_at, ended_at, confirmed_at, "
               "confirmed_by")


@dataclass(frozen=True)
class DealInfo:
    id: int
    table_id: str
    match_id: int | None
    start_seq: int
    game: str | None
    summary: dict[str, Any]
    updated_at: str


def _match(row: Sequence[Any]) -> MatchInfo:
    return MatchInfo(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6] or "{}"), *row[7:])


def _deal(row: Sequence[Any]) -> DealInfo:
    return DealInfo(row[0], row[1], row[2], row[3], row[4], json.loads(row[5] or "{}"), row[6])


def _restore(value: Any) -> Any:
    """Card codes stored for a list of cards become cards again (messages print them so)."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        try:
            return parse_cards(value)
        except CardCodeError:
            return value
    return value


def verdict_from_row(seq: int, ok: int, code: str | None, facts: str | None, proven_at: int | None,
                     confirm: int = 0) -> Verdict:
    if ok:
        return Verdict(seq)
    restored = {k: _restore(v) for k, v in json.loads(facts or "{}").items()}
    return Verdict(seq, Fault(code or "unknown", restored, seq, proven_at), confirm=bool(confirm))


def parsed_columns(line: LogLine) -> dict[str, Any]:
    """The columns parsed from a line: type, seat, status, code, reason, ref, who, why, source."""
    out: dict[str, Any] = {"type": None, "seat": None, "status": "ok", "code": None, "reason": None,
                           "ref": None, "who": None, "why": None, "source": None}
    event = line.event
    if event is None:
        assert line.error is not None
        out.update(status="rejected", code=line.error.code, reason=str(line.error))
        try:
            obj = json.loads(line.raw)
        except (ValueError, RecursionError):
            obj = None
        if isinstance(obj, dict):
            kind = obj.get("type")
            out["type"] = kind[:40] if isinstance(kind, str) else None
        return out
    out["type"] = event.type
    seat = getattr(event, "seat", None)
    out["seat"] = seat if isinstance(seat, int) and seat < 2**31 else None
    out["source"] = event.source
    if isinstance(event, CorrectEvent):
        out.update(ref=event.ref if event.ref < 2**31 else None, who=event.who, why=event.why)
    return out


class EventStore(ABC):
    """The store's interface.  Subclasses provide the connection and the dialect."""

    dialect = "abstract"
    pk = ""
    url = ""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._known_tables: set[str] = set()
        self._depth = 0
        self._held: dict[str, int] = {}

    # -- dialect hooks (each back end implements them) --------------------------------
    @abstractmethod
    def _execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement in the current transaction; returns the driver's cursor."""

    @abstractmethod
    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for many parameter rows."""

    @abstractmethod
    def _write(self) -> AbstractContextManager[None]:
        """A durable write transaction (committed, fsynced, on exit)."""

    @abstractmethod
    def _read(self) -> AbstractContextManager[None]:
        """A consistent read."""

    @abstractmethod
    def close(self) -> None:
        """Release the connection."""

    def _lock_schema(self) -> None:  # noqa: B027 - an optional hook, not an abstract one
        """Serialise schema creation between processes (inside the write transaction).
        Default: nothing, for back ends whose write transaction already serialises it."""

    @abstractmethod
    def _has_table(self, name: str) -> bool:
        """Whether the schema has table ``name``."""

    # -- small helpers used by the recorder and tournament modules ------------------
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one parameterised read and return all rows (reconnecting once if the
        connection was lost: a read is safe to repeat)."""
        with self._lock:
            try:
                with self._read():
                    return [tuple(r) for r in self._execute(sql, params).fetchall()]
            except self._disconnect_errors as exc:
                self._reconnect(exc)
            with self._read():
                return [tuple(r) for r in self._execute(sql, params).fetchall()]

    def query_one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    @contextmanager
    def transaction(self) -> Iterator[Callable[..., Any]]:
        """A write transaction; yields ``run(sql, params)`` returning the cursor.  A lost
        connection is replaced and reported as :class:`StoreDisconnected`."""
        with self._lock:
            self._depth += 1
            try:
                with self._write():
                    yield self._execute
            except self._disconnect_errors as exc:
                if self._depth > 1:
                    raise
                self._reconnect(exc)
                raise StoreDisconnected(f"connection lost during a write: {exc}", reconnected=True) from exc
            finally:
                self._depth -= 1

    @contextmanager
    def claim_table(self, table_id: str) -> Iterator[None]:
        """Be the only claiming writer of ``table_id`` for the block; raises :class:`TableBusy`
        at once, before anything is written, when another store object or process holds it.
        The claim is an OS file lock (SQLite) or a session advisory lock (PostgreSQL), so it
        ends with its process.  Writers that do not claim (the library's own appends) are not
        stopped: the store still keeps their seqs unique."""
        if self._held.get(table_id):  # this store object holds it already: re-entrant
            self._held[table_id] += 1
            try:
                yield
            finally:
                self._held[table_id] -= 1
            return
        holder = self._try_claim(table_id)
        if holder is not None:
            raise TableBusy(f"table {table_id!r} of the store {self.url} is being recorded by another writer "
                            f"({holder}); nothing was written: wait until it has finished, or record at another "
                            f"--table")
        self._held[table_id] = 1
        try:
            yield
        finally:
            del self._held[table_id]
            self._release_claim(table_id)

    def _try_claim(self, table_id: str) -> str | None:
        """Take the claim of a table; ``None`` when taken, else who holds it (in words)."""
        return None

    def _release_claim(self, table_id: str) -> None:  # noqa: B027 - an optional hook
        """Give the claim back."""

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- schema ---------------------------------------------------------------------
    def schema_version(self) -> int:
        with self._lock, self._read():
            if not self._has_table("schema_version"):
                return 0
            row = self._execute("SELECT MAX(version) FROM schema_version").fetchone()
            return int(row[0] or 0)

    def _ensure_schema(self, migrations: Mapping[int, Migration] | None = None) -> list[str]:
        """Create or migrate the schema; returns the tables whose verdicts must be rebuilt.
        ``migrations[v]`` brings version ``v`` to ``v + 1`` (see :mod:`.migrations`)."""
        if self.schema_version() == schema.CURRENT_VERSION:
            return []
        with self._lock, self._write():
            self._lock_schema()
            version = 0
            if self._has_table("schema_version"):
                row = self._execute("SELECT MAX(version) FROM schema_version").fetchone()
                version = int(row[0] or 0)
            if version > schema.CURRENT_VERSION:
                raise StoreError(f"this store has schema version {version}, newer than this cardref "
                                 f"understands ({schema.CURRENT_VERSION}); upgrade cardref")
            if version == schema.CURRENT_VERSION:
                return []
            if version == 0:
                if self._has_table("events"):
                    raise StoreError("this database holds an 'events' table but no schema_version: "
                                     "not a cardref store")
                self._execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                for stmt in [*schema.v2_statements(self.pk), *schema.V3_STATEMENTS]:
                    self._execute(stmt)
                for stmt in schema.APPEND_ONLY[self.dialect]:
                    self._execute(stmt)
                self._execute("INSERT INTO schema_version (version) VALUES (?)", (schema.CURRENT_VERSION,))
                return []
            writer = SchemaWriter(self.dialect, self.pk, self._execute, self._migrated_table,
                                  lambda table_id, name: self._new_match(table_id, name),
                                  lambda table_id, lines, at: self._append_in_tx(table_id, lines, None, at))
            rebuild: list[str] = []
            while version < schema.CURRENT_VERSION:
                step = (migrations or {}).get(version)
                if step is None:
                    raise StoreError(f"this store has schema version {version}: open it with "
                                     f"cardref.recorder.open_store, which migrates it")
                rebuild.extend(t for t in step(writer) if t not in rebuild)  # each table re-judged once
                version += 1
                self._execute("DELETE FROM schema_version")
                self._execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
            return rebuild

    def _migrated_table(self, table_id: str, name: str | None, created_at: str) -> None:
        self._execute("INSERT INTO card_tables (id, name, created_at) VALUES (?, ?, ?)", (table_id, name, created_at))
        self._known_tables.add(table_id)

    # -- tables and matches ---------------------------------------------------------
    def ensure_table(self, table_id: str, name: str | None = None, tournament_id: int | None = None) -> None:
        if not isinstance(table_id, str) or not table_id.strip() or len(table_id) > 100:
            raise ValueError(f"a table id must be a non-empty name of at most 100 characters, got {table_id!r}")
        for attempt in range(2):  # idempotent: safe to repeat after a lost connection
            try:
                with self.transaction():
                    self._insert_table(table_id, name, tournament_id)
                    if name is not None or tournament_id is not None:
                        self._execute("UPDATE card_tables SET name = COALESCE(?, name), "
                                      "tournament_id = COALESCE(?, tournament_id) WHERE id = ?",
                                      (name, tournament_id, table_id))
                return
            except StoreDisconnected as exc:
                if not exc.reconnected or attempt:
                    raise

    def _insert_table(self, table_id: str, name: str | None = None, tournament_id: int | None = None) -> None:
        self._execute("INSERT INTO card_tables (id, name, tournament_id, created_at) VALUES (?, ?, ?, ?) "
                      "ON CONFLICT (id) DO NOTHING", (table_id, name, tournament_id, now_iso()))
        self._known_tables.add(table_id)

    def tables(self, tournament_id: int | None = None) -> list[TableInfo]:
        sql = "SELECT id, name, tournament_id, next_seq, open_match_id, created_at FROM card_tables"
        params: tuple[Any, ...] = ()
        if tournament_id is not None:
            sql += " WHERE tournament_id = ?"
            params = (tournament_id,)
        return [TableInfo(*r) for r in self.query(sql + " ORDER BY id", params)]

    def table(self, table_id: str) -> TableInfo | None:
        row = self.query_one("SELECT id, name, tournament_id, next_seq, open_match_id, created_at "
                             "FROM card_tables WHERE id = ?", (table_id,))
        return TableInfo(*row) if row else None

    def _new_match(self, table_id: str, name: str | None, round_id: int | None = None,
                   team_a: int | None = None, team_b: int | None = None,
                   seats: Mapping[str, Any] | None = None) -> int:
        at = now_iso()
        self._execute("UPDATE matches SET ended_at = ? WHERE id = (SELECT open_match_id FROM card_tables "
                      "WHERE id = ?) AND ended_at IS NULL", (at, table_id))
        row = self._execute("INSERT INTO matches (table_id, round_id, name, team_a, team_b, seats, started_at) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                            (table_id, round_id, name, team_a, team_b,
                             json.dumps(dict(seats or {}), ensure_ascii=False), at)).fetchone()
        match_id = int(row[0])
        self._execute("UPDATE card_tables SET open_match_id = ?, open_deal_id = NULL WHERE id = ?",
                      (match_id, table_id))
        return match_id

    def start_match(self, table_id: str, name: str | None = None, *, round_id: int | None = None,
                    team_a: int | None = None, team_b: int | None = None,
                    seats: Mapping[str, Any] | None = None) -> int:
        """Open a new match at a table (ending the one open there); later events belong to it."""
        self.ensure_table(table_id)
        with self.transaction():
            return self._new_match(table_id, name, round_id, team_a, team_b, seats)

    def end_match(self, match_id: int) -> None:
        with self.transaction():
            self._execute("UPDATE matches SET ended_at = COALESCE(ended_at, ?) WHERE id = ?", (now_iso(), match_id))
            self._execute("UPDATE card_tables SET open_match_id = NULL, open_deal_id = NULL "
                          "WHERE open_match_id = ?", (match_id,))

    def confirm_match(self, match_id: int, by: str) -> None:
        """Mark a match's result as confirmed (locked); see :mod:`.tournament` for the PIN."""
        with self.transaction():
            at = now_iso()
            self._execute("UPDATE matches SET confirmed_at = ?, confirmed_by = ?, ended_at = COALESCE(ended_at, ?) "
                          "WHERE id = ?", (at, by, at, match_id))
            self._execute("UPDATE card_tables SET open_match_id = NULL, open_deal_id = NULL "
                          "WHERE open_match_id = ?", (match_id,))

    def matches(self, *, table_id: str | None = None, round_id: int | None = None,
                tournament_id: int | None = None) -> list[MatchInfo]:
        where, params = _where([("table_id = ?", table_id), ("round_id = ?", round_id),
                                ("round_id IN (SELECT id FROM rounds WHERE tournament_id = ?)", tournament_id)])
        return [_match(r) for r in self.query(f"SELECT {_MATCH_COLS} FROM matches{where} ORDER BY id", params)]

    def match(self, match_id: int) -> MatchInfo | None:
        row = self.query_one(f"SELECT {_MATCH_COLS} FROM matches WHERE id = ?", (match_id,))
        return _match(row) if row else None

    def deals(self, *, table_id: str | None = None, match_id: int | None = None) -> list[DealInfo]:
        where, params = _where([("table_id = ?", table_id), ("match_id = ?", match_id)])
        return [_deal(r) for r in self.query(f"SELECT {_DEAL_COLS} FROM deals{where} ORDER BY table_id, start_seq",
                                             params)]

    def deal(self, deal_id: int) -> DealInfo | None:
        row = self.query_one(f"SELECT {_DEAL_COLS} FROM deals WHERE id = ?", (deal_id,))
        return _deal(row) if row else None

    # -- appending ------------------------------------------------------------------
    def append(self, table_id: str, item: str | bytes | Mapping[str, Any] | Event, *,
               judge: JudgeFn | None = None) -> Appended:
        """Store one line durably and return its seq (and the verdicts ``judge`` gave)."""
        return self.append_many(table_id, [item], judge=judge)[0]

    def append_many(self, table_id: str, items: Iterable[str | bytes | Mapping[str, Any] | Event], *,
                    judge: JudgeFn | None = None, uids: Sequence[str] | None = None) -> list[Appended]:
        """Store lines in one transaction (all or none), durable on return.  Blank lines
        are not events (the spec ignores them) and raise ``ValueError``.  ``uids`` (one
        per line, default fresh ones) make the append idempotent: see :meth:`has_uid`."""
        lines = [to_line(item) for item in items]
        if not lines:
            return []
        if any(not text for text in lines):
            raise ValueError("a blank line is not an event")
        if uids is not None and len(uids) != len(lines):
            raise ValueError("give one uid per line")
        if table_id not in self._known_tables:
            self.ensure_table(table_id)
        uids = list(uids) if uids is not None else [uuid.uuid4().hex for _ in lines]
        for attempt in range(3):
            done: list[Appended] | None = None
            try:
                with self.transaction():
                    done = self._append_in_tx(table_id, lines, judge, uids=uids)
                return done
            except StoreDisconnected as exc:
                # The connection died.  If it died after COMMIT was sent, the lines may be in:
                # the uid of the first line tells, so a retry never records them twice.
                if not exc.reconnected:
                    raise
                if done is not None and self._has_uid(table_id, uids[0]):
                    return done
                if judge is not None or attempt == 2:  # a judge has seen the lines: its owner retries
                    raise StoreDisconnected(f"connection lost while recording at table {table_id}; "
                                            f"the lines were not recorded ({exc})", reconnected=True) from exc
        raise AssertionError("unreachable")

    #: Errors that mean "the connection is gone" (none for SQLite).
    _disconnect_errors: tuple[type[BaseException], ...] = ()

    def _reconnect(self, exc: BaseException) -> None:
        raise StoreDisconnected(str(exc)) from exc

    def has_uid(self, table_id: str, uid: str) -> bool:
        """Whether a line appended with this uid is stored (its whole batch then is)."""
        return self._has_uid(table_id, uid)

    def _has_uid(self, table_id: str, uid: str) -> bool:
        return self.query_one("SELECT 1 FROM events WHERE table_id = ? AND uid = ?", (table_id, uid)) is not None

    def _append_in_tx(self, table_id: str, lines: list[str], judge: JudgeFn | None,
                      recorded_at: Sequence[str] | None = None, uids: Sequence[str] | None = None) -> list[Appended]:
        n = len(lines)
        row = self._execute("UPDATE card_tables SET next_seq = next_seq + ? WHERE id = ? "
                            "RETURNING next_seq, open_match_id, open_deal_id", (n, table_id)).fetchone()
        if row is None:
            self._insert_table(table_id)
            row = self._execute("UPDATE card_tables SET next_seq = next_seq + ? WHERE id = ? "
                                "RETURNING next_seq, open_match_id, open_deal_id", (n, table_id)).fetchone()
        first = int(row[0]) - n
        match_id = row[1]
        deal_id = row[2]
        opened_deal = False
        if match_id is None:
            match_id = self._new_match(table_id, None)
            deal_id = None
        at = now_iso()
        rows: list[tuple[Any, ...]] = []
        verdict_rows: dict[int, tuple[Any, ...]] = {}
        summaries: dict[int, dict[str, Any]] = {}
        out: list[Appended] = []
        for k, text in enumerate(lines):
            seq = first + k
            line = parse_line(seq, seq + 1, text)
            cols = parsed_columns(line)
            if isinstance(line.event, DealEvent):
                deal_id = int(self._execute(
                    "INSERT INTO deals (table_id, match_id, start_seq, game, updated_at) VALUES (?, ?, ?, ?, ?) "
                    "RETURNING id", (table_id, match_id, seq, line.event.game[:100], at)).fetchone()[0])
                opened_deal = True
            rows.append((table_id, seq, text, cols["type"], cols["seat"], cols["status"], cols["code"],
                         cols["reason"], cols["ref"], cols["who"], cols["why"], cols["source"],
                         recorded_at[k] if recorded_at else at,
                         match_id, deal_id, uids[k] if uids else None))
            verdicts: tuple[Verdict, ...] = ()
            if judge is not None:
                update = judge(seq, line, match_id)
                verdicts = tuple(update.verdicts)
                for v in verdicts:
                    verdict_rows[v.i] = _verdict_row(table_id, v, at)
                summaries.update(update.summaries)
            out.append(Appended(table_id, seq, cols["status"], cols["code"], cols["reason"], match_id,
                                deal_id, verdicts))
        self._insert_events(rows)
        if verdict_rows:
            self._upsert_verdicts(list(verdict_rows.values()))
        if summaries:
            self._executemany("UPDATE deals SET summary = ?, updated_at = ? WHERE table_id = ? AND start_seq = ?",
                              [(json.dumps(s, ensure_ascii=False, default=str), at, table_id, start)
                               for start, s in summaries.items()])
        if opened_deal:
            self._execute("UPDATE card_tables SET open_deal_id = ? WHERE id = ?", (deal_id, table_id))
        return out

    def _insert_events(self, rows: list[tuple[Any, ...]]) -> None:
        self._executemany(f"INSERT INTO events ({_EVENT_COLS}, uid) VALUES "
                          f"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def _upsert_verdicts(self, rows: list[tuple[Any, ...]]) -> None:
        self._executemany("INSERT INTO verdicts (table_id, seq, ok, code, facts, proven_at, message_zh, message_en, "
                          "updated_at, confirm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seq) "
                          "DO UPDATE SET ok = excluded.ok, code = excluded.code, facts = excluded.facts, "
                          "proven_at = excluded.proven_at, message_zh = excluded.message_zh, "
                          "message_en = excluded.message_en, updated_at = excluded.updated_at, "
                          "confirm = excluded.confirm", rows)

    def replace_verdicts(self, table_id: str, verdicts: Iterable[Verdict],
                         summaries: Mapping[int, dict[str, Any]]) -> None:
        """Store a table's verdicts and deal summaries as re-judged from its whole log."""
        at = now_iso()
        with self.transaction():
            self._execute("DELETE FROM verdicts WHERE table_id = ?", (table_id,))
            rows = [_verdict_row(table_id, v, at) for v in verdicts]
            if rows:
                self._upsert_verdicts(rows)
            if summaries:
                self._executemany("UPDATE deals SET summary = ?, updated_at = ? WHERE table_id = ? AND start_seq = ?",
                                  [(json.dumps(s, ensure_ascii=False, default=str), at, table_id, start)
                                   for start, s in summaries.items()])

    # -- reading --------------------------------------------------------------------
    def events(self, table_id: str, start: int = 0, stop: int | None = None, *,
               match_id: int | None = None, deal_id: int | None = None) -> list[StoredEvent]:
        sql = f"SELECT {_EVENT_COLS} FROM events WHERE table_id = ? AND seq >= ?"
        params: list[Any] = [table_id, start]
        if stop is not None:
            sql += " AND seq < ?"
            params.append(stop)
        if match_id is not None:
            sql += " AND match_id = ?"
            params.append(match_id)
        if deal_id is not None:
            sql += " AND deal_id = ?"
            params.append(deal_id)
        return [StoredEvent(*r) for r in self.query(sql + " ORDER BY seq", params)]

    def event(self, table_id: str, seq: int) -> StoredEvent | None:
        rows = self.events(table_id, seq, seq + 1)
        return rows[0] if rows else None

    def lines(self, table_id: str) -> list[str]:
        return [r[0] for r in self.query("SELECT line FROM events WHERE table_id = ? ORDER BY seq", (table_id,))]

    def verdicts(self, table_id: str, start: int = 0, stop: int | None = None) -> dict[int, Verdict]:
        sql = "SELECT seq, ok, code, facts, proven_at, confirm FROM verdicts WHERE table_id = ? AND seq >= ?"
        params: list[Any] = [table_id, start]
        if stop is not None:
            sql += " AND seq < ?"
            params.append(stop)
        return {r[0]: verdict_from_row(*r) for r in self.query(sql + " ORDER BY seq", params)}

    def verdict_json(self, table_id: str, lang: str = "zh", start: int = 0,
                     stop: int | None = None) -> dict[int, dict[str, Any]]:
        """Verdicts exactly as the judge printed them when they were stored (spec form)."""
        column = "message_en" if lang == "en" else "message_zh"
        sql = f"SELECT seq, ok, code, proven_at, {column}, confirm FROM verdicts WHERE table_id = ? AND seq >= ?"
        params: list[Any] = [table_id, start]
        if stop is not None:
            sql += " AND seq < ?"
            params.append(stop)
        out: dict[int, dict[str, Any]] = {}
        for seq, ok, code, proven_at, message, confirm in self.query(sql + " ORDER BY seq", params):
            item: dict[str, Any] = {"i": seq, "ok": bool(ok)}
            if not ok:
                item.update(code=code, message=message)
                if proven_at is not None:
                    item["proven_at"] = proven_at
                if confirm:
                    item["confirm"] = True
            out[seq] = item
        return out

    def count_events(self, table_id: str | None = None) -> int:
        if table_id is None:
            row = self.query_one("SELECT COUNT(*) FROM events")
        else:
            row = self.query_one("SELECT COUNT(*) FROM events WHERE table_id = ?", (table_id,))
        return int(row[0]) if row else 0

    def corrections(self, table_id: str | None = None) -> list[dict[str, Any]]:
        """The audit trail of corrections: who, when, why, what was fixed and how."""
        sql = ("SELECT table_id, seq, ref, who, why, recorded_at, status, correction, original, match_id, deal_id "
               "FROM corrections")
        params: tuple[Any, ...] = ()
        if table_id is not None:
            sql += " WHERE table_id = ?"
            params = (table_id,)
        keys = ("table_id", "seq", "ref", "who", "why", "recorded_at", "status", "correction", "original",
                "match_id", "deal_id")
        return [dict(zip(keys, r, strict=True)) for r in self.query(sql + " ORDER BY table_id, seq", params)]

    # -- director's audit log -------------------------------------------------------
    def log_action(self, action: str, outcome: str, *, actor: str | None = None, table_id: str | None = None,
                   match_id: int | None = None, tournament_id: int | None = None,
                   detail: Mapping[str, Any] | None = None) -> None:
        with self.transaction():
            self._execute("INSERT INTO audit (at, actor, action, outcome, table_id, match_id, tournament_id, detail) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                          (now_iso(), actor, action, outcome, table_id, match_id, tournament_id,
                           json.dumps(dict(detail or {}), ensure_ascii=False, default=str)))

    def audit_log(self, *, tournament_id: int | None = None, table_id: str | None = None) -> list[dict[str, Any]]:
        where, params = _where([
            ("(tournament_id = ? OR table_id IN (SELECT id FROM card_tables WHERE tournament_id = ?))", tournament_id),
            ("table_id = ?", table_id)])
        keys = ("id", "at", "actor", "action", "outcome", "table_id", "match_id", "tournament_id", "detail")
        out = []
        for r in self.query(f"SELECT {', '.join(keys)} FROM audit{where} ORDER BY id", params):
            item = dict(zip(keys, r, strict=True))
            item["detail"] = json.loads(item["detail"] or "{}")
            out.append(item)
        return out


def _where(conditions: Sequence[tuple[str, Any]]) -> tuple[str, list[Any]]:
    """`` WHERE a AND b`` of the conditions whose value is not ``None``; every ``?`` of a
    condition takes its value (parameterised, never formatted into the SQL)."""
    parts: list[str] = []
    params: list[Any] = []
    for clause, value in conditions:
        if value is not None:
            parts.append(clause)
            params += [value] * clause.count("?")
    return (" WHERE " + " AND ".join(parts) if parts else ""), params


def _verdict_row(table_id: str, v: Verdict, at: str) -> tuple[Any, ...]:
    if v.fault is None:
        return (table_id, v.i, 1, None, None, None, None, None, at, 0)
    zh, en = v.to_json("zh")["message"], v.to_json("en")["message"]
    return (table_id, v.i, 0, v.fault.code, facts_json(v.fault.facts), v.fault.proven_at, zh, en, at,
            int(v.confirm))


SQLITE_HEADER = b"SQLite format 3\x00"


def check_sqlite_file(path: str) -> None:
    """Raise :class:`StoreError` naming ``path`` when it exists but cannot be a SQLite
    store (a folder, an unreadable file, a file without SQLite's header), before SQLite
    opens it: such a file is never written to.  A missing or empty file is a new store."""
    p = Path(path).expanduser()
    if p.is_dir():
        raise StoreError(f"the store {path} is a folder, not a file: give a file path, e.g. {p / 'cardref.db'}")
    if not p.exists():
        return
    try:
        with open(p, "rb") as fh:
            head = fh.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(f"cannot read the store {path}: {exc.strerror or exc}") from None
    if head and head != SQLITE_HEADER:
        raise StoreError(f"{path} is not a SQLite database, so not a cardref store; it was left as it is: give "
                         f"another --db (a new file is created), or the store's own file")


class SQLiteStore(EventStore):
    dialect = "sqlite"
    pk = "INTEGER PRIMARY KEY AUTOINCREMENT"

    def __init__(self, path: str, *, sync: str = "full") -> None:
        super().__init__()
        if sync not in ("full", "normal"):
            raise StoreError(f"sync must be 'full' or 'normal', got {sync!r}")
        self.path = path
        self.url = path
        self.sync = sync
        self._claims: dict[str, int] = {}
        if path != ":memory:":
            check_sqlite_file(path)
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=60)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite store {path}: {exc}") from exc
        try:
            self._setup()
        except sqlite3.Error as exc:
            self._conn.close()
            raise StoreError(f"the store {path} is damaged or not a SQLite database ({exc}); it was left as it "
                             f"is: restore it from a backup, or give another --db") from exc
        except BaseException:
            self._conn.close()
            raise
        self._lockfile: int | None = None
        if fcntl is not None and path != ":memory:":
            try:
                self._lockfile = os.open(f"{path}-writer.lock", os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:
                self._lockfile = None

    def _setup(self) -> None:
        """Check that the file is a cardref store (or empty) before anything can write to
        it, then set the connection up (busy timeout, WAL, synchronous, foreign keys)."""
        path = self.path
        self._conn.execute("PRAGMA busy_timeout = 60000")
        names = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                  "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")}
        if names and "schema_version" not in names:
            shown = ", ".join(sorted(names)[:5]) + (", …" if len(names) > 5 else "")
            raise StoreError(f"{path} is a SQLite database of another program (tables {shown}), not a cardref "
                             f"store; it was left as it is: give another --db")
        if path != ":memory:":
            mode = self._conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"cannot put {path} in WAL mode (got {mode})")
        self._conn.execute(f"PRAGMA synchronous = {'FULL' if self.sync == 'full' else 'NORMAL'}")
        self._conn.execute("PRAGMA foreign_keys = ON")

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(sql, tuple(params))

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)

    @contextmanager
    def _write(self) -> Iterator[None]:
        if self._conn.in_transaction:  # nested: the outer transaction commits
            yield
            return
        with self._writer_turn():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def _writer_turn(self) -> Iterator[None]:
        """Writers of this file queue on an OS lock beside it: a waiting process wakes the
        moment the lock is free, where SQLite's own busy handler would sleep and poll.
        (SQLite's locking still guards the data; this only orders cardref's writers.)"""
        if self._lockfile is None:
            yield
            return
        fcntl.flock(self._lockfile, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._lockfile, fcntl.LOCK_UN)

    @contextmanager
    def _read(self) -> Iterator[None]:
        yield

    def _has_table(self, name: str) -> bool:
        row = self._conn.execute("SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?",
                                 (name,)).fetchone()
        return row is not None

    def _try_claim(self, table_id: str) -> str | None:
        if self.path == ":memory:":
            return None
        fd, holder = claimfile.take(self.path, table_id)
        if fd is not None:
            self._claims[table_id] = fd
        return holder

    def _release_claim(self, table_id: str) -> None:
        claimfile.release(self._claims.pop(table_id, None))

    def close(self) -> None:
        with self._lock:
            self._conn.close()
            if self._lockfile is not None:
                os.close(self._lockfile)
                self._lockfile = None
            for table_id in list(self._claims):
                self._release_claim(table_id)


class PostgresStore(EventStore):
    dialect = "postgresql"
    pk = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"

    def __init__(self, url: str) -> None:
        super().__init__()
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - depends on the installation
            raise StoreError("PostgreSQL needs the psycopg package: pip install 'psycopg[binary]'") from exc
        self.url = url
        self._dsn = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self._psycopg = psycopg
        self._disconnect_errors = (psycopg.OperationalError, psycopg.InterfaceError)
        #: how long to keep trying to reach the server after the connection is lost
        self.reconnect_s = float(os.environ.get("CARDREF_DB_RECONNECT_S", "30"))
        self.connect_timeout = int(os.environ.get("CARDREF_DB_CONNECT_TIMEOUT", "10"))
        self._pg_claims: dict[str, int] = {}
        try:
            self._conn = self._connect()
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to PostgreSQL: {exc}") from exc

    def _connect(self) -> Any:
        return self._psycopg.connect(self._dsn, autocommit=True, connect_timeout=self.connect_timeout)

    def _reconnect(self, exc: BaseException) -> None:
        """Open a new connection, trying for ``reconnect_s`` seconds."""
        log.warning("PostgreSQL connection lost (%s); reconnecting", exc)
        try:
            self._conn.close()
        except Exception:  # noqa: BLE001 - it is already broken
            pass
        deadline = time.monotonic() + self.reconnect_s
        while True:
            try:
                self._conn = self._connect()
                break
            except self._psycopg.OperationalError as again:
                if time.monotonic() >= deadline:
                    raise StoreDisconnected(f"cannot reach PostgreSQL again (tried {self.reconnect_s:.0f} s); "
                                            f"nothing more was recorded: {again}") from exc
                time.sleep(0.5)
        for table_id, key in list(self._pg_claims.items()):  # session locks went with the old connection
            if not self._conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()[0]:
                del self._pg_claims[table_id]
                raise TableBusy(f"table {table_id!r}: another writer took it while the connection to PostgreSQL "
                                f"was down; nothing more was recorded here")

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("%", "%%").replace("?", "%s")

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(self._sql(sql), tuple(params))  # type: ignore[arg-type]

    def _executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._conn.cursor() as cur:
            cur.executemany(self._sql(sql), [tuple(r) for r in rows])  # type: ignore[arg-type]

    @contextmanager
    def _write(self) -> Iterator[None]:
        with self._conn.transaction():
            yield

    @contextmanager
    def _read(self) -> Iterator[None]:
        yield

    def _insert_events(self, rows: list[tuple[Any, ...]]) -> None:
        if len(rows) < 16:
            super()._insert_events(rows)
            return
        with self._conn.cursor() as cur, cur.copy(f"COPY events ({_EVENT_COLS}, uid) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)

    def _lock_schema(self) -> None:
        self._execute("SELECT pg_advisory_xact_lock(7262737)")

    def _claim_key(self, table_id: str) -> int:
        schema_name = self._conn.execute("SELECT current_schema()").fetchone()[0]
        digest = hashlib.sha256(f"cardref-table\0{schema_name}\0{table_id}".encode("utf-8", "surrogatepass"))
        return int.from_bytes(digest.digest()[:8], "big", signed=True)

    def _try_claim(self, table_id: str) -> str | None:
        key = self._claim_key(table_id)
        if not self._conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()[0]:
            return "another connection to this PostgreSQL database"
        self._pg_claims[table_id] = key
        return None

    def _release_claim(self, table_id: str) -> None:
        key = self._pg_claims.pop(table_id, None)
        if key is not None:
            try:
                self._conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
            except self._disconnect_errors:  # the lock went with the connection
                pass

    def _has_table(self, name: str) -> bool:
        row = self._execute("SELECT to_regclass(?)", (name,)).fetchone()
        return row is not None and row[0] is not None

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def connect_store(url_or_path: str | None = None, *, sync: str | None = None,
                  migrations: Mapping[int, Migration] | None = None) -> tuple[EventStore, list[str]]:
    """Open (creating, or migrating with ``migrations``) the store at a path or URL; ``None``
    uses the default.  Returns the store and the ids of the tables whose verdicts are stale
    (a migration rebuilt their events): the caller re-judges them.  Most callers want
    :func:`cardref.recorder.open_store`, which does both.

    ``sqlite:///relative.db``, ``sqlite:////abs/path.db``, a plain path and ``:memory:``
    open SQLite; ``postgresql://user:pw@host:port/db`` opens PostgreSQL.
    """
    target = resolve_db(url_or_path)
    store: EventStore
    if is_postgres(target):
        store = PostgresStore(target)
    else:
        path = target[len("sqlite:///"):] if target.startswith("sqlite:///") else target
        if "://" in path:
            raise StoreError(f"unknown store URL {target!r}: use a file path, sqlite:///PATH or postgresql://…")
        mode = sync or os.environ.get("CARDREF_DB_SYNC", "full")
        store = SQLiteStore(path, sync=mode.lower())
    try:
        stale = store._ensure_schema(migrations)
    except BaseException:
        store.close()
        raise
    return store, stale
