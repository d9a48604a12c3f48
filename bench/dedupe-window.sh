#!/usr/bin/env bash
# Issue 43 item 5: adds on a clock that fired 1,000,000 timers in the last hour, with a one-hour dedupe window (every
# fired id reserved) and without, side by side in one JMH run (store/memory/DedupeAddBenchmark); the setup prints the
# heap each reservation takes. Arguments go to JMH after the defaults, e.g. bench/dedupe-window.sh -i 10.
# For a loaded machine, three more levels, each in CPU time in alternating rounds, both clocks in one process:
# bench/dedupe-window.sh --cpu [rounds [adds [nolookups]]]: the engine, MemoryClock.add in the adding thread's CPU
#   time (store/memory/DedupeAddCpuTime).
# bench/dedupe-window.sh --store [rounds [adds [threads]]]: the store's add path as the service runs it,
#   TimerStore.add with the journal on (fsync=always) from 32 threads; the process's and the adding threads' CPU
#   time (store/memory/DedupeStoreAddCpuTime).
# bench/dedupe-window.sh --http [rounds [seconds [connections]]]: POST /clocks/{w0,w1}/timers against the service jar
#   (journal on, its defaults) with wrk, the service process's CPU time per request (/proc/<pid>/stat) and the
#   requests per second, rounds of `seconds` (default 25 rounds of 10 s after 3 warm-up rounds, 64 connections).
# JAVA_OPTS='-Dsteady=true' (STEADY=1 for --http) measures the steady state (each round's adds fire after it, the
# reservations stay about a million, nothing piles up pending), '-Dscattered=true' (--cpu) with random-looking ids.
set -euo pipefail
cd "$(dirname "$0")/.."
java_class() { # class args...: runs a class of src/jmh with the test classpath
  local class=$1; shift
  ./mvnw -B -ntp -q -Pjmh test-compile
  classpath=$(./mvnw -B -ntp -q -Pjmh dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)
  exec java ${JAVA_OPTS:-} -Xms4g -Xmx4g -cp "target/test-classes:target/classes:$classpath" \
    "io.timeservice.store.memory.$class" "$@"
}
http() { # rounds seconds connections
  local rounds=${1:-25} secs=${2:-10} conns=${3:-64} warm=3 port=${PORT:-18095} steady=${STEADY:-0}
  export BENCH_DIR="$PWD/bench"
  . bench/need.sh
  need wrk wrk; need curl curl
  local jar data url pid
  jar=$(service_jar)
  data=$(mktemp -d)
  java -Xms4g -Xmx4g -jar "$jar" --server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN \
    --timeservice.data-dir="$data" --timeservice.capacity=20000000 --timeservice.capacity-bytes=3GB \
    --timeservice.dedupe.max-reservations=4000000 > "$data/service.log" 2>&1 &
  pid=$!
  trap "kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf '$data'" EXIT
  url="http://127.0.0.1:$port"
  for _ in $(seq 1 240); do curl -sf "$url/clock" >/dev/null && break; sleep 0.5; done
  curl -sf "$url/clock" >/dev/null || { echo "service did not start:"; cat "$data/service.log"; exit 1; }
  advance_to() { # clock time: fires everything due by time, 10,000 per call
    until curl -sf -X POST -H 'Content-Type: application/json' -d "{\"to\":$2}" \
        "$url/clocks/$1/advance?limit=10000" | grep -q '"complete":true'; do :; done
  }
  local c window
  for c in w0 w1; do
    window=0; [ $c = w1 ] && window=3600000
    curl -sf -o /dev/null -X PUT -H 'Content-Type: application/json' -d "{\"now\":0,\"dedupeWindow\":$window}" \
      "$url/clocks/$c"
    for b in $(seq 0 999); do # 1,000,000 timers due within 3,000,000 ms, in batches of 1,000
      awk -v b="$b" 'BEGIN { printf "{\"ops\":["; for (i = b * 1000; i < b * 1000 + 1000; i++)
        printf "%s{\"op\":\"add\",\"id\":\"order-%d\",\"delay\":%d}", (i > b * 1000 ? "," : ""), i, 1 + (i * 7919) % 3000000
        printf "]}" }' | curl -sf -o /dev/null -H 'Content-Type: application/json' --data-binary @- "$url/clocks/$c/batch"
    done
    advance_to $c 3000000
    echo "$c (window $window): $(curl -sf "$url/clocks/$c" | grep -o '"size":[0-9]*'), fired 1,000,000"
  done
  local delay=3600000; [ "$steady" = 1 ] && delay=1
  declare -A now=([w0]=3000000 [w1]=3000000)
  cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
  local round k order line ticks requests
  for round in $(seq 1 $((rounds + warm))); do
    order="w0 w1"; [ $((round % 2)) = 0 ] && order="w1 w0"
    for c in $order; do
      ticks=$(cpu_ticks)
      line=$(CLOCK=$c DELAY=$delay ID_PREFIX="r$round-" wrk -t2 -c"$conns" -d"${secs}s" --timeout 10s \
        -s bench/post.lua "$url" | grep RESULT)
      ticks=$(( $(cpu_ticks) - ticks ))
      requests=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<< "$line")
      [ "$round" -gt "$warm" ] && echo "http $c round=$((round - warm)) cpu_us_per_request=$(awk -v t="$ticks" \
        -v r="$requests" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t * 1e6 / hz / r }') ${line#RESULT }"
      if [ "$steady" = 1 ]; then # not measured: the round's adds fire, the oldest reservations expire
        now[$c]=$(( now[$c] + 3 * requests ))
        advance_to $c "${now[$c]}"
      fi
    done
  done
}
case "${1:-}" in
  --cpu) shift; java_class DedupeAddCpuTime "$@" ;;
  --store) shift; java_class DedupeStoreAddCpuTime "$@" ;;
  --http) shift; http "$@" ;;
  *) ./mvnw -B -ntp -q -Pjmh test-compile exec:exec@jmh -Djmh.args="DedupeAddBenchmark -f 1 -wi 3 -i 5 $*" ;;
esac
