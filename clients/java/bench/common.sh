# Sourced by the Java client's benchmarks (run from the repository root): the service jar (built when missing), the
# client built and its test classpath (where the benchmark programs live) in $client_cp, and start_ts / wait_ts.
# Every process listens on 127.0.0.1 only; the caller's trap stops them.
. bench/need.sh
need curl curl
jar=${JAR:-$(ls target/timeservice-*.jar 2>/dev/null | grep -v original | head -1 || true)}
if [ -z "$jar" ]; then ./mvnw -B -ntp -q package -DskipTests; jar=$(ls target/timeservice-*.jar | grep -v original | head -1); fi
./mvnw -B -ntp -q -f clients/java/pom.xml install -DskipTests
./mvnw -B -ntp -q -f clients/java/tests/pom.xml dependency:build-classpath -Dmdep.outputFile="$work/cp.txt"
client_cp="clients/java/tests/target/test-classes:$(cat "$work/cp.txt")"
echo "jar $jar ($(git rev-parse --short HEAD)), java $(java -version 2>&1 | head -1 | cut -d'"' -f2), $(nproc) vCPU"

# start_ts port [service args...]: TimeService with durability none on 127.0.0.1:port, log in $work/ts-<port>.log
start_ts() {
  local port=$1; shift
  java ${JAVA_OPTS:--Xms1g -Xmx1g} -jar "$jar" --server.port="$port" --server.address=127.0.0.1 \
    --logging.level.root=WARN --timeservice.durability=none "$@" > "$work/ts-$port.log" 2>&1 &
}

# wait_ts port: until the service answers its readiness probe (at most 120 s)
wait_ts() {
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$1/actuator/health/readiness" >/dev/null && return; sleep 0.5; done
  echo "TimeService on port $1 did not start; see $work/ts-$1.log" >&2; exit 1
}

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# rounds first second field header: $rounds rounds of one run() of each target, alternating which goes first; then
# the header and the summary of `field` (below).
rounds() {
  local first=$1 second=$2 round order target
  for round in $(seq 1 "$rounds"); do
    order="$first $second"; [ $((round % 2)) = 0 ] && order="$second $first"
    for target in $order; do run "$target" | tee -a "$work/results"; done
  done
  echo "$4"
  summarize "$first" "$second" "$3"
}

# summarize first second field: per target the median and [min-max] of `field` in its RESULT lines, then
# second/first per round and their median.
summarize() {
  local first=$1 second=$2 field=$3 target
  rate() { grep "^RESULT $1 " "$work/results" | sed "s/.* $field=\([0-9.]*\).*/\1/"; }
  for target in "$first" "$second"; do
    printf '  %-12s %s median %s [%s-%s]\n' "$target" "$field" "$(rate "$target" | median)" \
      "$(rate "$target" | sort -g | head -1)" "$(rate "$target" | sort -g | tail -1)"
  done
  paste <(rate "$second") <(rate "$first") | awk -v r="$second/$first" '{printf "  round %d: %s %.2fx\n", NR, r, $1/$2}'
  paste <(rate "$second") <(rate "$first") | awk '{print $1/$2}' | median | xargs printf '  ratio median %.2fx\n'
}
