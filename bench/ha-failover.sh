#!/usr/bin/env bash
# The failover runs of issue 48: two TimeService instances on the highly available PostgreSQL of bench/ha-cluster.sh
# (pgbouncer in transaction mode for the pool, the three nodes as a multi-host direct URL with
# targetServerType=primary for LISTEN and Flyway), under the steady mix of bench/ha-failover.py; ROUNDS rounds of
# kill -9 of the primary's postmaster, then ROUNDS rounds of a planned switchover. Each round waits for the cluster to
# be whole again (three nodes, a synchronous standby) first, uses clocks of its own, and ends with the comparison of
# the client's log of 2xx answers with the database (ha-failover.py). RESULT and ROUND lines per round, FAIL lines
# for anything lost. Everything on 127.0.0.1; the instances are stopped by pid, the cluster by ha-cluster.sh stop
# (KEEP_CLUSTER=1 keeps it). Needs: the jar (built when missing), python3, psql, curl, and what ha-cluster.sh needs.
# POOL=pgbouncer (default): the pool goes through pgbouncer; POOL=multihost: the pool connects to the nodes itself,
# the same multi-host URL with targetServerType=primary (no direct-url then).
# Usage: bench/ha-failover.sh [rounds]     (EVENTS="kill switchover", POOL=pgbouncer, HA_PORT=15432, PORTS="18081 18082")
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
events=${EVENTS:-kill switchover}
base=${HA_PORT:-15432}
ports=(${PORTS:-18081 18082})
logs=target/ha-failover
mkdir -p "$logs"
rm -f "$logs/results.txt"   # this run's rounds only: the summary at the end reads it
jar=$(ls target/timeservice-*.jar 2>/dev/null | grep -v '\.original$' | head -n 1 || true)
if [ -z "$jar" ]; then
  ./mvnw -B -ntp -q -DskipTests package
  jar=$(ls target/timeservice-*.jar | grep -v '\.original$' | head -n 1)
fi

pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  [ "${KEEP_CLUSTER:-0}" = 1 ] || bench/ha-cluster.sh stop
}
trap cleanup EXIT

bench/ha-cluster.sh start
nodes="127.0.0.1:$((base + 1)),127.0.0.1:$((base + 2)),127.0.0.1:$((base + 3))"
multihost="jdbc:postgresql://$nodes/timeservice?targetServerType=primary&connectTimeout=2"
if [ "${POOL:-pgbouncer}" = multihost ]; then
  pool=(--spring.datasource.url="$multihost")
else
  pool=(--spring.datasource.url="jdbc:postgresql://127.0.0.1:$base/timeservice?prepareThreshold=0&connectTimeout=2"
        --timeservice.postgresql.direct-url="$multihost")
fi
for port in "${ports[@]}"; do
  java -Xmx384m -jar "$jar" --server.port="$port" --timeservice.store=postgresql "${pool[@]}" \
    --spring.datasource.username=postgres \
    --timeservice.postgresql.acked-retention=1h --timeservice.push.allow-private-targets=true \
    >"$logs/instance-$port.log" 2>&1 &
  pids+=($!)
done
for port in "${ports[@]}"; do
  for i in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/actuator/health/readiness")" = 200 ] && break
    [ "$i" -lt 240 ] || { echo "ha-failover: instance $port not ready in 120 s (see $logs/instance-$port.log)" >&2; exit 1; }
    sleep 0.5
  done
done
export BASES="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}" HA_PORT="$base"
status=0
for event in $events; do
  for round in $(seq 1 "$rounds"); do
    bench/ha-cluster.sh ready
    python3 bench/ha-failover.py "$event" "$round" | sed "s/^RESULT /RESULT pool=${POOL:-pgbouncer} /" \
      | tee -a "$logs/results.txt" || status=1
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null || { echo "FAIL: instance $pid exited (see $logs)" | tee -a "$logs/results.txt"; status=1; }
    done
  done
done
python3 bench/ha-summary.py "$logs/results.txt"
echo "LOAD $(cut -d' ' -f1-3 /proc/loadavg) cores $(nproc)"
exit $status
