#!/usr/bin/env bash
# The operator console's server calls at size (issue 45 item 4), memory store: 10,000 clocks, one clock with 1,000,000
# pending timers and 100,000 dead letters; each call a console page makes, timed RUNS times (bench/console-at-size.js).
# Usage: bench/console-at-size.sh   (env: RUNS=7 CLOCKS=10000 TIMERS=1000000 DEAD=100000 PORT=18094 JAR=...)
set -uo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-18094}
jar=${JAR:-$(ls target/timeservice-*.jar 2>/dev/null | grep -v original | head -1)}
export BENCH_DIR="$PWD/bench"
. bench/need.sh
need node nodejs; need curl curl
if [ -z "$jar" ]; then
  ./mvnw -B -ntp -q package -DskipTests && jar=$(ls target/timeservice-*.jar | grep -v original | head -1)
fi
log=$(mktemp)
java -Xms3g -Xmx3g -jar "$jar" --server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN \
  --timeservice.durability=none --timeservice.capacity=2000000 --timeservice.deliveries.max=200000 \
  --timeservice.clocks.max=20000 > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
url="http://127.0.0.1:$port"
for _ in $(seq 1 240); do curl -sf "$url/clock" >/dev/null && break; sleep 0.5; done
curl -sf "$url/clock" >/dev/null || { echo "service did not start:"; cat "$log"; exit 1; }
URL="$url" node bench/console-at-size.js
