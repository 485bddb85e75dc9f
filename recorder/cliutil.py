"""Small helpers shared by the recorder's ``cardref`` subcommands."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from .opening import open_store
from .paths import ENV_DB, default_db
from .store import EventStore, StoreError


def add_db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None,
                   help=f"store: a SQLite file or postgresql://user:pw@host/db (default ${ENV_DB} or {default_db()})")


@contextmanager
def opened(args: argparse.Namespace) -> Iterator[EventStore]:
    """The store of ``--db``, closed afterwards.  Every way a store fails (cannot be opened,
    not a store, damaged, busy) comes out as a :class:`CommandError` naming the store."""
    try:
        store = open_store(getattr(args, "db", None))
    except StoreError as exc:
        raise CommandError(str(exc)) from exc
    except sqlite3.Error as exc:  # pragma: no cover - open_store turns these into StoreError
        raise CommandError(f"cannot open the store {getattr(args, 'db', None)}: {exc}") from exc
    try:
        yield store
    except StoreError as exc:
        raise CommandError(str(exc)) from exc
    except (sqlite3.OperationalError, sqlite3.DatabaseError) as exc:
        if isinstance(exc, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError):
            raise  # a constraint or a bug, not the file: the command says what it means
        raise CommandError(damaged(store.url, exc)) from exc
    finally:
        store.close()


def damaged(where: str, exc: BaseException) -> str:
    """The sentence for a SQLite error met while using the store at ``where``."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return f"the store {where} is busy ({text}): another program holds it; try again when it has finished"
    return (f"the store {where} is damaged ({text}); nothing more was written to it: restore it from a backup, "
            f"or give another --db")


class CommandError(Exception):
    """A user error: printed on stderr, exit status 2."""


def fail(prog: str, exc: BaseException, out: TextIO | None = None) -> int:
    print(f"cardref {prog}: {exc}", file=out or sys.stderr)
    return 2


@contextmanager
def input_lines(path: str) -> Iterator[Iterator[str]]:
    """Lines of a file, or of standard input for ``-`` (undecodable bytes replaced)."""
    if path == "-":
        stdin = sys.stdin
        if hasattr(stdin, "reconfigure"):
            stdin.reconfigure(errors="replace")  # type: ignore[union-attr]
        yield iter(stdin)
        return
    try:
        fh = open(path, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from exc
    with fh:
        yield iter(fh)
