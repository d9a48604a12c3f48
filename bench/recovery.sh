#!/usr/bin/env bash
# Recovery time of a journaled TimeService holding COUNT pending timers (default 1,000,000), after a graceful stop
# and after SIGKILL, plus the snapshot pauses logged while loading. 127.0.0.1 only.
# Usage: [EXTRA_ARGS="--timeservice.snapshot.multiple=1"] bench/recovery.sh [count] [fsync=never]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
fsync=${2:-never}
port=${PORT:-18092}
. bench/need.sh
need node nodejs; need curl curl
jar=$(service_jar)
data=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$data"' EXIT
start_service() { # log file
  java ${JAVA_OPTS:--Xms3g -Xmx3g} -jar "$jar" --server.port="$port" --server.address=127.0.0.1 \
    --timeservice.data-dir="$data" --timeservice.fsync="$fsync" --logging.level.root=WARN \
    --logging.level.io.timeservice=INFO ${EXTRA_ARGS:-} > "$1" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do grep -q "TimeService ready" "$1" && return; sleep 0.5; done
  echo "service did not start" >&2; cat "$1" >&2; exit 1
}
start_service "$data/load.log"
node bench/preload.js "$port" "$count"
grep -o "snapshot [0-9]* written.*" "$data/load.log" | sed 's/^/load: /' || true
kill -TERM $pid; wait $pid || true
du -sh "$data" | sed 's/^/data directory: /'
start_service "$data/restart.log"
grep -o "recovered .*" "$data/restart.log" | sed 's/^/after graceful stop: /'
curl -sf "http://127.0.0.1:$port/queue" | sed 's/^/queue: /'; echo
kill -KILL $pid; wait $pid 2>/dev/null || true
start_service "$data/crash.log"
grep -o "recovered .*" "$data/crash.log" | sed 's/^/after SIGKILL: /'
kill -TERM $pid; wait $pid || true
