"""Export a deal, a match or a whole table as the spec's JSON Lines; import such a log.

An exported deal or match is a log of its own: its lines in order, then the corrections
recorded later that fix its events (a director's correction after the match was over),
with every ``correct`` event's ``ref`` renumbered to the exported log's indexes.
Corrections that fix events of another deal or match go with that one.  Judging the
exported file (``cardref judge``) or importing it gives the same verdicts the store holds.
Raw lines are kept byte for byte except those renumbered refs; rejected lines are exported
as they were received, so an import stores them as rejected again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .recorder import Recorder
from .store import EventStore, StoredEvent, to_line


@dataclass(frozen=True)
class ExportedLog:
    """The lines of an export and where each came from (``seqs[k]`` = table seq of line k)."""

    table_id: str
    lines: list[str]
    seqs: list[int]

    def seq_map(self) -> dict[int, int]:
        return {seq: k for k, seq in enumerate(self.seqs)}

    def write(self, path: str | Path) -> None:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            for line in self.lines:
                fh.write(line + "\n")


def _owner(event: StoredEvent, by_seq: dict[int, StoredEvent], key: str) -> int | None:
    """The deal/match an event goes with: a valid backward correction goes with its target."""
    if event.type == "correct" and event.status == "ok" and event.ref is not None and event.ref < event.seq:
        target = by_seq.get(event.ref)
        if target is not None:
            return getattr(target, key)
    return getattr(event, key)


def _rebased(line: str, ref: int) -> str:
    obj = json.loads(line)
    obj["ref"] = ref
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _export(events: list[StoredEvent], keep: set[int]) -> tuple[list[str], list[int]]:
    chosen = [e for e in events if e.seq in keep]
    index = {e.seq: k for k, e in enumerate(chosen)}
    lines = []
    for k, e in enumerate(chosen):
        text = e.line
        if e.type == "correct" and e.status == "ok" and e.ref is not None:
            new_ref = index.get(e.ref)
            if new_ref is None or e.ref >= e.seq:
                new_ref = k + (e.ref - e.seq) if e.ref >= e.seq else None
            if new_ref is not None and new_ref != e.ref:
                text = _rebased(text, new_ref)
        lines.append(text)
    return lines, [e.seq for e in chosen]


def export_segment(store: EventStore, table_id: str, *, match_id: int | None = None,
                   deal_id: int | None = None) -> ExportedLog:
    events = store.events(table_id)
    by_seq = {e.seq: e for e in events}
    if match_id is not None:
        keep = {e.seq for e in events if _owner(e, by_seq, "match_id") == match_id}
    elif deal_id is not None:
        keep = {e.seq for e in events if _owner(e, by_seq, "deal_id") == deal_id}
    else:
        keep = set(by_seq)
    lines, seqs = _export(events, keep)
    return ExportedLog(table_id, lines, seqs)


def export_match(store: EventStore, match_id: int) -> ExportedLog:
    match = store.match(match_id)
    if match is None:
        raise KeyError(f"no match {match_id}")
    return export_segment(store, match.table_id, match_id=match_id)


def export_deal(store: EventStore, deal_id: int) -> ExportedLog:
    deal = store.deal(deal_id)
    if deal is None:
        raise KeyError(f"no deal {deal_id}")
    return export_segment(store, deal.table_id, deal_id=deal_id)


def export_table(store: EventStore, table_id: str) -> ExportedLog:
    if store.table(table_id) is None:
        raise KeyError(f"no table {table_id!r}")
    return export_segment(store, table_id)


@dataclass
class ImportResult:
    table_id: str
    match_id: int | None
    first_seq: int
    count: int = 0
    rejected: int = 0
    faults: int = 0
    seqs: list[int] = field(default_factory=list)


def import_lines(store: EventStore, lines: Iterable[str], table_id: str, *, name: str | None = None,
                 recorder: Recorder | None = None, batch: int = 500) -> ImportResult:
    """Record a JSON Lines log at ``table_id`` as a new match (blank lines skipped).

    The log's ``correct`` refs count from its own first line; when the table already has
    events they are shifted by the table's length so they still point at the same lines.
    Each batch of ``batch`` lines is one transaction.
    """
    recorder = recorder or Recorder(store)
    store.ensure_table(table_id)
    match_id = store.start_match(table_id, name or "import")
    info = store.table(table_id)
    offset = info.events if info else 0
    result = ImportResult(table_id, match_id, offset)
    pending: list[str] = []

    def flush() -> None:
        for done in recorder.record_many(table_id, pending):
            result.count += 1
            result.seqs.append(done.seq)
            result.rejected += done.appended.rejected
        pending.clear()

    for raw in lines:
        text = to_line(raw)
        if not text:
            continue
        if offset and '"correct"' in text:
            text = _shift_ref(text, offset)
        pending.append(text)
        if len(pending) >= batch:
            flush()
    if pending:
        flush()
    verdicts = store.verdicts(table_id, offset)
    result.faults = sum(1 for v in verdicts.values() if not v.ok)
    return result


def _shift_ref(text: str, offset: int) -> str:
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return text
    if isinstance(obj, dict) and obj.get("type") == "correct" and isinstance(obj.get("ref"), int) \
            and not isinstance(obj.get("ref"), bool) and obj["ref"] >= 0:
        obj["ref"] += offset
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text
