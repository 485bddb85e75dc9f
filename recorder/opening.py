"""Opening a store ready to use: created or migrated, and its stale verdicts rebuilt.

The store module knows the schema but not the judge; this module joins the two, so that
:mod:`.store` imports neither :mod:`.migrations` nor :mod:`.recorder`.
"""

from __future__ import annotations

from .migrations import MIGRATIONS
from .recorder import rejudge_table
from .store import EventStore, connect_store


def open_store(url_or_path: str | None = None, *, sync: str | None = None, rebuild: bool = True) -> EventStore:
    """Open (creating or migrating) the store at a path or URL; ``None`` uses the default
    (see :func:`.store.connect_store` for the forms).  The tables a migration rebuilt are
    re-judged from their logs (``rebuild=False`` leaves their verdicts stale)."""
    store, stale = connect_store(url_or_path, sync=sync, migrations=MIGRATIONS)
    try:
        if rebuild:
            for table_id in stale:
                rejudge_table(store, table_id)
    except BaseException:
        store.close()
        raise
    return store
