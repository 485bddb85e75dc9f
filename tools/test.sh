#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: sets up (tools/setup.sh --test), starts a
# local PostgreSQL server for the store tests, then runs pytest.  Any failure, and
# pytest's "no tests collected" (exit 5), exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh --test
if [ -z "${CARDREF_TEST_PG:-}" ] && [ -x tools/ci_postgres.sh ]; then
  eval "$(tools/ci_postgres.sh)"
fi
export YOLO_OFFLINE=1
exec .venv/bin/python -m pytest "$@"
