#!/usr/bin/env bash
# How much of POST /timers' cost is the HTTP stack itself: the same request against bench/stack-baseline (Spring
# Boot MVC, Jackson, bean validation, request metrics, 64 Tomcat workers, no work behind the endpoint), against
# TimeService (durability none), and against TimeService without the http.server.requests observation. One batch,
# back to back, same warm-up (WARMUP= seconds, default 150) and load (wrk, 2 threads); 127.0.0.1 only.
# Usage: bench/stack-ceiling.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-15}
export CONNECTIONS=${2:-64} WARM_SCRIPT=post.lua
warm=${WARMUP:-150}
baseline=bench/stack-baseline/target/stack-baseline-0.1.0-SNAPSHOT.jar
[ -f "$baseline" ] || ./mvnw -B -ntp -q -f bench/stack-baseline/pom.xml package -DskipTests
ls target/timeservice-*.jar >/dev/null 2>&1 || ./mvnw -B -ntp -q package -DskipTests
JAR=$baseline READY=/actuator/health RESET=0 bench/ab-post.sh stack-baseline "$warm" "$secs"
bench/ab-post.sh timeservice "$warm" "$secs"
bench/ab-post.sh timeservice-without-http-metrics "$warm" "$secs" \
  --management.observations.enable.http.server.requests=false
