#!/usr/bin/env bash
# Issue 43 item 5: adds on a clock that fired 1,000,000 timers in the last hour, with a one-hour dedupe window (every
# fired id reserved) and without, side by side in one JMH run (store/memory/DedupeAddBenchmark); the setup prints the
# heap each reservation takes. Arguments go to JMH after the defaults, e.g. bench/dedupe-window.sh -i 10.
# bench/dedupe-window.sh --cpu [rounds [adds [nolookups]]]: the same two clocks in one JVM, measured in the adding
# thread's CPU time in alternating rounds (store/memory/DedupeAddCpuTime), for a machine too loaded for wall-clock
# figures. JAVA_OPTS='-Dsteady=true' measures the steady state (each round's adds fire after it, the reservations
# stay about a million, nothing piles up pending), '-Dscattered=true' with random-looking ids.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--cpu" ]; then
  shift
  ./mvnw -B -ntp -q -Pjmh test-compile
  classpath=$(./mvnw -B -ntp -q -Pjmh dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)
  exec java ${JAVA_OPTS:-} -Xms4g -Xmx4g -cp "target/test-classes:target/classes:$classpath" \
    io.timeservice.store.memory.DedupeAddCpuTime "$@"
fi
./mvnw -B -ntp -q -Pjmh test-compile exec:exec@jmh -Djmh.args="DedupeAddBenchmark -f 1 -wi 3 -i 5 $*"
