#!/usr/bin/env bash
# TimeService side by side with BullMQ on Redis, on this machine, over loopback only.
# Installs what is missing: redis-server, Node.js, npm and wrk (Debian, bench/need.sh) and bullmq + ioredis (npm,
# into a temporary folder).
# Redis runs on 127.0.0.1 with persistence off; TimeService runs with durability none (and, with
# TS_MODE=always, with the journal and fsync=always). For the HTTP stack's own ceiling, the add is also run against
# bench/stack-baseline (Spring MVC, nothing behind the endpoint; built here when missing) under the same client.
# Usage: bench/compare-bullmq.sh [count=50000] [inFlight=50]
#        bench/compare-bullmq.sh batch [seconds] [inFlight] [rounds] [size]   (batches: bench/compare-bullmq-batch.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = batch ]; then shift; exec bench/compare-bullmq-batch.sh "$@"; fi
count=${1:-50000}
inflight=${2:-50}
redis_port=${REDIS_PORT:-16379}
ts_port=${TS_PORT:-18091}
baseline_port=${BASELINE_PORT:-18093}
mode=${TS_MODE:-none}

. bench/need.sh
need redis-server redis-server; need redis-cli redis-tools; need node nodejs; need npm npm; need wrk wrk; need curl curl
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
(cd "$work" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund bullmq@6 ioredis >/dev/null)
cp bench/compare.js bench/targets.js "$work/"

redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
  > "$work/redis.log" 2>&1 &
jar=$(service_jar)
ts_args=(--server.port="$ts_port" --server.address=127.0.0.1 --logging.level.root=WARN --timeservice.demo.enabled=true)
if [ "$mode" = none ]; then ts_args+=(--timeservice.durability=none); else
  ts_args+=(--timeservice.durability=journal --timeservice.fsync="$mode" --timeservice.data-dir="$work/data"); fi
java ${JAVA_OPTS:--Xms1g -Xmx1g} -jar "$jar" "${ts_args[@]}" > "$work/ts.log" 2>&1 &
ts_pid=$!
baseline=bench/stack-baseline/target/stack-baseline-0.1.0-SNAPSHOT.jar
[ -f "$baseline" ] || ./mvnw -B -ntp -q -f bench/stack-baseline/pom.xml package -DskipTests
for _ in $(seq 1 240); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && curl -sf "http://127.0.0.1:$ts_port/clock" >/dev/null && break
  sleep 0.5
done

# warm-up of both (JIT, connection pools), then the measured runs, BullMQ first, each on a fresh key space
(cd "$work" && node compare.js bullmq "$redis_port" 5000 "$inflight" >/dev/null)
redis-cli -p "$redis_port" flushall >/dev/null
# TimeService's JIT needs two minutes or more of traffic on 2 cores (docs/BENCHMARKS.md); then an empty queue
BENCH_DIR="$PWD/bench" wrk -t2 -c"$inflight" -d"${WARMUP:-150}s" -s bench/mixed.lua "http://127.0.0.1:$ts_port" >/dev/null
(cd "$work" && node compare.js timeservice "$ts_port" 5000 "$inflight" >/dev/null)
curl -sf -X POST "http://127.0.0.1:$ts_port/demo/reset" >/dev/null
(cd "$work" && node compare.js bullmq "$redis_port" "$count" "$inflight") | tee "$work/bullmq.txt"
(cd "$work" && node compare.js timeservice "$ts_port" "$count" "$inflight") | tee "$work/ts.txt"
kill "$ts_pid"; wait "$ts_pid" 2>/dev/null || true # stop TimeService: the baseline runs beside idle Redis only
java ${JAVA_OPTS:--Xms1g -Xmx1g} -jar "$baseline" --server.port="$baseline_port" --server.address=127.0.0.1 \
  --logging.level.root=WARN > "$work/baseline.log" 2>&1 &
for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$baseline_port/actuator/health" >/dev/null && break; sleep 0.5; done
BENCH_DIR="$PWD/bench" wrk -t2 -c"$inflight" -d"${WARMUP:-150}s" -s bench/post.lua "http://127.0.0.1:$baseline_port" >/dev/null
(cd "$work" && node compare.js stack-baseline "$baseline_port" "$count" "$inflight") | tee "$work/baseline.txt"

echo "ratio TimeService / BullMQ (ops/s), TimeService mode=$mode:"
for op in add changeDelay remove; do
  b=$(grep "op=$op " "$work/bullmq.txt" | sed 's/.*ops_per_s=\([0-9]*\).*/\1/')
  t=$(grep "op=$op " "$work/ts.txt" | sed 's/.*ops_per_s=\([0-9]*\).*/\1/')
  echo "  $op: TimeService $t/s, BullMQ $b/s, ratio $(awk "BEGIN{printf \"%.2f\", $t/$b}")"
done
b=$(grep "op=add " "$work/bullmq.txt" | sed 's/.*ops_per_s=\([0-9]*\).*/\1/')
bare=$(grep "op=add " "$work/baseline.txt" | sed 's/.*ops_per_s=\([0-9]*\).*/\1/')
echo "  add on the bare stack (bench/stack-baseline): $bare/s, ratio to BullMQ $(awk "BEGIN{printf \"%.2f\", $bare/$b}")"
