package io.idemkit.store.mongo;

import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;

/** Values the Mongo store tests share. */
final class Fixtures {

    /** A lease short enough to let run out in real time, long enough to outlive a slow step. */
    static final Duration LEASE = Duration.ofMillis(400);

    static final Duration LONG = Duration.ofMinutes(10);
    static final String FINGERPRINT = "f".repeat(64);
    static final int VERSION = IdempotencyRecord.CURRENT_FINGERPRINT_VERSION;

    private static final SecureRandom RANDOM = new SecureRandom();

    private Fixtures() {}

    /** An effective key: 64 lowercase hex characters, like a SHA-256. */
    static String key() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static StoredResult result(String body) {
        return new StoredResult(
                201,
                List.of(
                        new StoredHeader("Content-Type", "application/json"),
                        new StoredHeader("Link", "</a>; rel=next"),
                        new StoredHeader("Link", "</b>; rel=prev")),
                body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code record} as the stores lay it out ({@link RecordLayout}), each field as it is, its
     * fingerprint version, token and times too: what another node writes, for a test to insert.
     *
     * @param leaseGrace how long past {@code lease_until} the TTL index may delete it
     */
    static BsonDocument document(IdempotencyRecord record, Duration leaseGrace) {
        boolean completed = record.state() == RecordState.COMPLETED;
        // lease_until is the end of retention for a completed record.
        Instant leaseUntil = completed ? record.expiresAt() : record.leaseUntil();
        BsonDocument doc =
                new BsonDocument("_id", new BsonString(record.key()))
                        .append("state", new BsonString(record.state().name()))
                        .append("fingerprint", new BsonString(record.fingerprint()))
                        .append("fingerprint_version", new BsonInt32(record.fingerprintVersion()))
                        .append("claim_token", new BsonString(record.token().value()))
                        .append("claimed_at", RecordLayout.date(record.claimedAt()))
                        .append("lease_until", RecordLayout.date(leaseUntil))
                        .append("expire_at", RecordLayout.date(leaseUntil.plus(leaseGrace)));
        if (completed) {
            doc.append("completed_at", RecordLayout.date(record.completedAt()))
                    .append("response_status", new BsonInt32(record.result().status()))
                    .append("response_headers", RecordLayout.headers(record.result()))
                    .append("response_body", new BsonBinary(record.result().body()))
                    .append(
                            "response_body_check",
                            RecordLayout.bodyCheck(record.token(), record.result()));
        }
        return doc;
    }
}
