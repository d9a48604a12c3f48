#!/usr/bin/env bash
# A local highly available PostgreSQL 15 (issue 48), for bench/ha-failover.sh and by hand: three nodes managed by
# Patroni with one etcd as its store, synchronous replication (synchronous_mode, one synchronous standby,
# synchronous_commit = on: a commit is acknowledged once it is on two nodes), and pgbouncer in transaction mode in
# front, following the primary (Patroni's role-change callback rewrites its [databases] and reloads it).
# Everything listens on 127.0.0.1 only; data and logs under target/ha; `stop` stops everything `start` started, by
# the pids it wrote, and waits (bounded) for it to be gone.
#
# Why Patroni and not pg_auto_failover: Patroni is the manager most production setups and the operators built on it
# (Zalando's, Crunchy's PGO, Spilo) run, its REST API says which node is the primary (what a load balancer or
# pgbouncer callback needs), and its synchronous_mode keeps the guarantee this issue asks for (an acknowledged commit
# is on a standby that may be promoted) while dropping to asynchronous only when no standby is left. pg_auto_failover
# needs a monitor node of its own (a fourth PostgreSQL, itself a single point of failure unless replicated) and is
# mostly run by Citus users; both are in Debian.
#
# Usage: bench/ha-cluster.sh start|stop|status|ready|primary|switchover
#   start       bootstraps (or restarts) the cluster, creates the database `timeservice`, waits for a primary and a
#               synchronous standby (at most 120 s)
#   status      the nodes and their roles (patronictl list)
#   ready       waits (at most 120 s) until all three nodes run and a synchronous standby streams
#   primary     prints the primary's port
#   switchover  a planned switchover to a synchronous standby (patronictl switchover)
# Environment: HA_PORT (default 15432: nodes on HA_PORT+1..3, pgbouncer on HA_PORT, Patroni's REST API on
# HA_PORT+2577.., etcd on HA_PORT-3053/-3052), HA_DIR (default target/ha).
# Service settings: spring.datasource.url=jdbc:postgresql://127.0.0.1:$HA_PORT/timeservice?prepareThreshold=0 and
# timeservice.postgresql.direct-url=jdbc:postgresql://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/timeservice?targetServerType=primary
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/need.sh

base=${HA_PORT:-15432}
dir=$(mkdir -p "${HA_DIR:-target/ha}" && cd "${HA_DIR:-target/ha}" && pwd)
bin=/usr/lib/postgresql/15/bin
etcd_client=$((base - 3053)); etcd_peer=$((base - 3052))
nodes=(1 2 3)
node_port() { echo $((base + $1)); }
rest_port() { echo $((base + 2577 + $1)); }
as=()
if [ "$(id -u)" = 0 ]; then
  # PostgreSQL, Patroni and pgbouncer refuse root. setpriv executes in place (no child), so $! is the server's pid.
  as=(setpriv --reuid=postgres --regid=postgres --init-groups env HOME=/var/lib/postgresql)
fi

log() { echo "ha-cluster: $*" >&2; }

# Waits up to $1 seconds for the command after it to succeed; fails naming $2.
wait_for() {
  local seconds=$1 what=$2; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || { log "gave up waiting ${seconds}s for $what (logs: $dir/*.log, $dir/node*/patroni.log)"; return 1; }
    sleep 0.3
  done
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# The port of the node whose Patroni says it is the primary (GET /primary answers 200 there only).
primary_port() {
  local n
  for n in "${nodes[@]}"; do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$(rest_port "$n")/primary")" = 200 ]; then
      node_port "$n"; return 0
    fi
  done
  return 1
}

# A primary with a synchronous standby streaming: what an acknowledged commit needs.
has_sync_standby() {
  local port; port=$(primary_port) || return 1
  [ "$(psql -h 127.0.0.1 -p "$port" -U postgres -qAtc "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync' AND state = 'streaming'" postgres)" -ge 1 ]
}

write_configs() {
  mkdir -p "$dir"
  local n
  for n in "${nodes[@]}"; do
    mkdir -p "$dir/node$n"
    # Patroni's callback (on_start, on_role_change; arguments: action role scope). On the node that became the
    # primary, points pgbouncer's databases at it and reloads pgbouncer (SIGHUP, by the pid it wrote).
    cat > "$dir/node$n/on_role_change.sh" <<EOF
#!/bin/sh
case "\$2" in master|primary) ;; *) exit 0 ;; esac
printf '[databases]\\ntimeservice = host=127.0.0.1 port=$(node_port "$n") dbname=timeservice user=postgres\\npostgres = host=127.0.0.1 port=$(node_port "$n") dbname=postgres user=postgres\\n' > "$dir/pgbouncer-databases.ini.new"
mv "$dir/pgbouncer-databases.ini.new" "$dir/pgbouncer-databases.ini"
[ -f "$dir/pgbouncer.pid" ] && kill -HUP "\$(cat "$dir/pgbouncer.pid")" 2>/dev/null
exit 0
EOF
    chmod 755 "$dir/node$n/on_role_change.sh"
  done
  for n in "${nodes[@]}"; do
    cat > "$dir/node$n/patroni.yml" <<EOF
scope: timeservice-ha
name: node$n
restapi:
  listen: 127.0.0.1:$(rest_port "$n")
  connect_address: 127.0.0.1:$(rest_port "$n")
etcd3:
  hosts: 127.0.0.1:$etcd_client
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    primary_start_timeout: 0
    master_start_timeout: 0
    synchronous_mode: true
    synchronous_node_count: 1
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        synchronous_commit: "on"
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 200
        shared_buffers: 64MB
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - data-checksums
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:$(node_port "$n")
  connect_address: 127.0.0.1:$(node_port "$n")
  data_dir: $dir/node$n/data
  bin_dir: $bin
  pgpass: $dir/node$n/pgpass
  authentication:
    replication: {username: replicator, password: replicator}
    superuser: {username: postgres, password: postgres}
  parameters:
    unix_socket_directories: $dir/node$n
  callbacks:
    on_start: $dir/node$n/on_role_change.sh
    on_role_change: $dir/node$n/on_role_change.sh
EOF
  done
  [ -f "$dir/pgbouncer-databases.ini" ] || "$dir/node1/on_role_change.sh" on_start master timeservice-ha
  # Transaction pooling; short waits, so that a call through it during a failover fails fast (the service answers
  # 503 storage_unavailable and the client retries) instead of queueing for the default 120 s.
  cat > "$dir/pgbouncer.ini" <<EOF
%include $dir/pgbouncer-databases.ini
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $base
unix_socket_dir =
auth_type = any
pool_mode = transaction
ignore_startup_parameters = extra_float_digits
max_client_conn = 500
default_pool_size = 40
server_reset_query =
server_connect_timeout = 2
server_login_retry = 1
query_wait_timeout = 5
pidfile = $dir/pgbouncer.pid
EOF
  [ ${#as[@]} = 0 ] || chown -R postgres "$dir"
}

start() {
  need curl curl
  need etcd etcd-server
  need patroni patroni
  need pgbouncer pgbouncer
  [ -x "$bin/initdb" ] || { log "$bin/initdb is missing: apt-get install postgresql-15"; exit 1; }
  write_configs
  if ! alive "$dir/etcd.pid"; then
    "${as[@]}" etcd --name ha --data-dir "$dir/etcd" \
      --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
      --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
      --initial-cluster "ha=http://127.0.0.1:$etcd_peer" >"$dir/etcd.log" 2>&1 &
    echo $! > "$dir/etcd.pid"
  fi
  wait_for 30 etcd curl -sf --max-time 1 "http://127.0.0.1:$etcd_client/health"
  local n
  for n in "${nodes[@]}"; do
    if ! alive "$dir/node$n/patroni.pid"; then
      "${as[@]}" patroni "$dir/node$n/patroni.yml" >"$dir/node$n/patroni.log" 2>&1 &
      echo $! > "$dir/node$n/patroni.pid"
    fi
  done
  wait_for 120 "a primary" primary_port
  local port; port=$(primary_port)
  psql -h 127.0.0.1 -p "$port" -U postgres -qAtc "SELECT 1 FROM pg_database WHERE datname = 'timeservice'" postgres | grep -q 1 \
    || psql -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE timeservice" postgres
  "${as[@]}" "$dir/node$((port - base))/on_role_change.sh" on_start master timeservice-ha   # pgbouncer: the primary
  if ! alive "$dir/pgbouncer.pid"; then
    rm -f "$dir/pgbouncer.pid"
    "${as[@]}" pgbouncer "$dir/pgbouncer.ini" >"$dir/pgbouncer.log" 2>&1 &
    wait_for 20 "pgbouncer's pid file" test -s "$dir/pgbouncer.pid"
  fi
  wait_for 20 "pgbouncer" psql -h 127.0.0.1 -p "$base" -U postgres -qAtc "SELECT 1" timeservice
  wait_for 120 "a synchronous standby" has_sync_standby
  status
  log "pgbouncer on 127.0.0.1:$base (transaction mode); nodes on $(node_port 1), $(node_port 2), $(node_port 3); database timeservice"
}

# Stops by pid: pgbouncer, each Patroni (which stops its PostgreSQL), etcd; then any postmaster left (a node whose
# Patroni was killed), by the pid in its postmaster.pid. Waits at most 60 s for each.
stop_pid() {
  local file=$1 what=$2
  alive "$file" || { rm -f "$file"; return 0; }
  local pid; pid=$(cat "$file")
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + 60))
  while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then log "$what ($pid) did not stop in 60 s: SIGKILL"; kill -KILL "$pid" 2>/dev/null || true; break; fi
    sleep 0.2
  done
  rm -f "$file"
}

stop() {
  stop_pid "$dir/pgbouncer.pid" pgbouncer
  local n
  for n in "${nodes[@]}"; do stop_pid "$dir/node$n/patroni.pid" "patroni node$n"; done
  for n in "${nodes[@]}"; do
    local pidfile="$dir/node$n/data/postmaster.pid"
    if [ -f "$pidfile" ]; then
      head -n 1 "$pidfile" > "$dir/node$n/postmaster.pid.copy"
      stop_pid "$dir/node$n/postmaster.pid.copy" "postmaster node$n"
    fi
  done
  stop_pid "$dir/etcd.pid" etcd
  log "stopped (data kept in $dir; rm -rf $dir for a fresh cluster)"
}

status() {
  patronictl -c "$dir/node1/patroni.yml" list 2>/dev/null || log "Patroni does not answer"
}

switchover() {
  local leader candidate
  leader=$(patronictl -c "$dir/node1/patroni.yml" list -f json | python3 -c 'import json,sys; print(next(m["Member"] for m in json.load(sys.stdin) if m["Role"] in ("Leader","Primary")))')
  candidate=$(patronictl -c "$dir/node1/patroni.yml" list -f json | python3 -c 'import json,sys; print(next(m["Member"] for m in json.load(sys.stdin) if m["Role"] == "Sync Standby"))')
  patronictl -c "$dir/node1/patroni.yml" switchover --leader "$leader" --candidate "$candidate" --force >/dev/null
  log "switchover $leader -> $candidate requested"
}

# Every node's PostgreSQL running (Patroni's GET /health answers 200) and a synchronous standby streaming: what a
# round of bench/ha-failover.sh starts from. Waits at most 120 s.
all_running() {
  local n
  for n in "${nodes[@]}"; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$(rest_port "$n")/health")" = 200 ] || return 1
  done
  has_sync_standby
}

case "${1:-}" in
  start) start ;;
  ready) wait_for 120 "all three nodes running with a synchronous standby" all_running ;;
  stop) stop ;;
  status) status ;;
  primary) primary_port ;;
  switchover) switchover ;;
  *) echo "usage: $0 start|stop|status|ready|primary|switchover" >&2; exit 2 ;;
esac
