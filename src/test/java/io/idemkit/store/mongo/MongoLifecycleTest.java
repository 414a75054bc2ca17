package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.spi.ClaimToken;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * The store's lifecycle over the real driver against mongo-java-server (contract C9): constructing
 * does not connect, the three ways to give it a connection, {@code now}, and {@code close}.
 */
class MongoLifecycleTest extends FreshStoreTest {

    @Test
    void constructingWithAnUnreachableUri_doesNotConnect() throws Exception {
        int unusedPort = TestPorts.next();
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

    /**
     * The driver's buffer pool pruner, a thread it starts for the whole class loader and never
     * stops, ends when the store closes (C15.1): it kept an undeployed application in memory.
     */
    @Test
    void close_stopsTheDriversBufferPoolPruner() {
        MongoIdempotencyStore own =
                new MongoIdempotencyStore(settings.withUri(mongo.uri()), Clock.systemUTC());
        own.claim(key(), FINGERPRINT, VERSION, LONG);

        own.close();

        org.awaitility.Awaitility.await("the pruner thread ended")
                .atMost(Duration.ofSeconds(10))
                .until(() -> !prunerRuns());
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

    private static boolean prunerRuns() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().startsWith("BufferPoolPruner-"));
    }
}
