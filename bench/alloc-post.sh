#!/usr/bin/env bash
# Bytes the JVM allocates per POST /timers, for several jars one after the other (127.0.0.1 only, bounded): each jar
# is started, warmed up with the measured request (bench/post.lua), reset (TimeService) and settled for 3 s, then a
# full collection, Micrometer's allocation counter (jvm_gc_memory_allocated_bytes_total, which every collection
# brings up to date) read, a measured wrk window, another full collection and the counter again: the difference over
# the window's requests is exact, not sampled. Prints one ALLOC line per jar.
# Usage: bench/alloc-post.sh warmupSeconds windowSeconds label=jar[@readyPath] ...
#   e.g. bench/alloc-post.sh 60 15 bare=bench/stack-baseline/target/stack-baseline-0.1.0-SNAPSHOT.jar@/actuator/health \
#        new=target/timeservice-0.1.0-SNAPSHOT.jar
# A jar with a ready path is not TimeService: no TimeService options, and a GET of that path instead of the reset.
set -uo pipefail
cd "$(dirname "$0")/.."
warm=$1; window=$2; shift 2
conns=${CONNECTIONS:-64}; port=18111
export BENCH_DIR="$PWD/bench"
. bench/need.sh
need wrk wrk; need curl curl
allocated() { curl -sf "$url/actuator/prometheus" | awk '/^jvm_gc_memory_allocated_bytes_total/ {s += $2} END {printf "%.0f", s}'; }
for spec in "$@"; do
  label=${spec%%=*}; rest=${spec#*=}; jar=${rest%@*}; ready=
  [ "$rest" != "$jar" ] && ready=${rest#*@}
  args=(--server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN)
  [ -z "$ready" ] && args+=(--timeservice.durability=none --timeservice.demo.enabled=true)
  java -Xms2g -Xmx2g ${JVM_OPTS:-} -jar "$jar" "${args[@]}" > /dev/null 2>&1 &
  pid=$!
  url="http://127.0.0.1:$port"
  for _ in $(seq 1 240); do curl -sf "$url${ready:-/clock}" >/dev/null && break; sleep 0.5; done
  wrk -t2 -c"$conns" -d"${warm}s" -s bench/post.lua "$url" >/dev/null
  if [ -z "$ready" ]; then curl -sf -X POST "$url/demo/reset" >/dev/null; else curl -sf "$url$ready" >/dev/null; fi
  ID_PREFIX=s wrk -t2 -c"$conns" -d3s -s bench/post.lua "$url" >/dev/null
  jcmd "$pid" GC.run >/dev/null; before=$(allocated)
  line=$(wrk -t2 -c"$conns" -d"${window}s" --timeout 10s -s bench/post.lua "$url" | grep RESULT)
  jcmd "$pid" GC.run >/dev/null; after=$(allocated)
  requests=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<< "$line")
  echo "ALLOC $label bytes_per_request=$(( (after - before) / requests )) requests=$requests ${line#RESULT requests=* }"
  kill "$pid"; wait "$pid" 2>/dev/null
done
