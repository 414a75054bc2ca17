#!/usr/bin/env bash
# The README's "Five minutes: your own WAR", done as a newcomer would, from the README's own
# snippets (FiveMinutes.java takes them out of README.md; nothing here restates them):
#   1. the install command, which puts the library into the local Maven repository;
#   2. a plain WAR project (pom-template.xml) with the README's dependency;
#   3. an Open Liberty server with the README's features;
#   4. the README's resource, built against the installed jar into shop.war, dropped into the
#      server's dropins;
#   5. the README's two curls: 201 with an id and Idempotency-Key-Expires, then 201 with the same
#      body and Idempotency-Replayed: true.
# Beside them, the scope provider of the README's "Before production" is compiled (not deployed).
# Then it stops the server and fails if its port still listens.
#
# Usage: src/five-minutes/run.sh [http-port]   (default 9080, the README's)
# Uses the Open Liberty that the build installs under target/liberty/wlp (installing it first if
# it is not there), with a server of its own, idemkit-five-minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."

PORT=${1:-9080}
OUT=$PWD/target/five-minutes
WLP=$PWD/target/liberty/wlp
SERVER=idemkit-five-minutes
LOG=$WLP/usr/servers/$SERVER/logs/messages.log

fail() {
    echo "five-minute path: $*" >&2
    exit 1
}
# run NAME COMMAND...: a step, its output in target/five-minutes/NAME.log, shown if it fails.
run() {
    local name=$1
    shift
    if ! "$@" > "$OUT/$name.log" 2>&1; then
        tail -n 40 "$OUT/$name.log" >&2
        fail "$name failed (all of it: $OUT/$name.log)"
    fi
}
if ss -Hltn "sport = :$PORT" | grep -q .; then
    fail "port $PORT is already in use: stop what listens there first"
fi

rm -rf "$OUT"
mkdir -p "$OUT"
java src/five-minutes/FiveMinutes.java README.md src/five-minutes/pom-template.xml "$OUT" "$PORT"

# 1. The README's install command, from the root of this clone, as the README says.
run install bash "$OUT/install.sh"

# 2 and 4. The newcomer's WAR, against the jar just installed.
run shop-war mvn -B -ntp -f "$OUT/pom.xml" package
unzip -l "$OUT/target/shop.war" | grep -q 'WEB-INF/lib/idemkit-jakarta-' ||
    fail "shop.war has no idemkit jar in WEB-INF/lib"

# The scope provider of "Before production" compiles against the installed jar (with the
# MicroProfile JWT API it uses; not deployed: the five-minute server has no mpJwt).
run scope-compile mvn -B -ntp -f "$OUT/scope/pom.xml" compile

# 3. The server, with the README's features.
if [ ! -x "$WLP/bin/server" ]; then
    run liberty-install mvn -B -ntp liberty:install-server
fi
"$WLP/bin/server" stop "$SERVER" > /dev/null 2>&1 || true
rm -rf "$WLP/usr/servers/$SERVER"
run server-create "$WLP/bin/server" create "$SERVER"
cp "$OUT/server.xml" "$WLP/usr/servers/$SERVER/server.xml"
cp "$OUT/target/shop.war" "$WLP/usr/servers/$SERVER/dropins/"

stop() { "$WLP/bin/server" stop "$SERVER" > /dev/null 2>&1 || true; }
trap stop EXIT
run server-start "$WLP/bin/server" start "$SERVER"
for _ in $(seq 1 120); do
    grep -qE 'CWWKZ000[13]I.*shop|CWWKZ0002E' "$LOG" 2> /dev/null && break
    sleep 1
done
grep -qE 'CWWKZ000[13]I.*shop' "$LOG" || { tail -n 30 "$LOG" >&2; fail "shop.war did not start"; }

# 5. The README's two calls.
FIRST=$(bash "$OUT/call-1.sh" 2>> "$OUT/calls.log" | tr -d '\r')
SECOND=$(bash "$OUT/call-2.sh" 2>> "$OUT/calls.log" | tr -d '\r')
status() { head -n 1 <<< "$1" | cut -d' ' -f2; }
body() { tail -n 1 <<< "$1"; }
[ "$(status "$FIRST")" = 201 ] || fail "first call: $FIRST"
grep -qi '^Idempotency-Key-Expires: ' <<< "$FIRST" || fail "first call, no Idempotency-Key-Expires: $FIRST"
grep -q '^{"id":"' <<< "$(body "$FIRST")" || fail "first call, no id: $FIRST"
grep -qi '^Idempotency-Replayed' <<< "$FIRST" && fail "first call, marked as a replay: $FIRST"
[ "$(status "$SECOND")" = 201 ] || fail "second call: $SECOND"
grep -qi '^Idempotency-Replayed: true' <<< "$SECOND" || fail "second call, not a replay: $SECOND"
[ "$(body "$SECOND")" = "$(body "$FIRST")" ] || fail "second call, another body: $SECOND"

stop
trap - EXIT
if ss -Hltn "sport = :$PORT" | grep -q .; then fail "port $PORT still listens after the stop"; fi
echo "five-minute path: installed, built shop.war from the README, 201 then replayed on Liberty"
