"""The dashboard's event log: append-only, judged on demand, shared by every screen.

A :class:`TableLog` holds the raw JSON lines of one table (the spec's event log).  The
camera pipeline, the referee's setup page and corrections all *append*; nothing is ever
erased.  Judging goes through :func:`cardref.engine.judge.judge_text`, so the dashboard
shows exactly what ``cardref judge`` would print.  A log can be judged up to any
position, which is how the replay shows verdicts "as they were".

Where a backing store is given (the recorder's ``EventStore`` or a JSONL file), every
appended line is written through to it as well.
"""

from __future__ import annotations

import datetime as _dt
import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from cardref.engine.cards import CardCodeError, parse_cards
from cardref.engine.eventlog import read_lines
from cardref.engine.events import CorrectEvent, DealEvent, PlayEvent, correct_event
from cardref.engine.judge import JudgeResult, LiveJudge, apply_corrections
from cardref.vision.logfile import JsonlSink as _JsonlSink

from .safejudge import judge as safe_judge

#: Events whose detector confidence is below this wait for a person's confirmation.
DEFAULT_CONFIRM_BELOW = 0.6


class LogSink(Protocol):
    """Where appended lines also go (a JSONL file, the recorder's store …)."""

    def write_line(self, text: str) -> None: ...


#: Appends each line to a JSON Lines file through the one event-log writer (flushed and
#: fsynced per line, a missing final newline written first), as ``cardref watch`` does.
JsonlSink = _JsonlSink


class TeeSink:
    """Writes each line to several sinks (the JSONL file and the recorder's store).  A sink
    that fails does not stop the others; its last error is kept in ``errors`` for a banner."""

    def __init__(self, *sinks: LogSink) -> None:
        self.sinks = [s for s in sinks if s is not None]
        self.errors: dict[str, str] = {}

    def write_line(self, text: str) -> None:
        failed = 0
        for sink in self.sinks:
            try:
                sink.write_line(text)
            except Exception as exc:  # keep writing to the others; say so on the page
                failed += 1
                self.errors[type(sink).__name__] = f"{type(exc).__name__}: {exc}"[:200]
        if self.sinks and failed == len(self.sinks):
            raise OSError("the event could not be written anywhere: " + "; ".join(self.errors.values()))


class LogOpenError(Exception):
    """A log file that cannot be opened at all (missing, unreadable, a folder …)."""

    def __init__(self, path: str, detail: str) -> None:
        self.path = path
        self.detail = detail
        super().__init__(f"cannot open {path}: {detail}")


def parse_card_text(text: str) -> list[str]:
    """Card codes typed by a person (``"10h qs, bj"``) in canonical form; raises ``CardCodeError``."""
    parts = [p for p in text.replace(",", " ").replace("，", " ").split() if p]
    return [c.code for c in parse_cards(parts)]


@dataclass
class TableLog:
    """One table's event log as raw JSON lines (blank lines dropped)."""

    lines: list[str] = field(default_factory=list)
    sink: LogSink | None = None
    name: str = ""
    confirm_below: float = DEFAULT_CONFIRM_BELOW

    def __post_init__(self) -> None:
        self._lock = threading.RLock()
        self._cache: dict[int, JudgeResult] = {}
        self.version = 0
        self.sink_error: str | None = None
        self._live: LiveJudge | None = None
        self._live_result: JudgeResult | None = None
        self._fed = 0
        self._effective: list[Any] = []

    # ---- building -------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str | Iterable[str], name: str = "", **kw: Any) -> TableLog:
        rows = text.splitlines() if isinstance(text, str) else list(text)
        return cls([r.strip() for r in rows if isinstance(r, str) and r.strip()], name=name, **kw)

    @classmethod
    def open(cls, path: str | Path, **kw: Any) -> TableLog:
        """Read a log file; undecodable bytes and bad lines are kept (and judged as errors)."""
        p = Path(path)
        try:
            data = p.read_bytes()
        except IsADirectoryError:
            raise LogOpenError(str(path), "is a folder") from None
        except OSError as exc:
            raise LogOpenError(str(path), exc.strerror or str(exc)) from None
        text = data.decode("utf-8", errors="replace")
        return cls.from_text(text, name=p.name, **kw)

    def append(self, obj: dict[str, Any] | str) -> int:
        """Append one event (a dict or a JSON line); returns its index."""
        text = obj.strip() if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        if not text:
            raise ValueError("an empty line is not an event")
        with self._lock:
            self.lines.append(text)
            self.version += 1
            i = len(self.lines) - 1
        if self.sink is not None:
            try:
                self.sink.write_line(text)
            except Exception as exc:  # kept in memory; the page shows the problem until it clears
                self.sink_error = f"{type(exc).__name__}: {exc}"[:300]
            else:
                self.sink_error = None
        return i

    def write_problems(self) -> list[str]:
        """What could not be written where (a failing store, a full disk …), for a banner."""
        out = [self.sink_error] if self.sink_error else []
        out += [f"{name}: {err}" for name, err in getattr(self.sink, "errors", {}).items()]
        return list(dict.fromkeys(out))

    @property
    def lock(self) -> threading.RLock:
        """Held while judging; hold it to read the judged state consistently."""
        return self._lock

    def snapshot(self) -> list[str]:
        with self._lock:
            return list(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def text(self) -> str:
        return "".join(line + "\n" for line in self.snapshot())

    # ---- judging --------------------------------------------------------------------
    def result(self, upto: int | None = None) -> JudgeResult:
        """The judge's result for the first ``upto`` lines (all when ``None``), cached.

        The whole log is judged incrementally (a :class:`LiveJudge` fed the new lines only;
        a correction re-judges from the start, as the live judge does), so a live table
        with a growing log costs each refresh only its new events."""
        with self._lock:
            if upto is None or upto >= len(self.lines):
                live = self._incremental()
                if live is not None:
                    return live
            lines = self.lines if upto is None else self.lines[: max(0, upto)]
            key = len(lines)
            cached = self._cache.get(key)
            if cached is not None and len(cached.verdicts) == key:
                return cached
            result = safe_judge(read_lines(list(lines)))
            if len(self._cache) > 512:
                self._cache.clear()
            self._cache[key] = result
            return result

    def _incremental(self) -> JudgeResult | None:
        try:
            if self._live is None:
                self._live, self._fed, self._effective = LiveJudge(), 0, []
            if self._fed == len(self.lines) and self._live_result is not None:
                return self._live_result
            for text in self.lines[self._fed:]:
                self._live.feed_text(text)
                line = self._live.lines[-1]
                if isinstance(line.event, CorrectEvent):
                    self._effective = apply_corrections(self._live.lines)[0]
                else:
                    self._effective.append(line.event)
                self._fed += 1
            self._live_result = JudgeResult(self._live.verdicts, list(self._live.deals), list(self._effective))
            return self._live_result
        except Exception:  # the engine failed: the full, guarded judge says so in a banner
            self._live, self._live_result = None, None
            return None

    # ---- corrections and confirmations ------------------------------------------------
    def correct(self, ref: int, *, cards: list[str] | None = None, seat: int | None = None,
                who: str = "", why: str = "", t: float | None = None) -> int:
        """Append a ``correct`` event for event ``ref``; raises ``ValueError`` on bad input."""
        if cards is None and seat is None:
            raise ValueError("a correction needs cards or a seat")
        if not 0 <= ref < len(self.lines):
            raise ValueError(f"there is no event {ref}")
        parsed = parse_cards(cards) if cards is not None else None  # CardCodeError names the bad code
        event = correct_event(ref, cards=parsed, seat=None if seat is None else int(seat), who=who or "referee",
                              why=why or None, t=None if t is None else round(float(t), 3), source="manual")
        obj = event.to_json()
        obj["at"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")  # when, by the clock
        return self.append(obj)

    def confirm(self, ref: int, who: str = "", t: float | None = None) -> int:
        """A person confirms event ``ref`` as read: a ``correct`` that changes nothing, so the
        log records who confirmed it and when, in the spec's own vocabulary."""
        event = self.result().effective[ref] if ref < len(self.lines) else None
        if not isinstance(event, PlayEvent):
            seat = getattr(event, "seat", None)
            if seat is None:
                raise ValueError(f"event {ref} cannot be confirmed")
            return self.correct(ref, seat=seat, who=who, why="confirm", t=t)
        return self.correct(ref, cards=[c.code for c in event.cards], who=who, why="confirm", t=t)

    def corrections(self) -> dict[int, list[tuple[int, CorrectEvent]]]:
        """For each corrected event, the corrections that name it (index, event)."""
        out: dict[int, list[tuple[int, CorrectEvent]]] = {}
        for line in read_lines(self.snapshot()):
            if isinstance(line.event, CorrectEvent):
                out.setdefault(line.event.ref, []).append((line.i, line.event))
        return out

    def pending(self) -> list[int]:
        """Camera events that no person has confirmed or corrected yet, whose confidence is
        low or that the pipeline marked ``"confirm": true`` (an uncertain segmentation)."""
        fixed = self.corrections()
        out = []
        for line in read_lines(self.snapshot()):
            ev = line.event
            conf = getattr(ev, "conf", None)
            if ev is None or isinstance(ev, CorrectEvent | DealEvent):
                continue
            if conf is None and ev.extra.get("confirm") is not True:
                continue
            conf = 1.0 if conf is None else conf
            if (conf < self.confirm_below or ev.extra.get("confirm") is True) and line.i not in fixed:
                out.append(line.i)
        return out


def check_cards(text: str) -> tuple[list[str] | None, str | None]:
    """Parse typed cards: (codes, None) or (None, the bad code)."""
    try:
        return parse_card_text(text), None
    except CardCodeError as exc:
        return None, str(exc.text)
