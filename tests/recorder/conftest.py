"""Store fixtures: every store test runs against SQLite and against a real PostgreSQL.

PostgreSQL comes from ``$CARDREF_TEST_PG`` (``tools/ci_postgres.sh`` starts one and prints
the export line).  Without it the PostgreSQL half FAILS, unless ``CARDREF_NO_PG=1`` opts
out explicitly (for a laptop without a server; CI never sets it).  Each test gets its own
PostgreSQL schema, dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from cardref.recorder import EventStore, open_store

PG_URL = os.environ.get("CARDREF_TEST_PG", "")
NO_PG = os.environ.get("CARDREF_NO_PG") == "1"


def pg_or_fail() -> str:
    if PG_URL:
        return PG_URL
    if NO_PG:
        pytest.skip("CARDREF_NO_PG=1: PostgreSQL tests opted out explicitly")
    pytest.fail("CARDREF_TEST_PG is not set: run `eval \"$(tools/ci_postgres.sh | tail -n 1)\"` "
                "(or set CARDREF_NO_PG=1 to opt out on a machine without PostgreSQL)")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema of this test."""
    base = pg_or_fail()
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options={quote(f'-csearch_path={name}')}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{name}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path) -> str:  # type: ignore[no-untyped-def]
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(store_url: str) -> Iterator[EventStore]:
    s = open_store(store_url)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def never_the_users_store(tmp_path, monkeypatch) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """A command that forgot --db would write the default store: point it at a file that
    must stay absent (``pytestmark = pytest.mark.usefixtures("never_the_users_store")``)."""
    monkeypatch.setenv("CARDREF_DB", str(tmp_path / "default-store-never-used.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    yield
    assert not (tmp_path / "default-store-never-used.db").exists()
