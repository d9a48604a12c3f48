#!/usr/bin/env bash
# Issue 43 item 5: adds on a clock that fired 1,000,000 timers in the last hour, with a one-hour dedupe window (every
# fired id reserved) and without, side by side in one JMH run (store/memory/DedupeAddBenchmark); the setup prints the
# heap each reservation takes. Arguments go to JMH after the defaults, e.g. bench/dedupe-window.sh -i 10.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -ntp -q -Pjmh test-compile exec:exec@jmh -Djmh.args="DedupeAddBenchmark -f 1 -wi 3 -i 5 $*"
