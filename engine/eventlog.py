"""Reading and writing event logs as JSON Lines, never giving up on a bad line.

Like a forgiving PGN reader: every line becomes a :class:`LogLine` holding either an
event or the error that line has (with its 1-based line number in the file), and the
rest of the log is still read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from .events import AnyEvent, EventError, event_from_json


@dataclass(frozen=True)
class LogLine:
    """One non-blank line of a log: index ``i`` (0-based, blank lines not counted)."""

    i: int
    lineno: int
    event: AnyEvent | None
    error: EventError | None = None
    raw: str = ""


def parse_line(i: int, lineno: int, text: str) -> LogLine:
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        msg = getattr(exc, "msg", "too deeply nested")
        return LogLine(i, lineno, None, EventError("log.bad_json", f"line {lineno}: not JSON ({msg})", detail=msg), text)
    try:
        return LogLine(i, lineno, event_from_json(obj), None, text)
    except EventError as exc:
        exc.args = (f"line {lineno}: {exc.args[0]}",)
        return LogLine(i, lineno, None, exc, text)


def read_lines(lines: Iterable[str]) -> Iterator[LogLine]:
    """Parse JSON Lines text (any iterable of lines, e.g. an open file)."""
    i = 0
    for lineno, text in enumerate(lines, start=1):
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        if not text.strip():
            continue
        yield parse_line(i, lineno, text.strip())
        i += 1


def read_log(path: str) -> list[LogLine]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        return list(read_lines(fh))


def dump_event(event: AnyEvent) -> str:
    return json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":"))


def write_events(events: Iterable[AnyEvent], fh: IO[str]) -> None:
    for event in events:
        fh.write(dump_event(event) + "\n")
