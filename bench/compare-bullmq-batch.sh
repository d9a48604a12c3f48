#!/usr/bin/env bash
# Batches side by side with BullMQ (issue 17), over loopback only: BullMQ's addBulk against TimeService's POST /batch
# (adds), and mixed batches (adds, edits, cancels) against BullMQ's closest equivalent (see bench/compare-batch.js),
# all driven by one Node.js client with the same calls in flight. TimeService runs twice at once, durability none and
# journal with fsync=always (one of them idle while the other is measured); Redis is private (persistence off).
# Each round runs every target once per scenario, the order reversed every other round; every run starts on an empty
# queue (BullMQ obliterate + FLUSHALL, TimeService POST /demo/reset). Prints RESULT and LOAD lines, then a summary.
# The adds runs keep what they add: capacity 5,000,000 (2 GB heap) bounds them; a run reaching it fails on the 429.
# Usage: bench/compare-bullmq.sh batch [seconds=15] [inFlight=8] [rounds=3] [size=100]   (WARMUP= seconds per scenario)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
inflight=${2:-8}
rounds=${3:-3}
size=${4:-100}
warmup=${WARMUP:-20}
redis_port=${REDIS_PORT:-16379}
none_port=${TS_PORT:-18091}
always_port=${TS_ALWAYS_PORT:-18092}

. bench/need.sh
need redis-server redis-server; need redis-cli redis-tools; need node nodejs; need npm npm; need curl curl
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
(cd "$work" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund bullmq@6 ioredis >/dev/null)
cp bench/compare-batch.js bench/targets.js "$work/"
echo "bullmq $(node -p "require('$work/node_modules/bullmq/package.json').version"), $(redis-server --version | cut -d' ' -f3), node $(node -v), $(nproc) vCPU"

redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no > "$work/redis.log" 2>&1 &
jar=$(service_jar)
echo "jar $jar ($(git rev-parse --short HEAD))"
common=(--server.address=127.0.0.1 --logging.level.root=WARN --timeservice.demo.enabled=true --timeservice.capacity=5000000)
java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" "${common[@]}" --server.port="$none_port" --timeservice.durability=none \
  > "$work/ts-none.log" 2>&1 &
java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" "${common[@]}" --server.port="$always_port" --timeservice.durability=journal \
  --timeservice.fsync=always --timeservice.data-dir="$work/data" > "$work/ts-always.log" 2>&1 &
for _ in $(seq 1 240); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && curl -sf "http://127.0.0.1:$none_port/clock" >/dev/null \
    && curl -sf "http://127.0.0.1:$always_port/clock" >/dev/null && break
  sleep 0.5
done

port_of() { case $1 in bullmq) echo "$redis_port";; ts-none) echo "$none_port";; ts-always) echo "$always_port";; esac; }
run() { # target scenario seconds
  local port; port=$(port_of "$1")
  if [ "$1" = bullmq ]; then redis-cli -p "$redis_port" flushall >/dev/null
  else curl -sf -X POST "http://127.0.0.1:$port/demo/reset" >/dev/null; fi
  echo "LOAD target=$1 scenario=$2 loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
  (cd "$work" && node compare-batch.js "$(case $1 in bullmq) echo bullmq;; *) echo timeservice;; esac)" "$port" "$2" "$3" "$inflight" "$size" "$1")
}

# warm-up (JIT, connection pools) of every target in both scenarios; not reported
for t in bullmq ts-none ts-always; do for s in adds mixed; do run "$t" "$s" "$warmup" > /dev/null; done; done
for r in $(seq 1 "$rounds"); do
  order="bullmq ts-none ts-always"; [ $((r % 2)) = 0 ] && order="ts-always ts-none bullmq"
  for s in adds mixed; do for t in $order; do
    echo "ROUND $r"; run "$t" "$s" "$seconds"
  done; done
done | tee "$work/results.txt"

node - "$work/results.txt" <<'JS'
const {rows: read, median: med, span} = require("./bench/results.js");
const rows = read(process.argv[2]);
for (const s of ["adds", "mixed"]) {
  console.log(`SUMMARY scenario=${s} (median [min–max] over rounds)`);
  for (const t of ["bullmq", "ts-none", "ts-always"]) {
    const r = rows.filter(x => x.scenario === s && x.target === t);
    const col = k => r.map(x => Number(x[k]));
    console.log(`  ${t}: ops/s ${med(col("ops_per_s"))} [${span(col("ops_per_s"))}]; per batch p50 ${med(col("batch_p50_ms"))} ms, p99 ${med(col("batch_p99_ms"))} ms;`
      + ` per op p50 ${med(col("op_p50_ms"))} ms, p99 ${med(col("op_p99_ms"))} ms`);
  }
  for (const t of ["ts-none", "ts-always"]) {
    const ratios = [...new Set(rows.map(x => x.round))].map(rd => {
      const a = rows.find(x => x.scenario === s && x.target === t && x.round === rd);
      const b = rows.find(x => x.scenario === s && x.target === "bullmq" && x.round === rd);
      return Number((a.ops_per_s / b.ops_per_s).toFixed(2));
    });
    console.log(`  ratio ${t} / bullmq per round: ${ratios.join(", ")}; median ${med(ratios).toFixed(2)}`);
  }
}
JS
