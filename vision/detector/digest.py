"""A model file's digest: what an INT8 copy is stamped with and a deck profile is tied to."""

from __future__ import annotations

import hashlib
from pathlib import Path


def file_digest(path: str | Path) -> str:
    """A short digest of the file's content (SHA-1, 16 hex digits)."""
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()[:16]
