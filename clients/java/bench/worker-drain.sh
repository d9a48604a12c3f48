#!/usr/bin/env bash
# Issue 30: the Java TimerWorker draining COUNT deliveries against BullMQ's Worker, in the same run, over loopback.
#   bullmq       bench/bullmq-drain.js: COUNT jobs (addBulk, each delayed 1 s), one Worker at CONCURRENCY, a
#                processor that does nothing, timed from the worker's start until close() (Redis private on
#                127.0.0.1, persistence off)
#   timerworker  WorkerDrain (clients/java/tests/src/test/java/io/timeservice/client/bench): COUNT timers on a fresh
#                virtual queueing clock, one advance makes them ready, one TimerWorker at CONCURRENCY (prefetch as
#                many) with a handler that does nothing, timed from its start until close() sent the last acks;
#                a warm-up drain of WARMUP_COUNT in the same JVM first (TimeService: durability none)
# One warm-up drain of each target first (not reported); rounds alternate which target goes first.
# Installs what is missing: redis-server, Node.js, npm, curl (Debian, bench/need.sh), bullmq@6 + ioredis (npm,
# into a temporary folder). Prints RESULT and LOAD lines, then the medians and the ratio per round.
# Usage: clients/java/bench/worker-drain.sh [count=100000] [concurrency=50] [rounds=3]
set -euo pipefail
cd "$(dirname "$0")/../../.."
count=${1:-100000}
concurrency=${2:-50}
rounds=${3:-3}
warmup_count=${WARMUP_COUNT:-20000}
redis_port=${REDIS_PORT:-16379}
ts_port=${TS_PORT:-18191}

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
. clients/java/bench/common.sh
need redis-server redis-server; need redis-cli redis-tools; need node nodejs; need npm npm
(cd "$work" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund bullmq@6 ioredis >/dev/null)
cp bench/bullmq-drain.js bench/targets.js "$work/"
echo "bullmq $(node -p "require('$work/node_modules/bullmq/package.json').version"), redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'), node $(node -v)"

redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no > "$work/redis.log" 2>&1 &
start_ts "$ts_port" --timeservice.deliveries.max=$((count * 2)) --timeservice.capacity=$((count * 4))
wait_ts "$ts_port"
for _ in $(seq 1 60); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.5; done

run() { # target [count label]: one measured drain, or a warm-up of the given size
  local n=${2:-$count} label=${3:-$1}
  echo "LOAD target=$1 loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
  if [ "$1" = bullmq ]; then
    redis-cli -p "$redis_port" flushall >/dev/null
    (cd "$work" && node bullmq-drain.js "$redis_port" "$n" "$concurrency" "$label")
  else
    java -cp "$client_cp" io.timeservice.client.bench.WorkerDrain "http://127.0.0.1:$ts_port" "$n" "$concurrency" \
      "$warmup_count" "$label"
  fi
}

run bullmq "$warmup_count" warmup-bullmq >/dev/null
run timerworker "$warmup_count" warmup-timerworker >/dev/null
rounds bullmq timerworker acked_per_s "SUMMARY count=$count concurrency=$concurrency rounds=$rounds"
