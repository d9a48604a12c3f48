#!/usr/bin/env bash
# One POST /timers measurement of one jar and configuration, for A/B runs back to back (127.0.0.1 only, bounded).
# Usage: [JAR=path] [MODE=none|always|interval|never] [PERF=1] bench/ab-post.sh label warmupSeconds seconds [service args]
#   e.g. JAR=/tmp/old.jar bench/ab-post.sh old 40 15 --server.tomcat.threads.max=4
# WARM_SCRIPT=post.lua warms up with the measured request instead of the mixed workload; for a jar that is not
# TimeService (bench/stack-ceiling.sh), READY=/actuator/health is the path polled until it answers and RESET=0 skips
# the /demo/reset before warm-up and measurement. JVM_OPTS adds JVM options (e.g. -Xlog:gc:file=/tmp/gc.log).
# Prints one RESULT line (bench/report.lua) and the machine's CPU busy share during the measurement. PERF=1 also
# records `perf record -F 499 -g` of the service into /tmp/<label>.perf, with a JIT symbol map written at exit.
set -uo pipefail
cd "$(dirname "$0")/.."
label=$1; warm=$2; secs=$3; shift 3
port=${PORT:-18091}; conns=${CONNECTIONS:-64}; mode=${MODE:-none}
jar=${JAR:-$(ls target/timeservice-*.jar | grep -v original | head -1)}
export BENCH_DIR="$PWD/bench"
. bench/need.sh
need wrk wrk; need curl curl
[ "${PERF:-0}" = 1 ] && need perf linux-perf
data=$(mktemp -d)
args=(--server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN --timeservice.demo.enabled=true)
if [ "$mode" = none ]; then args+=(--timeservice.durability=none); else
  args+=(--timeservice.durability=journal --timeservice.fsync="$mode" --timeservice.data-dir="$data"); fi
jvm=(-Xms2g -Xmx2g ${JVM_OPTS:-})
[ "${PERF:-0}" = 1 ] && jvm+=(-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer)
java "${jvm[@]}" -jar "$jar" "${args[@]}" "$@" > "$data/service.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$data"' EXIT
url="http://127.0.0.1:$port"
for _ in $(seq 1 240); do curl -sf "$url${READY:-/clock}" >/dev/null && break; sleep 0.5; done
reset() { if [ "${RESET:-1}" = 1 ]; then curl -sf -X POST "$url/demo/reset" >/dev/null; fi; }
reset
wrk -t2 -c"$conns" -d"${warm}s" -s "bench/${WARM_SCRIPT:-mixed.lua}" "$url" >/dev/null
reset
if [ "${PERF:-0}" = 1 ]; then
  perf record -F 499 -g -o "/tmp/$label.perf" -p "$pid" -- sleep $((secs - 2)) >/dev/null 2>&1 &
  perf_pid=$!
fi
read -r _ u1 n1 s1 i1 _ < <(head -1 /proc/stat)
wrk -t2 -c"$conns" -d"${secs}s" --timeout 10s -s bench/post.lua "$url" | grep RESULT | sed "s/^RESULT/$label mode=$mode/"
read -r _ u2 n2 s2 i2 _ < <(head -1 /proc/stat)
echo "$label cpu_busy=$(( 100 * ((u2 + n2 + s2) - (u1 + n1 + s1)) / ((u2 + n2 + s2 + i2) - (u1 + n1 + s1 + i1)) ))%"
if [ -n "${perf_pid:-}" ]; then wait "$perf_pid"; fi
