#!/usr/bin/env bash
# The cost of tracing (issue 46), side by side in one run: POST /timers (wrk, bench/ab-post.sh) and firing (advances
# that each fire BATCH timers, bench/advance-bench.js) with tracing off, at sampling 0.01 and at 1.0, the spans
# exported to a local OTLP/HTTP sink (bench/otlp-sink.py). ROUNDS rounds, each running the three configurations in
# turn, so that a drift of the machine hits all three alike. 127.0.0.1 only; the jar from `./mvnw -DskipTests package`.
# Usage: bench/tracing-cost.sh [ROUNDS=3] [WARMUP_SECONDS=30] [SECONDS=15] [PRELOAD=200000] [BATCH=1000]
# Prints RESULT lines per configuration and round; the goal (issue 46): 0.01 within 3% of off, 1.0 within 15%.
set -uo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}; warm=${2:-30}; secs=${3:-15}; preload=${4:-200000}; batch=${5:-1000}
sink_port=${SINK_PORT:-14318}; port=${PORT:-18093}
jar=${JAR:-$(ls target/timeservice-*.jar | grep -v original | head -1)}
export BENCH_DIR="$PWD/bench"
. bench/need.sh
need node nodejs; need curl curl; need python3 python3
python3 bench/otlp-sink.py "$sink_port" &
sink=$!
trap 'kill $sink 2>/dev/null' EXIT
endpoint="http://127.0.0.1:$sink_port/v1/traces"
config() {
  case $1 in
    off) echo "" ;;
    s0.01) echo "--management.opentelemetry.tracing.export.otlp.endpoint=$endpoint --management.tracing.sampling.probability=0.01" ;;
    s1.0) echo "--management.opentelemetry.tracing.export.otlp.endpoint=$endpoint --management.tracing.sampling.probability=1.0" ;;
  esac
}
# Firing: a fresh service per configuration, PRELOAD timers added over HTTP (so they carry their adds' contexts when
# sampled), then advances of 1 ms that fire BATCH timers each.
fire() {
  local label=$1; shift
  java -Xms2g -Xmx2g -jar "$jar" --server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN \
      --timeservice.durability=none --timeservice.demo.enabled=true "$@" > /tmp/tracing-cost-$label.log 2>&1 &
  local pid=$!
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/clock" >/dev/null && break; sleep 0.5; done
  node bench/advance-bench.js "$port" "$preload" "$batch" 1 | grep RESULT | sed "s/^RESULT/$label firing/"
  kill $pid; wait $pid 2>/dev/null
}
for r in $(seq 1 "$rounds"); do
  for c in off s0.01 s1.0; do
    # shellcheck disable=SC2046
    PORT=$port bench/ab-post.sh "$c-round$r" "$warm" "$secs" $(config $c)
    # shellcheck disable=SC2046
    fire "$c-round$r" $(config $c)
  done
done
echo "sink: $(curl -s "http://127.0.0.1:$sink_port/count")"
