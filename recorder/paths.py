"""Where the store lives: ``--db`` beats ``$CARDREF_DB`` beats the user's data folder."""

from __future__ import annotations

import os
from pathlib import Path

ENV_DB = "CARDREF_DB"


def data_dir() -> Path:
    """``$XDG_DATA_HOME/cardref`` or ``~/.local/share/cardref``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "cardref"


def default_db() -> str:
    return str(data_dir() / "cardref.db")


def resolve_db(arg: str | None = None) -> str:
    """The store to open: an explicit argument, else ``$CARDREF_DB``, else the default file."""
    if arg:
        return arg
    env = os.environ.get(ENV_DB)
    return env if env else default_db()


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://"))
