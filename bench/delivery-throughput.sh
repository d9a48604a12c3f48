#!/usr/bin/env bash
# Issue 16: deliveries claimed and acknowledged per second, side by side with a BullMQ worker, over loopback only.
# Each target gets COUNT timers/jobs (each due 1 s after it was added) and drains them once all are due:
#   bullmq     one Worker at concurrency 50 (bench/bullmq-drain.js, Redis private on 127.0.0.1, persistence off);
#   ts-none-*  TimeService, durability none; with ALWAYS=1 also ts-always-*, TimeService with the journal and
#              fsync=always (both started at once, one idle while the other is measured): wrk with CONNECTIONS
#              connections (bench/delivery.lua), each claiming max 100 (lease 30 s, long poll 100 ms) and
#              acknowledging, once per ack style in ACKS (default "batch each"): -batch one POST .../deliveries/ack
#              per claim answer, -each one POST .../deliveries/{id}/ack per delivery.
# TimeService's timers are added with POST /clocks/{clock}/batch (bench/delivery-feed.js preload) on a fresh system
# clock; the drain starts once the firing thread has made all COUNT ready (BullMQ: 1 s after its last add). wrk is
# stopped (SIGINT) when the clock has nothing ready or in flight; its RESULT counts from its first request to its
# last ack.
# Rounds alternate the order of the targets; one warm-up drain of each first (WARMUP_COUNT, not reported).
# Installs what is missing: redis-server, Node.js, npm, wrk, curl (Debian, bench/need.sh), bullmq@6 + ioredis (npm,
# into a temporary folder). Prints RESULT and LOAD lines, then a SUMMARY of medians and ratios.
# Usage: [ALWAYS=1] [ACKS="batch each"] bench/delivery-throughput.sh [count=200000] [connections=16] [rounds=3]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200000}
connections=${2:-16}
rounds=${3:-3}
warmup_count=${WARMUP_COUNT:-$count}
redis_port=${REDIS_PORT:-16379}
none_port=${TS_PORT:-18091}
always_port=${TS_ALWAYS_PORT:-18092}
acks=${ACKS:-batch each}

. bench/need.sh
need redis-server redis-server; need redis-cli redis-tools; need node nodejs; need npm npm; need wrk wrk
need curl curl
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
(cd "$work" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund bullmq@6 ioredis >/dev/null)
cp bench/bullmq-drain.js bench/delivery-feed.js bench/targets.js "$work/"
echo "bullmq $(node -p "require('$work/node_modules/bullmq/package.json').version"), redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'), node $(node -v), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), $(nproc) vCPU"

redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no > "$work/redis.log" 2>&1 &
jar=$(service_jar)
echo "jar $jar ($(git rev-parse --short HEAD))"
common=(--server.address=127.0.0.1 --logging.level.root=WARN --timeservice.deliveries.max=$((count * 2))
  --timeservice.capacity=$((count * 4)))
java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" "${common[@]}" --server.port="$none_port" --timeservice.durability=none \
  > "$work/ts-none.log" 2>&1 &
targets="bullmq"; for a in $acks; do targets="$targets ts-none-$a"; done
if [ -n "${ALWAYS:-}" ]; then
  for a in $acks; do targets="$targets ts-always-$a"; done
  java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" "${common[@]}" --server.port="$always_port" \
    --timeservice.durability=journal --timeservice.fsync=always --timeservice.data-dir="$work/data" \
    > "$work/ts-always.log" 2>&1 &
fi
for _ in $(seq 1 240); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && curl -sf "http://127.0.0.1:$none_port/clock" >/dev/null \
    && { [ -z "${ALWAYS:-}" ] || curl -sf "http://127.0.0.1:$always_port/clock" >/dev/null; } && break
  sleep 0.5
done

json=(-H 'Content-Type: application/json')
ready_of() { # "ready inFlight" of the clock drain (the answer ends without a newline: add one for read)
  curl -sf "http://127.0.0.1:$1/clocks/drain/deliveries" | sed 's/.*"ready":\([0-9]*\).*"inFlight":\([0-9]*\).*/\1 \2/'
  echo
}
drain_ts() { # port n label ack
  local port=$1 n=$2 label=$3 ack=$4 ready in_flight wrk_pid
  curl -s -X DELETE "http://127.0.0.1:$port/clocks/drain" >/dev/null
  curl -sf -X PUT "${json[@]}" -d '{"mode":"system"}' "http://127.0.0.1:$port/clocks/drain" >/dev/null
  (cd "$work" && node delivery-feed.js preload "$port" drain "$n" >&2)
  for _ in $(seq 1 1200); do read -r ready in_flight < <(ready_of "$port"); [ "$ready" -ge "$n" ] && break; sleep 0.1; done
  [ "$ready" -ge "$n" ] || { echo "only $ready of $n ready" >&2; exit 1; }
  echo "LOAD target=$label loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
  CLOCK=drain WAIT=100 SKIP_MS=0 LABEL="$label" ACK="$ack" wrk -t2 -c"$connections" -d600s --timeout 5s -s bench/delivery.lua \
    "http://127.0.0.1:$port" > "$work/wrk.out" &
  wrk_pid=$!
  for _ in $(seq 1 6000); do
    read -r ready in_flight < <(ready_of "$port"); [ "$ready" = 0 ] && [ "$in_flight" = 0 ] && break; sleep 0.1
  done
  kill -INT "$wrk_pid"; wait "$wrk_pid" || true
  grep RESULT "$work/wrk.out"
}
drain_bullmq() { # n label
  redis-cli -p "$redis_port" flushall >/dev/null
  echo "LOAD target=$2 loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
  (cd "$work" && node bullmq-drain.js "$redis_port" "$1" 50 "$2")
}
run() { # target n
  case $1 in
    bullmq) drain_bullmq "$2" bullmq;;
    ts-none-*) drain_ts "$none_port" "$2" "$1" "${1#ts-none-}";;
    ts-always-*) drain_ts "$always_port" "$2" "$1" "${1#ts-always-}";;
  esac
}

for t in $targets; do run "$t" "$warmup_count" > /dev/null; done # JIT, pools; not reported
for r in $(seq 1 "$rounds"); do
  order=$targets; [ $((r % 2)) = 0 ] && order=$(echo "$targets" | tr ' ' '\n' | tac | tr '\n' ' ')
  for t in $order; do echo "ROUND $r"; run "$t" "$count"; done
done | tee "$work/results.txt"

node - "$work/results.txt" <<'JS'
const {rows: read, median: med, span} = require("./bench/results.js");
const rows = read(process.argv[2]);
const rate = t => rows.filter(x => x.target === t).map(x => Number(x.acked_per_s));
console.log("SUMMARY deliveries (jobs) claimed and acknowledged per second, median [min–max] over rounds");
const targets = [...new Set(rows.map(x => x.target))].sort((a, b) => (a !== "bullmq") - (b !== "bullmq"));
const requests = t => rows.filter(x => x.target === t && x.requests_per_s).map(x => Number(x.requests_per_s));
for (const t of targets) console.log(`  ${t}: ${med(rate(t))} [${span(rate(t))}]`
  + (requests(t).length ? `, requests/s ${med(requests(t))} [${span(requests(t))}]` : ""));
const ratio = (t, base) => {
  const ratios = [...new Set(rows.map(x => x.round))].map(r => {
    const of = n => Number(rows.find(x => x.round === r && x.target === n).acked_per_s);
    return +(of(t) / of(base)).toFixed(2);
  });
  console.log(`  ${t} / ${base} per round: ${ratios.join(", ")}; median ${med(ratios)} [${span(ratios)}]`);
};
for (const t of targets.slice(1)) ratio(t, "bullmq");
for (const t of targets.filter(x => x.endsWith("-batch"))) {
  if (targets.includes(t.replace(/-batch$/, "-each"))) ratio(t, t.replace(/-batch$/, "-each"));
}
JS
