#!/usr/bin/env bash
# Issue 44 item 5, side by side in one run each, on the memory store:
#  (1) claims with flow control on over 10,000 keys versus off: JMH store/memory/FlowClaimBenchmark (wall clock, ns per
#      claimed delivery) and store/memory/FlowClaimCpuTime (the same two clocks in one JVM, the claiming thread's CPU
#      time in alternating rounds: the figure that holds on a loaded machine);
#  (2) one key holding 90% of a 1,000,000 backlog under a concurrency of 5: the other keys' ready-to-claimed p50/p99
#      versus the same run without the hot key, and the hot key's most in flight (store/memory/FlowHotKeyMeasurement;
#      rounds as the first argument, default 5);
#  (3) the same for pushes to a local receiver: bench/flow-push.sh (rounds as the second argument, default 3).
# Usage: bench/flow-control.sh [hot-key rounds=5] [push rounds=3]   (CPU_ROUNDS=25)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
push_rounds="${2:-3}"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
./mvnw -B -ntp -q -Pjmh test-compile exec:exec@jmh -Djmh.args="FlowClaimBenchmark -f 1 -wi 3 -i 5"
classpath=$(./mvnw -B -ntp -q -Pjmh dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)
java -Xms2g -Xmx2g -cp "target/test-classes:target/classes:$classpath" io.timeservice.store.memory.FlowClaimCpuTime \
  "${CPU_ROUNDS:-25}"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xms3g -Xmx3g -cp target/classes:target/test-classes io.timeservice.store.memory.FlowHotKeyMeasurement "$rounds"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
bench/flow-push.sh "$push_rounds"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
