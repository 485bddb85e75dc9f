"""The one JSON Lines writer of event logs, and what a log already holds when it is continued.

:class:`JsonlWriter` appends one line per event and flushes and fsyncs it before
returning, so a crash (even ``kill -9`` or a power cut after the call) loses at most the
event being written.  ``cardref watch``, the dashboard's JSONL sink and the bench write
through it.

:func:`read_tail` reads an existing log before it is continued (``--append``): how many
lines the judge counts in it, the last ``t`` it logged (where a resumed video goes on)
and whether its end is broken.  A log whose last line has no final newline gets one
before anything is appended (the new event is never glued onto it); a last line that is
a torn piece of JSON (a crash while writing) is kept as it is, and the writer starts on
the next line and says so once (:attr:`LogTail.torn`).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from cardref.engine.eventlog import dump_event
from cardref.engine.events import AnyEvent


class LogFileError(RuntimeError):
    """A log that cannot be read or written; ``code`` is stable, the message names the file."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


@dataclass(frozen=True)
class LogTail:
    """What an existing log holds, read before it is continued."""

    path: str
    lines: list[str] = field(default_factory=list)  # its non-blank lines, as the judge counts them
    last_t: float | None = None  # the largest ``t`` of its events (None: no event has one)
    has_deal: bool = False
    needs_newline: bool = False  # the file does not end with a newline
    torn: int | None = None  # 1-based number of a last line that is not a whole JSON object

    @property
    def count(self) -> int:
        return len(self.lines)


def read_tail(path: str | Path) -> LogTail:
    """The state of the log at ``path`` (an empty :class:`LogTail` when it does not exist);
    raises :class:`LogFileError` when it cannot be read as UTF-8 text."""
    p = Path(path)
    if not p.exists():
        return LogTail(str(p))
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise LogFileError("log.unreadable", f"cannot read {p}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogFileError("log.not_utf8", f"{p} is not UTF-8 text (byte {exc.start}); it is not an event log "
                                           "this program can continue: give another --out") from None
    lines = [line for line in text.splitlines() if line.strip()]
    last_t: float | None = None
    has_deal = False
    torn = None
    for k, line in enumerate(lines):
        try:
            obj: Any = json.loads(line)
        except ValueError:
            if k == len(lines) - 1:
                torn = k + 1
            continue
        if not isinstance(obj, dict):
            continue
        has_deal = has_deal or obj.get("type") == "deal"
        t = obj.get("t")
        if isinstance(t, int | float) and not isinstance(t, bool) and math.isfinite(t):
            last_t = float(t) if last_t is None else max(last_t, float(t))
    needs_newline = bool(raw) and not raw.endswith(b"\n")
    return LogTail(str(p), lines, last_t, has_deal, needs_newline, torn)


class JsonlWriter:
    """Appends events (or already-made JSON lines) to a file, one line each, flushed and
    fsynced per line; :attr:`count` is the 0-based index the next line will have for the
    judge (blank lines are not counted).

    ``tail``: the state of the file being continued (:func:`read_tail`); its lines are
    counted, and a missing final newline is written first."""

    def __init__(self, path: str | Path, *, append: bool = True, tail: LogTail | None = None,
                 fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.fh: IO[str] = open(self.path, "a" if append else "w", encoding="utf-8")
        except OSError as exc:
            raise LogFileError("log.cannot_write", f"cannot write {self.path}: {exc.strerror or exc}") from None
        self.count = tail.count if (append and tail is not None) else 0
        if append and tail is not None and tail.needs_newline:
            self._put("\n")

    def _put(self, text: str) -> None:
        self.fh.write(text)
        self.fh.flush()
        if self.fsync:
            try:
                os.fsync(self.fh.fileno())
            except (OSError, ValueError):  # a pipe or a file system without fsync: flushed is what we can do
                pass

    def write_line(self, text: str) -> int:
        """Append one JSON line (the dashboard's ``LogSink`` call); returns its index."""
        text = text.rstrip("\n")
        if "\n" in text:
            raise ValueError("an event log line cannot hold a newline")
        self._put(text + "\n")
        i = self.count
        if text.strip():
            self.count += 1
        return i

    def write(self, event: AnyEvent) -> tuple[int, str]:
        """Append ``event``; returns (its line index, its text)."""
        text = dump_event(event)
        return self.write_line(text), text

    def close(self) -> None:
        self.fh.close()

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class JsonlSink:
    """The dashboard's ``LogSink`` onto a JSON Lines file: the same writer (fsync per line),
    opened on each line so that the file may be moved or read between events."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def write_line(self, text: str) -> None:
        with JsonlWriter(self.path, append=True, tail=_newline_only(self.path)) as w:
            w.write_line(text)


def _newline_only(path: Path) -> LogTail | None:
    """A tail that says only whether ``path`` lacks its final newline (cheap: one byte)."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            if fh.tell() == 0:
                return None
            fh.seek(-1, os.SEEK_END)
            last = fh.read(1)
    except OSError:
        return None
    return LogTail(str(path), needs_newline=last != b"\n")
