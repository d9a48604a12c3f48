#!/usr/bin/env bash
# Where one core benchmark spends its timed region: perf (software clock, call graphs, a JIT symbol map) over a JMH
# run of TimerQueueBenchmark.<benchmark> at 1,000,000 pending, with the heap's own methods kept out of line so each
# shows under its name. Prints the share of self samples per method, counting only samples taken inside the timed
# benchmark method (not its per-invocation undo or the trial setup). Out-of-line calls and perf slow the run down;
# read the shares, not the score. Needs perf (Debian: linux-perf; installed when missing).
# Usage: bench/profile-core.sh add|cancel|editEarlier|editLater|fire [config, default heap4:1000000]
set -euo pipefail
cd "$(dirname "$0")/.."
bench=$1; config=${2:-heap4:1000000}
. bench/need.sh
need perf linux-perf; need python3 python3
out=$(mktemp -d)
jvm="-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -XX:CompileCommand=quiet"
for class in IndexedTimerHeap IdIndex OldestPending 'TimerQueues*'; do
  jvm+=" -XX:CompileCommand=dontinline,io.timeservice.core.$class::*"
done
./mvnw -B -ntp -q -Pjmh test-compile
perf record -F 1999 -g -a -o "$out/perf.data" -- ./mvnw -B -ntp -Pjmh exec:exec@jmh \
  -Djmh.args="TimerQueueBenchmark.$bench\$ -f 1 -wi 3 -w 1s -i 6 -r 1s -p config=$config -jvmArgsAppend \"$jvm\"" \
  > "$out/jmh.log" 2>&1
grep -A1 '^Benchmark' "$out/jmh.log"
perf script -i "$out/perf.data" -F comm,tid,ip,sym 2>/dev/null | python3 bench/timed-samples.py "$bench"
rm -rf "$out"
