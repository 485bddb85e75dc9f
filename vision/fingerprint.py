"""A short digest of the files something was made from, to key caches of derived data."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def files_digest(paths: Iterable[Path], *extra: str, length: int = 12) -> str:
    """Hex digest of ``extra`` strings and each file's resolved path, size and modification
    time: a regenerated file, or another folder's files, give another digest."""
    h = hashlib.sha1()
    for s in extra:
        h.update(f"{s}\n".encode())
    for p in paths:
        st = p.stat()
        h.update(f"{p.resolve()}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:length]
