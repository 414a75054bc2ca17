package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.RecordLayout.BODY_LENGTH;
import static io.idemkit.store.mongo.RecordLayout.CLAIMED_AT;
import static io.idemkit.store.mongo.RecordLayout.CLAIM_TOKEN;
import static io.idemkit.store.mongo.RecordLayout.COMPLETED_AT;
import static io.idemkit.store.mongo.RecordLayout.FINGERPRINT;
import static io.idemkit.store.mongo.RecordLayout.FINGERPRINT_VERSION;
import static io.idemkit.store.mongo.RecordLayout.HEADER_NAME;
import static io.idemkit.store.mongo.RecordLayout.HEADER_VALUE;
import static io.idemkit.store.mongo.RecordLayout.ID;
import static io.idemkit.store.mongo.RecordLayout.LEASE_UNTIL;
import static io.idemkit.store.mongo.RecordLayout.RESPONSE_BODY;
import static io.idemkit.store.mongo.RecordLayout.RESPONSE_BODY_CHECK;
import static io.idemkit.store.mongo.RecordLayout.RESPONSE_HEADERS;
import static io.idemkit.store.mongo.RecordLayout.RESPONSE_STATUS;
import static io.idemkit.store.mongo.RecordLayout.STATE;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.BsonValue;

/**
 * Reads stored documents, laid out as {@link RecordLayout} describes, back into records. A document
 * this code cannot read is absent (contract C3): it never raises.
 */
final class RecordReader {

    private static final System.Logger LOG = System.getLogger(RecordReader.class.getName());

    private RecordReader() {}

    /**
     * Reads a document a query returned, logging (at debug, with the hashed key) why one is
     * unreadable.
     *
     * @return the record, or empty if {@code doc} is {@code null} or unreadable
     */
    static Optional<IdempotencyRecord> readOrAbsent(String key, BsonDocument doc) {
        if (doc == null) {
            return Optional.empty();
        }
        Optional<IdempotencyRecord> record = read(doc);
        if (record.isEmpty()) {
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "Record "
                                    + key
                                    + " is unreadable ("
                                    + unreadableReason(doc).orElse("?")
                                    + "); treated as absent");
        }
        return record;
    }

    /**
     * The claim stamps the server wrote into a document this store just claimed, whatever its
     * fingerprint version: {@code claimed_at} and {@code lease_until}.
     *
     * @return both, or empty if either is not a date
     */
    static Optional<Stamps> claimStamps(BsonDocument doc) {
        BsonValue claimedAt = doc.get(CLAIMED_AT);
        BsonValue leaseUntil = doc.get(LEASE_UNTIL);
        if (claimedAt == null
                || !claimedAt.isDateTime()
                || leaseUntil == null
                || !leaseUntil.isDateTime()) {
            return Optional.empty();
        }
        return Optional.of(
                new Stamps(
                        Instant.ofEpochMilli(claimedAt.asDateTime().getValue()),
                        Instant.ofEpochMilli(leaseUntil.asDateTime().getValue())));
    }

    /** A claim's two dates as the server wrote them. */
    record Stamps(Instant claimedAt, Instant leaseUntil) {}

    static boolean carriesToken(BsonDocument doc, ClaimToken token) {
        BsonValue v = doc.get(CLAIM_TOKEN);
        return v != null && v.isString() && v.asString().getValue().equals(token.value());
    }

    /**
     * Reads a stored document.
     *
     * @return the record, or empty if the document is unreadable: a wrong type, a missing field, a
     *     fingerprint version below 1 or not an integer, an unknown state, or a body that is not
     *     generic binary or not as long as it was written. Unreadable is absent (contract C3).
     */
    static Optional<IdempotencyRecord> read(BsonDocument doc) {
        try {
            return Optional.of(readOrThrow(doc));
        } catch (Unreadable | IllegalArgumentException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** Why {@link #read} finds {@code doc} unreadable, for debug logs; empty if it is readable. */
    static Optional<String> unreadableReason(BsonDocument doc) {
        try {
            readOrThrow(doc);
            return Optional.empty();
        } catch (Unreadable | IllegalArgumentException | ArithmeticException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static IdempotencyRecord readOrThrow(BsonDocument doc) {
        String key = string(doc, ID);
        RecordState state = state(doc);
        String fingerprint = string(doc, FINGERPRINT);
        int version = integer(doc, FINGERPRINT_VERSION);
        // Any version from 1 is read as it is, one this library does not compute too: a node of
        // another release wrote it, and it must not be overwritten while it is live (C3).
        if (!IdempotencyRecord.isReadableFingerprintVersion(version)) {
            throw new Unreadable(FINGERPRINT_VERSION + " " + version + " is below 1");
        }
        String token = string(doc, CLAIM_TOKEN);
        if (token.isBlank()) {
            throw new Unreadable("blank " + CLAIM_TOKEN);
        }
        Instant claimedAt = instant(doc, CLAIMED_AT);
        Instant leaseUntil = instant(doc, LEASE_UNTIL);
        IdempotencyRecord.Builder record =
                IdempotencyRecord.builder()
                        .key(key)
                        .state(state)
                        .fingerprint(fingerprint)
                        .fingerprintVersion(version)
                        .token(new ClaimToken(token))
                        .claimedAt(claimedAt)
                        .leaseUntil(leaseUntil);
        if (state == RecordState.CLAIMED) {
            return record.build();
        }
        // A completed record's lease field is its end of retention.
        return record.completedAt(instant(doc, COMPLETED_AT))
                .expiresAt(leaseUntil)
                .result(
                        new StoredResult(
                                integer(doc, RESPONSE_STATUS), headers(doc), body(doc, token)))
                .build();
    }

    private static RecordState state(BsonDocument doc) {
        String state = string(doc, STATE);
        for (RecordState s : RecordState.values()) {
            if (s.name().equals(state)) {
                return s;
            }
        }
        throw new Unreadable("unknown " + STATE);
    }

    private static List<StoredHeader> headers(BsonDocument doc) {
        BsonValue v = required(doc, RESPONSE_HEADERS);
        List<StoredHeader> headers = new ArrayList<>();
        if (v.isArray()) {
            for (BsonValue element : v.asArray()) {
                if (!element.isDocument()) {
                    throw new Unreadable(RESPONSE_HEADERS + " element is not a document");
                }
                headers.add(
                        new StoredHeader(
                                string(element.asDocument(), HEADER_NAME),
                                string(element.asDocument(), HEADER_VALUE)));
            }
        } else if (v.isDocument()) {
            // The Python store's form: one field per header.
            for (Map.Entry<String, BsonValue> e : v.asDocument().entrySet()) {
                if (!e.getValue().isString()) {
                    throw new Unreadable(RESPONSE_HEADERS + " value is not a string");
                }
                headers.add(new StoredHeader(e.getKey(), e.getValue().asString().getValue()));
            }
        } else {
            throw new Unreadable(RESPONSE_HEADERS + " is " + v.getBsonType());
        }
        return headers;
    }

    private static byte[] body(BsonDocument doc, String token) {
        BsonValue v = required(doc, RESPONSE_BODY);
        if (!v.isBinary()) {
            throw new Unreadable(RESPONSE_BODY + " is " + v.getBsonType());
        }
        BsonBinary binary = v.asBinary();
        byte subtype = binary.getType();
        if (subtype != BsonBinarySubType.BINARY.getValue()
                && subtype != BsonBinarySubType.OLD_BINARY.getValue()) {
            throw new Unreadable(RESPONSE_BODY + " has binary subtype " + subtype);
        }
        byte[] bytes = binary.getData();
        BsonValue check = doc.get(RESPONSE_BODY_CHECK);
        if (check != null) {
            if (!check.isDocument()) {
                throw new Unreadable(RESPONSE_BODY_CHECK + " is " + check.getBsonType());
            }
            BsonDocument written = check.asDocument();
            // A check left by an earlier claim says nothing about this body.
            if (string(written, CLAIM_TOKEN).equals(token)
                    && integer(written, BODY_LENGTH) != bytes.length) {
                throw new Unreadable(RESPONSE_BODY + " is truncated");
            }
        }
        return bytes;
    }

    private static BsonValue required(BsonDocument doc, String field) {
        BsonValue v = doc.get(field);
        if (v == null || v.isNull()) {
            throw new Unreadable("missing " + field);
        }
        return v;
    }

    private static String string(BsonDocument doc, String field) {
        BsonValue v = required(doc, field);
        if (!v.isString()) {
            throw new Unreadable(field + " is " + v.getBsonType());
        }
        return v.asString().getValue();
    }

    private static int integer(BsonDocument doc, String field) {
        BsonValue v = required(doc, field);
        if (v.getBsonType() == BsonType.INT32) {
            return v.asInt32().getValue();
        }
        if (v.getBsonType() == BsonType.INT64) {
            return Math.toIntExact(v.asInt64().getValue());
        }
        throw new Unreadable(field + " is " + v.getBsonType());
    }

    private static Instant instant(BsonDocument doc, String field) {
        BsonValue v = required(doc, field);
        if (!v.isDateTime()) {
            throw new Unreadable(field + " is " + v.getBsonType());
        }
        return Instant.ofEpochMilli(v.asDateTime().getValue());
    }

    /** A document that cannot be read as a record. Never leaves this class. */
    private static final class Unreadable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unreadable(String reason) {
            super(reason, null, false, false);
        }
    }
}
