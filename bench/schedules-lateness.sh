#!/usr/bin/env bash
# Issue 31: COUNT minutely schedules on one system clock of the memory store (durability none), over loopback only.
#  lateness  the service's own fire-lag histogram (timer_fire_lag_seconds: firing time minus fireTime; occurrences are
#            timers, so it is their lateness), as the difference of two /actuator/prometheus scrapes taken 30 s past a
#            minute, MINUTES whole minutes apart, so the window holds exactly MINUTES occurrences of every schedule;
#            p50/p99 are the upper bounds of the buckets where the cumulative counts cross 50% and 99%.
#  memory    used heap (jvm_memory_used_bytes, area heap) after a full collection (jcmd GC.run) before and after
#            creating the schedules, divided by COUNT. They are created paused (each with its pending occurrence) and
#            resumed afterwards, so that no occurrence fires while they are created and no delivery is in the figure.
# A system clock delivers through its queue and nothing claims here, so the delivery limit is raised to hold every
# delivery of the run (COUNT per minute).
#  cpu       the firing thread's (timeservice-firing) user+system CPU from /proc over the same window, per occurrence.
# KIND=cron ({"cron":"* * * * *"}, all due on the minute) or every ({"every":60000}, spread over the minute by their
# resume times). Schedules are created with PUT /clocks/{clock}/schedules/{id} from Node.js, INFLIGHT at once, and
# resumed with POST /clocks/{clock}/schedules/{id}/resume the same way.
# Usage: bench/schedules-lateness.sh [count=100000] [minutes=2] [runs=1]   (KIND=cron, INFLIGHT=64, JAR=, TS_PORT=)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
minutes=${2:-2}
runs=${3:-1}
kind=${KIND:-cron}
inflight=${INFLIGHT:-64}
ts_port=${TS_PORT:-18097}
[ "$count" -le 1000000 ] && [ "$minutes" -le 10 ] && [ "$runs" -le 5 ] || { echo "count <= 1e6, minutes <= 10, runs <= 5" >&2; exit 2; }
case "$kind" in cron) body='{"cron":"* * * * *","paused":true}' ;; every) body='{"every":60000,"paused":true}' ;; *) echo "KIND cron|every" >&2; exit 2 ;; esac

. bench/need.sh
need node nodejs; need curl curl
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
jar=$(service_jar)
echo "jar $jar ($(git rev-parse --short HEAD)), node $(node -v), $(nproc) vCPU, kind $kind, count $count, minutes $minutes"
ts="http://127.0.0.1:$ts_port"

scrape() { curl -sf "$ts/actuator/prometheus"; }
heap() { # bytes of used heap after a full collection
  jcmd "$1" GC.run >/dev/null; sleep 1
  scrape | awk '/^jvm_memory_used_bytes\{/ && /area="heap"/ {s += $NF} END {printf "%.0f\n", s}'
}
firing_cpu_ticks() { # utime + stime of the firing thread
  for t in /proc/"$1"/task/*; do
    if [ "$(cat "$t/comm")" = "timeservice-fir" ]; then awk '{print $14 + $15}' "$t/stat"; return; fi
  done
  echo "no firing thread" >&2; return 1
}
wait_until_second() { # of the minute
  while [ "$(( $(date +%s) % 60 ))" -ne "$1" ]; do sleep 0.2; done
}

each() { # create | resume: every schedule, INFLIGHT requests at once
  node -e "
    const {httpCaller} = require('./bench/targets.js');
    const call = httpCaller('$ts_port', $inflight);
    const request = '$1' === 'create' ? i => call('PUT', '/clocks/sched/schedules/s' + i, $body)
      : i => call('POST', '/clocks/sched/schedules/s' + i + '/resume');
    (async () => {
      let next = 0;
      const worker = async () => { while (next < $count) await request(next++); };
      await Promise.all(Array.from({length: $inflight}, worker));
    })().catch(e => { console.error(e.message); process.exit(1); });"
}

for run in $(seq 1 "$runs"); do
  java ${JAVA_OPTS:--Xms2g -Xmx2g} -jar "$jar" --server.address=127.0.0.1 --logging.level.root=WARN \
    --server.port="$ts_port" --timeservice.durability=none --timeservice.schedules.max="$count" \
    --timeservice.deliveries.max=$(( count * (minutes + 4) )) \
    > "$work/ts.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 240); do curl -sf "$ts/clock" >/dev/null && break; sleep 0.5; done
  curl -sf -X PUT "$ts/clocks/sched" -H 'Content-Type: application/json' -d '{"mode":"system"}' >/dev/null
  before=$(heap "$pid")
  start=$(date +%s%3N)
  each create
  created_ms=$(( $(date +%s%3N) - start ))
  after=$(heap "$pid")
  each resume
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  wait_until_second 30
  scrape > "$work/a.prom"; cpu_a=$(firing_cpu_ticks "$pid")
  sleep $(( minutes * 60 - 2 )); wait_until_second 30
  scrape > "$work/b.prom"; cpu_b=$(firing_cpu_ticks "$pid")
  load_during=$(cut -d' ' -f1-3 /proc/loadavg)
  node -e "
    const fs = require('fs');
    const buckets = f => { const m = new Map();
      for (const l of fs.readFileSync(f, 'utf8').split('\n')) {
        const r = /^timer_fire_lag_seconds_bucket\{(.*)\} (\S+)/.exec(l); if (!r) continue;
        const le = /le=\"([^\"]+)\"/.exec(r[1])[1]; m.set(le, (m.get(le) || 0) + Number(r[2])); }
      return m; };
    const a = buckets('$work/a.prom'), b = buckets('$work/b.prom');
    const rows = [...b.keys()].map(le => [le === '+Inf' ? Infinity : Number(le), b.get(le) - (a.get(le) || 0)]).sort((x, y) => x[0] - y[0]);
    const total = rows[rows.length - 1][1];
    const q = p => { const r = rows.find(([, c]) => c >= p * total); return r[0] === Infinity ? 'inf' : Math.round(r[0] * 1000); };
    const ticks = ($cpu_b - $cpu_a), hz = 100;
    console.log('RESULT run=$run kind=$kind schedules=$count create_ms=$created_ms create_per_s=' + Math.round($count * 1000 / $created_ms)
      + ' heap_bytes_per_schedule=' + Math.round(($after - $before) / $count)
      + ' occurrences=' + total + ' expected=' + ($count * $minutes) + ' p50_ms<=' + q(0.5) + ' p99_ms<=' + q(0.99) + ' max_ms<=' + q(1)
      + ' firing_cpu_us_per_occurrence=' + (total ? (ticks * 1e6 / hz / total).toFixed(1) : 'n/a')
      + ' loadavg_before=\"$load_before\" loadavg_during=\"$load_during\"');"
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
