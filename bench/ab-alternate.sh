#!/usr/bin/env bash
# POST /timers on several jars, measured in alternating windows so that other load on the machine hits them alike:
# every jar is started on its own port and warmed up in turn (wrk with post.lua), then each round measures every jar
# for one window, rotating which goes first. Prints each window's RESULT line and, per jar, the median req/s and the
# median [min-max] of the per-round ratios to the first jar. 127.0.0.1 only, bounded in count and time.
# Usage: bench/ab-alternate.sh warmupSeconds windowSeconds rounds label=jar[@readyPath] ...
#   e.g. bench/ab-alternate.sh 150 10 6 bare=bench/stack-baseline/target/stack-baseline-0.1.0-SNAPSHOT.jar@/actuator/health \
#        new=target/timeservice-0.1.0-SNAPSHOT.jar old=/tmp/old.jar
# A jar with a ready path is not TimeService: it gets no TimeService options and no /demo/reset before a window.
# TimeService runs with durability none and the demo endpoints (reset before every window); JVM_OPTS adds JVM options.
# SETTLE=seconds (default 0) runs wrk unmeasured for that long before every window, after the reset (TimeService) or
# a GET of the ready path (other jars): the reset is a request off the measured path, and the JIT recompiles the
# request path after it (a second of compilations, measured in docs/BENCHMARKS.md); with SETTLE every jar gets one
# request off the path and the same settling time, and the window measures the steady state only.
set -uo pipefail
cd "$(dirname "$0")/.."
warm=$1; window=$2; rounds=$3; shift 3
conns=${CONNECTIONS:-64}
export BENCH_DIR="$PWD/bench"
. bench/need.sh
need wrk wrk; need curl curl
labels=(); ports=(); pids=(); readies=()
logs=$(mktemp -d)
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$logs"' EXIT
port=18101
for spec in "$@"; do
  label=${spec%%=*}; rest=${spec#*=}; jar=${rest%@*}; ready=
  [ "$rest" != "$jar" ] && ready=${rest#*@}
  args=(--server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN)
  [ -z "$ready" ] && args+=(--timeservice.durability=none --timeservice.demo.enabled=true)
  java -Xms2g -Xmx2g ${JVM_OPTS:-} -jar "$jar" "${args[@]}" > "$logs/$label.log" 2>&1 &
  pids+=($!); labels+=("$label"); ports+=("$port"); readies+=("${ready:-/clock}")
  port=$((port + 1))
done
settle=${SETTLE:-0}
reset() {
  if [ "${readies[$1]}" = /clock ]; then curl -sf -X POST "http://127.0.0.1:${ports[$1]}/demo/reset" >/dev/null
  elif [ "$settle" != 0 ]; then curl -sf "http://127.0.0.1:${ports[$1]}${readies[$1]}" >/dev/null; fi
  if [ "$settle" != 0 ]; then
    ID_PREFIX=s wrk -t2 -c"$conns" -d"${settle}s" -s bench/post.lua "http://127.0.0.1:${ports[$1]}" >/dev/null
  fi
}
for i in "${!labels[@]}"; do
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:${ports[$i]}${readies[$i]}" >/dev/null && break; sleep 0.5; done
  reset "$i"
  wrk -t2 -c"$conns" -d"${warm}s" -s bench/post.lua "http://127.0.0.1:${ports[$i]}" >/dev/null
done
results=$logs/results
n=${#labels[@]}
for round in $(seq 0 $((rounds - 1))); do
  for k in $(seq 0 $((n - 1))); do
    i=$(( (k + round) % n ))
    reset "$i"
    line=$(wrk -t2 -c"$conns" -d"${window}s" --timeout 10s -s bench/post.lua "http://127.0.0.1:${ports[$i]}" | grep RESULT)
    echo "round=$round ${labels[$i]} ${line#RESULT }"
    echo "$round ${labels[$i]} $(sed -E 's/.* rps=([0-9]+).*/\1/' <<< "$line")" >> "$results"
  done
done
python3 - "$results" "${labels[@]}" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
labels = sys.argv[2:]
rps = {(int(r), l): float(v) for r, l, v in rows}
rounds = sorted({r for r, _ in rps})
for label in labels:
    mine = [rps[(r, label)] for r in rounds]
    ratios = [rps[(r, label)] / rps[(r, labels[0])] for r in rounds]
    print(f"SUMMARY {label}: median {statistics.median(mine):.0f} req/s [{min(mine):.0f}-{max(mine):.0f}], "
          f"ratio to {labels[0]} median {statistics.median(ratios):.3f} [{min(ratios):.3f}-{max(ratios):.3f}]")
PY
