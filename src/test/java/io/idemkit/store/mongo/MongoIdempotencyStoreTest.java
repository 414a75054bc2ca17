package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LEASE;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.bson.BsonBinary;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The store's behaviour over the real driver against mongo-java-server (contracts C2, C3, C9). */
class MongoIdempotencyStoreTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private MongoStoreSettings settings;
    private MongoIdempotencyStore store;

    @BeforeEach
    void newStore() {
        settings = InProcessMongo.freshSettings();
        store = new MongoIdempotencyStore(mongo.sharedClient(), settings, Clock.systemUTC());
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void constructingWithAnUnreachableUri_doesNotConnect() throws Exception {
        int unusedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            unusedPort = socket.getLocalPort();
        }
        long started = System.nanoTime();
        MongoIdempotencyStore lazy =
                new MongoIdempotencyStore(
                        MongoStoreSettings.forUri("mongodb://127.0.0.1:" + unusedPort)
                                .withTimeout(Duration.ofMillis(300)),
                        Clock.systemUTC());
        assertThat(lazy.name()).isEqualTo("mongodb");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
        assertThatThrownBy(() -> lazy.find(key())).isInstanceOf(IdempotencyStorageException.class);
        lazy.close();
    }

    @Test
    void freshClaim_isNewWithTokenAndServerStamps() {
        String key = key();
        Instant serverBefore = mongo.serverTime();

        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        IdempotencyRecord record = claim.record();
        assertThat(record.key()).isEqualTo(key);
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.fingerprint()).isEqualTo(FINGERPRINT);
        assertThat(record.token().value()).hasSize(32);
        assertThat(record.claimedAt()).isCloseTo(serverBefore, within(1, ChronoUnit.SECONDS));
        assertThat(record.leaseUntil()).isEqualTo(record.claimedAt().plus(LONG));
        assertThat(store.find(key)).contains(record);
    }

    @Test
    void secondClaimWhileLeaseIsLive_isAlreadyClaimedAndChangesNothing() {
        String key = key();
        ClaimResult first = store.claim(key, FINGERPRINT, VERSION, LONG);

        ClaimResult second = store.claim(key, "other", VERSION, LONG);

        assertThat(second.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(second.record()).isEqualTo(first.record());
        assertThatThrownBy(second::token).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void completedRecord_isReplayedOnClaim() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        Instant serverBefore = mongo.serverTime();

        assertThat(store.complete(key, token, result("{\"id\":1}"), Duration.ofHours(24))).isTrue();
        ClaimResult replay = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(replay.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        IdempotencyRecord record = replay.record();
        assertThat(record.state()).isEqualTo(RecordState.COMPLETED);
        assertThat(record.result()).isEqualTo(result("{\"id\":1}"));
        assertThat(record.completedAt()).isCloseTo(serverBefore, within(1, ChronoUnit.SECONDS));
        assertThat(record.expiresAt()).isEqualTo(record.completedAt().plus(Duration.ofHours(24)));
        assertThat(record.leaseUntil()).isEqualTo(record.expiresAt());
        assertThat(store.find(key)).contains(record);
    }

    @Test
    void headersWithRepeatedNamesDotsAndDollars_roundTripInOrder() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        StoredResult stored =
                new StoredResult(
                        200,
                        List.of(
                                new StoredHeader("Link", "<a>"),
                                new StoredHeader("x.dotted.name", "1"),
                                new StoredHeader("$dollar", "2"),
                                new StoredHeader("Link", "<b>")),
                        new byte[0]);

        store.complete(key, token, stored, LONG);

        assertThat(store.find(key).orElseThrow().result()).isEqualTo(stored);
    }

    @Test
    void pythonStoreDocument_isReadIncludingHeaderSubDocument() {
        String key = key();
        Instant now = mongo.serverTime();
        mongo.raw(settings.collection())
                .insertOne(
                        new BsonDocument("_id", new BsonString(key))
                                .append("state", new BsonString("COMPLETED"))
                                .append("fingerprint", new BsonString(FINGERPRINT))
                                .append("fingerprint_version", new BsonInt64(1))
                                .append("claim_token", new BsonString("ab".repeat(16)))
                                .append("claimed_at", date(now))
                                .append("lease_until", date(now.plus(LONG)))
                                .append("expire_at", date(now.plus(LONG).plusSeconds(60)))
                                .append("completed_at", date(now))
                                .append("response_status", new BsonInt32(200))
                                .append(
                                        "response_headers",
                                        new BsonDocument(
                                                "Content-Type", new BsonString("text/plain")))
                                .append("response_body", new BsonBinary("ok".getBytes())));

        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(claim.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(claim.record().result().headers())
                .containsExactly(new StoredHeader("Content-Type", "text/plain"));
        assertThat(claim.record().result().body()).isEqualTo("ok".getBytes());
    }

    @Test
    void staleToken_cannotCompleteReleaseOrRenew() {
        String key = key();
        store.claim(key, FINGERPRINT, VERSION, LONG);
        ClaimToken stranger = ClaimToken.random();

        assertThat(store.complete(key, stranger, result("x"), LONG)).isFalse();
        assertThat(store.release(key, stranger)).isFalse();
        assertThat(store.renew(key, stranger, LONG)).isFalse();
        assertThat(store.find(key).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
    }

    @Test
    void release_deletesTheClaim_soTheNextClaimIsNew() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();

        assertThat(store.release(key, token)).isTrue();

        assertThat(store.find(key)).isEmpty();
        assertThat(store.release(key, token)).isFalse();
        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void releaseOfACompletedRecord_doesNothing() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        store.complete(key, token, result("x"), LONG);

        assertThat(store.release(key, token)).isFalse();
        assertThat(store.renew(key, token, LONG)).isFalse();
        assertThat(store.find(key)).isPresent();
    }

    @Test
    void renew_movesTheLeaseOnTheServersClock() {
        String key = key();
        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LEASE);

        assertThat(store.renew(key, claim.token(), LONG)).isTrue();

        IdempotencyRecord renewed = store.find(key).orElseThrow();
        assertThat(renewed.leaseUntil()).isAfter(claim.record().leaseUntil());
        mongo.waitUntilPast(claim.record().leaseUntil());
        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
    }

    @Test
    void lapsedLeaseNotYetTakenOver_canStillBeRenewed() {
        String key = key();
        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LEASE);
        mongo.waitUntilPast(claim.record().leaseUntil());

        assertThat(store.find(key)).isPresent();
        assertThat(store.renew(key, claim.token(), LONG)).isTrue();
        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
    }

    @Test
    void expiredLease_isReclaimedWithANewToken_andFencesTheOldOwner() {
        String key = key();
        ClaimResult first = store.claim(key, FINGERPRINT, VERSION, LEASE);
        mongo.waitUntilPast(first.record().leaseUntil());

        ClaimResult reclaim = store.claim(key, "second", VERSION, LONG);

        assertThat(reclaim.status()).isEqualTo(ClaimStatus.LEASE_RECLAIMED);
        assertThat(reclaim.token()).isNotEqualTo(first.token());
        assertThat(reclaim.record().fingerprint()).isEqualTo("second");
        assertThat(store.complete(key, first.token(), result("late"), LONG)).isFalse();
        assertThat(store.release(key, first.token())).isFalse();
        assertThat(store.renew(key, first.token(), LONG)).isFalse();
        assertThat(store.find(key)).contains(reclaim.record());
    }

    @Test
    void expiredResult_isNotFound_andIsClaimedAsNewWithoutOldFields() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        store.complete(key, token, result("old"), LEASE);
        mongo.waitUntilPast(mongo.serverTime().plus(LEASE));

        assertThat(store.find(key)).isEmpty();
        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        BsonDocument doc = mongo.raw(settings.collection()).find().first();
        assertThat(doc.keySet())
                .doesNotContain(
                        "completed_at",
                        "response_status",
                        "response_headers",
                        "response_body",
                        "response_body_check");
    }

    @Test
    void delete_erasesARecordInAnyState() {
        String claimed = key();
        String completed = key();
        store.claim(claimed, FINGERPRINT, VERSION, LONG);
        ClaimToken token = store.claim(completed, FINGERPRINT, VERSION, LONG).token();
        store.complete(completed, token, result("x"), LONG);

        assertThat(store.delete(claimed)).isTrue();
        assertThat(store.delete(completed)).isTrue();
        assertThat(store.delete(completed)).isFalse();
        assertThat(store.find(claimed)).isEmpty();
        assertThat(store.find(completed)).isEmpty();
    }

    @Test
    void awaitCompletion_returnsTheCompletedRecordAtOnce() throws Exception {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        store.complete(key, token, result("done"), LONG);

        assertThat(store.awaitCompletion(key, Duration.ZERO).orElseThrow().result())
                .isEqualTo(result("done"));
    }

    @Test
    void awaitCompletion_isWokenByACompletionThroughTheSameStore() throws Exception {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        CommandCounter finds = new CommandCounter();
        try (var client = mongo.client(finds);
                MongoIdempotencyStore waiting =
                        new MongoIdempotencyStore(client, settings, Clock.systemUTC())) {
            CompletableFuture<Optional<IdempotencyRecord>> waiter =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return waiting.awaitCompletion(key, Duration.ofSeconds(20));
                                } catch (InterruptedException e) {
                                    throw new IllegalStateException(e);
                                }
                            });
            // After 7 polls (10, 20, ... 320 ms apart) the next pause is the 500 ms cap.
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> finds.count("find") >= 7);

            long completed = System.nanoTime();
            assertThat(waiting.complete(key, token, result("done"), LONG)).isTrue();
            Optional<IdempotencyRecord> record = waiter.get(10, TimeUnit.SECONDS);

            assertThat(record.orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
            assertThat(Duration.ofNanos(System.nanoTime() - completed))
                    .isLessThan(Duration.ofMillis(250));
        }
    }

    @Test
    void awaitCompletion_endsEmptyWhenTheClaimIsReleased() throws Exception {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        CompletableFuture<Optional<IdempotencyRecord>> waiter =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return store.awaitCompletion(key, Duration.ofSeconds(20));
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });

        store.release(key, token);

        assertThat(waiter.get(10, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void awaitCompletion_endsEmptyWhenTheLeaseRunsOut() throws Exception {
        String key = key();
        store.claim(key, FINGERPRINT, VERSION, LEASE);
        long started = System.nanoTime();

        assertThat(store.awaitCompletion(key, Duration.ofSeconds(20))).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(LEASE.plusSeconds(5));
    }

    @Test
    void awaitCompletion_endsEmptyOnTimeout() throws Exception {
        String key = key();
        store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(store.awaitCompletion(key, Duration.ofMillis(100))).isEmpty();
        assertThat(store.awaitCompletion(key(), Duration.ofMillis(100))).isEmpty();
    }

    @Test
    void purgeExpired_deletesOnlyRecordsPastTheirExpiry() {
        MongoIdempotencyStore noGrace =
                new MongoIdempotencyStore(
                        mongo.sharedClient(),
                        settings.withLeaseGrace(Duration.ZERO),
                        Clock.systemUTC());
        String lapsedClaim = key();
        String liveClaim = key();
        String lapsedResult = key();
        String liveResult = key();
        noGrace.claim(lapsedClaim, FINGERPRINT, VERSION, LEASE);
        noGrace.claim(liveClaim, FINGERPRINT, VERSION, LONG);
        noGrace.complete(
                lapsedResult,
                noGrace.claim(lapsedResult, FINGERPRINT, VERSION, LONG).token(),
                result("x"),
                LEASE);
        noGrace.complete(
                liveResult,
                noGrace.claim(liveResult, FINGERPRINT, VERSION, LONG).token(),
                result("x"),
                LONG);
        // Every short lease and retention ends at most LEASE after the server's time now.
        mongo.waitUntilPast(mongo.serverTime().plus(LEASE));

        assertThat(noGrace.purgeExpired()).isEqualTo(2);

        assertThat(mongo.raw(settings.collection()).countDocuments()).isEqualTo(2);
        assertThat(noGrace.find(liveClaim)).isPresent();
        assertThat(noGrace.find(liveResult)).isPresent();
        assertThat(noGrace.purgeExpired()).isZero();
    }

    @Test
    void now_isTheServersTime() {
        assertThat(store.now()).isCloseTo(mongo.serverTime(), within(1, ChronoUnit.SECONDS));
    }

    @Test
    void close_leavesASuppliedClientOpen_andFailsLaterCalls() {
        store.claim(key(), FINGERPRINT, VERSION, LONG);

        store.close();
        store.close();

        assertThatThrownBy(() -> store.find(key()))
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessageContaining("closed");
        assertThat(mongo.raw(settings.collection()).countDocuments()).isEqualTo(1);
    }

    @Test
    void storeFromUri_ownsItsClient_andClosesIt() {
        MongoIdempotencyStore own =
                new MongoIdempotencyStore(settings.withUri(mongo.uri()), Clock.systemUTC());
        String key = key();
        ClaimToken token = own.claim(key, FINGERPRINT, VERSION, LONG).token();
        assertThat(own.complete(key, token, result("x"), LONG)).isTrue();

        own.close();

        assertThatThrownBy(() -> own.find(key)).isInstanceOf(IdempotencyStorageException.class);
        assertThat(store.find(key)).isPresent();
    }

    @Test
    void storeFromDatabase_usesThatDatabase() {
        MongoIdempotencyStore onDatabase =
                new MongoIdempotencyStore(
                        mongo.sharedClient().getDatabase(InProcessMongo.DATABASE),
                        settings.withDatabase("ignored"),
                        Clock.systemUTC());
        String key = key();

        onDatabase.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(store.find(key)).isPresent();
        onDatabase.close();
        assertThat(store.find(key)).isPresent();
    }

    @Test
    void settingsWithoutUri_areRefusedByTheUriConstructor() {
        assertThatThrownBy(
                        () ->
                                new MongoIdempotencyStore(
                                        MongoStoreSettings.defaults(), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("idemkit.mongo.uri");
    }

    private static BsonDateTime date(Instant instant) {
        return new BsonDateTime(instant.toEpochMilli());
    }
}
