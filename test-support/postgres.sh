#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store tests, on a loopback port, in a directory of its own.
#
#   export DOCMILL_TEST_PG_URL="$(bash test-support/postgres.sh start)"   # prints the connection URL
#   bash test-support/postgres.sh stop
#
# Installs Debian's postgresql package when it is missing and this runs as root with apt-get; otherwise it
# fails with a message and the tests that need PostgreSQL skip, saying why.
set -euo pipefail

cmd="${1:-start}"
dir="${DOCMILL_PG_DIR:-${TMPDIR:-/tmp}/docmill-pg}"
port="${DOCMILL_PG_PORT:-55432}"
db="docmill_test"

say() { printf 'postgres.sh: %s\n' "$*" >&2; }

pg_bin() {
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  [ -n "$d" ] && [ -x "$d/initdb" ] && printf '%s\n' "$d"
}

# initdb and postgres refuse to run as root: run them as the package's "postgres" user then.
as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    bin="$(pg_bin || true)"
    if [ -z "$bin" ]; then
      if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        say "installing Debian's postgresql package"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        apt-get install -y -qq postgresql >&2
        bin="$(pg_bin || true)"
      fi
      [ -n "$bin" ] || { say "PostgreSQL is not installed and cannot be installed here"; exit 1; }
    fi
    if [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      printf 'postgres://docmill@127.0.0.1:%s/%s\n' "$port" "$db"
      exit 0
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    [ "$(id -u)" = "0" ] && chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U docmill --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >&2 \
      || { cat "$dir/server.log" >&2; exit 1; }
    "$bin/createdb" -h 127.0.0.1 -p "$port" -U docmill "$db"
    printf 'postgres://docmill@127.0.0.1:%s/%s\n' "$port" "$db"
    ;;
  stop)
    bin="$(pg_bin || true)"
    if [ -n "$bin" ] && [ -d "$dir/data" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    say "usage: postgres.sh start|stop"
    exit 2
    ;;
esac
