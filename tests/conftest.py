"""The whole suite runs in a sandbox: no test reads or writes the user's own data, cache or
configuration.

Before any test module is imported, ``XDG_DATA_HOME`` (the default store,
``$XDG_DATA_HOME/cardref/cardref.db``), ``XDG_CACHE_HOME`` (the INT8 check's verdicts) and
``XDG_CONFIG_HOME`` point into one temporary folder of this run, and the ``CARDREF_*``
variables that name a user's store, dashboard configuration or PIN are removed (a test that
needs one sets its own).  The test-infrastructure variables (``CARDREF_TEST_PG``,
``CARDREF_NO_PG``, ``CARDREF_TEST_ARTIFACTS``, ``CARDREF_REAL_CARDS``) are kept.

At the end of the run the user's real default store folder is compared with what it was at
the start and any change is reported (it may come from another program using the store while
the tests ran, so it is a report, not a failure); tests/test_suite_isolation.py checks that
the store and cache paths the code resolves lie in the sandbox.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

#: The user's variables a test must never inherit: the store, its tuning, the dashboard's
#: configuration and the director PIN.
USER_VARIABLES = ("CARDREF_DB", "CARDREF_DB_SYNC", "CARDREF_DB_RECONNECT_S", "CARDREF_DB_CONNECT_TIMEOUT",
                  "CARDREF_UI_CONFIG", "CARDREF_PIN", "CARDREF_INT8")
XDG_VARIABLES = ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")


def _real_store_dir() -> Path:
    """The user's own store folder, as recorder/paths.py finds it before the sandbox."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "cardref"


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    if not folder.is_dir():
        return {}
    out = {}
    for p in folder.rglob("*"):
        try:
            st = p.stat()
        except OSError:
            continue
        out[str(p)] = (st.st_mtime_ns, st.st_size)
    return out


REAL_STORE_DIR = _real_store_dir()
_BEFORE = _snapshot(REAL_STORE_DIR)
SANDBOX = Path(tempfile.mkdtemp(prefix="cardref-tests-"))
for _name in XDG_VARIABLES:
    (SANDBOX / _name.lower()).mkdir()
    os.environ[_name] = str(SANDBOX / _name.lower())
for _name in USER_VARIABLES:
    os.environ.pop(_name, None)


@pytest.fixture(scope="session")
def sandbox() -> Path:
    """The run's temporary home of the XDG folders."""
    return SANDBOX


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    after = _snapshot(REAL_STORE_DIR)
    touched = sorted(p for p in set(after) | set(_BEFORE) if after.get(p) != _BEFORE.get(p))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if touched and reporter is not None:
        reporter.write_line(f"note: the user's real store folder {REAL_STORE_DIR} changed while the tests ran "
                            "(the tests' own store lies in the sandbox; another program may have written it): "
                            + ", ".join(touched[:5]) + (f" and {len(touched) - 5} more" if len(touched) > 5 else ""),
                            yellow=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(SANDBOX, ignore_errors=True)
