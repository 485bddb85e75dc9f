"""A deal's or a match's own event log, cut out of its table's log.

A table's log (the store's ``seq`` order) can hold several matches, and a director may
correct an event of a finished match while the next one is being played.  The log of a
segment (a match or a deal) is its lines in order, then the later corrections that fix
its events; each ``correct`` event's ``ref`` is renumbered to the segment's own indexes.
Corrections of other segments go with those.  A backward ``ref`` is renumbered to the
target's index; a ``ref`` that points forward (always a fault) keeps its distance.

This is both what ``cardref export`` writes and what the recorder judges: each match is
judged as its own log, so one match's deals never count as "the previous deal" of the
next match's first deal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .store import EventStore, StoredEvent


@dataclass(frozen=True)
class Segment:
    """The lines of a segment and where each came from (``seqs[k]`` = table seq of line k);
    ``refs[k]`` is the table seq a renumbered correction at line k refers to."""

    table_id: str
    lines: list[str]
    seqs: list[int]
    refs: dict[int, int] = field(default_factory=dict)

    def seq_map(self) -> dict[int, int]:
        return {seq: k for k, seq in enumerate(self.seqs)}

    def write(self, path: str | Path) -> None:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            for line in self.lines:
                fh.write(line + "\n")


def owner(event: StoredEvent, by_seq: dict[int, StoredEvent], key: str) -> int | None:
    """The deal/match an event goes with: a valid backward correction goes with its target."""
    if event.type == "correct" and event.status == "ok" and event.ref is not None and event.ref < event.seq:
        target = by_seq.get(event.ref)
        if target is not None:
            return getattr(target, key)
    return getattr(event, key)


def with_ref(line: str, ref: int) -> str:
    """A ``correct`` line with its ``ref`` replaced (other keys kept as they were)."""
    obj = json.loads(line)
    obj["ref"] = ref
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def local_ref(ref: int, seq: int, index: dict[int, int], k: int) -> int:
    """The segment index a correction at segment line ``k`` (table ``seq``) refers to."""
    if ref < seq and ref in index:
        return index[ref]
    return k + (ref - seq)


def cut(events: list[StoredEvent], keep: set[int]) -> Segment:
    chosen = [e for e in events if e.seq in keep]
    index = {e.seq: k for k, e in enumerate(chosen)}
    lines: list[str] = []
    refs: dict[int, int] = {}
    for k, e in enumerate(chosen):
        text = e.line
        if e.type == "correct" and e.status == "ok" and e.ref is not None:
            new = local_ref(e.ref, e.seq, index, k)
            if new != e.ref:
                text = with_ref(text, new)
                refs[k] = e.ref
        lines.append(text)
    table_id = chosen[0].table_id if chosen else (events[0].table_id if events else "")
    return Segment(table_id, lines, [e.seq for e in chosen], refs)


def segment(store: EventStore, table_id: str, *, match_id: int | None = None,
            deal_id: int | None = None) -> Segment:
    """The log of one match or one deal of a table (the whole table when neither is given)."""
    events = store.events(table_id)
    by_seq = {e.seq: e for e in events}
    if match_id is not None:
        keep = {e.seq for e in events if owner(e, by_seq, "match_id") == match_id}
    elif deal_id is not None:
        keep = {e.seq for e in events if owner(e, by_seq, "deal_id") == deal_id}
    else:
        keep = set(by_seq)
    seg = cut(events, keep)
    return Segment(table_id, seg.lines, seg.seqs, seg.refs)
