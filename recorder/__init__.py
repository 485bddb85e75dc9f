"""The recorder: a store that loses nothing, corrections with an audit trail, many tables.

``open_store(url_or_path)`` opens the SQLite (default) or PostgreSQL store;
:class:`Recorder` stores and judges live lines; :mod:`.exchange` exports and imports
logs; :mod:`.report` writes match reports; :mod:`.tournament` runs tournaments.
"""

from .opening import open_store
from .recorder import LockedError, NotFound, Recorded, Recorder, rejudge_table, table_rows
from .store import Appended, EventStore, StoredEvent, StoreDisconnected, StoreError, TableBusy

__all__ = ["Appended", "EventStore", "LockedError", "NotFound", "Recorded", "Recorder", "StoreDisconnected",
           "StoreError", "StoredEvent", "TableBusy", "open_store", "rejudge_table", "table_rows"]
