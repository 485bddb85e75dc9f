"""Export a deal, a match or a whole table as the spec's JSON Lines; import such a log.

An exported deal or match is a log of its own (see :mod:`.segments`): its lines in order,
then the corrections recorded later that fix its events, with every ``correct`` event's
``ref`` renumbered to the exported log's indexes.  Judging an exported match
(``cardref judge``) or importing it gives the verdicts the store holds (the recorder
judges each match as exactly this log).  A whole table's export is its raw log; when the
table played several matches, judging it in one piece chains their deals.
Raw lines are kept byte for byte except those renumbered refs; rejected lines are exported
as they were received, so an import stores them as rejected again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from cardref.engine.eventlog import loads_line
from cardref.engine.events import EventError

from .recorder import NotFound, Recorder
from .segments import Segment, segment
from .store import EventStore, to_line

ExportedLog = Segment


def export_segment(store: EventStore, table_id: str, *, match_id: int | None = None,
                   deal_id: int | None = None) -> Segment:
    return segment(store, table_id, match_id=match_id, deal_id=deal_id)


def export_match(store: EventStore, match_id: int) -> ExportedLog:
    match = store.match(match_id)
    if match is None:
        raise NotFound("match", match_id)
    return export_segment(store, match.table_id, match_id=match_id)


def export_deal(store: EventStore, deal_id: int) -> ExportedLog:
    deal = store.deal(deal_id)
    if deal is None:
        raise NotFound("deal", deal_id)
    return export_segment(store, deal.table_id, deal_id=deal_id)


def export_table(store: EventStore, table_id: str) -> ExportedLog:
    if store.table(table_id) is None:
        raise NotFound("table", table_id)
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
    The lines are read first; then the whole import (the new match and every line) is one
    transaction: an import that fails or is killed midway leaves nothing, so importing
    again records the log once.  ``batch`` lines are judged and written at a time, inside
    that transaction.
    """
    recorder = recorder or Recorder(store)
    texts = [text for text in map(to_line, lines) if text]  # read first: the transaction never waits on input
    if not texts:
        raise ValueError(f"the log for table {table_id!r} has no events (it is empty or only blank lines): "
                         f"nothing was imported")
    try:
        with store.transaction():
            return _import_in_tx(store, texts, table_id, name, recorder, batch)
    except BaseException:
        recorder.forget(table_id)  # its judges saw lines that were rolled back
        raise


def _import_in_tx(store: EventStore, texts: list[str], table_id: str, name: str | None,
                  recorder: Recorder, batch: int) -> ImportResult:
    match_id = store.start_match(table_id, name or "import")
    info = store.table(table_id)
    offset = info.events if info else 0
    result = ImportResult(table_id, match_id, offset)
    if offset:
        texts = [_shift_ref(text, offset) if '"correct"' in text else text for text in texts]
    for k in range(0, len(texts), max(1, batch)):
        for done in recorder.record_many(table_id, texts[k:k + max(1, batch)]):
            result.count += 1
            result.seqs.append(done.seq)
            result.rejected += done.appended.rejected
    verdicts = store.verdicts(table_id, offset)
    result.faults = sum(1 for v in verdicts.values() if not v.ok)
    return result


def _shift_ref(text: str, offset: int) -> str:
    try:
        obj = loads_line(text)  # strictly: a line the reader rejects is kept as it is
    except EventError:
        return text
    if isinstance(obj, dict) and obj.get("type") == "correct" and isinstance(obj.get("ref"), int) \
            and not isinstance(obj.get("ref"), bool) and obj["ref"] >= 0:
        obj["ref"] += offset
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return text
