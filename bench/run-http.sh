#!/usr/bin/env bash
# HTTP load test of TimeService over loopback with wrk (Debian package `wrk`): bounded in time and connections,
# 127.0.0.1 only. Usage: bench/run-http.sh [none|always|interval|never] [seconds] [connections]
#   none   = timeservice.durability=none (memory only); the others = journal with that fsync policy.
# Prints one RESULT line per scenario: POST /timers alone, the mixed workload (wrk, 2 threads, N connections), and
# advance firing 1,000 timers per call (bench/advance-bench.js, Node.js, after a preload: one call at a time, then
# with N calls in flight).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-none}
seconds=${2:-20}
connections=${3:-64}
port=${PORT:-18090}
export BENCH_DIR="$PWD/bench"

. bench/need.sh
need wrk wrk; need node nodejs; need curl curl
jar=$(service_jar)

data=$(mktemp -d)
args=(--server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN --timeservice.demo.enabled=true)
if [ "$mode" = none ]; then args+=(--timeservice.durability=none); else
  args+=(--timeservice.durability=journal --timeservice.fsync="$mode" --timeservice.data-dir="$data"); fi
java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" "${args[@]}" > "$data/service.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true; rm -rf "$data"' EXIT # a killed service exits 143: set -e must not skip the cleanup
for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/clock" >/dev/null && break; sleep 0.5; done

url="http://127.0.0.1:$port"
reset() { curl -sf -X POST "$url/demo/reset" >/dev/null; }
run() { # name script
  wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s -s "bench/$2" "$url" | grep RESULT | sed "s/^RESULT/$1 mode=$mode c=$connections/"
}

# warm-up, discarded: on 2 cores POST throughput kept rising for over a minute (C2); 150 s by default (WARMUP=s)
reset; wrk -t2 -c"$connections" -d"${WARMUP:-150}s" -s bench/mixed.lua "$url" >/dev/null
reset; run post post.lua
reset; run mixed mixed.lua
# advance: preload 300,000 timers at 1,000 per virtual ms, then 300 calls that each fire 1,000; twice
reset
node bench/advance-bench.js "$port" "${PRELOAD:-300000}" 1000 1 | sed "s/^RESULT/advance-1000 mode=$mode/"
reset
node bench/advance-bench.js "$port" "${PRELOAD:-300000}" 1000 "$connections" \
  | sed "s/^RESULT/advance-1000 mode=$mode c=$connections/"
