#!/usr/bin/env bash
# Issue 29, item 3: the PostgreSQL store at 10,000 and 10,000,000 pending timers, and under a sustained churn.
# 1. Costs (store calls, no HTTP): for each of CASES ("layout pending", comma-separated), ScaleMeasurement
#    (src/jmh/java/io/timeservice/store/postgres) fills a schema of its own in the test database (127.0.0.1:PG_PORT,
#    database test, trust) by one INSERT ... SELECT generate_series, then times single adds, firing rounds of 100,
#    claims of 100, batch acks of 100 and the firing loop's look: RESULT op=... p50_ms p99_ms max_ms. Layout one:
#    every timer on the measured clock; spread: over 10,000 clocks. The 10,000,000 fill takes minutes.
# 2. Churn soak (skipped with SOAK_SECONDS=0): one TimeService on a fresh database PG_DB, a system clock fed
#    SOAK_RATE timers/s coming due (bench/delivery-feed.js rate), claimed and batch-acked by 4 wrk workers
#    (bench/delivery.lua) for SOAK_SECONDS; every 30 s a SIZE line: table and index sizes, live and dead tuples,
#    autovacuum runs of timers and deliveries; acked rows are purged after ACKED_RETENTION.
# OWN_CLUSTER=1: both parts on a throwaway cluster of bench/own-cluster.sh (autovacuum on; PG_PORT default 5433),
# stopped and removed at the end; OWN_CLUSTER_CONF, lines of postgresql.conf, goes to it as EXTRA_CONF.
# Prints LOAD lines (load average) before each part. Installs what is missing as bench/postgres-store.sh does.
# Usage: bench/postgres-scale.sh
#   (CASES="one 10000,one 10000000,spread 10000,spread 10000000" SOAK_SECONDS=600 SOAK_RATE=2000
#    ACKED_RETENTION=5m PG_DB=timeservice_scale JAR= OWN_CLUSTER= PG_PORT=5432)
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${CASES-one 10000,one 10000000,spread 10000,spread 10000000}
soak_seconds=${SOAK_SECONDS:-600}
soak_rate=${SOAK_RATE:-2000}
retention=${ACKED_RETENTION:-5m}
db=${PG_DB:-timeservice_scale}
own_cluster=${OWN_CLUSTER:-}
if [ -n "$own_cluster" ]; then pg_port=${PG_PORT:-5433}; else pg_port=${PG_PORT:-5432}; fi
. bench/need.sh
need psql postgresql-client
stop_cluster() { [ -z "$own_cluster" ] || PORT=$pg_port bench/own-cluster.sh stop; }
trap stop_cluster EXIT
[ -z "$own_cluster" ] || PORT=$pg_port EXTRA_CONF="${OWN_CLUSTER_CONF:-}" bench/own-cluster.sh start
# ScaleMeasurement's database (TestDatabase): the own cluster's, else the one given, else PG_PORT's test database
[ -z "$own_cluster" ] || unset TIMESERVICE_TEST_JDBC_URL
export TIMESERVICE_TEST_JDBC_URL=${TIMESERVICE_TEST_JDBC_URL:-jdbc:postgresql://127.0.0.1:$pg_port/test?user=postgres}
load() { echo "LOAD $1 loadavg=$(cut -d' ' -f1-3 /proc/loadavg | tr ' ' ,)"; }

./mvnw -B -ntp -q -Pjmh test-compile
./mvnw -B -ntp -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/scale-classpath.txt
classpath="$(cat target/scale-classpath.txt):target/classes:target/test-classes"
IFS=, read -r -a each <<< "$cases"
for c in "${each[@]}"; do
  [ -n "$c" ] || continue # CASES="": the soak only
  load "costs $c"
  # shellcheck disable=SC2086 # "layout pending": two arguments
  java -Xmx1g -cp "$classpath" io.timeservice.store.postgres.ScaleMeasurement $c > "${TMPDIR:-/tmp}/scale-case.log" 2>&1 \
    || { tail -20 "${TMPDIR:-/tmp}/scale-case.log" >&2; exit 1; }
  grep '^RESULT' "${TMPDIR:-/tmp}/scale-case.log"
done

[ "$soak_seconds" = 0 ] && exit 0
need node nodejs; need wrk wrk; need curl curl
sql() { PGOPTIONS="-c client_min_messages=warning" psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "$1" -v ON_ERROR_STOP=1 -qAtc "$2"; }
work=$(mktemp -d)
cleanup() { kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; sql postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true; rm -rf "$work"; stop_cluster; }
trap cleanup EXIT
sql postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)"
sql postgres "CREATE DATABASE $db"
jar=$(service_jar)
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
java -Xms1g -Xmx1g -jar "$jar" --server.address=127.0.0.1 --server.port="$port" --logging.level.root=WARN \
  --timeservice.store=postgresql --spring.datasource.username=postgres --timeservice.capacity=5000000 \
  --timeservice.postgresql.acked-retention="$retention" \
  --spring.datasource.url="jdbc:postgresql://127.0.0.1:$pg_port/$db" > "$work/service.log" 2>&1 &
for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/clock" >/dev/null && break; sleep 0.5; done
curl -sf -X PUT -H 'Content-Type: application/json' -d '{"mode":"system"}' "http://127.0.0.1:$port/clocks/soak" >/dev/null
size() { # one SIZE line: both tables' heap and index MB, live and dead tuples, autovacuum runs
  sql "$db" "SELECT string_agg(format('%s_heap_mb=%s %s_index_mb=%s %s_live=%s %s_dead=%s %s_autovacuums=%s',
      relname, pg_table_size(relid) / 1048576, relname, pg_indexes_size(relid) / 1048576, relname, n_live_tup,
      relname, n_dead_tup, relname, autovacuum_count), ' ' ORDER BY relname)
      FROM pg_stat_user_tables WHERE relname IN ('timers', 'deliveries')" | sed "s/^/SIZE t=$1 /" | tr -d '\n'
  # and the service's backlog (its last 15 s sample): the oldest ready delivery's and the oldest pending timer's age
  curl -sf "http://127.0.0.1:$port/actuator/prometheus" \
    | awk '/^timer_(delivery_oldest_ready_age|queue_oldest_age)_seconds/ { sub(/\{.*\}/, "", $1); printf " %s=%s", $1, $2 }' || true
  echo " loadavg=$(cut -d' ' -f1 /proc/loadavg)"
}
cp bench/delivery-feed.js bench/targets.js "$work/"
load soak; size 0
(cd "$work" && node delivery-feed.js rate "$port" soak "$soak_rate" "$soak_seconds" 2000 s-) > "$work/feed.out" &
sleep 2
CLOCK=soak LABEL=soak ACK=batch SKIP_MS=1000 wrk -t2 -c4 -d"${soak_seconds}s" --timeout 5s -s bench/delivery.lua \
  "http://127.0.0.1:$port" > "$work/wrk.out" &
workers=$!
for t in $(seq 30 30 "$soak_seconds"); do sleep 30; size "$t"; done
wait "$workers" || true
cat "$work/feed.out"; grep '^RESULT' "$work/wrk.out" | sed 's/^RESULT/RESULT op=soak/'
load "soak end"; size end
if [ -n "$own_cluster" ]; then # autovacuum's own log lines (log_autovacuum_min_duration = 0) of the two tables
  awk '/automatic vacuum of table ".*\.(timers|deliveries)"/ { p = 1 } p { print } /system usage/ { p = 0 }' \
    "${TMPDIR:-/tmp}/timeservice-pg-$pg_port/log" > "${TMPDIR:-/tmp}/scale-autovacuum.log" || true
  echo "AUTOVACUUM log: ${TMPDIR:-/tmp}/scale-autovacuum.log"
fi
