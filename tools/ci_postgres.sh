#!/usr/bin/env bash
# Start a throw-away PostgreSQL server for the recorder's tests and benchmark.
#
# Installs PostgreSQL with apt when no server binaries are found, creates a cluster in
# $CARDREF_PG_DIR (default /tmp/cardref-pg) listening on 127.0.0.1:$CARDREF_PG_PORT
# (default 55432) only, creates the role `cardref` (password `cardref`) and the
# database `cardref_test`, and prints the line to export on the last line of stdout:
#
#   eval "$(tools/ci_postgres.sh | tail -n 1)"
#
# Safe to run again: an already running cluster is reused.  Stop it with
#   runuser -u postgres -- "$(dirname "$(command -v initdb)")/pg_ctl" -D /tmp/cardref-pg stop
set -euo pipefail

PGDIR="${CARDREF_PG_DIR:-/tmp/cardref-pg}"
PORT="${CARDREF_PG_PORT:-55432}"
DB="${CARDREF_PG_DB:-cardref_test}"
ROLE="cardref"
PASSWORD="cardref"

find_bin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
  return 1
}

BIN="$(find_bin || true)"
if [ -z "$BIN" ]; then
  echo "ci_postgres: installing postgresql with apt" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  BIN="$(find_bin)"
fi

# initdb and postgres refuse to run as root: run them as the postgres user when we are root.
as_pg() {
  if [ "$(id -u)" = "0" ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ ! -f "$PGDIR/PG_VERSION" ]; then
  mkdir -p "$PGDIR"
  if [ "$(id -u)" = "0" ]; then id postgres >/dev/null 2>&1 || useradd --system postgres; chown postgres "$PGDIR"; fi
  chmod 700 "$PGDIR"
  as_pg "$BIN/initdb" -D "$PGDIR" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >&2 || as_pg "$BIN/initdb" -D "$PGDIR" -U postgres \
        --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --no-locale >&2
fi

if ! as_pg "$BIN/pg_ctl" -D "$PGDIR" status >/dev/null 2>&1; then
  as_pg "$BIN/pg_ctl" -D "$PGDIR" -l "$PGDIR/server.log" -w -t 60 \
        -o "-p $PORT -k $PGDIR -c listen_addresses=127.0.0.1 -c max_connections=200" start >&2
fi

psql_pg() { as_pg "$BIN/psql" -v ON_ERROR_STOP=1 -h "$PGDIR" -p "$PORT" -U postgres -d postgres -qAt "$@"; }

if [ "$(psql_pg -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != "1" ]; then
  psql_pg -c "CREATE ROLE $ROLE LOGIN PASSWORD '$PASSWORD'" >&2
fi
if [ "$(psql_pg -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != "1" ]; then
  psql_pg -c "CREATE DATABASE $DB OWNER $ROLE" >&2
fi

echo "export CARDREF_TEST_PG=postgresql://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
