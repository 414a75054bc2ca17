#!/usr/bin/env bash
# The HTTP benchmark (src/bench/README.md): one bench WAR on Open Liberty, WildFly and Payara Micro
# in turn, on loopback, loaded by wrk, in one run: a trivial POST handler without @Idempotent
# (baseline), with it and a new key per request (fresh), with it and one repeated key (replay), and
# a 50 ms handler fresh and replay; each at 1 and 16 connections; on the in-memory store and on the
# MongoDB store (an in-process mongo-java-server). Each runtime is measured against its own
# baseline. Prints throughput, p50 and p99, and the target ratios taken within rounds.
#
#   src/bench/http/run.sh                 # about 14 minutes per runtime on 2 cores
#   RUNTIMES=liberty src/bench/http/run.sh                  # one runtime
#   RUNTIMES="wildfly payara" STORES=memory ROUNDS=3 src/bench/http/run.sh
#   HTTP_PORT=9380 HTTPS_PORT=9743 WILDFLY_PORT_OFFSET=700 PAYARA_PORT=8880 src/bench/http/run.sh
#   JFR_CASE="fresh 16" ROUNDS=1 src/bench/http/run.sh     # a JFR recording of that case, round 1
#
# RUNTIMES: liberty (Open Liberty, server idemkit-bench; HTTP_PORT, HTTPS_PORT), wildfly (WildFly,
# standalone-microprofile.xml, its own base directory under target/bench-http; every port offset by
# WILDFLY_PORT_OFFSET: HTTP 8080+offset, management 9990+offset), payara (Payara Micro,
# --nocluster, PAYARA_PORT, no HTTPS). Each server JVM gets -Xms2g -Xmx2g; SERVER_JVM_OPTS adds
# options to all three. The Servlet API is visible on all three (the script adds servlet-6.0 to
# Liberty; WildFly and Payara Micro always have it). No OpenTelemetry SDK on any of them (WildFly's is
# excluded by the WAR's jboss-deployment-structure.xml; see src/bench/README.md).
#
# Needs Java 17+, Maven and wrk; installs wrk with apt-get when it is missing (Debian/Ubuntu,
# as root or with sudo). Not part of `mvn verify` nor .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../../.."

RUNTIMES=${RUNTIMES:-"liberty wildfly payara"}
HTTP_PORT=${HTTP_PORT:-9080}
HTTPS_PORT=${HTTPS_PORT:-9443}
WILDFLY_PORT_OFFSET=${WILDFLY_PORT_OFFSET:-0}
PAYARA_PORT=${PAYARA_PORT:-8080}
ROUNDS=${ROUNDS:-5}
SECONDS_PER_CASE=${SECONDS_PER_CASE:-5}
WARMUP_SECONDS=${WARMUP_SECONDS:-10}
STORES=${STORES:-"memory mongo"}
SERVER_JVM_OPTS=${SERVER_JVM_OPTS:-}
JFR_CASE=${JFR_CASE:-}
if [ -n "$JFR_CASE" ]; then
  # JFR from the server's start too, with the case's settings: started only for the case (by
  # jcmd, as below), it made WildFly and Payara Micro run that case and the next one 5 to 30 times
  # slower than without JFR (Liberty not); started with the server, they ran at their usual rate.
  SERVER_JVM_OPTS="-XX:StartFlightRecording=name=boot,settings=profile,maxage=1m $SERVER_JVM_OPTS"
fi
HEAP="-Xms2g -Xmx2g"
SERVER=idemkit-bench
WLP=target/liberty/wlp
OUT=$PWD/target/bench-http
LUA=src/bench/http/load.lua
WILDFLY_VERSION=39.0.1.Final
PAYARA_VERSION=6.2025.10
WILDFLY_HOME=$PWD/target/wildfly/wildfly-$WILDFLY_VERSION
PAYARA_JAR=$PWD/target/payara/payara-micro-$PAYARA_VERSION.jar

for runtime in $RUNTIMES; do
  case "$runtime" in
    liberty | wildfly | payara) ;;
    *) echo "unknown runtime: $runtime (liberty, wildfly or payara)" >&2; exit 2 ;;
  esac
done
skip() { case " $RUNTIMES " in *" $1 "*) echo false ;; *) echo true ;; esac; }

if ! command -v wrk >/dev/null 2>&1; then
  echo "== wrk is missing; installing it from the distribution's packages"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq wrk
fi

echo "== building the bench WAR and the runtimes: $RUNTIMES"
mvn -B -ntp -q -Pbench-http package \
  -Dbench.liberty.skip="$(skip liberty)" -Dbench.wildfly.skip="$(skip wildfly)" \
  -Dbench.payara.skip="$(skip payara)" \
  -Dliberty.http.port="$HTTP_PORT" -Dliberty.var.https.port="$HTTPS_PORT"
mkdir -p "$OUT"
WAR=$(ls "$OUT"/*-bench-http.war)
RESULTS="$OUT/results.tsv"
: > "$RESULTS"

# The runtime that runs now, its base URL and the pid of its JVM (for jcmd).
RUNTIME="" BASE="" PID_OF=""
server_pid() {
  case "$RUNTIME" in
    liberty) cat "$WLP/usr/servers/.pid/$SERVER.pid" ;;
    wildfly) cat "$OUT/wildfly.pid" ;;
    payara) echo "$PID_OF" ;;
  esac
}

# Deploys the WAR at the root context, so that every runtime serves the same /bench/... paths.
deploy() {
  case "$RUNTIME" in
    liberty)
      # The recommended setup: the Servlet API visible (servlet-6.0; webProfile and appSecurity
      # include it), so that idemkit notices a request's end without a request-scoped bean per
      # claim. ibm-web-ext.xml in the WAR sets the context root /.
      mkdir -p "$WLP/usr/servers/$SERVER/configDropins/overrides" "$WLP/usr/servers/$SERVER/dropins"
      cat > "$WLP/usr/servers/$SERVER/configDropins/overrides/bench-servlet.xml" <<'XML'
<server><featureManager><feature>servlet-6.0</feature></featureManager></server>
XML
      rm -f "$WLP/usr/servers/$SERVER/dropins/"*.war
      cp "$WAR" "$WLP/usr/servers/$SERVER/dropins/bench.war"
      ;;
    wildfly)
      # A base directory of its own (configuration, deployments, data, log), so that the ITs'
      # server under target/wildfly is left as it was; ROOT.war is served at /.
      rm -rf "$OUT/wildfly"
      mkdir -p "$OUT/wildfly/deployments"
      cp -r "$WILDFLY_HOME/standalone/configuration" "$OUT/wildfly/"
      cp "$WAR" "$OUT/wildfly/deployments/ROOT.war"
      ;;
    payara)
      rm -rf "$OUT/payara-root"
      ;;
  esac
}

# start_server STORE: starts the runtime with that store; returns when /bench/runs answers.
start_server() {
  local store=$1 log
  # The in-memory store keeps every fresh record in the heap, and the DELETE /records between
  # cases reaches only the MongoDB store; a retention just longer than a case keeps the heap,
  # and so the garbage collector's share, the same for every case instead of growing.
  local retention=$(( (SECONDS_PER_CASE > WARMUP_SECONDS ? SECONDS_PER_CASE : WARMUP_SECONDS) + 5 ))s
  export IDEMKIT_STORE=$store
  if [ "$store" = memory ]; then
    export IDEMKIT_COMPLETED_TTL=$retention IDEMKIT_MEMORY_SWEEP_INTERVAL=5s
  else
    unset IDEMKIT_COMPLETED_TTL IDEMKIT_MEMORY_SWEEP_INTERVAL
  fi
  case "$RUNTIME" in
    liberty)
      log="$WLP/usr/servers/$SERVER/logs/console.log"
      # -Xms2g -Xmx2g come from the server's jvm.options (the bench-http profile).
      JVM_ARGS="$SERVER_JVM_OPTS" "$WLP/bin/server" start "$SERVER" >/dev/null
      ;;
    wildfly)
      log="$OUT/wildfly/log/server.log"
      rm -rf "$OUT/wildfly/data" "$OUT/wildfly/tmp" "$OUT/wildfly/log" "$OUT/wildfly/deployments/"*.{deployed,failed}
      # standalone.conf puts JBOSS_JAVA_SIZING (default -Xms64m -Xmx512m) first in JAVA_OPTS.
      LAUNCH_JBOSS_IN_BACKGROUND=1 JBOSS_PIDFILE="$OUT/wildfly.pid" \
        JBOSS_JAVA_SIZING="$HEAP $SERVER_JVM_OPTS" \
        "$WILDFLY_HOME/bin/standalone.sh" -c standalone-microprofile.xml \
        -b 127.0.0.1 -bmanagement 127.0.0.1 \
        -Djboss.server.base.dir="$OUT/wildfly" \
        -Djboss.socket.binding.port-offset="$WILDFLY_PORT_OFFSET" \
        > "$OUT/wildfly-console.log" 2>&1 &
      ;;
    payara)
      log="$OUT/payara.log"
      # shellcheck disable=SC2086
      java $HEAP $SERVER_JVM_OPTS -jar "$PAYARA_JAR" --nocluster --port "$PAYARA_PORT" \
        --prebootcommandfile src/bench/http/payara/preboot.asadmin \
        --rootdir "$OUT/payara-root" --contextroot / --deploy "$WAR" > "$log" 2>&1 &
      PID_OF=$!
      ;;
  esac
  # Ready when the application answers: a failed deployment does not stop these servers.
  local why="did not answer within 180 s"
  for _ in $(seq 1 180); do
    curl -s -o /dev/null -f "$BASE/runs" && return 0
    if [ "$RUNTIME" = wildfly ] && [ -e "$OUT/wildfly/deployments/ROOT.war.failed" ]; then
      why="failed to deploy"; break
    fi
    if [ "$RUNTIME" = payara ] && ! kill -0 "$PID_OF" 2>/dev/null; then
      why="ended: Payara Micro stopped"; break
    fi
    sleep 1
  done
  echo "$RUNTIME: the bench application $why; the end of $log:" >&2
  tail -n 40 "$log" >&2 || true
  exit 1
}

stop_server() {
  local pid
  case "$RUNTIME" in
    "") return 0 ;;
    liberty) "$WLP/bin/server" stop "$SERVER" >/dev/null 2>&1 || true ;;
    wildfly | payara)
      pid=$(server_pid 2>/dev/null || true)
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid"
        for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
        kill -KILL "$pid" 2>/dev/null || true
      fi
      [ "$RUNTIME" = wildfly ] && rm -f "$OUT/wildfly.pid"
      PID_OF=""
      ;;
  esac
}
trap stop_server EXIT
trap 'exit 130' INT TERM

# One wrk run; prints "requests duration_us p50_us p99_us non2xx socket_errors".
load() { # path mode key connections seconds
  wrk -t1 -c"$4" -d"$5"s -s "$LUA" "$BASE/$1" -- "$2" "$3" | awk '/^RESULT/ {print $2, $3, $4, $5, $6, $7}'
}

# A case: name path mode connections.
CASES=(
  "baseline plain none 1"   "fresh idem fresh 1"      "replay idem replay 1"
  "baseline plain none 16"  "fresh idem fresh 16"     "replay idem replay 16"
  "slow-fresh slow fresh 1" "slow-replay slow replay 1"
  "slow-fresh slow fresh 16" "slow-replay slow replay 16"
)

run_case() { # store round seconds name path mode connections
  local store=$1 round=$2 seconds=$3 name=$4 path=$5 mode=$6 conns=$7
  local key="k-$store-$round-$name-$conns-$RANDOM" jfr=""
  curl -s -o /dev/null -X DELETE "$BASE/records"
  if [ "$mode" = replay ]; then   # complete the key once; every request of the case replays it
    curl -s -o /dev/null -X POST "$BASE/$path" -H 'Content-Type: application/json' \
      -H "Idempotency-Key: $key" -d '{"amount":1999,"currency":"EUR","to":"acct_42"}'
  fi
  if [ "$round" = 1 ] && [ "$JFR_CASE" = "$name $conns" ]; then
    jfr="$OUT/$RUNTIME-$store-$name-$conns.jfr"
    jcmd "$(server_pid)" JFR.start name=bench settings=profile >/dev/null
  fi
  local before after r allocated
  before=$(curl -s "$BASE/runs")
  curl -s -o /dev/null -X POST "$BASE/allocated"
  r=$(load "$path" "$mode" "$key" "$conns" "$seconds")
  allocated=$(curl -s "$BASE/allocated")
  after=$(curl -s "$BASE/runs")
  if [ -n "$jfr" ]; then
    jcmd "$(server_pid)" JFR.stop name=bench filename="$jfr" >/dev/null
    echo "  JFR recording of this case: $jfr"
  fi
  set -- $r
  [ "$round" = warmup ] && return 0
  local rps; rps=$(awk -v n="$1" -v us="$2" 'BEGIN {printf "%.1f", n / (us / 1e6)}')
  # Bytes the server allocated per request in the case (its threads' counts since the mark; a
  # floor, see BenchResource.allocated; -1 unknown).
  local per; per=$(awk -v n="$1" -v a="$allocated" \
    'BEGIN {if (a < 0 || n == 0) print -1; else printf "%.0f", a / n}')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$RUNTIME" \
    "$store" "$name" "$conns" "$round" "$rps" "$3" "$4" "$5" "$6" "$((after - before))" "$per" >> "$RESULTS"
  printf '  %-7s %-6s %-11s c=%-2s round %s: %8s req/s  p50 %7s us  p99 %8s us  %6s B/req  non-2xx %s  handler runs %s\n' \
    "$RUNTIME" "$store" "$name" "$conns" "$round" "$rps" "$3" "$4" "$per" "$5" "$((after - before))"
}

for RUNTIME in $RUNTIMES; do
  case "$RUNTIME" in
    liberty) BASE="http://127.0.0.1:${HTTP_PORT}/bench" ;;
    wildfly) BASE="http://127.0.0.1:$((8080 + WILDFLY_PORT_OFFSET))/bench" ;;
    payara) BASE="http://127.0.0.1:${PAYARA_PORT}/bench" ;;
  esac
  deploy
  for store in $STORES; do
    echo "== $RUNTIME, store $store (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    start_server "$store"
    for c in "${CASES[@]}"; do run_case "$store" warmup "$WARMUP_SECONDS" $c; done
    for round in $(seq 1 "$ROUNDS"); do
      # Rotate the order each round, so that no case always runs first or last.
      n=${#CASES[@]}
      for i in $(seq 0 $((n - 1))); do
        run_case "$store" "$round" "$SECONDS_PER_CASE" ${CASES[$(((i + round) % n))]}
      done
    done
    stop_server
  done
done
RUNTIME=""
echo "== done (load average $(cut -d' ' -f1-3 /proc/loadavg))"

java src/bench/http/Report.java "$RESULTS" | tee "$OUT/report.md"
