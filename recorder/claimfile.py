"""A table's claim as an OS file lock beside a file (a SQLite store, a spool's outbox).

The lock file is ``<path>-tables/<digest of the table id>.lock``; it holds who took it
("process N, since ...") while it is held.  The lock ends with its process, so a crashed
writer never keeps a table.
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no file claims
    fcntl = None  # type: ignore[assignment]

#: Whether this system has file locks (POSIX); without them a claim always succeeds.
SUPPORTED = fcntl is not None


def take(beside: str | Path, table_id: str) -> tuple[int | None, str | None]:
    """Take the claim of ``table_id``: ``(descriptor, None)`` when taken, ``(None, holder)``
    when another holds it, ``(None, None)`` where the system has no file locks."""
    if fcntl is None:
        return None, None
    folder = Path(f"{beside}-tables")
    folder.mkdir(exist_ok=True)
    name = hashlib.sha256(table_id.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    fd = os.open(folder / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
        os.close(fd)
        return None, holder or "another process"
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"process {os.getpid()}, since {datetime.now(UTC).isoformat(timespec='seconds')[:19]}".encode(), 0)
    return fd, None


def release(fd: int | None) -> None:
    """Give a claim back (closing the descriptor releases its lock)."""
    if fd is not None:
        os.ftruncate(fd, 0)
        os.close(fd)
