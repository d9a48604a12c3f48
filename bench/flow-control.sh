#!/usr/bin/env bash
# Issue 44 item 5, side by side in one run each: (1) claims with flow control on over 10,000 keys versus off
# (store/memory/FlowClaimBenchmark, JMH; ns per claimed delivery); (2) one key holding 90% of a 1,000,000 backlog
# under a concurrency of 5: the other keys' ready-to-claimed p50/p99 versus the same run without the hot key, and the
# hot key's most in flight (store/memory/FlowHotKeyMeasurement; rounds as the first argument, default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
./mvnw -B -ntp -q -Pjmh test-compile exec:exec@jmh -Djmh.args="FlowClaimBenchmark -f 1 -wi 3 -i 5"
java -Xms3g -Xmx3g -cp target/classes:target/test-classes io.timeservice.store.memory.FlowHotKeyMeasurement "$rounds"
