#!/usr/bin/env bash
# Issue 16: how late deliveries reach workers on a system clock, over loopback only.
# TimeService runs twice at once, durability none and journal with fsync=always (one idle while the other is
# measured). In each run a fresh system clock gets RATE timers per second coming due (bench/delivery-feed.js rate:
# every 100 ms one POST /clocks/{clock}/batch of RATE/10 adds, due 2 s later, spread evenly over 100 ms), and 4
# workers (wrk -t2 -c4, bench/delivery.lua) claim (max 100, lease 30 s, long poll 1 s) and acknowledge what they
# claimed, once per ack style in ACKS (default "batch each": batch = one POST .../deliveries/ack per claim answer,
# each = one POST .../deliveries/{id}/ack per delivery), so both styles run side by side in one session.
# Reported per run:
#   client  claim answer received minus the delivery's fireTime (0.1 ms buckets; deliveries due in the run's first
#           second are left out),
#   service timer_delivery_lateness_seconds (claim time minus due time, whole ms) and timer_fire_lag_seconds (firing
#           thread's fire time minus due time) from /actuator/prometheus, the run's difference of bucket counts,
#           quantiles interpolated within buckets as Prometheus' histogram_quantile does (bounds 1, 2, 5, 10, 25 ms..),
#   left    deliveries ready or in flight just after the workers stopped (the workers fell behind when it is more
#           than the few ms of deliveries that came due since).
# One warm-up run per mode and ack style first (WARMUP seconds each, not reported); rounds alternate which mode and
# which ack style go first.
# Installs what is missing: Node.js, wrk, curl (Debian, bench/need.sh).
# Usage: bench/delivery-lateness.sh [rate=10000] [seconds=30] [rounds=3]   (WARMUP=45, ACKS="batch each", JAR=)
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-10000}
seconds=${2:-30}
rounds=${3:-3}
warmup=${WARMUP:-45}
acks=${ACKS:-batch each}
none_port=${TS_PORT:-18091}
always_port=${TS_ALWAYS_PORT:-18092}

. bench/need.sh
need node nodejs; need wrk wrk; need curl curl
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
jar=$(service_jar)
echo "jar $jar ($(git rev-parse --short HEAD)), node $(node -v), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), $(nproc) vCPU"
common=(--server.address=127.0.0.1 --logging.level.root=WARN)
java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" "${common[@]}" --server.port="$none_port" --timeservice.durability=none \
  > "$work/ts-none.log" 2>&1 &
java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" "${common[@]}" --server.port="$always_port" --timeservice.durability=journal \
  --timeservice.fsync=always --timeservice.data-dir="$work/data" > "$work/ts-always.log" 2>&1 &
for _ in $(seq 1 240); do
  curl -sf "http://127.0.0.1:$none_port/clock" >/dev/null && curl -sf "http://127.0.0.1:$always_port/clock" >/dev/null && break
  sleep 0.5
done

histograms() { # port file: the two histograms' bucket lines
  curl -sf "http://127.0.0.1:$1/actuator/prometheus" | grep -E '^timer_(delivery_lateness|fire_lag)_seconds_bucket' > "$2"
}
quantiles() { # before after: p50/p99 (ms) of each histogram's difference
  node - "$1" "$2" <<'JS'
const fs = require("fs");
const read = f => Object.fromEntries(fs.readFileSync(f, "utf8").trim().split("\n").map(l => {
  const m = l.match(/^(\w+)_bucket\{le="([^"]+)"\} (\S+)/); return [m[1] + " " + m[2], Number(m[3])]; }));
const [before, after] = [read(process.argv[2]), read(process.argv[3])];
const out = [];
for (const [name, short] of [["timer_delivery_lateness_seconds", "service_late"], ["timer_fire_lag_seconds", "fire_lag"]]) {
  const buckets = Object.keys(after).filter(k => k.startsWith(name + " ")).map(k => {
    const le = k.split(" ")[1]; return {le: le === "+Inf" ? Infinity : Number(le), n: after[k] - (before[k] || 0)}; })
    .sort((a, b) => a.le - b.le);
  const total = buckets[buckets.length - 1].n;
  const q = p => { // histogram_quantile: linear within the bucket the rank falls in
    const rank = total * p; let lower = 0, below = 0;
    for (const b of buckets) {
      if (b.n >= rank) return b.le === Infinity ? "inf" : ((lower + (b.le - lower) * (rank - below) / Math.max(1, b.n - below)) * 1000).toFixed(1);
      lower = b.le; below = b.n;
    }
  };
  out.push(`${short}_n=${total} ${short}_p50_ms=${total ? q(0.5) : "-"} ${short}_p99_ms=${total ? q(0.99) : "-"}`
    + ` ${short}_le10ms=${total ? (100 * buckets.find(b => b.le === 0.01).n / total).toFixed(2) + "%" : "-"}`);
}
console.log(out.join(" "));
JS
}
run() { # mode ack seconds clock
  local mode=$1 ack=$2 secs=$3 clock=$4 port
  port=$([ "$mode" = ts-none ] && echo "$none_port" || echo "$always_port")
  curl -sf -X PUT -H 'Content-Type: application/json' -d '{"mode":"system"}' "http://127.0.0.1:$port/clocks/$clock" >/dev/null
  echo "LOAD target=$mode-$ack loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
  (cd "$work" && node delivery-feed.js rate "$port" "$clock" "$rate" "$((secs + 2))" 2000 "$clock-") > "$work/feed.out" &
  local feed=$!
  sleep 2 # the first timers come due now
  (sleep 1; histograms "$port" "$work/before") &
  CLOCK="$clock" LABEL="$mode-$ack" ACK="$ack" SKIP_MS=1000 wrk -t2 -c4 -d"${secs}s" --timeout 5s -s bench/delivery.lua \
    "http://127.0.0.1:$port" > "$work/wrk.out"
  histograms "$port" "$work/after"
  local counts; counts=$(curl -sf "http://127.0.0.1:$port/clocks/$clock/deliveries")
  wait "$feed"
  echo "$(grep RESULT "$work/wrk.out") $(quantiles "$work/before" "$work/after")" \
    "$(echo "$counts" | sed 's/.*"ready":\([0-9]*\).*"inFlight":\([0-9]*\).*/left_ready=\1 left_in_flight=\2/') $(cat "$work/feed.out")"
  curl -sf -X DELETE "http://127.0.0.1:$port/clocks/$clock" >/dev/null
}
cp bench/delivery-feed.js bench/targets.js "$work/"

reversed() { echo "$@" | tr ' ' '\n' | tac | tr '\n' ' '; }
for t in ts-none ts-always; do for a in $acks; do run "$t" "$a" "$warmup" "warm-$a" > /dev/null; done; done # JIT
for r in $(seq 1 "$rounds"); do
  order="ts-none ts-always"; ack_order=$acks
  [ $((r % 2)) = 0 ] && { order="ts-always ts-none"; ack_order=$(reversed $acks); }
  for t in $order; do for a in $ack_order; do echo "ROUND $r"; run "$t" "$a" "$seconds" "lat$r-$a"; done; done
done | tee "$work/results.txt"

node - "$work/results.txt" <<'JS'
const {rows: read, median: med} = require("./bench/results.js");
const rows = read(process.argv[2]);
console.log("SUMMARY median [min–max] over rounds, ms");
for (const t of [...new Set(rows.map(x => x.target))]) {
  const r = rows.filter(x => x.target === t);
  const col = k => { const v = r.map(x => Number(x[k])).filter(x => !Number.isNaN(x)); return v.length ? `${med(v)} [${Math.min(...v)}–${Math.max(...v)}]` : "-"; };
  console.log(`  ${t}: client p50 ${col("late_p50_ms")}, p99 ${col("late_p99_ms")}; service p50 ${col("service_late_p50_ms")},`
    + ` p99 ${col("service_late_p99_ms")}; fire lag p50 ${col("fire_lag_p50_ms")}, p99 ${col("fire_lag_p99_ms")}; acked/s ${col("acked_per_s")};`
    + ` requests/s ${col("requests_per_s")}; lost ${col("lost")}; left ready ${col("left_ready")}`);
}
JS
