"""The live path: every line stored durably, judged, and its verdicts kept with it.

:class:`Recorder` keeps one engine :class:`LiveJudge` per match.  :meth:`Recorder.record`
stores a line and the verdicts it caused in one transaction, so what the dashboard shows
as recorded is on disk.  After a restart the judge of a table is rebuilt from its stored
log (:meth:`Recorder.live`), so a deal resumes exactly where it stopped.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardref.engine.cards import Card
from cardref.engine.eventlog import LogLine, parse_line
from cardref.engine.events import CorrectEvent, Event, correct_event
from cardref.engine.judge import LiveJudge
from cardref.engine.verdict import Fault, Verdict

from .segments import Segment, local_ref, segment, with_ref
from .store import Appended, EventStore, JudgeUpdate, StoredEvent, StoreDisconnected, TableBusy, to_line

log = logging.getLogger(__name__)


class LockedError(PermissionError):
    """A correction of a confirmed result without the director's PIN: a stable ``code``
    (``recorder.locked``, or ``recorder.locked_no_tournament`` for a match no director can
    unlock), the ``facts`` of the refusal, and an English message.  The dashboard shows the
    code's sentence (``rec.err.<what>`` in :mod:`cardref.ui.i18n`) in the user's language."""

    def __init__(self, message: str, code: str = "recorder.locked", **facts: Any) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


class NotFound(KeyError):
    """A look-up of a match, deal, table, round or tournament that the store does not hold:
    a stable ``code`` (``recorder.no_<what>``), the ``facts`` (``{what: ref}``), and an
    English message ("no match 3"); a :class:`KeyError`, as callers catch."""

    def __init__(self, what: str, ref: Any) -> None:
        self.message = f"no {what} {ref!r}"
        super().__init__(self.message)
        self.code = f"recorder.no_{what}"
        self.facts = {what: ref}

    def __str__(self) -> str:  # the message as written, not KeyError's quoted repr
        return self.message


class _Resync(Exception):
    """The table's log grew behind this recorder's back: rebuild and retry."""


def live_from_lines(lines: Iterable[str]) -> LiveJudge:
    """A live judge fed a log line by line, as it was recorded."""
    live = LiveJudge()
    for text in lines:
        try:
            live.feed_text(text)
        except Exception:  # an engine bug must not make a stored log unreadable
            log.exception("engine failed on a stored line; continuing")
    return live


class MatchJudge:
    """The live judge of one match, and the map from its own line indexes to table seqs."""

    def __init__(self, table_id: str, match_id: int | None, seg: Segment | None = None) -> None:
        self.table_id = table_id
        self.match_id = match_id
        self.live = live_from_lines(seg.lines) if seg else LiveJudge()
        self.seqs: list[int] = list(seg.seqs) if seg else []
        self.refs: dict[int, int] = dict(seg.refs) if seg else {}
        self.index = {seq: k for k, seq in enumerate(self.seqs)}
        self.summaries: dict[int, str] = {}

    @classmethod
    def load(cls, store: EventStore, table_id: str, match_id: int) -> MatchJudge:
        return cls(table_id, match_id, segment(store, table_id, match_id=match_id))

    def feed(self, seq: int, line: LogLine) -> list[Verdict]:
        """Judge a table line; a correction's ``ref`` is renumbered to this match's indexes."""
        k = len(self.seqs)
        text = line.raw
        event = line.event
        if isinstance(event, CorrectEvent):
            new = local_ref(event.ref, seq, self.index, k)
            if new != event.ref:
                text = with_ref(text, new)
                self.refs[k] = event.ref
        self.seqs.append(seq)
        self.index[seq] = k
        try:
            return self.live.feed_text(text)
        except Exception as exc:  # engine bug: keep the event, say so
            log.exception("engine failed on table %s line %s", self.table_id, seq)
            return [Verdict(k, Fault("judge.internal_error", {"detail": repr(exc)[:200]}, k))]

    def to_table(self, v: Verdict) -> Verdict:
        seq = self.seqs[v.i]
        if v.fault is None:
            return Verdict(seq)
        f = v.fault
        facts = dict(f.facts)
        if isinstance(facts.get("lineno"), int):
            facts["lineno"] = seq + 1
        if f.code == "correct.bad_ref":
            facts["ref"] = self.refs.get(v.i, facts.get("ref"))
        proven = f.proven_at
        if proven is not None and 0 <= proven < len(self.seqs):
            proven = self.seqs[proven]
        return Verdict(seq, Fault(f.code, facts, seq, proven), confirm=v.confirm)

    def verdicts(self) -> list[Verdict]:
        out = []
        for line in self.live.lines:
            v = self.live._judge.verdicts.get(line.i)  # noqa: SLF001 - tolerate lines an engine bug left unjudged
            out.append(self.to_table(v if v is not None else Verdict(line.i, Fault("judge.internal_error", {},
                                                                                    line.i))))
        return out

    def changed_summaries(self, everything: bool) -> dict[int, dict[str, Any]]:
        """Deal summaries (keyed by table seq of the deal event) that changed since last asked."""
        deals = self.live.deals if everything else self.live.deals[-1:]
        out: dict[int, dict[str, Any]] = {}
        for run in deals:
            try:
                summary = run.summary()
            except Exception:  # pragma: no cover - engine bug
                log.exception("engine failed to summarise deal %s", run.index)
                continue
            start = self.seqs[run.index]
            summary["i"] = start
            text = json.dumps(summary, sort_keys=True, default=str)
            if self.summaries.get(start) != text:
                self.summaries[start] = text
                out[start] = summary
        return out


def rejudge_table(store: EventStore, table_id: str) -> None:
    """Re-judge every match of a table from its stored log; store verdicts and summaries again."""
    verdicts: list[Verdict] = []
    summaries: dict[int, dict[str, Any]] = {}
    for match in store.matches(table_id=table_id):
        judge = MatchJudge.load(store, table_id, match.id)
        verdicts.extend(judge.verdicts())
        summaries.update(judge.changed_summaries(True))
    store.replace_verdicts(table_id, verdicts, summaries)


@dataclass(frozen=True)
class Recorded:
    """What :meth:`Recorder.record` did: the stored line and the verdicts that changed
    (indexed by table seq)."""

    appended: Appended
    verdicts: tuple[Verdict, ...]

    @property
    def seq(self) -> int:
        return self.appended.seq


class Recorder:
    """Stores and judges the lines of live tables.  Thread-safe; one writer per table.

    Each match is judged as its own log (see :mod:`.segments`); a correction of an event
    of an earlier match is judged with that match and updates its verdicts and scores.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._judges: dict[tuple[str, int | None], MatchJudge] = {}
        self._next: dict[str, int] = {}
        self._lock = threading.RLock()

    # -- the judges of a table ------------------------------------------------------
    def _judge(self, table_id: str, match_id: int | None) -> MatchJudge:
        key = (table_id, match_id)
        judge = self._judges.get(key)
        if judge is None:
            judge = (MatchJudge.load(self.store, table_id, match_id) if match_id is not None
                     else MatchJudge(table_id, None))
            judge.changed_summaries(True)  # remember what is stored
            self._judges[key] = judge
        return judge

    def live(self, table_id: str) -> LiveJudge:
        """The live judge of the table's open match (or of its last match), rebuilt from
        the store when this recorder has none: a restarted recorder resumes the deal."""
        with self._lock:
            info = self.store.table(table_id)
            match_id = info.open_match_id if info else None
            if match_id is None and info is not None:
                matches = self.store.matches(table_id=table_id)
                match_id = matches[-1].id if matches else None
            return self._judge(table_id, match_id).live

    def forget(self, table_id: str) -> None:
        with self._lock:
            for key in [k for k in self._judges if k[0] == table_id]:
                del self._judges[key]
            self._next.pop(table_id, None)

    def state(self, table_id: str) -> dict[str, Any]:
        """The referee's snapshot of the table's current deal (who plays next, scores …)."""
        return self.live(table_id).state()

    # -- recording --------------------------------------------------------------------
    def record(self, table_id: str, item: str | bytes | Mapping[str, Any] | Event, *,
               authorized_by: str | None = None, uid: str | None = None) -> Recorded:
        """Store one line (durable on return) and judge it.

        A ``correct`` line whose target belongs to a confirmed result raises
        :class:`LockedError` unless ``authorized_by`` names the director who gave the PIN
        (see :func:`cardref.recorder.tournament.correct_with_pin`); the refusal is logged.
        """
        return self._append(table_id, [item], authorized_by, None if uid is None else [uid])[0]

    def record_many(self, table_id: str, items: Sequence[str | bytes | Mapping[str, Any] | Event], *,
                    uids: Sequence[str] | None = None) -> list[Recorded]:
        """Store many lines in one transaction (import, catching up), judging each."""
        return self._append(table_id, items, None, uids)

    def _append(self, table_id: str, items: Sequence[Any], authorized_by: str | None,
                uids: Sequence[str] | None) -> list[Recorded]:
        with self._lock:
            for item in items:
                self._check_lock(table_id, item, authorized_by)
            uids = list(uids) if uids is not None else [uuid.uuid4().hex for _ in items]
            for attempt in range(3):
                if table_id not in self._next:
                    info = self.store.table(table_id)
                    self._next[table_id] = info.events if info else 0
                try:
                    appended = self.store.append_many(table_id, items, judge=self._judge_fn(table_id), uids=uids)
                except _Resync:
                    self.forget(table_id)
                    if attempt == 2:
                        raise TableBusy(f"table {table_id!r}: another writer keeps appending at the same time, so "
                                        f"these lines were not recorded: record each table with one writer") from None
                    continue
                except StoreDisconnected as exc:
                    self.forget(table_id)  # not recorded: judge again from the store and retry
                    if attempt == 2 or not exc.reconnected:
                        raise
                    continue
                except BaseException:
                    self.forget(table_id)  # the judges may be ahead of what was committed
                    raise
                return [Recorded(a, a.verdicts) for a in appended]
            raise AssertionError("unreachable")

    def _judge_fn(self, table_id: str):  # type: ignore[no-untyped-def]
        def judge(seq: int, line: LogLine, match_id: int) -> JudgeUpdate:
            if seq != self._next.get(table_id):
                raise _Resync
            self._next[table_id] = seq + 1
            target = self._judge(table_id, match_id)
            event = line.event
            if isinstance(event, CorrectEvent) and event.ref < seq:
                fixed = self.store.event(table_id, event.ref)
                if fixed is not None and fixed.match_id is not None and fixed.match_id != match_id:
                    target = self._judge(table_id, fixed.match_id)
            verdicts = [target.to_table(v) for v in target.feed(seq, line)]
            return JudgeUpdate(verdicts, target.changed_summaries(isinstance(event, CorrectEvent)))

        return judge

    def _check_lock(self, table_id: str, item: Any, authorized_by: str | None) -> None:
        text = to_line(item)
        if '"correct"' not in text:
            return
        line = parse_line(0, 1, text)
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
                          f"was confirmed by {match.confirmed_by}: a correction needs the director's PIN",
                          event=line.event.ref, table=table_id, match=match.id, who=match.confirmed_by or "?")

    def correct(self, table_id: str, ref: int, *, who: str, why: str, cards: Sequence[str | Card] | None = None,
                seat: int | None = None, authorized_by: str | None = None, t: float | None = None) -> Recorded:
        """Append a ``correct`` event fixing line ``ref``: who made it and why are required."""
        if not who or not who.strip():
            raise ValueError("a correction must say who made it")
        if not why or not why.strip():
            raise ValueError("a correction must say why")
        if cards is None and seat is None:
            raise ValueError("a correction fixes the cards, the seat or both")
        event = correct_event(int(ref), cards=None if cards is None else [c.code if isinstance(c, Card) else str(c)
                                                                          for c in cards],
                              seat=None if seat is None else int(seat), who=who.strip(), why=why.strip(), t=t)
        if self.store.event(table_id, int(ref)) is None:
            raise ValueError(f"table {table_id} has no event {ref} to correct")
        done = self.record(table_id, event, authorized_by=authorized_by)
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
    verdicts = store.verdict_json(table_id, lang, events[0].seq, events[-1].seq + 1)
    out = []
    for e in events:
        v = verdicts.get(e.seq)
        row: dict[str, Any] = {"seq": e.seq, "line": e.line, "type": e.type, "seat": e.seat,
                               "status": e.status, "reason": e.reason, "recorded_at": e.recorded_at,
                               "match_id": e.match_id, "deal_id": e.deal_id, "ref": e.ref, "who": e.who,
                               "why": e.why}
        if v is None:
            row.update(ok=None, code=None, message=None, proven_at=None, confirm=False)
        else:
            row.update(ok=v["ok"], code=v.get("code"), message=v.get("message"), proven_at=v.get("proven_at"),
                       confirm=bool(v.get("confirm")))
        out.append(row)
    return out
