#!/usr/bin/env bash
# Issue 32: push delivery, over loopback only, side by side in one session.
#  throughput  pushes per second from TimeService (durability none) to a Node.js receiver that answers 204 at once
#              (bench/push-receiver.js), on a virtual push clock with concurrency 64: COUNT timers added through
#              POST /batch, then advances fire them all at once and the pusher drains them; the receiver times the
#              first to the last push, and the service's CPU time from the first advance to the last push (utime +
#              stime of its process, /proc, 10 ms ticks) per push, firing included. Against the same receiver's own
#              ceiling: wrk -t2 -c64 POSTing the same body
#              (bench/push-post.lua) for SECONDS. Rounds alternate which goes first.
#  lateness    a system push clock (concurrency 64) with RATE timers per second coming due for LATE_SECONDS
#              (bench/delivery-feed.js rate), the receiver's lateness of first attempts: receive time minus fireTime
#              (whole ms; timers due in the first second left out). Result lines end with the 1-minute load average.
# A warm-up of the ceiling and WARMUPS drains first (default 3, not reported): after one drain, the JIT compilers still
# took more CPU during the measured drains than the push client did (JFR, 2026-12-06).
# Installs what is missing: Node.js, wrk, curl (Debian, bench/need.sh).
# Usage: bench/push-bench.sh [count=20000] [rounds=3]   (SECONDS_CEILING=10, RATE=1000, LATE_SECONDS=30, WARMUPS=3, JAR=)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20000}
rounds=${2:-3}
ceiling_seconds=${SECONDS_CEILING:-10}
rate=${RATE:-1000}
late_seconds=${LATE_SECONDS:-30}
ts_port=${TS_PORT:-18095}
rx_port=${RX_PORT:-18096}

. bench/need.sh
need node nodejs; need wrk wrk; need curl curl
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
jar=${JAR:-$(ls target/timeservice-*.jar 2>/dev/null | grep -v original | head -1 || true)}
if [ -z "$jar" ]; then ./mvnw -B -ntp -q package -DskipTests; jar=$(ls target/timeservice-*.jar | grep -v original | head -1); fi
echo "jar $jar ($(git rev-parse --short HEAD)), node $(node -v), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), $(nproc) vCPU"
node bench/push-receiver.js "$rx_port" > "$work/rx.log" 2>&1 &
rx_pid=$!
java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" --server.address=127.0.0.1 --logging.level.root=WARN \
  --server.port="$ts_port" --timeservice.durability=none --timeservice.push.allow-private-targets=true \
  > "$work/ts.log" 2>&1 &
ts_pid=$!
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime, clock ticks
for _ in $(seq 1 240); do
  curl -sf "http://127.0.0.1:$ts_port/clock" >/dev/null && curl -sf "http://127.0.0.1:$rx_port/stats" >/dev/null && break
  sleep 0.5
done
ts="http://127.0.0.1:$ts_port"
rx="http://127.0.0.1:$rx_port"
json() { curl -sf -X "$1" "$ts$2" -H 'Content-Type: application/json' -d "$3"; }
field() { node -e "const j=JSON.parse(require('fs').readFileSync(0,'utf8'));console.log($1)"; }

ceiling() { # label
  curl -sf -X POST "$rx/reset" >/dev/null
  local rx_cpu0; rx_cpu0=$(cpu_ticks "$rx_pid")
  out=$(wrk -t2 -c64 -d"${ceiling_seconds}s" -s bench/push-post.lua "$rx/hooks")
  local rx_cpu=$(( $(cpu_ticks "$rx_pid") - rx_cpu0 ))
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  reqs=$(echo "$out" | awk '/requests in/ {print $1}')
  echo "RESULT $1 scenario=ceiling req_per_s=$rps receiver_cpu_us_per_req=$(( rx_cpu * 1000000 / $(getconf CLK_TCK) / reqs ))"
}

drain() { # label round
  local clock="push-$2"
  json PUT "/clocks/$clock" "{\"delivery\":\"push\",\"push\":{\"url\":\"$rx/hooks\",\"concurrency\":64}}" >/dev/null
  node -e "
    const {httpCaller} = require('./bench/targets.js');
    const call = httpCaller('$ts_port', 4);
    (async () => {
      const all = [];
      for (let b = 0; b < $count / 1000; b++) {
        const ops = [];
        for (let i = 0; i < 1000; i++) ops.push({op: 'add', id: 't' + (b * 1000 + i), delay: 1});
        all.push(call('POST', '/clocks/$clock/batch', {ops}));
      }
      await Promise.all(all);
    })();"
  curl -sf -X POST "$rx/reset" >/dev/null
  local ts_cpu0 rx_cpu0; ts_cpu0=$(cpu_ticks "$ts_pid"); rx_cpu0=$(cpu_ticks "$rx_pid")
  json POST "/clocks/$clock/advance?limit=10000" '{"by":1}' > "$work/adv.json"
  while [ "$(field 'j.complete' < "$work/adv.json")" != "true" ]; do
    json POST "/clocks/$clock/advance?limit=10000" '{"by":0}' > "$work/adv.json"
  done
  for _ in $(seq 1 600); do
    n=$(curl -sf "$rx/stats" | field 'j.count')
    [ "$n" -ge "$count" ] && break
    sleep 0.1
  done
  local ts_cpu=$(( $(cpu_ticks "$ts_pid") - ts_cpu0 )) rx_cpu=$(( $(cpu_ticks "$rx_pid") - rx_cpu0 )) hz
  hz=$(getconf CLK_TCK)
  stats=$(curl -sf "$rx/stats")
  n=$(echo "$stats" | field 'j.count'); ms=$(echo "$stats" | field 'j.lastMs - j.firstMs')
  echo "RESULT $1 scenario=push pushes=$n ms=$ms pushes_per_s=$(node -e "console.log(Math.round($n * 1000 / Math.max(1, $ms)))") service_cpu_us_per_push=$(( ts_cpu * 1000000 / hz / n )) receiver_cpu_us_per_push=$(( rx_cpu * 1000000 / hz / n )) load1=$(cut -d' ' -f1 /proc/loadavg)"
  curl -sf -X DELETE "$ts/clocks/$clock" >/dev/null
}

lateness() { # label round
  local clock="late-$2"
  json PUT "/clocks/$clock" "{\"mode\":\"system\",\"push\":{\"url\":\"$rx/hooks\",\"concurrency\":64}}" >/dev/null
  from=$(( $(date +%s%3N) + 3000 ))
  curl -sf -X POST "$rx/reset?from=$from" >/dev/null
  node bench/delivery-feed.js rate "$ts_port" "$clock" "$rate" "$late_seconds" 2000 "l$2-" | sed "s/^/$1 /"
  sleep 3
  stats=$(curl -sf "$rx/stats")
  echo "RESULT $1 scenario=lateness rate=$rate count=$(echo "$stats" | field 'j.lateness.count') p50_ms=$(echo "$stats" | field 'j.lateness.p50') p99_ms=$(echo "$stats" | field 'j.lateness.p99') max_ms=$(echo "$stats" | field 'j.lateness.max') load1=$(cut -d' ' -f1 /proc/loadavg)"
  curl -sf -X DELETE "$ts/clocks/$clock" >/dev/null
}

ceiling warmup >/dev/null
for w in $(seq 1 "${WARMUPS:-3}"); do drain warmup "w$w" >/dev/null; done
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then ceiling "round$r"; drain "round$r" "$r"; else drain "round$r" "$r"; ceiling "round$r"; fi
done
for r in $(seq 1 "$rounds"); do lateness "round$r" "$r"; done
