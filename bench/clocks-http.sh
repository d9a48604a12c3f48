#!/usr/bin/env bash
# POST /clocks/{clock}/timers spread over 4 clocks against all on 1 clock, same connections, one service, one
# session (127.0.0.1 only, bounded): issue 15's "no new serialization" check. Durability none.
# Usage: bench/clocks-http.sh [seconds] [rounds] [warmupSeconds] [connections]   (defaults 20 3 30 64)
# Each round runs 1 clock, then 4 clocks (alternating which goes first, round by round); before every run the
# clocks bench-0..bench-3 are deleted and created again, so every run starts on empty heaps. One warm-up (wrk,
# both shapes) before the first round. Prints one RESULT line per run (bench/report.lua) and the 4/1 ratio per round.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}; rounds=${2:-3}; warm=${3:-30}; conns=${4:-64}
port=${PORT:-18093}
jar=${JAR:-$(ls target/timeservice-*.jar 2>/dev/null | grep -v original | head -1)}
export BENCH_DIR="$PWD/bench"
. bench/need.sh
need wrk wrk; need curl curl
if [ -z "$jar" ]; then
  ./mvnw -B -ntp -q package -DskipTests && jar=$(ls target/timeservice-*.jar | grep -v original | head -1)
fi
log=$(mktemp)
java -Xms2g -Xmx2g -jar "$jar" --server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN \
  --timeservice.durability=none > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
url="http://127.0.0.1:$port"
for _ in $(seq 1 240); do curl -sf "$url/clock" >/dev/null && break; sleep 0.5; done
curl -sf "$url/clock" >/dev/null || { echo "service did not start:"; cat "$log"; exit 1; }
fresh_clocks() {
  for k in 0 1 2 3; do
    curl -s -o /dev/null -X DELETE "$url/clocks/bench-$k"
    curl -sf -o /dev/null -X PUT -H 'Content-Type: application/json' -d '{"now":0}' "$url/clocks/bench-$k" \
      || { echo "could not create bench-$k"; exit 1; }
  done
}
run() { # clocks seconds label
  fresh_clocks
  CLOCKS=$1 wrk -t2 -c"$conns" -d"$2s" --timeout 10s -s bench/post.lua "$url" | grep RESULT \
    | sed "s/^RESULT/$3 clocks=$1/"
}
run 1 $((warm / 2)) warmup >/dev/null
run 4 $((warm / 2)) warmup >/dev/null
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="1 4"; else order="4 1"; fi
  declare -A rps=()
  for n in $order; do
    line=$(run "$n" "$secs" "round=$round")
    echo "$line"
    rps[$n]=$(sed 's/.* rps=\([0-9]*\).*/\1/' <<< "$line")
  done
  echo "round=$round ratio_4_over_1=$(awk -v a="${rps[4]}" -v b="${rps[1]}" 'BEGIN { printf "%.3f", a / b }')"
done
