#!/usr/bin/env bash
# The demo as a newcomer meets it (README.md, src/demo/README.md): runs the README's command for
# one runtime in the foreground, as a user would, waits until the demo answers, checks what the
# README says it does, stops it as a terminal's Ctrl-C or a service manager would (a signal to the
# command's process group), and fails if a port it used is still listening or a process of it is
# still running afterwards.
#
# Usage: src/demo/smoke.sh liberty|payara|wildfly
#   liberty  mvn -Pdemo package                 http://localhost:9080
#   payara   mvn -Pdemo,demo-payara package     http://localhost:8080
#   wildfly  mvn -Pdemo,demo-wildfly package    http://localhost:8080 (management 9990)
# The ports are the README's defaults, on purpose: this is the command as documented. The one
# thing added is a data directory of its own (under target/, emptied first), so that a key the
# user's own demo stored is not replayed here, nor a charge of this check listed there.
#
# Checks: a keyed POST answers 201 with a charge; the same POST again answers 201 with
# Idempotency-Replayed: true and the same body, and GET lists one charge; a malformed body answers
# 400 application/problem+json.
set -euo pipefail
# Job control: the background Maven gets a process group of its own, as a terminal gives the
# command it runs, so that one signal reaches Maven and the server it runs in the foreground.
set -m
cd "$(dirname "$0")/../.."

RUNTIME=${1:?usage: $0 liberty|payara|wildfly}
case "$RUNTIME" in
    liberty) PROFILES=demo; PORTS="9080 9443" ;;
    payara) PROFILES=demo,demo-payara; PORTS="8080" ;;
    wildfly) PROFILES=demo,demo-wildfly; PORTS="8080 9990" ;;
    *) echo "unknown runtime: $RUNTIME (liberty, payara or wildfly)" >&2; exit 2 ;;
esac
HTTP_PORT=${PORTS%% *}
URL=http://localhost:$HTTP_PORT/idemkit-demo/api/payments
DATA=$PWD/target/demo-smoke-data
BUILD_LOG=$PWD/target/demo-smoke-$RUNTIME.log
START_SECONDS=${DEMO_SMOKE_START_SECONDS:-600}

listening() {
    local port
    for port in $PORTS; do
        if ss -Hltn "sport = :$port" | grep -q .; then echo "$port"; fi
    done
}

busy=$(listening)
if [ -n "$busy" ]; then
    echo "Port(s) $busy already in use: stop what listens there first" >&2
    exit 1
fi

mkdir -p target
rm -rf "$DATA"
mvn -B -ntp -P"$PROFILES" -Ddemo.data.dir="$DATA" package > "$BUILD_LOG" 2>&1 &
MVN=$!
# The process group of the background job: Maven and the server it runs in the foreground.
GROUP=$MVN

fail() {
    echo "demo on $RUNTIME: $*" >&2
    echo "--- the last lines of $BUILD_LOG:" >&2
    tail -n 40 "$BUILD_LOG" >&2 || true
    kill -KILL -- -"$GROUP" 2> /dev/null || true
    exit 1
}

# Ready when the application answers (a server can start while the WAR failed to deploy).
for ((i = 0; i < START_SECONDS; i++)); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL" || true)" = 200 ]; then break; fi
    kill -0 "$MVN" 2> /dev/null || fail "the build ended before the demo answered"
    sleep 1
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL" || true)" = 200 ] ||
    fail "no answer from $URL within $START_SECONDS s"

HEADERS=$(mktemp)
BODY=$(mktemp)
trap 'rm -f "$HEADERS" "$BODY"' EXIT
# post KEY JSON: one POST as the README sends it; sets STATUS, and leaves headers and body in files.
post() {
    STATUS=$(curl -s -D "$HEADERS" -o "$BODY" -w '%{http_code}' -X POST "$URL" \
        -H 'Content-Type: application/json' -H "Idempotency-Key: $1" -d "$2")
}
header() { grep -i "^$1:" "$HEADERS" | head -n 1 | cut -d: -f2- | tr -d ' \r'; }

PAYMENT='{"amount":1999,"currency":"EUR","to":"acct_42"}'
post order-1001 "$PAYMENT"
[ "$STATUS" = 201 ] || fail "first POST: expected 201, got $STATUS: $(cat "$BODY")"
grep -q '"id":"ch_' "$BODY" || fail "first POST: no charge in $(cat "$BODY")"
[ -z "$(header Idempotency-Replayed)" ] || fail "first POST: marked as a replay"
FIRST=$(cat "$BODY")

post order-1001 "$PAYMENT"
[ "$STATUS" = 201 ] || fail "second POST: expected 201, got $STATUS: $(cat "$BODY")"
[ "$(header Idempotency-Replayed)" = true ] || fail "second POST: no Idempotency-Replayed: true"
[ "$(cat "$BODY")" = "$FIRST" ] || fail "second POST: $(cat "$BODY") is not the first's $FIRST"
CHARGES=$(curl -s "$URL")
case "$CHARGES" in
    '{"count":1,'*) ;;
    *) fail "GET after a replay: expected one charge, got $CHARGES" ;;
esac

post order-1003 '{"amount":19'
[ "$STATUS" = 400 ] || fail "malformed body: expected 400, got $STATUS: $(cat "$BODY")"
case "$(header Content-Type)" in
    application/problem+json*) ;;
    *) fail "malformed body: Content-Type $(header Content-Type), not application/problem+json" ;;
esac
grep -q '"status":400' "$BODY" || fail "malformed body: not a problem: $(cat "$BODY")"

# SIGTERM to the process group: what Ctrl-C does in a terminal (SIGINT) and a service manager does
# (SIGTERM), both answered by each JVM's shutdown, which stops the server cleanly. Not SIGINT
# itself: a process started in the background of a non-interactive shell (as a CI runner may start
# this script) inherits SIGINT ignored, and a JVM then never sees it.
kill -TERM -- -"$GROUP"
for ((i = 0; i < 120; i++)); do
    pgrep -g "$GROUP" > /dev/null || break
    sleep 1
done
if pgrep -g "$GROUP" > /dev/null; then
    left=$(pgrep -g "$GROUP" -a | cut -c1-160)
    fail "still running 120 s after SIGTERM: $left"
fi
wait "$MVN" 2> /dev/null || true
busy=$(listening)
[ -z "$busy" ] || fail "port(s) $busy still listening after the demo stopped"
echo "demo on $RUNTIME: 201, replayed, 400 problem+json; stopped by SIGTERM, nothing left running"
