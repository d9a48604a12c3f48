#!/usr/bin/env bash
# Issue 18: the PostgreSQL store side by side with the memory store and BullMQ, in one session, over loopback only.
# Targets, all started at once (the idle ones wait while one is measured):
#   mem-none    TimeService, memory store, durability none;
#   mem-always  TimeService, memory store, journal with fsync=always;
#   pg-1        TimeService on the PostgreSQL store (instance A);
#   pg-2        two TimeService instances (A and B) on the same database, the clients split over both;
#   bullmq      BullMQ 6 on the local Redis (REDIS_PORT 6379), in database REDIS_DB under key prefix BULLMQ_PREFIX
#               only (their keys are deleted before each run and at the end; nothing else is touched).
# The database PG_DB (default timeservice_bench) is created fresh on the local PostgreSQL (127.0.0.1:PG_PORT, user
# postgres, trust authentication) and dropped at the end; Flyway migrates it when instance A starts.
# Scenarios, each run on an empty queue:
#   adds    ADD_COUNT single adds, INFLIGHT (50) in flight, one Node.js client (bench/compare.js ... add): POST /timers |
#           queue.add;
#   batch   BATCH_SECONDS of POST /batch with 100 adds, BATCH_INFLIGHT (8) calls in flight (bench/compare-batch.js adds) |
#           addBulk of 100;
#   claims  DRAIN_COUNT deliveries ready at once, drained: TimeService by CONNECTIONS (16) wrk workers
#           (bench/delivery.lua: claim max 100, lease 30 s, then one batch ack per claim answer), timed from the
#           first request to the last ack; the deliveries come from a virtual queue clock advanced through the API
#           (bench/delivery-feed.js preload, then advances of up to 10,000), so no firing loop is involved. BullMQ:
#           bench/bullmq-drain.js (one Worker, concurrency 50).
# Rounds alternate the order of the targets; one warm-up run of every target and scenario first (WARMUP_COUNT,
# WARMUP_SECONDS; not reported).
# Then lateness on pg-2 (LATE_ROUNDS runs of LATE_SECONDS; skipped with LATE_SECONDS=0): a system clock with LATE_RATE
# timers/s coming due (bench/delivery-feed.js rate, batches sent 2 s ahead, alternating between A and B), claimed by
# 2 workers on each instance (wrk -t1 -c2, long poll 1 s, batch acks); lateness = claim answer received minus the
# delivery's fireTime, as bench/delivery-lateness.sh measures it client-side, the two wrk histograms merged.
# Prints RESULT and LOAD lines (and the load average every 5 s, LOADAVG), then a SUMMARY of medians [min–max],
# ratios per round and the issue's target.
# Installs what is missing: Node.js, npm, wrk, curl, psql, redis-cli (Debian, bench/need.sh), bullmq@6 + ioredis
# (npm, into a temporary folder). Builds the jar when target/timeservice-*.jar is missing.
# Usage: bench/postgres-store.sh [rounds=3]
#   (BASE_JAR= (adds targets pg-1-base and pg-2-base: that jar's instances C and D on the same database; its
#    migrations must be the same) TARGETS="bullmq mem-none mem-always pg-1 pg-2" SCENARIOS="adds batch claims" ADD_COUNT=10000 BATCH_SECONDS=10 DRAIN_COUNT=20000 WARMUP_COUNT=ADD_COUNT/4 WARMUP_SECONDS=5 LATE_RATE=500
#    LATE_SECONDS=20 LATE_ROUNDS=rounds JAR= JAVA_OPTS=)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
add_count=${ADD_COUNT:-10000}
seconds=${BATCH_SECONDS:-10}
drain_count=${DRAIN_COUNT:-20000}
warmup_count=${WARMUP_COUNT:-$((add_count / 4))}
warmup_seconds=${WARMUP_SECONDS:-5}
late_rate=${LATE_RATE:-500}
late_seconds=${LATE_SECONDS:-20}
late_rounds=${LATE_ROUNDS:-$rounds}
inflight=${INFLIGHT:-50}
batch_inflight=${BATCH_INFLIGHT:-8}
connections=${CONNECTIONS:-16}
db=${PG_DB:-timeservice_bench}
pg_port=${PG_PORT:-5432}
redis_port=${REDIS_PORT:-6379}
export REDIS_DB=${REDIS_DB:-9} BULLMQ_PREFIX=${BULLMQ_PREFIX:-tsbench}
targets=${TARGETS:-bullmq mem-none mem-always pg-1 pg-2}
scenarios=${SCENARIOS:-adds batch claims}

. bench/need.sh
need node nodejs; need npm npm; need wrk wrk; need curl curl; need psql postgresql-client; need redis-cli redis-tools
sql() { PGOPTIONS="-c client_min_messages=warning" psql -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAtc "$1"; }
redis_clean() { # deletes this run's keys only: its database, its prefix
  redis-cli -p "$redis_port" -n "$REDIS_DB" --scan --pattern "$BULLMQ_PREFIX:*" \
    | xargs -r -n 1000 redis-cli -p "$redis_port" -n "$REDIS_DB" unlink >/dev/null
}
work=$(mktemp -d)
cleanup() {
  kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
  redis_clean || true
  sql "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
  rm -rf "$work"
}
trap cleanup EXIT
redis-cli -p "$redis_port" ping >/dev/null || { echo "no Redis at 127.0.0.1:$redis_port" >&2; exit 1; }
sql "SELECT 1" >/dev/null || { echo "no PostgreSQL at 127.0.0.1:$pg_port" >&2; exit 1; }
redis_clean
sql "DROP DATABASE IF EXISTS $db WITH (FORCE)"
sql "CREATE DATABASE $db"
(cd "$work" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund bullmq@6 ioredis >/dev/null)
cp bench/compare.js bench/compare-batch.js bench/bullmq-drain.js bench/delivery-feed.js bench/targets.js "$work/"
jar=$(service_jar)
echo "jar $jar ($(git rev-parse --short HEAD)), bullmq $(node -p "require('$work/node_modules/bullmq/package.json').version")," \
  "redis $(redis-cli -p "$redis_port" info server | sed -n 's/^redis_version:\(.*\)\r$/\1/p'), $(sql 'SHOW server_version' | cut -d' ' -f1 | sed 's/^/postgresql /')," \
  "node $(node -v), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), $(nproc) vCPU"
echo "postgresql: synchronous_commit=$(sql 'SHOW synchronous_commit') fsync=$(sql 'SHOW fsync') shared_buffers=$(sql 'SHOW shared_buffers')"

free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
start() { # name port args...: a TimeService (of $start_jar) in the background, its log in $work/<name>.log
  local name=$1 port=$2; shift 2
  java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "${start_jar:-$jar}" --server.address=127.0.0.1 --server.port="$port" \
    --logging.level.root=WARN --timeservice.demo.enabled=true --timeservice.capacity=5000000 \
    --timeservice.deliveries.max=$((drain_count * 4)) "$@" > "$work/$name.log" 2>&1 &
}
await_ready() { # port...
  for port in "$@"; do
    for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/clock" >/dev/null && continue 2; sleep 0.5; done
    echo "TimeService on $port did not start" >&2; tail -20 "$work"/*.log >&2; exit 1
  done
}
none_port=$(free_port); always_port=$(free_port); a_port=$(free_port); b_port=$(free_port)
pg=(--timeservice.store=postgresql --timeservice.durability=none --spring.datasource.username=postgres
  --spring.datasource.url="jdbc:postgresql://127.0.0.1:$pg_port/$db")
wanted() { [[ " $targets " == *" $1 "* ]]; }
memory_ports=()
if wanted mem-none; then start mem-none "$none_port" --timeservice.durability=none; memory_ports+=("$none_port"); fi
if wanted mem-always; then
  start mem-always "$always_port" --timeservice.durability=journal --timeservice.fsync=always --timeservice.data-dir="$work/data"
  memory_ports+=("$always_port")
fi
start pg-a "$a_port" "${pg[@]}"
await_ready "$a_port" # A migrates the schema before B starts
start pg-b "$b_port" "${pg[@]}"
await_ready "${memory_ports[@]}" "$b_port"
if [ -n "${BASE_JAR:-}" ]; then # the same two instances of another build on the same database, to compare
  c_port=$(free_port); d_port=$(free_port)
  start_jar=$BASE_JAR start pg-base-c "$c_port" "${pg[@]}"
  start_jar=$BASE_JAR start pg-base-d "$d_port" "${pg[@]}"
  await_ready "$c_port" "$d_port"
fi

ports_of() { # target: the TimeService ports its clients use, comma-separated (BullMQ: Redis's)
  case $1 in bullmq) echo "$redis_port";; mem-none) echo "$none_port";; mem-always) echo "$always_port";;
    pg-1) echo "$a_port";; pg-2) echo "$a_port,$b_port";; pg-1-base) echo "$c_port";; pg-2-base) echo "$c_port,$d_port";;
  esac
}
json=(-H 'Content-Type: application/json')
empty() { # target: an empty queue before a run
  if [ "$1" = bullmq ]; then redis_clean; else curl -sf -X POST "http://127.0.0.1:${2%%,*}/demo/reset" >/dev/null; fi
}
load() { echo "LOAD target=$1 scenario=$2 loadavg=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' ,)"; }
adds() { # target ports count
  empty "$1" "$2"; load "$1" adds
  (cd "$work" && node compare.js "$([ "$1" = bullmq ] && echo bullmq || echo timeservice)" "$2" "$3" "$inflight" add) \
    | sed "s/^RESULT target=[^ ]* /RESULT $1 scenario=adds /"
}
batch() { # target ports seconds
  empty "$1" "$2"; load "$1" batch
  (cd "$work" && node compare-batch.js "$([ "$1" = bullmq ] && echo bullmq || echo timeservice)" "$2" adds "$3" \
    "$batch_inflight" 100 "$1") | sed "s/^RESULT target=\([^ ]*\) scenario=adds /RESULT \1 scenario=batch /"
}
counts_of() { # port clock: "ready inFlight" (the answer ends without a newline: add one for read)
  curl -sf "http://127.0.0.1:$1/clocks/$2/deliveries" | sed 's/.*"ready":\([0-9]*\).*"inFlight":\([0-9]*\).*/\1 \2/'
  echo
}
drains=0
claims() { # target ports count
  local target=$1 ports=$2 n=$3 first=${2%%,*} clock ready in_flight port pids=() k=0 instances
  instances=$(echo "$ports" | tr ',' '\n' | wc -l)
  if [ "$target" = bullmq ]; then
    redis_clean; load bullmq claims
    (cd "$work" && node bullmq-drain.js "$redis_port" "$n" 50 bullmq) | sed 's/^RESULT bullmq /RESULT bullmq scenario=claims /'
    return
  fi
  drains=$((drains + 1)); clock=drain$drains
  curl -sf -X PUT "${json[@]}" -d '{"mode":"virtual","delivery":"queue"}' "http://127.0.0.1:$first/clocks/$clock" >/dev/null
  (cd "$work" && node delivery-feed.js preload "$ports" "$clock" "$n" >&2)
  for _ in $(seq 0 $((n / 10000 + 1))); do # fires up to 10,000 per call into the ready queue
    [[ $(curl -sf -X POST "${json[@]}" -d '{"to":2000}' "http://127.0.0.1:$first/clocks/$clock/advance?limit=10000") \
      == *'"complete":true'* ]] && break
  done
  read -r ready in_flight < <(counts_of "$first" "$clock")
  [ "$ready" = "$n" ] || { echo "$target: $ready of $n ready after the advance" >&2; exit 1; }
  load "$target" claims
  for port in ${ports//,/ }; do
    k=$((k + 1))
    # 2 wrk threads in all, the connections split evenly over the instances
    CLOCK=$clock WAIT=100 SKIP_MS=0 LABEL="$target" ACK=batch wrk -t$((2 / instances)) -c$((connections / instances)) \
      -d600s --timeout 5s -s bench/delivery.lua "http://127.0.0.1:$port" > "$work/wrk-$k.out" &
    pids+=($!)
  done
  for _ in $(seq 1 3000); do
    read -r ready in_flight < <(counts_of "$first" "$clock"); [ "$ready" = 0 ] && [ "$in_flight" = 0 ] && break; sleep 0.2
  done
  kill -INT "${pids[@]}"; wait "${pids[@]}" || true
  node - "$target" "$work"/wrk-*.out <<'JS' # one RESULT over all workers: from the first request to the last ack
const [target, ...files] = process.argv.slice(2);
const {rows, together} = require("./bench/results.js");
const parts = files.flatMap(f => rows(f)), {sum, seconds} = together(parts);
console.log(`RESULT ${target} scenario=claims acked=${sum("acked")} lost=${sum("lost")} errors=${sum("errors") + sum("socket_errors")}`
  + ` seconds=${seconds.toFixed(2)} acked_per_s=${(sum("acked") / seconds).toFixed(0)}`
  + ` requests_per_s=${((sum("ack_requests") + sum("claims")) / seconds).toFixed(0)} workers=${parts.length}`);
JS
  rm -f "$work"/wrk-*.out
  curl -sf -X DELETE "http://127.0.0.1:$first/clocks/$clock" >/dev/null
}
run() { # scenario target warm-up?
  local ports; ports=$(ports_of "$2")
  case $1 in
    adds) adds "$2" "$ports" "$([ -n "${3:-}" ] && echo "$warmup_count" || echo "$add_count")";;
    batch) batch "$2" "$ports" "$([ -n "${3:-}" ] && echo "$warmup_seconds" || echo "$seconds")";;
    claims) claims "$2" "$ports" "$([ -n "${3:-}" ] && echo "$warmup_count" || echo "$drain_count")";;
  esac
}
lateness() { # round
  local clock=late$1 k=0 port pids=()
  curl -sf -X PUT "${json[@]}" -d '{"mode":"system"}' "http://127.0.0.1:$a_port/clocks/$clock" >/dev/null
  load pg-2 lateness
  (cd "$work" && node delivery-feed.js rate "$a_port,$b_port" "$clock" "$late_rate" "$((late_seconds + 2))" 2000 "$clock-") \
    > "$work/feed.out" &
  local feed=$!
  sleep 2 # the first timers come due now
  for port in "$a_port" "$b_port"; do
    k=$((k + 1))
    CLOCK=$clock LABEL=pg-2 ACK=batch SKIP_MS=1000 LATE_FILE="$work/late-$k.txt" wrk -t1 -c2 -d"${late_seconds}s" \
      --timeout 5s -s bench/delivery.lua "http://127.0.0.1:$port" > "$work/late-$k.out" &
    pids+=($!)
  done
  wait "${pids[@]}"
  local left; left=$(counts_of "$a_port" "$clock")
  wait "$feed"
  node - "$left" "$(cat "$work/feed.out")" "$work"/late-1.out "$work"/late-2.out "$work"/late-1.txt "$work"/late-2.txt <<'JS'
const fs = require("fs");
const {rows, together} = require("./bench/results.js");
const [left, feed, out1, out2, ...hists] = process.argv.slice(2);
const parts = [...rows(out1), ...rows(out2)], {sum, seconds} = together(parts);
const hist = new Map(); // 0.1 ms bucket -> count, both workers' histograms merged
for (const f of hists) for (const l of fs.readFileSync(f, "utf8").trim().split("\n").filter(Boolean)) {
  const [bucket, n] = l.split(" ").map(Number); hist.set(bucket, (hist.get(bucket) || 0) + n);
}
const buckets = [...hist.keys()].sort((a, b) => a - b), total = buckets.reduce((a, b) => a + hist.get(b), 0);
const pct = p => { let seen = 0; for (const b of buckets) { seen += hist.get(b); if (seen >= Math.ceil(total * p / 100)) return (b / 10).toFixed(1); } return "-"; };
const [ready, inFlight] = left.split(" ");
console.log(`RESULT pg-2 scenario=lateness acked=${sum("acked")} lost=${sum("lost")} errors=${sum("errors") + sum("socket_errors")}`
  + ` acked_per_s=${(sum("acked") / seconds).toFixed(0)} late_n=${total} late_p50_ms=${pct(50)} late_p99_ms=${pct(99)}`
  + ` late_max_ms=${total ? (buckets[buckets.length - 1] / 10).toFixed(1) : "-"} left_ready=${ready} left_in_flight=${inFlight} ${feed}`);
JS
  curl -sf -X DELETE "http://127.0.0.1:$a_port/clocks/$clock" >/dev/null
}

for s in $scenarios; do for t in $targets; do run "$s" "$t" warm-up > /dev/null; done; done # JIT, pools
(while sleep 5; do echo "LOADAVG $(cut -d' ' -f1 /proc/loadavg)"; done) > "$work/loadavg.txt" &
for r in $(seq 1 "$rounds"); do
  order=$targets; [ $((r % 2)) = 0 ] && order=$(echo "$targets" | tr ' ' '\n' | tac | tr '\n' ' ')
  for s in $scenarios; do for t in $order; do echo "ROUND $r"; run "$s" "$t"; done; done
done | tee "$work/results.txt"
if [ "$late_seconds" != 0 ]; then
  for r in $(seq 1 "$late_rounds"); do echo "ROUND $r"; lateness "$r"; done | tee -a "$work/results.txt"
fi
cat "$work/loadavg.txt" >> "$work/results.txt"

node - "$work/results.txt" "$targets" <<'JS'
const fs = require("fs");
const {rows, median, spread, perRound} = require("./bench/results.js");
const [file, targetList] = process.argv.slice(2);
const all = rows(file), targets = targetList.split(" ");
const rate = x => Number(x.ops_per_s ?? x.acked_per_s);
const titles = {adds: "single adds per second", batch: "batched adds (100 per call) per second",
  claims: "claims + acks per second (claim max 100, batch ack)"};
for (const s of ["adds", "batch", "claims"]) {
  const of = all.filter(x => x.scenario === s);
  if (!of.length) continue; // not in SCENARIOS
  console.log(`SUMMARY ${titles[s]}: median [min–max] over rounds; ratios per round`);
  for (const t of targets.filter(t => of.some(x => x.target === t))) {
    const mine = of.filter(x => x.target === t);
    const ratio = base => spread(perRound(of, r => {
      const a = r.find(x => x.target === t), b = r.find(x => x.target === base);
      return a && b ? +(rate(a) / rate(b)).toFixed(2) : NaN;
    }).filter(x => !Number.isNaN(x)));
    console.log(`  ${t}: ${spread(mine.map(rate))}` + (t === "bullmq" ? "" : `; ÷ bullmq ${ratio("bullmq")}`)
      + (t.startsWith("pg") ? ["mem-none", "mem-always"].filter(m => targets.includes(m)).map(m => `; ÷ ${m} ${ratio(m)}`).join("") : "")
      + (s === "claims" && t !== "bullmq" ? `; lost ${spread(mine.map(x => Number(x.lost)))}, errors ${spread(mine.map(x => Number(x.errors)))}` : ""));
  }
}
const pg2 = median(all.filter(x => x.scenario === "claims" && x.target === "pg-2").map(rate));
console.log(`SUMMARY issue 18's target, at least 5,000 claims + acks per second with 2 instances: ${pg2 >= 5000 ? "met" : "missed"} (median ${pg2});`
  + " db-scheduler publishes about 11,000 executions/s (its best strategy, one PostgreSQL; published, not measured here)");
const late = all.filter(x => x.scenario === "lateness");
if (late.length) {
  const col = k => spread(late.map(x => Number(x[k])).filter(x => !Number.isNaN(x)));
  console.log(`SUMMARY lateness with 2 instances (claim answer received − fireTime), median [min–max] over rounds, ms: p50 ${col("late_p50_ms")},`
    + ` p99 ${col("late_p99_ms")}, max ${col("late_max_ms")}; acked/s ${col("acked_per_s")}; left ready ${col("left_ready")}; lost ${col("lost")}`);
}
const load = fs.readFileSync(file, "utf8").split("\n").filter(l => l.startsWith("LOADAVG ")).map(l => Number(l.split(" ")[1]));
if (load.length) console.log(`SUMMARY load average (1 min, every 5 s) during the measured runs: ${spread(load)} over ${load.length} samples`);
JS
