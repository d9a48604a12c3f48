#!/usr/bin/env bash
# Issue 30: the Java client's add throughput from THREADS threads against the same load from wrk, over loopback.
#   wrk          bench/post.lua with CLOCKS=1: POST /clocks/bench-0/timers over THREADS connections (2 wrk threads)
#   java-client  AddThroughput (clients/java/tests/src/test/java/io/timeservice/client/bench): ClockClient.add on
#                bench-0 from THREADS threads sharing one TimeServiceClient, the same ids, delays and priorities;
#                WARMUP seconds unmeasured in its own JVM first (the client's JIT)
# One TimeService (durability none), warmed up first with wrk (SERVICE_WARMUP seconds of post.lua: the service's JIT);
# before every run the clock bench-0 is deleted and created again (empty heap). Rounds alternate which goes first.
# Installs what is missing: wrk, curl (Debian, bench/need.sh). Prints RESULT and LOAD lines, then the medians and the
# ratio per round.
# Usage: clients/java/bench/add-throughput.sh [seconds=15] [threads=64] [rounds=3]
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds=${1:-15}
threads=${2:-64}
rounds=${3:-3}
warmup=${WARMUP:-20}
service_warmup=${SERVICE_WARMUP:-60}
ts_port=${TS_PORT:-18192}
url="http://127.0.0.1:$ts_port"

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
. clients/java/bench/common.sh
need wrk wrk
echo "$(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)"
start_ts "$ts_port" --timeservice.capacity=10000000 --timeservice.capacity-bytes=2GB
wait_ts "$ts_port"

fresh_clock() {
  curl -s -o /dev/null -X DELETE "$url/clocks/bench-0"
  curl -sf -o /dev/null -X PUT -H 'Content-Type: application/json' -d '{"now":0}' "$url/clocks/bench-0"
}
# run target [seconds label]: one measured run, or a warm-up with the given length. Its RESULT line ends with the
# client's own CPU time per add (user + system; wrk's from bash's time, the JVM's from its measured window), which
# a loaded machine disturbs far less than the rates.
run() {
  local seconds=${2:-$seconds} label=${3:-$1} result wrk_cpu requests
  fresh_clock
  echo "LOAD target=$1 loadavg=$(cut -d' ' -f1-3 /proc/loadavg)"
  if [ "$1" = wrk ]; then
    result=$( { TIMEFORMAT='%U %S'; time CLOCKS=1 ID_PREFIX="r$RANDOM" BENCH_DIR="$PWD/bench" wrk -t2 -c"$threads" \
      -d"${seconds}s" --timeout 10s -s bench/post.lua "$url" | grep RESULT | sed "s/^RESULT/RESULT $label/"; } 2>&1)
    wrk_cpu=$(echo "$result" | tail -1)
    result=$(echo "$result" | grep RESULT)
    requests=$(echo "$result" | sed 's/.*requests=\([0-9]*\).*/\1/')
    result="$result client_cpu_us_per_req=$(echo "$wrk_cpu" | awk -v n="$requests" '{printf "%.1f", ($1 + $2) * 1e6 / n}')"
  else
    result=$(java -cp "$client_cp" io.timeservice.client.bench.AddThroughput "$url" bench-0 "$threads" "$seconds" \
      "$warmup" "$label" | grep RESULT)
  fi
  echo "$result"
}

run wrk "$service_warmup" warmup-wrk >/dev/null
rounds wrk java-client rps "SUMMARY seconds=$seconds threads=$threads rounds=$rounds"
summarize wrk java-client client_cpu_us_per_req
