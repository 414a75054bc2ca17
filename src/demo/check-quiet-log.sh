#!/usr/bin/env bash
# The demo's quiet-log check (src/demo/README.md): starts the demo on Open Liberty with
# a data directory of its own, uses it as a user would (a payment, its replay, a changed body, a
# malformed body, amounts it cannot charge, a malformed query), provokes a lease takeover (a 6 s
# lease, and two calls on one key that each work 8 s: the one that waits finds the other's lease
# spent and takes the record over; on the embedded server that goes through a refused duplicate
# key, by design), stops the server, and fails if messages.log holds an ERROR, an FFDC incident or
# a stack trace.
#
# Usage: src/demo/check-quiet-log.sh [http-port]   (default 9180; the HTTPS port is the next one)
# Needs nothing but the build: the first run downloads Open Liberty like `mvn -Pdemo package`.
set -euo pipefail
cd "$(dirname "$0")/../.."

PORT=${1:-9180}
# Absolute: the server resolves a relative one against its own directory.
DATA=$PWD/target/demo-quiet-log-data
SERVER=target/liberty/wlp/usr/servers/idemkit-demo
LOG=$SERVER/logs/messages.log
URL=http://localhost:$PORT/idemkit-demo/api/payments

rm -rf "$DATA" "$SERVER/logs"
# A short lease needs a short store timeout: idemkit refuses a lease under 3 x timeout + 3 s.
IDEMKIT_MONGO_TIMEOUT=1s IDEMKIT_LEASE_TTL=6s \
    mvn -B -ntp -Pdemo -Dliberty.http.port="$PORT" -Dliberty.var.https.port=$((PORT + 1)) \
    -Ddemo.data.dir="$DATA" package > target/demo-quiet-log-build.log 2>&1 &
MVN=$!
stop() {
    target/liberty/wlp/bin/server stop idemkit-demo > /dev/null 2>&1 || true
    wait "$MVN" 2> /dev/null || true
}
trap stop EXIT

for _ in $(seq 1 300); do
    if grep -q 'CWWKZ0001I' "$LOG" 2> /dev/null; then break; fi
    if ! kill -0 "$MVN" 2> /dev/null; then
        echo "The demo did not start: see target/demo-quiet-log-build.log" >&2
        exit 1
    fi
    sleep 1
done
grep -q 'CWWKZ0001I' "$LOG" || { echo "The demo did not start within 300 s" >&2; exit 1; }

FAILED=0
# expect STATUS KEY BODY [QUERY]: one POST, and the status it must get.
expect() {
    local got
    got=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL${4:-}" \
        -H 'Content-Type: application/json' ${2:+-H "Idempotency-Key: $2"} -d "$3")
    if [ "$got" != "$1" ]; then
        echo "POST key=${2:-none} ${4:-}: expected $1, got $got" >&2
        FAILED=1
    fi
}
PAYMENT='{"amount":1999,"currency":"EUR","to":"acct_42"}'
expect 201 order-1 "$PAYMENT"
expect 201 order-1 "$PAYMENT"
expect 422 order-1 '{"amount":5000,"currency":"EUR","to":"acct_42"}'
expect 400 order-2 '{"amount":19'
expect 400 "" '{"amount":"x"}'
# Amounts a long cannot hold as sent are refused, not rounded or wrapped; a 400 is not stored, so
# the corrected payment runs under the same key.
expect 400 order-3 '{"amount":1.5,"currency":"EUR","to":"acct_42"}'
expect 400 order-3 '{"amount":99999999999999999999,"currency":"EUR","to":"acct_42"}'
expect 201 order-3 '{"amount":150,"currency":"EUR","to":"acct_42"}'
# A query the runtime cannot parse: idemkit refuses a keyed one (no Servlet API to read it from
# here), blaming the query; an unkeyed one is the runtime's, which refuses it too, as the resource
# reads a query parameter.
expect 400 order-4 "$PAYMENT" '?f=%zz'
expect 400 "" "$PAYMENT" '?f=%zz'

TAKEOVER='{"amount":100,"currency":"EUR","to":"acct_takeover"}'
expect 201 takeover-1 "$TAKEOVER" '?delayMs=8000' &
FIRST=$!
expect 201 takeover-1 "$TAKEOVER" '?delayMs=8000'
wait "$FIRST" || FAILED=1
# Both calls outlived the lease, so both ran: the proof that the second took the record over.
TAKEN=$(curl -s "$URL" | grep -o '"to":"acct_takeover"' | wc -l)
if [ "$TAKEN" != 2 ]; then
    echo "Expected a takeover (2 charges for takeover-1), found $TAKEN" >&2
    FAILED=1
fi

stop
trap - EXIT

# Liberty's level column (E = error), FFDC incidents, and stack-trace lines.
if grep -nE '^\[[^]]*\] [0-9a-f]+ +[^ ]+ +E |FFDC1015I|^[[:space:]]+at |Exception' "$LOG"; then
    echo "The server log is not quiet: $LOG" >&2
    FAILED=1
fi
if [ "$FAILED" = 0 ]; then
    echo "Quiet: no ERROR, no FFDC incident and no stack trace in $LOG ($(wc -l < "$LOG") lines)"
fi
exit "$FAILED"
