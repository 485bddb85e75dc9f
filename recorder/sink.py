"""The dashboard's write-through sink: each line the dashboard appends is recorded here."""

from __future__ import annotations

from .recorder import Recorder
from .store import EventStore


class StoreSink:
    """A ``LogSink`` (``write_line(text)``) that records each line at a table, durably and
    judged, before returning; ``lines()`` gives the table's log back after a restart."""

    def __init__(self, store: EventStore, table_id: str, recorder: Recorder | None = None) -> None:
        self.store = store
        self.table_id = table_id
        self.recorder = recorder or Recorder(store)
        store.ensure_table(table_id)

    def write_line(self, text: str) -> None:
        if text.strip():
            self.recorder.record(self.table_id, text)

    def lines(self) -> list[str]:
        return self.store.lines(self.table_id)
