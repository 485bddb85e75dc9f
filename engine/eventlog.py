"""Reading and writing event logs as JSON Lines, never giving up on a bad line.

Like a forgiving PGN reader: every line becomes a :class:`LogLine` holding either an
event or the error that line has (with its 1-based line number in the file), and the
rest of the log is still read.

The JSON of a line is read strictly (:func:`loads_line`): a leading UTF-8 byte-order mark
is stripped; ``NaN``, ``Infinity``, ``-Infinity``, a number too large for a float
(``1e999``) and an integer longer than Python converts (4,300 digits) are
``log.bad_number``; a key given twice in one object is ``log.duplicate_key``.  Each is an
error of its own line only.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from .events import AnyEvent, EventError, event_from_json
from .messages import register

BOM = "\ufeff"

register({
    "log.bad_number": {"zh": "第 {lineno} 行：数值 {number} 无效（只接受有限的数，整数最多 4300 位）",
                       "en": "line {lineno}: the number {number} is not allowed (finite numbers only, integers of "
                             "at most 4,300 digits)"},
    "log.duplicate_key": {"zh": "第 {lineno} 行：同一个对象里字段 {key!r} 出现了两次",
                          "en": "line {lineno}: key {key!r} appears twice in one object"},
})


@dataclass(frozen=True)
class LogLine:
    """One non-blank line of a log: index ``i`` (0-based, blank lines not counted)."""

    i: int
    lineno: int
    event: AnyEvent | None
    error: EventError | None = None
    raw: str = ""


class _Rejected(ValueError):
    def __init__(self, code: str, message: str, **facts: Any) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise _Rejected("log.duplicate_key", f"key {key!r} appears twice in one object", key=key)
    return obj


def _constant(name: str) -> float:
    raise _Rejected("log.bad_number", f"{name} is not a number a log may hold (finite numbers only)", number=name)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Rejected("log.bad_number", f"{text[:40]} is too large for a number (finite numbers only)",
                        number=text[:40])
    return value


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_constant=_constant, parse_float=_float)


def loads_line(text: str) -> Any:
    """The JSON value of one log line, read strictly; raises :class:`EventError` with code
    ``log.bad_json``, ``log.bad_number`` or ``log.duplicate_key`` (messages without a
    line number: the caller knows it)."""
    try:
        return _DECODER.decode(text.lstrip(BOM))
    except _Rejected as exc:
        raise EventError(exc.code, str(exc), **exc.facts) from None
    except json.JSONDecodeError as exc:
        raise EventError("log.bad_json", f"not JSON ({exc.msg})", detail=exc.msg) from None
    except RecursionError:
        raise EventError("log.bad_json", "not JSON (too deeply nested)", detail="too deeply nested") from None
    except ValueError:  # an integer beyond Python's int-string limit (4,300 digits)
        run = max(re.findall(r"\d+", text), key=len, default="")
        shown = f"{run[:6]}…{run[-3:]}" if len(run) > 12 else run
        raise EventError("log.bad_number", f"an integer of {len(run)} digits is too long to read "
                         f"(4,300 digits at most)", number=shown) from None


def parse_line(i: int, lineno: int, text: str) -> LogLine:
    text = text.lstrip(BOM)
    try:
        obj = loads_line(text)
        return LogLine(i, lineno, event_from_json(obj), None, text)
    except EventError as exc:
        exc.args = (f"line {lineno}: {exc.args[0]}",)
        return LogLine(i, lineno, None, exc, text)


def read_lines(lines: Iterable[str]) -> Iterator[LogLine]:
    """Parse JSON Lines text (any iterable of lines, e.g. an open file); a byte-order mark
    before a line is not part of it."""
    i = 0
    for lineno, text in enumerate(lines, start=1):
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        text = text.strip().lstrip(BOM).strip()
        if not text:
            continue
        yield parse_line(i, lineno, text)
        i += 1


def read_log(path: str) -> list[LogLine]:
    """Every line of a log file (undecodable bytes replaced, so a bad line is one error)."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        return list(read_lines(fh))


class LogFileError(OSError):
    """A file that must be an event log but cannot be read as one (missing, unreadable,
    not UTF-8 text); the message names the file and what to do."""


def text_lines(path: str) -> list[str]:
    """The lines of a file that must be an event log as a whole (a ``--header``): strict
    UTF-8 (a byte-order mark allowed), no NUL bytes.  Raises :class:`LogFileError`."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise LogFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogFileError(f"{path} is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x}): give an event "
                           f"log (JSON Lines, UTF-8), or save this one as UTF-8") from None
    if "\x00" in text:
        raise LogFileError(f"{path} is a binary file (a NUL byte at {text.index(chr(0))}), not an event log: "
                           f"give a JSON Lines log (UTF-8)")
    return text.removeprefix(BOM).splitlines(keepends=True)


def dump_event(event: AnyEvent) -> str:
    return json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":"))


def write_events(events: Iterable[AnyEvent], fh: IO[str]) -> None:
    for event in events:
        fh.write(dump_event(event) + "\n")
