#!/usr/bin/env bash
# Issue 33 on the PostgreSQL store: fork, snapshot and load of a virtual clock with PENDING timers (default
# 1,000,000), ROUNDS rounds each (default 3), by ForkMeasurement (src/jmh/java/io/timeservice/store/postgres) in a
# schema of its own in the test database (TIMESERVICE_TEST_JDBC_URL, default 127.0.0.1:5432 database test, trust).
# A fork holds the source's row
# FOR UPDATE for its whole transaction, so its time is the source's lock time. Prints LOAD lines and RESULT lines.
# Usage: [PENDING=1000000] [ROUNDS=3] bench/postgres-fork.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pending=${PENDING:-1000000}
rounds=${ROUNDS:-3}
load() { echo "LOAD $1 loadavg=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' ,)"; }
./mvnw -B -ntp -q -Pjmh test-compile
./mvnw -B -ntp -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/scale-classpath.txt
classpath="$(cat target/scale-classpath.txt):target/classes:target/test-classes"
load before
java -Xmx3g -cp "$classpath" io.timeservice.store.postgres.ForkMeasurement "$pending" "$rounds" \
  > "${TMPDIR:-/tmp}/fork-measure.log" 2>&1 || { tail -20 "${TMPDIR:-/tmp}/fork-measure.log" >&2; exit 1; }
grep '^RESULT' "${TMPDIR:-/tmp}/fork-measure.log"
load after
