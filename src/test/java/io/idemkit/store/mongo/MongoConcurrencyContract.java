package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LEASE;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Racing claims over the real driver (C2: the claim is atomic, the record fenced). Interleavings
 * that matter are forced deterministically: a command listener runs the rival's whole operation
 * between a claim's first round trip and its second.
 */
abstract class MongoConcurrencyContract {

    /** The server under test, shared by the tests of the class. */
    abstract MongoServerUnderTest mongo();

    private MongoStoreSettings settings;
    private MongoIdempotencyStore store;
    private MongoClient hookedClient;
    private MongoIdempotencyStore hookedStore;
    private final AfterFirstFindAndModify hook = new AfterFirstFindAndModify();

    @BeforeEach
    void newStores() {
        settings = mongo().preparedSettings();
        store = new MongoIdempotencyStore(mongo().sharedClient(), settings, Clock.systemUTC());
        hookedClient = mongo().client(hook);
        hookedStore = new MongoIdempotencyStore(hookedClient, settings, Clock.systemUTC());
        // Started before any test arms the hook: on a real server the probe's first findAndModify
        // fails (a refusal, as it should), which would fire the hook inside the probe.
        store.now();
        hookedStore.now();
    }

    @AfterEach
    void closeStores() {
        store.close();
        hookedStore.close();
        hookedClient.close();
    }

    @Test
    void sixteenThreadsOnAThousandKeys_exactlyOneWinnerPerKey() throws Exception {
        int threads = 16;
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            keys.add(key());
        }
        Map<String, AtomicInteger> winners = new ConcurrentHashMap<>();
        Map<ClaimStatus, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                runs.add(
                        pool.submit(
                                () -> {
                                    start.await(10, TimeUnit.SECONDS);
                                    for (String key : keys) {
                                        ClaimResult claim =
                                                store.claim(key, FINGERPRINT, VERSION, LONG);
                                        outcomes.computeIfAbsent(
                                                        claim.status(), s -> new AtomicInteger())
                                                .incrementAndGet();
                                        if (claim.status().won()) {
                                            winners.computeIfAbsent(key, k -> new AtomicInteger())
                                                    .incrementAndGet();
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> run : runs) {
                run.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(winners).hasSize(keys.size());
        assertThat(winners.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(outcomes.keySet())
                .containsExactlyInAnyOrder(ClaimStatus.NEW, ClaimStatus.ALREADY_CLAIMED);
        assertThat(outcomes.get(ClaimStatus.ALREADY_CLAIMED).get())
                .isEqualTo(keys.size() * (threads - 1));
    }

    @Test
    void completeLandingBetweenTheReclaimsReadAndItsTakeover_winsAlone() {
        String key = key();
        ClaimResult owner = store.claim(key, FINGERPRINT, VERSION, LEASE);
        mongo().waitUntilPast(owner.record().leaseUntil());
        AtomicReference<Boolean> completed = new AtomicReference<>();
        hook.arm(() -> completed.set(store.complete(key, owner.token(), result("late"), LONG)));

        ClaimResult reclaim = hookedStore.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(completed.get()).isTrue();
        assertThat(reclaim.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(reclaim.record().token()).isEqualTo(owner.token());
        assertThat(store.find(key).orElseThrow().result()).isEqualTo(result("late"));
    }

    @Test
    void reclaimTakingOverBeforeTheCompleteLands_winsAlone() {
        String key = key();
        ClaimResult owner = store.claim(key, FINGERPRINT, VERSION, LEASE);
        mongo().waitUntilPast(owner.record().leaseUntil());

        ClaimResult reclaim = store.claim(key, FINGERPRINT, VERSION, LONG);
        boolean completed = store.complete(key, owner.token(), result("late"), LONG);

        assertThat(reclaim.status()).isEqualTo(ClaimStatus.LEASE_RECLAIMED);
        assertThat(completed).isFalse();
        IdempotencyRecord record = store.find(key).orElseThrow();
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.token()).isEqualTo(reclaim.token());
    }

    @Test
    void completeRacingAReclaimOfTheSameExpiredLease_exactlyOneWinsOnEveryKey() throws Exception {
        List<String> keys = new ArrayList<>();
        Map<String, ClaimToken> owners = new ConcurrentHashMap<>();
        Instant lastLease = Instant.EPOCH;
        for (int i = 0; i < 100; i++) {
            String key = key();
            ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LEASE);
            keys.add(key);
            owners.put(key, claim.token());
            lastLease = claim.record().leaseUntil();
        }
        mongo().waitUntilPast(lastLease);
        Map<String, Boolean> completes = new ConcurrentHashMap<>();
        Map<String, ClaimResult> reclaims = new ConcurrentHashMap<>();
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> completer =
                    pool.submit(
                            () -> {
                                for (String key : keys) {
                                    together.await(10, TimeUnit.SECONDS);
                                    completes.put(
                                            key,
                                            store.complete(
                                                    key, owners.get(key), result("late"), LONG));
                                }
                                return null;
                            });
            Future<?> reclaimer =
                    pool.submit(
                            () -> {
                                for (String key : keys) {
                                    together.await(10, TimeUnit.SECONDS);
                                    reclaims.put(key, store.claim(key, FINGERPRINT, VERSION, LONG));
                                }
                                return null;
                            });
            completer.get(1, TimeUnit.MINUTES);
            reclaimer.get(1, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }

        for (String key : keys) {
            boolean completeWon = completes.get(key);
            ClaimResult reclaim = reclaims.get(key);
            assertThat(completeWon).isNotEqualTo(reclaim.status().won());
            IdempotencyRecord record = store.find(key).orElseThrow();
            if (completeWon) {
                assertThat(reclaim.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
                assertThat(record.state()).isEqualTo(RecordState.COMPLETED);
            } else {
                assertThat(reclaim.status()).isEqualTo(ClaimStatus.LEASE_RECLAIMED);
                assertThat(record.token()).isEqualTo(reclaim.token());
            }
        }
    }

    @Test
    void twoClaimersWhoBothReadTheSameCorruptRecord_onlyTheFirstOverwritesIt() {
        String key = key();
        plantLiveLookingCorruptRecord(key);
        AtomicReference<ClaimResult> rival = new AtomicReference<>();
        hook.arm(() -> rival.set(store.claim(key, FINGERPRINT, VERSION, LONG)));

        ClaimResult late = hookedStore.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(rival.get().status()).isEqualTo(ClaimStatus.NEW);
        assertThat(rival.get().recoveredFromCorrupt()).isTrue();
        assertThat(late.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(late.record().token()).isEqualTo(rival.get().token());
    }

    @Test
    void eightThreadsRacingOnCorruptRecords_exactlyOneRecoversEach() throws Exception {
        int threads = 8;
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String key = key();
            plantLiveLookingCorruptRecord(key);
            keys.add(key);
        }
        Map<String, AtomicInteger> recoveries = new ConcurrentHashMap<>();
        Map<String, AtomicInteger> wins = new ConcurrentHashMap<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                runs.add(
                        pool.submit(
                                () -> {
                                    start.await(10, TimeUnit.SECONDS);
                                    for (String key : keys) {
                                        ClaimResult claim =
                                                store.claim(key, FINGERPRINT, VERSION, LONG);
                                        if (claim.status().won()) {
                                            wins.computeIfAbsent(key, k -> new AtomicInteger())
                                                    .incrementAndGet();
                                        }
                                        if (claim.recoveredFromCorrupt()) {
                                            recoveries
                                                    .computeIfAbsent(key, k -> new AtomicInteger())
                                                    .incrementAndGet();
                                        }
                                    }
                                    return null;
                                }));
            }
            for (Future<?> run : runs) {
                run.get(1, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(wins).hasSize(keys.size());
        assertThat(wins.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(recoveries).hasSize(keys.size());
        assertThat(recoveries.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    }

    /**
     * Unreadable (an unknown state) yet live by its lease, so only the pinned overwrite applies.
     */
    private void plantLiveLookingCorruptRecord(String key) {
        mongo().raw(settings.collection())
                .insertOne(
                        new BsonDocument("_id", new BsonString(key))
                                .append("state", new BsonString("BOGUS"))
                                .append("fingerprint", new BsonString(FINGERPRINT))
                                .append("fingerprint_version", new BsonInt32(1))
                                .append("claim_token", new BsonString("c".repeat(32)))
                                .append(
                                        "lease_until",
                                        new BsonDateTime(
                                                mongo().serverTime().plus(LONG).toEpochMilli())));
    }
}
