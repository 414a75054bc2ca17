package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LEASE;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code awaitCompletion} over the real driver against mongo-java-server (contracts C4.3, C9): a
 * completion through the same store wakes the waiter at once; a release, a lapsed lease or the
 * timeout ends the wait empty.
 */
class MongoAwaitCompletionTest extends FreshStoreTest {

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
}
