# Sourced by the bench scripts: `need <command> <Debian package>` installs the package when the command is missing,
# so a benchmark never skips a step (a warm-up, a scenario) because its load tool is absent. Fails if it cannot.
need() {
  command -v "$1" >/dev/null && return
  echo "bench: $1 is missing, installing Debian package $2" >&2
  local sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$2" >/dev/null
  command -v "$1" >/dev/null || { echo "bench: could not install $2 for $1" >&2; exit 1; }
}

# The service jar to measure: $JAR when set, else the one in target/, built first when there is none.
service_jar() {
  local jar=${JAR:-$(ls target/timeservice-*.jar 2>/dev/null | grep -v original | head -1 || true)}
  if [ -z "$jar" ]; then
    ./mvnw -B -ntp -q package -DskipTests >&2
    jar=$(ls target/timeservice-*.jar | grep -v original | head -1)
  fi
  printf '%s\n' "$jar"
}
