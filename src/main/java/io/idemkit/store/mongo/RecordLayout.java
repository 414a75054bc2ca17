package io.idemkit.store.mongo;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonType;
import org.bson.BsonValue;

/**
 * The one document per effective key, as idemkit's Python store lays it out, so that both can share
 * a collection; and the filters (and the parts of updates) that find and write it. Both {@link
 * UpdateForm}s write it; {@link RecordReader} reads it.
 *
 * <pre>
 * _id                  the effective key
 * state                "CLAIMED" | "COMPLETED"
 * fingerprint          string
 * fingerprint_version  int
 * claim_token          string, new on every claim
 * claimed_at           date
 * lease_until          date: the lease end; for a COMPLETED record, the end of retention
 * expire_at            date: lease_until + lease grace, the TTL index's field
 * completed_at         date (COMPLETED only)
 * response_status      int (COMPLETED only)
 * response_headers     [{name, value}, ...] (COMPLETED only; read also as {name: value})
 * response_body        binary (COMPLETED only)
 * response_body_check  {claim_token, length}: the body's length, as the claim that
 *                      completed it wrote it (ours; checked when present)
 * </pre>
 *
 * Because {@code lease_until} is the end of retention for a completed record, one comparison,
 * {@code lease_until > $$NOW}, says "live" for both states.
 *
 * <p>The field of ours is ignored by the Python store, which may take over and complete a record
 * after this store did, leaving it behind. So {@code response_body_check} names the claim it
 * belongs to and counts only for that claim.
 *
 * <p>Every date is BSON milliseconds, so every instant written is truncated to the millisecond
 * first, and the records returned are equal to what {@code find} later reads.
 */
final class RecordLayout {

    static final String ID = "_id";
    static final String STATE = "state";
    static final String FINGERPRINT = "fingerprint";
    static final String FINGERPRINT_VERSION = "fingerprint_version";
    static final String CLAIM_TOKEN = "claim_token";
    static final String CLAIMED_AT = "claimed_at";
    static final String LEASE_UNTIL = "lease_until";
    static final String EXPIRE_AT = "expire_at";
    static final String COMPLETED_AT = "completed_at";
    static final String RESPONSE_STATUS = "response_status";
    static final String RESPONSE_HEADERS = "response_headers";
    static final String RESPONSE_BODY = "response_body";
    static final String RESPONSE_BODY_CHECK = "response_body_check";

    static final String HEADER_NAME = "name";
    static final String HEADER_VALUE = "value";
    static final String BODY_LENGTH = "length";

    /**
     * What a completed document holds besides the result: _id, fingerprint, token, the dates and
     * the field names. A generous bound, so that the size check errs on the side of refusing.
     */
    private static final int COMPLETED_OVERHEAD_BYTES = 4096;

    private RecordLayout() {}

    // --- filters -----------------------------------------------------------------------------

    static BsonDocument byKey(String key) {
        return new BsonDocument(ID, new BsonString(key));
    }

    /** {@code lease_until > $$NOW}: the record holds its key, whatever its state. */
    static BsonDocument liveExpression() {
        return new BsonDocument(
                "$gt", new BsonArray(List.of(new BsonString("$" + LEASE_UNTIL), now())));
    }

    /**
     * {@code lease_until} later than {@code instant}, as a plain query operator: the one kind of
     * time condition MongoDB allows in an upsert's filter ({@code $expr} is refused there).
     */
    static BsonDocument liveBeyond(String key, Instant instant) {
        return byKey(key).append(LEASE_UNTIL, new BsonDocument("$gt", date(instant)));
    }

    static BsonDocument live(String key) {
        return byKey(key).append("$expr", liveExpression());
    }

    /**
     * Not live by the server's clock. A missing {@code lease_until} compares below every date, and
     * so do null, numbers, strings, documents, arrays, binary, ObjectIds and booleans (BSON
     * comparison order); such an unreadable record matches. A Timestamp, a regex or MaxKey sorts
     * above every date, so a record holding one never matches: the claim finds it live, cannot read
     * it, and overwrites it through {@link #pinned} instead.
     */
    static BsonDocument notLive(String key) {
        return byKey(key).append("$expr", not(liveExpression()));
    }

    /** What {@code find} may return: any claim, and a completed record only while it is live. */
    static BsonDocument visible(String key) {
        BsonDocument claimed =
                new BsonDocument(
                        "$ne",
                        new BsonArray(
                                List.of(
                                        new BsonString("$" + STATE),
                                        new BsonString(RecordState.COMPLETED.name()))));
        return byKey(key)
                .append(
                        "$expr",
                        new BsonDocument("$or", new BsonArray(List.of(claimed, liveExpression()))));
    }

    /**
     * What {@code purgeExpired} deletes: past {@code expire_at} by the server's clock (or without
     * one) and not live, where live means a {@code lease_until} that is a date after {@code $$NOW}:
     * a record whose {@code lease_until} is of another type (a Timestamp, a regex, MaxKey, which
     * sort above dates) is unreadable and deleted too. Never a live record.
     *
     * <p>The plain {@code expire_at} condition, {@code <= bound} or null (missing), lets the server
     * serve the delete from the TTL index instead of scanning; {@code bound} is the estimated
     * server time plus the margin, so that it never excludes what the exact {@code $expr} on {@code
     * $$NOW} includes.
     */
    static BsonDocument purgeable(Instant bound) {
        BsonDocument pastExpireAt =
                new BsonDocument(
                        "$expr",
                        new BsonDocument(
                                "$lte",
                                new BsonArray(List.of(new BsonString("$" + EXPIRE_AT), now()))));
        BsonDocument indexed =
                new BsonDocument(
                        "$or",
                        new BsonArray(
                                List.of(
                                        new BsonDocument(
                                                EXPIRE_AT, new BsonDocument("$lte", date(bound))),
                                        new BsonDocument(EXPIRE_AT, BsonNull.VALUE))));
        // The query operator $type, not the aggregation one, which mongo-java-server lacks.
        BsonDocument notLive =
                new BsonDocument(
                        "$or",
                        new BsonArray(
                                List.of(
                                        new BsonDocument(
                                                LEASE_UNTIL,
                                                new BsonDocument(
                                                        "$not",
                                                        new BsonDocument(
                                                                "$type",
                                                                new BsonInt32(
                                                                        BsonType.DATE_TIME
                                                                                .getValue())))),
                                        new BsonDocument("$expr", not(liveExpression())))));
        return new BsonDocument("$and", new BsonArray(List.of(indexed, notLive, pastExpireAt)));
    }

    /** Fenced operations match only a claim that still carries the caller's token. */
    static BsonDocument claimedWith(String key, ClaimToken token) {
        return byKey(key)
                .append(STATE, new BsonString(RecordState.CLAIMED.name()))
                .append(CLAIM_TOKEN, new BsonString(token.value()));
    }

    /**
     * Matches the unreadable document {@code read} as long as no writer has changed it. Its token,
     * state and lease are each pinned by value, or by absence; a value whose query equality means
     * something else (a regex matches strings; undefined is refused) is pinned as "still not of the
     * type every writer writes there": a string for the token and state, a date for the lease.
     *
     * <p>Every claim writes a fresh random string token, and complete and renew, which keep the
     * token, rewrite the state or the lease. So once one racer has overwritten the document, or its
     * owner has completed or renewed it, no other racer's filter matches: of two racers, only the
     * first wins.
     */
    static BsonDocument pinned(String key, BsonDocument read) {
        BsonDocument filter = byKey(key);
        pin(filter, read, CLAIM_TOKEN, BsonType.STRING);
        pin(filter, read, STATE, BsonType.STRING);
        pin(filter, read, LEASE_UNTIL, BsonType.DATE_TIME);
        return filter;
    }

    private static void pin(
            BsonDocument filter, BsonDocument read, String field, BsonType writtenType) {
        BsonValue value = read.get(field);
        if (value == null) {
            filter.append(field, new BsonDocument("$exists", BsonBoolean.FALSE));
        } else if (hasPlainEquality(value)) {
            filter.append(field, new BsonDocument("$eq", value));
        } else {
            filter.append(
                    field,
                    new BsonDocument(
                            "$not",
                            new BsonDocument("$type", new BsonInt32(writtenType.getValue()))));
        }
    }

    private static boolean hasPlainEquality(BsonValue value) {
        return switch (value.getBsonType()) {
            case STRING,
                    INT32,
                    INT64,
                    DOUBLE,
                    DECIMAL128,
                    DATE_TIME,
                    BOOLEAN,
                    NULL,
                    OBJECT_ID,
                    TIMESTAMP,
                    BINARY,
                    ARRAY,
                    DOCUMENT ->
                    true;
            default -> false;
        };
    }

    // --- parts of updates --------------------------------------------------------------------

    /** The fields only a completed record has, removed when a claim takes a record over. */
    static final List<String> RESULT_FIELDS =
            List.of(
                    COMPLETED_AT,
                    RESPONSE_STATUS,
                    RESPONSE_HEADERS,
                    RESPONSE_BODY,
                    RESPONSE_BODY_CHECK);

    /** {@code response_headers} as this store writes it: {@code [{name, value}, ...]}, in order. */
    static BsonArray headers(StoredResult result) {
        BsonArray headers = new BsonArray();
        for (StoredHeader header : result.headers()) {
            headers.add(
                    new BsonDocument(HEADER_NAME, new BsonString(header.name()))
                            .append(HEADER_VALUE, new BsonString(header.value())));
        }
        return headers;
    }

    /** {@code response_body_check}: the body's length, as the claim of {@code token} wrote it. */
    static BsonDocument bodyCheck(ClaimToken token, StoredResult result) {
        return new BsonDocument(CLAIM_TOKEN, new BsonString(token.value()))
                .append(BODY_LENGTH, new BsonInt32(result.bodyLength()));
    }

    /**
     * An upper bound on the BSON size of the completed document, computed without encoding the
     * body: the body, the headers as they are laid out, and a generous allowance for the rest.
     */
    static long completedSizeBound(StoredResult result) {
        long size = COMPLETED_OVERHEAD_BYTES + (long) result.bodyLength();
        int index = 0;
        for (StoredHeader header : result.headers()) {
            // element: type byte, index as a C string, then the {name, value} document with its
            // length prefix, two string elements (type, key, length prefix, bytes, NUL) and a NUL.
            size += 1 + String.valueOf(index++).length() + 1;
            size += 4 + 1;
            size += 1 + HEADER_NAME.length() + 1 + 4 + utf8Length(header.name()) + 1;
            size += 1 + HEADER_VALUE.length() + 1 + 4 + utf8Length(header.value()) + 1;
        }
        return size;
    }

    private static long utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    // --- values ------------------------------------------------------------------------------

    static Instant millis(Instant instant) {
        return Instant.ofEpochMilli(instant.toEpochMilli());
    }

    /** {@code from + d}, to the millisecond, refusing a date BSON cannot hold. */
    static Instant plus(Instant from, Duration d) {
        return Instant.ofEpochMilli(Math.addExact(from.toEpochMilli(), d.toMillis()));
    }

    static BsonDateTime date(Instant instant) {
        return new BsonDateTime(instant.toEpochMilli());
    }

    private static BsonString now() {
        return new BsonString("$$NOW");
    }

    private static BsonDocument not(BsonDocument expression) {
        return new BsonDocument("$not", new BsonArray(List.of(expression)));
    }
}
