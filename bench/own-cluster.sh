#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster of the benchmarks' own, for what the machine's shared server cannot show (it runs
# with autovacuum = off): `start` makes it with Debian's initdb under ${TMPDIR:-/tmp} and runs it on 127.0.0.1:PORT
# (default 5433), trust auth, with a database `test`; `stop` stops it and removes its data directory.
# autovacuum is on at the server's defaults; the settings that shape the figures are the shared server's
# (shared_buffers 128MB, max_connections 100, synchronous_commit and fsync on, max_wal_size 1GB). EXTRA_CONF, lines
# of postgresql.conf, is added last (e.g. EXTRA_CONF="autovacuum = off" to compare). As root, the cluster runs as the
# user postgres (initdb refuses root). Installs postgresql-15 if its binaries are missing.
# Usage: bench/own-cluster.sh start|stop   (PORT=5433 EXTRA_CONF=)
set -euo pipefail
port=${PORT:-5433}
bin=/usr/lib/postgresql/15/bin
data="${TMPDIR:-/tmp}/timeservice-pg-$port"
as=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  as=(runuser -u postgres --)
fi
case "${1:-}" in
  start)
    if [ ! -x "$bin/initdb" ]; then
      echo "own-cluster: $bin/initdb is missing, installing Debian package postgresql-15" >&2
      sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
      $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql-15 >/dev/null
      [ -x "$bin/initdb" ] || { echo "own-cluster: could not install postgresql-15" >&2; exit 1; }
    fi
    if [ -d "$data" ]; then "${as[@]}" "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$data"; fi
    mkdir -p "$data"
    [ ${#as[@]} = 0 ] || chown postgres "$data"
    "${as[@]}" "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    cat >> "$data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$data'
max_connections = 100
shared_buffers = 128MB
synchronous_commit = on
fsync = on
max_wal_size = 1GB
min_wal_size = 80MB
autovacuum = on
log_autovacuum_min_duration = 0
${EXTRA_CONF:-}
EOF
    "${as[@]}" "$bin/pg_ctl" -D "$data" -l "$data/log" -w -t 60 start >/dev/null
    psql -h 127.0.0.1 -p "$port" -U postgres -qAtc "CREATE DATABASE test" postgres
    echo "own-cluster: PostgreSQL on 127.0.0.1:$port, data $data, log $data/log" >&2
    ;;
  stop)
    [ -d "$data" ] || exit 0
    "${as[@]}" "$bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$data"
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
