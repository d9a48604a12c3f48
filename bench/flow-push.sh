#!/usr/bin/env bash
# Issue 44 item 5, pushes: a virtual push clock (concurrency 64, flow control with a concurrency of 5 per key) of
# TimeService (memory store, durability none) pushing to bench/flow-receiver.js on 127.0.0.1, which holds each push
# HOLD_MS (default 10) so that pushes stay in flight. Two cases, alternating which goes first, ROUNDS each (default 3):
#   hot       HOT (default 90,000) timers of key "hot", added first, then COLD_KEYS (1,000) keys of PER_COLD (10)
#             timers each: the hot key holds 90% of the backlog;
#   cold      the same cold timers alone.
# All are due at 1 and fired by advances (limit 10,000 each) until complete; the receiver measures each cold push's
# wait from the end of the last advance (when every delivery was ready; 0 for one that arrived before), as
# store/memory/FlowHotKeyMeasurement counts from its advance, and the most pushes of the hot key ever in flight at
# once; a case ends when every cold push has arrived (at most 120 s), and its clock is deleted then (the hot key's
# rest is never pushed). Prints one RESULT line per case and round, then the
# medians over rounds and the ratio of the cold p99 with the hot key to that without it (goal: at most 2).
# Installs what is missing: Node.js, curl (Debian, bench/need.sh). Loopback only; bounded in count and time.
# Usage: bench/flow-push.sh [rounds=3]   (HOT=90000 COLD_KEYS=1000 PER_COLD=10 HOLD_MS=10 JAR= TS_PORT= RX_PORT=)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
hot=${HOT:-90000}
cold_keys=${COLD_KEYS:-1000}
per_cold=${PER_COLD:-10}
cold=$((cold_keys * per_cold))
ts_port=${TS_PORT:-18097}
rx_port=${RX_PORT:-18098}

. bench/need.sh
need node nodejs; need curl curl
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
jar=$(service_jar)
echo "jar $jar ($(git rev-parse --short HEAD)), node $(node -v), $(nproc) vCPU; hot=$hot cold=$cold_keys x $per_cold hold=${HOLD_MS:-10}ms"
node bench/flow-receiver.js "$rx_port" "${HOLD_MS:-10}" > "$work/rx.log" 2>&1 &
java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" --server.address=127.0.0.1 --logging.level.root=WARN \
  --server.port="$ts_port" --timeservice.durability=none --timeservice.push.allow-private-targets=true \
  > "$work/ts.log" 2>&1 &
ts="http://127.0.0.1:$ts_port"
rx="http://127.0.0.1:$rx_port"
for _ in $(seq 1 240); do
  curl -sf "$ts/clock" >/dev/null && curl -sf "$rx/stats" >/dev/null && break
  sleep 0.5
done
json() { curl -sf -X "$1" "$ts$2" -H 'Content-Type: application/json' -d "$3"; }
field() { node -e "const j=JSON.parse(require('fs').readFileSync(0,'utf8'));console.log($1)"; }

run() { # case round
  local clock="flow-$1-$2" n_hot=0
  [ "$1" = hot ] && n_hot=$hot
  json PUT "/clocks/$clock" "{\"mode\":\"virtual\",\"delivery\":\"push\",
    \"push\":{\"url\":\"$rx/hooks\",\"concurrency\":64},\"flow\":{\"concurrency\":5}}" >/dev/null
  curl -sf -X POST "$rx/reset?clock=$clock" >/dev/null
  node -e "
    const {httpCaller} = require('./bench/targets.js');
    const call = httpCaller('$ts_port', 4);
    (async () => {
      const ops = [];
      for (let i = 0; i < $n_hot; i++) ops.push({op: 'add', id: 'h' + i, delay: 1, key: 'hot'});
      for (let i = 0; i < $cold; i++) ops.push({op: 'add', id: 'c' + i, delay: 1, key: 'k' + (i % $cold_keys)});
      const all = [];
      for (let b = 0; b < ops.length; b += 1000) all.push(call('POST', '/clocks/$clock/batch', {ops: ops.slice(b, b + 1000)}));
      await Promise.all(all);
    })();"
  json POST "/clocks/$clock/advance?limit=10000" '{"by":1}' > "$work/adv.json"
  until grep -q '"complete":true' "$work/adv.json"; do
    json POST "/clocks/$clock/advance?limit=10000" '{"by":0}' > "$work/adv.json"
  done
  local ready; ready=$(date +%s%3N)
  stats=$(curl -sf "$rx/await?cold=$cold&from=$ready")
  curl -sf -X DELETE "$ts/clocks/$clock" >/dev/null
  echo "RESULT case=$1 round=$2 cold=$(echo "$stats" | field 'j.cold') cold_p50_ms=$(echo "$stats" | field 'j.coldWait.p50') cold_p99_ms=$(echo "$stats" | field 'j.coldWait.p99') cold_max_ms=$(echo "$stats" | field 'j.coldWait.max') hot_pushed=$(echo "$stats" | field 'j.hot') hot_most_in_flight=$(echo "$stats" | field 'j.hotMostInFlight') most_in_flight=$(echo "$stats" | field 'j.inFlightMost') load1=$(cut -d' ' -f1 /proc/loadavg)"
}
run cold warmup >/dev/null
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then run hot "$r"; run cold "$r"; else run cold "$r"; run hot "$r"; fi
done | tee "$work/results"
[ -s "$work/results" ] || { echo "no case ran" >&2; exit 1; }
node -e "
  const lines = require('fs').readFileSync('$work/results', 'utf8').trim().split('\n');
  const of = (c, f) => lines.filter(l => l.includes('case=' + c + ' ')).map(l => Number(new RegExp(f + '=([0-9.]+)').exec(l)[1]));
  const med = a => { const s = a.slice().sort((x, y) => x - y), n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
  const span = a => 'median ' + med(a) + ' [' + Math.min(...a) + '-' + Math.max(...a) + ']';
  for (const c of ['hot', 'cold']) console.log('SUMMARY case=' + c + ' cold_p50_ms ' + span(of(c, 'cold_p50_ms')) + ', cold_p99_ms ' + span(of(c, 'cold_p99_ms')) + ', hot_most_in_flight max ' + Math.max(...of(c, 'hot_most_in_flight')));
  console.log('SUMMARY cold p99 with the hot key / without: ' + (med(of('hot', 'cold_p99_ms')) / med(of('cold', 'cold_p99_ms'))).toFixed(2));"
