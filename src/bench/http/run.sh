#!/usr/bin/env bash
# The HTTP benchmark (src/bench/README.md): Open Liberty on loopback, loaded by wrk, in one run:
# a trivial POST handler without @Idempotent (baseline), with it and a new key per request
# (fresh), with it and one repeated key (replay), and a 50 ms handler fresh and replay; each at 1
# and 16 connections; on the in-memory store and on the MongoDB store (an in-process
# mongo-java-server). Prints throughput, p50 and p99, and the target ratios taken within rounds.
#
#   src/bench/http/run.sh                 # about 14 minutes on 2 cores
#   ROUNDS=3 WARMUP_SECONDS=3 src/bench/http/run.sh     # quicker, noisier
#   HTTP_PORT=9380 HTTPS_PORT=9743 src/bench/http/run.sh
#
# Needs Java 17+, Maven and wrk; installs wrk with apt-get when it is missing (Debian/Ubuntu,
# as root or with sudo). Not part of `mvn verify` nor .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../../.."

HTTP_PORT=${HTTP_PORT:-9080}
HTTPS_PORT=${HTTPS_PORT:-9443}
ROUNDS=${ROUNDS:-5}
SECONDS_PER_CASE=${SECONDS_PER_CASE:-5}
WARMUP_SECONDS=${WARMUP_SECONDS:-10}
STORES=${STORES:-"memory mongo"}
BASE="http://127.0.0.1:${HTTP_PORT}/bench"
SERVER=idemkit-bench
WLP=target/liberty/wlp
OUT=target/bench-http
LUA=src/bench/http/load.lua

if ! command -v wrk >/dev/null 2>&1; then
  echo "== wrk is missing; installing it from the distribution's packages"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq wrk
fi

echo "== building the bench WAR and the Liberty server $SERVER"
mvn -B -ntp -q -Pbench-http package \
  -Dliberty.http.port="$HTTP_PORT" -Dliberty.var.https.port="$HTTPS_PORT"
mkdir -p "$OUT"
# The recommended setup: the Servlet API visible (servlet-6.0; webProfile and appSecurity include
# it), so that idemkit notices a request's end without a request-scoped bean per claim.
mkdir -p "$WLP/usr/servers/$SERVER/configDropins/overrides"
cat > "$WLP/usr/servers/$SERVER/configDropins/overrides/bench-servlet.xml" <<'XML'
<server><featureManager><feature>servlet-6.0</feature></featureManager></server>
XML
RESULTS="$OUT/results.tsv"
: > "$RESULTS"

stop_server() { "$WLP/bin/server" stop "$SERVER" >/dev/null 2>&1 || true; }
trap stop_server EXIT

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
  local key="k-$store-$round-$name-$conns-$RANDOM"
  curl -s -o /dev/null -X DELETE "$BASE/records"
  if [ "$mode" = replay ]; then   # complete the key once; every request of the case replays it
    curl -s -o /dev/null -X POST "$BASE/$path" -H 'Content-Type: application/json' \
      -H "Idempotency-Key: $key" -d '{"amount":1999,"currency":"EUR","to":"acct_42"}'
  fi
  local before after r
  before=$(curl -s "$BASE/runs")
  r=$(load "$path" "$mode" "$key" "$conns" "$seconds")
  after=$(curl -s "$BASE/runs")
  set -- $r
  [ "$round" = warmup ] && return 0
  local rps; rps=$(awk -v n="$1" -v us="$2" 'BEGIN {printf "%.1f", n / (us / 1e6)}')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$store" "$name" "$conns" "$round" "$rps" "$3" "$4" "$5" "$6" "$((after - before))" >> "$RESULTS"
  printf '  %-6s %-11s c=%-2s round %s: %8s req/s  p50 %7s us  p99 %8s us  non-2xx %s  handler runs %s\n' \
    "$store" "$name" "$conns" "$round" "$rps" "$3" "$4" "$5" "$((after - before))"
}

for store in $STORES; do
  echo "== store: $store"
  stop_server
  # The in-memory store keeps every fresh record in the heap, and the DELETE /records between
  # cases reaches only the MongoDB store; a retention just longer than a case keeps the heap,
  # and so the garbage collector's share, the same for every case instead of growing.
  retention=$(( (SECONDS_PER_CASE > WARMUP_SECONDS ? SECONDS_PER_CASE : WARMUP_SECONDS) + 5 ))s
  if [ "$store" = memory ]; then
    IDEMKIT_STORE=$store IDEMKIT_COMPLETED_TTL=$retention IDEMKIT_MEMORY_SWEEP_INTERVAL=5s \
      "$WLP/bin/server" start "$SERVER" >/dev/null
  else
    IDEMKIT_STORE=$store "$WLP/bin/server" start "$SERVER" >/dev/null
  fi
  for _ in $(seq 1 60); do
    curl -s -o /dev/null -f "$BASE/runs" && break
    sleep 1
  done
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

java src/bench/http/Report.java "$RESULTS" | tee "$OUT/report.md"
