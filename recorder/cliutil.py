"""Small helpers shared by the recorder's ``cardref`` subcommands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from .paths import ENV_DB, default_db
from .store import EventStore, StoreError, open_store


def add_db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None,
                   help=f"store: a SQLite file or postgresql://user:pw@host/db (default ${ENV_DB} or {default_db()})")


@contextmanager
def opened(args: argparse.Namespace) -> Iterator[EventStore]:
    try:
        store = open_store(getattr(args, "db", None))
    except StoreError as exc:
        raise CommandError(str(exc)) from exc
    try:
        yield store
    finally:
        store.close()


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
