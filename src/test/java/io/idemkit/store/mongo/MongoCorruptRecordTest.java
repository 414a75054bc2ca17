package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.UuidRepresentation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Corrupt is absent (C3): every way a stored document can be unreadable is recovered as if the key
 * were absent. {@code find} and {@code awaitCompletion} see nothing; a claim overwrites the
 * document, reports {@code recoveredFromCorrupt}, and leaves a record that works like any other.
 */
class MongoCorruptRecordTest extends FreshStoreTest {

    static Stream<Arguments> corruptions() {
        return Stream.of(
                corrupt("state of a wrong type", d -> d.put("state", new BsonInt32(42))),
                corrupt("an unknown state", d -> d.put("state", new BsonString("BOGUS"))),
                corrupt("no state", d -> d.remove("state")),
                corrupt("no fingerprint", d -> d.remove("fingerprint")),
                corrupt("fingerprint of a wrong type", d -> d.put("fingerprint", new BsonInt32(7))),
                // Any version from 1 is readable, one this library does not compute too (C3).
                corrupt(
                        "a fingerprint version below 1",
                        d -> d.put("fingerprint_version", new BsonInt32(0))),
                corrupt(
                        "a negative fingerprint version",
                        d -> d.put("fingerprint_version", new BsonInt32(-2))),
                corrupt(
                        "a fingerprint version that is not an integer",
                        d -> d.put("fingerprint_version", new BsonDouble(2.5))),
                corrupt(
                        "a fingerprint version too large for an int",
                        d -> d.put("fingerprint_version", new BsonInt64(1L << 40))),
                corrupt(
                        "fingerprint version of a wrong type",
                        d -> d.put("fingerprint_version", new BsonString("1"))),
                corrupt("no claim token", d -> d.remove("claim_token")),
                corrupt("a blank claim token", d -> d.put("claim_token", new BsonString(" "))),
                corrupt("claim token of a wrong type", d -> d.put("claim_token", new BsonInt32(7))),
                corrupt(
                        "claim token that is a regex",
                        d -> d.put("claim_token", new BsonRegularExpression(".*"))),
                corrupt(
                        "claim token that is an array",
                        d ->
                                d.put(
                                        "claim_token",
                                        new BsonArray(
                                                List.of(
                                                        new BsonString("a"),
                                                        new BsonString("b"))))),
                corrupt(
                        "claimed_at of a wrong type",
                        d -> d.put("claimed_at", new BsonString("yesterday"))),
                corrupt("no lease_until", d -> d.remove("lease_until")),
                corrupt(
                        "lease_until of a wrong type",
                        d -> d.put("lease_until", new BsonString("2999-01-01"))),
                corrupt(
                        "lease_until that is a timestamp (sorts above every date)",
                        d -> d.put("lease_until", new BsonTimestamp(1, 1))),
                corrupt(
                        "an expired lease besides a wrong state",
                        d -> {
                            d.put("state", new BsonInt32(42));
                            d.put("lease_until", new BsonDateTime(0));
                        }),
                corrupt("no completed_at", d -> d.remove("completed_at")),
                corrupt(
                        "response status of a wrong type",
                        d -> d.put("response_status", new BsonString("200"))),
                corrupt(
                        "response status out of range",
                        d -> d.put("response_status", new BsonInt32(999))),
                corrupt("no headers", d -> d.remove("response_headers")),
                corrupt(
                        "headers of a wrong type",
                        d -> d.put("response_headers", new BsonString("Content-Type: x"))),
                corrupt(
                        "a header that is not a document",
                        d ->
                                d.put(
                                        "response_headers",
                                        new BsonArray(List.of(new BsonString("x"))))),
                corrupt(
                        "a header value that is not a string",
                        d ->
                                d.put(
                                        "response_headers",
                                        new BsonArray(
                                                List.of(
                                                        new BsonDocument(
                                                                        "name", new BsonString("a"))
                                                                .append(
                                                                        "value",
                                                                        new BsonInt32(1)))))),
                corrupt("no body", d -> d.remove("response_body")),
                corrupt(
                        "body of a wrong type",
                        d -> d.put("response_body", new BsonString("{\"id\":1}"))),
                corrupt(
                        "body of an unexpected binary subtype",
                        d ->
                                d.put(
                                        "response_body",
                                        new BsonBinary(
                                                UUID.randomUUID(), UuidRepresentation.STANDARD))),
                corrupt(
                        "a truncated body",
                        d ->
                                d.put(
                                        "response_body_check",
                                        new BsonDocument("claim_token", d.get("claim_token"))
                                                .append("length", new BsonInt32(1_000)))),
                corrupt(
                        "a body check of a wrong type",
                        d -> d.put("response_body_check", new BsonInt32(8))));
    }

    private static Arguments corrupt(String what, Consumer<BsonDocument> change) {
        return Arguments.of(what, change);
    }

    @Test
    void theUncorruptedDocument_isReadable() {
        String key = key();
        mongo.raw(settings.collection()).insertOne(completedDocument(key));

        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(claim.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(claim.record().result()).isEqualTo(result("{\"id\":1}"));
    }

    @Test
    void bodyCheckLeftByAnEarlierClaim_isIgnored() {
        // The Python store completing a record this store completed before keeps our check.
        String key = key();
        BsonDocument doc = completedDocument(key);
        doc.put(
                "response_body_check",
                new BsonDocument("claim_token", new BsonString("0".repeat(32)))
                        .append("length", new BsonInt32(1_000)));
        mongo.raw(settings.collection()).insertOne(doc);

        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
    }

    @ParameterizedTest(name = "a record with {0}")
    @MethodSource("corruptions")
    void unreadableRecord_isAbsent_andTheClaimOverwritesItAndReportsRecovery(
            String what, Consumer<BsonDocument> change) throws Exception {
        String key = key();
        BsonDocument doc = completedDocument(key);
        change.accept(doc);
        mongo.raw(settings.collection()).insertOne(doc);

        assertThat(store.find(key)).isEmpty();
        assertThat(store.awaitCompletion(key, Duration.ofSeconds(5))).isEmpty();
        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isTrue();
        assertThat(store.find(key)).contains(claim.record());
        BsonDocument overwritten = mongo.raw(settings.collection()).find().first();
        assertThat(overwritten.keySet())
                .doesNotContain(
                        "completed_at",
                        "response_status",
                        "response_headers",
                        "response_body",
                        "response_body_check");
        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(store.complete(key, claim.token(), result("ok"), LONG)).isTrue();
        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).record().state())
                .isEqualTo(RecordState.COMPLETED);
    }

    @ParameterizedTest(name = "a record with {0}")
    @MethodSource("corruptions")
    void twoClaimersWhoBothReadTheUnreadableRecord_onlyTheFirstOverwritesIt(
            String what, Consumer<BsonDocument> change) {
        String key = key();
        BsonDocument doc = completedDocument(key);
        change.accept(doc);
        mongo.raw(settings.collection()).insertOne(doc);
        AfterFirstFindAndModify hook = new AfterFirstFindAndModify();
        AtomicReference<ClaimResult> rival = new AtomicReference<>();
        hook.arm(() -> rival.set(store.claim(key, FINGERPRINT, VERSION, LONG)));

        ClaimResult late;
        try (MongoClient client = mongo.client(hook);
                MongoIdempotencyStore hooked =
                        new MongoIdempotencyStore(client, settings, Clock.systemUTC())) {
            late = hooked.claim(key, FINGERPRINT, VERSION, LONG);
        }

        assertThat(rival.get().status()).isEqualTo(ClaimStatus.NEW);
        assertThat(rival.get().recoveredFromCorrupt()).isTrue();
        assertThat(late.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(late.record().token()).isEqualTo(rival.get().token());
    }

    /** A live completed record as the store writes it. */
    private static BsonDocument completedDocument(String key) {
        Instant now = mongo.serverTime();
        return Fixtures.document(
                IdempotencyRecord.claimed(
                                key,
                                FINGERPRINT,
                                VERSION,
                                new ClaimToken("ab".repeat(16)),
                                now,
                                now.plus(LONG))
                        .complete(now, now.plus(LONG), result("{\"id\":1}")),
                MongoStoreSettings.DEFAULT_LEASE_GRACE);
    }
}
