"""The live path: every line stored durably, judged, and its verdicts kept with it.

:class:`Recorder` keeps one engine :class:`LiveJudge` per table.  :meth:`Recorder.record`
stores a line and the verdicts it caused in one transaction, so what the dashboard shows
as recorded is on disk.  After a restart the judge of a table is rebuilt from its stored
log (:meth:`Recorder.live`), so a deal resumes exactly where it stopped.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardref.engine.cards import Card
from cardref.engine.eventlog import LogLine, parse_line
from cardref.engine.events import CorrectEvent, Event
from cardref.engine.judge import LiveJudge
from cardref.engine.messages import render
from cardref.engine.verdict import Fault, Verdict

from .store import Appended, EventStore, JudgeUpdate, StoredEvent

log = logging.getLogger(__name__)


class LockedError(PermissionError):
    """A correction of a confirmed result without the director's PIN."""


class _Resync(Exception):
    """The table's log grew behind this recorder's back: rebuild and retry."""


def live_from_lines(lines: Iterable[str]) -> LiveJudge:
    """A live judge fed a stored log, line by line, as it was recorded."""
    live = LiveJudge()
    for text in lines:
        try:
            live.feed_text(text)
        except Exception:  # an engine bug must not make a stored log unreadable
            log.exception("engine failed on a stored line; continuing")
    return live


def _summaries(live: LiveJudge, everything: bool) -> dict[int, dict[str, Any]]:
    deals = live.deals if everything else live.deals[-1:]
    out: dict[int, dict[str, Any]] = {}
    for run in deals:
        try:
            out[run.index] = run.summary()
        except Exception:  # pragma: no cover - engine bug
            log.exception("engine failed to summarise deal %s", run.index)
    return out


def _live_verdicts(live: LiveJudge) -> list[Verdict]:
    out = []
    for line in live.lines:
        v = live._judge.verdicts.get(line.i)  # noqa: SLF001 - tolerate lines an engine bug left unjudged
        out.append(v if v is not None else Verdict(line.i, Fault("judge.internal_error", {}, line.i)))
    return out


def rejudge_table(store: EventStore, table_id: str) -> LiveJudge:
    """Re-judge a table's whole log and store the verdicts and deal summaries again."""
    live = live_from_lines(store.lines(table_id))
    store.replace_verdicts(table_id, _live_verdicts(live), _summaries(live, True))
    return live


@dataclass(frozen=True)
class Recorded:
    """What :meth:`Recorder.record` did: the stored line and the verdicts that changed."""

    appended: Appended
    verdicts: tuple[Verdict, ...]

    @property
    def seq(self) -> int:
        return self.appended.seq


class Recorder:
    """Stores and judges the lines of live tables.  Thread-safe; one writer per table."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._live: dict[str, LiveJudge] = {}
        self._summary_cache: dict[str, dict[int, str]] = {}
        self._lock = threading.RLock()

    # -- the judge of a table ---------------------------------------------------------
    def live(self, table_id: str) -> LiveJudge:
        """The table's live judge, rebuilt from the store when this recorder has none."""
        with self._lock:
            judge = self._live.get(table_id)
            if judge is None:
                judge = live_from_lines(self.store.lines(table_id))
                self._live[table_id] = judge
                self._summary_cache[table_id] = {
                    start: json.dumps(s, sort_keys=True, default=str)
                    for start, s in _summaries(judge, True).items()}
            return judge

    def forget(self, table_id: str) -> None:
        with self._lock:
            self._live.pop(table_id, None)
            self._summary_cache.pop(table_id, None)

    def state(self, table_id: str) -> dict[str, Any]:
        """The referee's snapshot of the table's current deal (who plays next, scores …)."""
        return self.live(table_id).state()

    # -- recording --------------------------------------------------------------------
    def record(self, table_id: str, item: str | bytes | Mapping[str, Any] | Event, *,
               authorized_by: str | None = None) -> Recorded:
        """Store one line (durable on return) and judge it.

        A ``correct`` line whose target belongs to a confirmed result raises
        :class:`LockedError` unless ``authorized_by`` names the director who gave the PIN
        (see :func:`cardref.recorder.tournament.correct`); the refusal is logged.
        """
        with self._lock:
            self._check_lock(table_id, item, authorized_by)
            for attempt in range(2):
                live = self.live(table_id)
                try:
                    appended = self.store.append(table_id, item, judge=self._judge_fn(table_id, live))
                except _Resync:
                    self.forget(table_id)
                    if attempt:
                        raise RuntimeError(f"table {table_id}: another writer keeps appending") from None
                    continue
                except BaseException:
                    self.forget(table_id)  # the judge may be ahead of what was committed
                    raise
                return Recorded(appended, appended.verdicts)
            raise AssertionError("unreachable")

    def record_many(self, table_id: str, items: Sequence[str | bytes | Mapping[str, Any] | Event]) -> list[Recorded]:
        """Store many lines in one transaction (import, catching up), judging each."""
        with self._lock:
            for item in items:
                self._check_lock(table_id, item, None)
            live = self.live(table_id)
            try:
                appended = self.store.append_many(table_id, items, judge=self._judge_fn(table_id, live))
            except BaseException:
                self.forget(table_id)
                raise
            return [Recorded(a, a.verdicts) for a in appended]

    def _judge_fn(self, table_id: str, live: LiveJudge):  # type: ignore[no-untyped-def]
        cache = self._summary_cache.setdefault(table_id, {})

        def judge(seq: int, line: LogLine) -> JudgeUpdate:
            if seq != len(live.lines):
                raise _Resync
            try:
                verdicts = live.feed_text(line.raw)
            except Exception as exc:  # engine bug: keep the event, say so, rebuild later
                log.exception("engine failed on table %s line %s", table_id, seq)
                if len(live.lines) == seq:
                    live.lines.append(parse_line(seq, seq + 1, line.raw))
                verdicts = [Verdict(seq, Fault("judge.internal_error", {"detail": repr(exc)[:200]}, seq))]
            summaries = {}
            for start, s in _summaries(live, isinstance(line.event, CorrectEvent)).items():
                text = json.dumps(s, sort_keys=True, default=str)
                if cache.get(start) != text:
                    cache[start] = text
                    summaries[start] = s
            return JudgeUpdate(verdicts, summaries)

        return judge

    def _check_lock(self, table_id: str, item: Any, authorized_by: str | None) -> None:
        from cardref.engine.eventlog import parse_line as _parse

        from .store import to_line

        text = to_line(item)
        if '"correct"' not in text:
            return
        line = _parse(0, 1, text)
        if not isinstance(line.event, CorrectEvent):
            return
        target = self.store.event(table_id, line.event.ref)
        if target is None or target.match_id is None:
            return
        match = self.store.match(target.match_id)
        if match is None or not match.confirmed or authorized_by:
            return
        self.store.log_action("correct", "refused: result confirmed, director PIN required",
                              actor=line.event.who, table_id=table_id, match_id=match.id,
                              detail={"line": text})
        raise LockedError(f"event {line.event.ref} of table {table_id} belongs to match {match.id}, whose result "
                          f"was confirmed by {match.confirmed_by}: a correction needs the director's PIN")

    def correct(self, table_id: str, ref: int, *, who: str, why: str, cards: Sequence[str | Card] | None = None,
                seat: int | None = None, authorized_by: str | None = None, t: float | None = None) -> Recorded:
        """Append a ``correct`` event fixing line ``ref``: who made it and why are required."""
        if not who or not who.strip():
            raise ValueError("a correction must say who made it")
        if not why or not why.strip():
            raise ValueError("a correction must say why")
        if cards is None and seat is None:
            raise ValueError("a correction fixes the cards, the seat or both")
        obj: dict[str, Any] = {"type": "correct", "ref": int(ref)}
        if cards is not None:
            obj["cards"] = [c.code if isinstance(c, Card) else str(c) for c in cards]
        if seat is not None:
            obj["seat"] = int(seat)
        obj.update(who=who.strip(), why=why.strip(), source="manual")
        if t is not None:
            obj["t"] = t
        if self.store.event(table_id, int(ref)) is None:
            raise ValueError(f"table {table_id} has no event {ref} to correct")
        done = self.record(table_id, obj, authorized_by=authorized_by)
        self.store.log_action("correct", "ok", actor=who, table_id=table_id, match_id=done.appended.match_id,
                              detail={"seq": done.seq, "ref": ref, "why": why, "authorized_by": authorized_by})
        return done


def table_rows(store: EventStore, table_id: str, *, lang: str = "zh", start: int = 0,
               stop: int | None = None, match_id: int | None = None,
               deal_id: int | None = None) -> list[dict[str, Any]]:
    """Events of a table joined with their verdicts, ready for a dashboard or a report."""
    events: list[StoredEvent] = store.events(table_id, start, stop, match_id=match_id, deal_id=deal_id)
    if not events:
        return []
    verdicts = store.verdicts(table_id, events[0].seq, events[-1].seq + 1)
    out = []
    for e in events:
        v = verdicts.get(e.seq)
        row: dict[str, Any] = {"seq": e.seq, "line": e.line, "type": e.type, "seat": e.seat,
                               "status": e.status, "reason": e.reason, "recorded_at": e.recorded_at,
                               "match_id": e.match_id, "deal_id": e.deal_id, "ref": e.ref, "who": e.who,
                               "why": e.why}
        if v is None:
            row.update(ok=None, code=None, message=None, proven_at=None)
        elif v.fault is None:
            row.update(ok=True, code=None, message=None, proven_at=None)
        else:
            row.update(ok=False, code=v.fault.code, message=render(v.fault.code, v.fault.facts, lang),
                       proven_at=v.fault.proven_at)
        out.append(row)
    return out
