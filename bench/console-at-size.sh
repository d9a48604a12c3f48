#!/usr/bin/env bash
# The operator console's server calls at size (issue 45 item 4), memory store: 10,000 clocks, one clock with 1,000,000
# pending timers and 100,000 dead letters; each call a console page makes, timed RUNS times (bench/console-at-size.js).
# Usage: bench/console-at-size.sh   (env: RUNS=7 CLOCKS=10000 TIMERS=1000000 DEAD=100000 PORT=18094 JAR=...)
# On PostgreSQL: STORE=postgresql (database PG_DB, default console_bench, on 127.0.0.1:5432 as postgres, made if
# missing); LOAD=0 times the calls on what an earlier run loaded there (the bulk actions then have less to do).
set -uo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-18094}
jar=${JAR:-$(ls target/timeservice-*.jar 2>/dev/null | grep -v original | head -1)}
export BENCH_DIR="$PWD/bench"
. bench/need.sh
need node nodejs; need curl curl
if [ -z "$jar" ]; then
  ./mvnw -B -ntp -q package -DskipTests && jar=$(ls target/timeservice-*.jar | grep -v original | head -1)
fi
log=$(mktemp)
store=()
if [ "${STORE:-memory}" = postgresql ]; then
  db=${PG_DB:-console_bench}
  if [ "${LOAD:-1}" != 0 ]; then
    psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
  fi
  export AFTER_LOAD="psql -h 127.0.0.1 -U postgres -d $db -qc 'VACUUM ANALYZE'"
  store=(--timeservice.store=postgresql --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$db"
         --spring.datasource.username=postgres --spring.datasource.hikari.connection-timeout=60000)
fi
java -Xms3g -Xmx3g -jar "$jar" --server.port="$port" --server.address=127.0.0.1 --logging.level.root=WARN \
  --timeservice.durability=none --timeservice.capacity=2000000 --timeservice.deliveries.max=200000 \
  --timeservice.clocks.max=20000 "${store[@]}" > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
url="http://127.0.0.1:$port"
for _ in $(seq 1 240); do curl -sf "$url/clock" >/dev/null && break; sleep 0.5; done
curl -sf "$url/clock" >/dev/null || { echo "service did not start:"; cat "$log"; exit 1; }
URL="$url" node bench/console-at-size.js
