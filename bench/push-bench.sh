#!/usr/bin/env bash
# Issue 32: push delivery, over loopback only, side by side in one session.
#  throughput  pushes per second from TimeService (durability none) to a Node.js receiver that answers 204 at once
#              (bench/push-receiver.js), on a push clock with concurrency 64, in each of MODES (default both):
#              virtual: COUNT timers added through POST /batch, then advances (limit 10,000, each answering with the
#              timers it fired) fire them and the pusher drains them; system (scenario=push-system): COUNT timers
#              added due at one wall-clock time a few seconds ahead, fired by the service's firing thread, as a
#              production push clock fires; the receiver times the
#              first to the last push, and the service's CPU time from the first advance to the last push (utime +
#              stime of its process, /proc, 10 ms ticks) per push, firing included, and of it the JIT compiler threads'
#              (of_it_jit_us); before the advance, it waits (at most 5 s) until the service is idle, so the compilation
#              of the adds' code (Jackson, the batch path) is not charged to the pushes. Against the same receiver's own
#              ceiling: wrk -t2 -c64 POSTing the same body
#              (bench/push-post.lua) for SECONDS. Rounds alternate which goes first.
#  lateness    a system push clock (concurrency 64) with RATE timers per second coming due for LATE_SECONDS
#              (bench/delivery-feed.js rate), the receiver's lateness of first attempts: receive time minus fireTime
#              (whole ms; timers due in the first second left out). Result lines end with the 1-minute load average.
# A warm-up of the ceiling and WARMUPS drains first (default 3, not reported): after one drain, the JIT compilers still
# took more CPU during the measured drains than the push client did (JFR, 2026-12-06).
# Installs what is missing: Node.js, wrk, curl (Debian, bench/need.sh).
# BASE_JAR=<jar> also starts that build (with BASE_JAVA_OPTS, default JAVA_OPTS) beside JAR, on the next port: every
# round then drains on both, the two drains' order alternating with the round, so both builds meet the same machine;
# result lines carry the build (base=, final=). Lateness runs both, one after the other per round.
# COUNT defaults to 200,000: a drain of about 10 s, as long as the ceiling's wrk run, so that both rates cover the same
# span of a noisy machine (20,000 until 2026-12-06: about 1 s, its start included: 64 connections opened, the first
# advance's firing).
# Usage: bench/push-bench.sh [count=200000] [rounds=3]   (SECONDS_CEILING=10, RATE=1000, LATE_SECONDS=30, WARMUPS=3, JAR=,
#        BASE_JAR=, BASE_JAVA_OPTS=)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200000}
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
jar=$(service_jar)
echo "jar $jar ($(git rev-parse --short HEAD)), node $(node -v), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), $(nproc) vCPU"
node bench/push-receiver.js "$rx_port" > "$work/rx.log" 2>&1 &
rx_pid=$!
service() { # jar port opts log: starts one service in the background
  java $3 -jar "$1" --server.address=127.0.0.1 --logging.level.root=WARN --server.port="$2" \
    --timeservice.durability=none --timeservice.push.allow-private-targets=true > "$4" 2>&1 &
}
java_opts=${JAVA_OPTS:--Xms2g -Xmx2g}
service "$jar" "$ts_port" "$java_opts" "$work/ts.log"
final_pid=$!
builds="final"
if [ -n "${BASE_JAR:-}" ]; then
  echo "base jar $BASE_JAR"
  service "$BASE_JAR" $((ts_port + 2)) "${BASE_JAVA_OPTS:-$java_opts}" "$work/ts-base.log"
  base_pid=$!
  builds="final base"
fi
use() { # build: the service the functions below talk to
  if [ "$1" = base ]; then ts_pid=$base_pid; ts_port_now=$((ts_port + 2)); else ts_pid=$final_pid; ts_port_now=$ts_port; fi
  ts="http://127.0.0.1:$ts_port_now"; build=$1
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime, clock ticks
jit_ticks() { # the same of the JIT compiler threads alone
  local t sum=0
  for t in /proc/"$1"/task/*; do
    case "$(cat "$t/comm" 2>/dev/null)" in
      C1\ Compiler*|C2\ Compiler*) sum=$(( sum + $(sed 's/.*) //' "$t/stat" | awk '{print $12 + $13}') )) ;;
    esac
  done
  echo "$sum"
}
quiet() { # waits (at most 5 s) until the service spends under 2 ticks in 200 ms: the adds' compilations are done
  local before
  for _ in $(seq 1 25); do
    before=$(cpu_ticks "$ts_pid"); sleep 0.2
    [ $(( $(cpu_ticks "$ts_pid") - before )) -lt 2 ] && return
  done
}
rx="http://127.0.0.1:$rx_port"
modes=${MODES:-virtual system}
for b in $builds; do
  use "$b"
  for _ in $(seq 1 240); do
    curl -sf "$ts/clock" >/dev/null && curl -sf "$rx/stats" >/dev/null && break
    sleep 0.5
  done
done
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

drain() { # label round mode: COUNT timers pushed at once from a virtual clock (advanced) or a system clock (due at once)
  local clock="push-$3-$2" due=1 settings=""
  [ "$3" = system ] && settings='"mode":"system",'
  json PUT "/clocks/$clock" "{$settings\"delivery\":\"push\",\"push\":{\"url\":\"$rx/hooks\",\"concurrency\":64}}" >/dev/null
  # a system clock's timers are all due at one time, far enough ahead for the adds and the wait for idle to end first
  [ "$3" = system ] && due=$(( $(date +%s%3N) + 3000 + count / 20 ))
  node -e "
    const {httpCaller} = require('./bench/targets.js');
    const call = httpCaller('$ts_port_now', 4);
    (async () => {
      const all = [];
      for (let b = 0; b < $count / 1000; b++) {
        const ops = [];
        for (let i = 0; i < 1000; i++) ops.push('$3' === 'system' ? {op: 'add', id: 't' + (b * 1000 + i), at: $due}
                                                                   : {op: 'add', id: 't' + (b * 1000 + i), delay: 1});
        all.push(call('POST', '/clocks/$clock/batch', {ops}));
      }
      await Promise.all(all);
    })();"
  curl -sf -X POST "$rx/reset" >/dev/null
  quiet
  if [ "$3" = system ] && [ "$(date +%s%3N)" -ge "$due" ]; then
    echo "RESULT $1 build=$build scenario=push-system skipped: the adds ended after the due time" >&2; return
  fi
  local ts_cpu0 rx_cpu0 jit0; ts_cpu0=$(cpu_ticks "$ts_pid"); rx_cpu0=$(cpu_ticks "$rx_pid"); jit0=$(jit_ticks "$ts_pid")
  # nothing but curl and grep runs during the drain: a Node.js process per poll took ~0.4 of a core from the service
  if [ "$3" = virtual ]; then
    json POST "/clocks/$clock/advance?limit=10000" '{"by":1}' > "$work/adv.json"
    until grep -q '"complete":true' "$work/adv.json"; do
      json POST "/clocks/$clock/advance?limit=10000" '{"by":0}' > "$work/adv.json"
    done
  fi
  curl -sf "$rx/await?count=$count" >/dev/null
  local ts_cpu=$(( $(cpu_ticks "$ts_pid") - ts_cpu0 )) rx_cpu=$(( $(cpu_ticks "$rx_pid") - rx_cpu0 )) hz
  local jit=$(( $(jit_ticks "$ts_pid") - jit0 ))
  hz=$(getconf CLK_TCK)
  stats=$(curl -sf "$rx/stats")
  n=$(echo "$stats" | field 'j.count'); ms=$(echo "$stats" | field 'j.lastMs - j.firstMs')
  local scenario=push; [ "$3" = system ] && scenario=push-system
  echo "RESULT $1 build=$build scenario=$scenario pushes=$n ms=$ms pushes_per_s=$(node -e "console.log(Math.round($n * 1000 / Math.max(1, $ms)))") service_cpu_us_per_push=$(( ts_cpu * 1000000 / hz / n )) of_it_jit_us=$(( jit * 1000000 / hz / n )) receiver_cpu_us_per_push=$(( rx_cpu * 1000000 / hz / n )) load1=$(cut -d' ' -f1 /proc/loadavg)"
  curl -sf -X DELETE "$ts/clocks/$clock" >/dev/null
}

lateness() { # label round
  local clock="late-$2"
  json PUT "/clocks/$clock" "{\"mode\":\"system\",\"push\":{\"url\":\"$rx/hooks\",\"concurrency\":64}}" >/dev/null
  from=$(( $(date +%s%3N) + 3000 ))
  curl -sf -X POST "$rx/reset?from=$from" >/dev/null
  node bench/delivery-feed.js rate "$ts_port_now" "$clock" "$rate" "$late_seconds" 2000 "l$2-" | sed "s/^/$1 /"
  sleep 3
  stats=$(curl -sf "$rx/stats")
  echo "RESULT $1 build=$build scenario=lateness rate=$rate count=$(echo "$stats" | field 'j.lateness.count') p50_ms=$(echo "$stats" | field 'j.lateness.p50') p99_ms=$(echo "$stats" | field 'j.lateness.p99') max_ms=$(echo "$stats" | field 'j.lateness.max') load1=$(cut -d' ' -f1 /proc/loadavg)"
  curl -sf -X DELETE "$ts/clocks/$clock" >/dev/null
}

drains() { # label round: each build's drain, the builds' order alternating with the round
  local order=$builds
  [ $((${2#w} % 2)) -eq 0 ] && order=$(echo "$builds" | tr ' ' '\n' | tac | tr '\n' ' ')
  for b in $order; do use "$b"; for m in $modes; do drain "$1" "$2" "$m"; done; done
}
ceiling warmup >/dev/null
for w in $(seq 1 "${WARMUPS:-3}"); do drains warmup "w$w" >/dev/null; done
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then ceiling "round$r"; drains "round$r" "$r"; else drains "round$r" "$r"; ceiling "round$r"; fi
done
for r in $(seq 1 "$rounds"); do for b in $builds; do use "$b"; lateness "round$r" "$r"; done; done
