#!/usr/bin/env bash
# The random-history property tests (issue 41 item 14, issue 49 item 1) over many seeds:
#   bench/history-seeds.sh [SEEDS] [FIRST_SEED] [STEPS]
# RestartReplayPropertyTest (memory store, journal, stop and start) and SnapshotRoundTripPropertyTest on both stores
# (the PostgreSQL one needs TIMESERVICE_TEST_JDBC_URL). A failure prints its seed; replay it with SEEDS=1 FIRST_SEED=<seed>.
# Far times (near 10^15, at and past the end of time, Long.MAX_VALUE) are in the histories; FAR_TIMES=false leaves them out.
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-50}
FIRST=${2:-1}
STEPS=${3:-150}
TESTS='RestartReplayPropertyTest,SnapshotRoundTripPropertyTest'
if [ -n "${TIMESERVICE_TEST_JDBC_URL:-}" ]; then TESTS="$TESTS,SnapshotRoundTripPropertyPostgresTest"; fi
./mvnw -B -ntp test -Dtest="$TESTS" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtimeservice.history.seeds="$SEEDS" -Dtimeservice.history.firstSeed="$FIRST" \
  -Dtimeservice.history.steps="$STEPS" -Dtimeservice.history.farTimes="${FAR_TIMES:-true}"
