#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on 127.0.0.1 for the journal's tests and prints its URL
# (RUNVIL_TEST_PG_URL). Idempotent: installs Debian's postgresql package only when no initdb is
# found, and reuses a cluster this script already started. Usage:
#   export RUNVIL_TEST_PG_URL="$(bash scripts/test-postgres.sh)"
set -euo pipefail
port="${RUNVIL_TEST_PG_PORT:-54329}"
data="${RUNVIL_TEST_PG_DIR:-/tmp/runvil-test-pg}"
url="postgres://runvil@127.0.0.1:${port}/runvil_test"

find_bin() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$found" ] && [ -x "$found/initdb" ]; then echo "$found"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
}

bin=$(find_bin)
if [ -z "$bin" ]; then
  echo "test-postgres: installing Debian's postgresql package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  bin=$(find_bin)
fi
if [ -z "$bin" ]; then
  echo "test-postgres: no initdb after installing postgresql" >&2
  exit 1
fi

# The server refuses to run as root: as root, run it as the postgres user.
as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
  echo "$url"
  exit 0
fi

rm -rf "$data"
mkdir -p "$data"
if [ "$(id -u)" = "0" ]; then chown postgres "$data"; fi
as_owner "$bin/initdb" -D "$data/cluster" -A trust -U runvil -E UTF8 >"$data/initdb.log" 2>&1 \
  || { cat "$data/initdb.log" >&2; exit 1; }
as_owner "$bin/pg_ctl" -D "$data/cluster" -l "$data/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $data -c fsync=off" start >&2 \
  || { cat "$data/server.log" >&2; exit 1; }
as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U runvil runvil_test >&2
echo "$url"
