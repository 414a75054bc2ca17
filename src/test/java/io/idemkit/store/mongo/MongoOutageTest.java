package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import de.bwaldvogel.mongo.backend.h2.H2Backend;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MongoDB outage fails fast and cleanly, and the same store object recovers by itself (C3, C4.6):
 * every operation raises {@link IdempotencyStorageException} within the configured timeout (the
 * bound asserted is generous: a hang guard, not a speed test), and once a server answers on the
 * same port again the store works on, with no restart. The server keeps its data on disk (H2), so
 * records written before the outage are there after it.
 */
class MongoOutageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final Duration HANG_GUARD = TIMEOUT.plusSeconds(5);

    @TempDir Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void serverStoppedMidRun_failsWithinTheTimeout_andTheSameStoreRecovers() {
        String file = dir.resolve("records.mv").toString();
        InProcessMongo server = InProcessMongo.start(new H2Backend(file), 0);
        int port = server.port();
        MongoIdempotencyStore store =
                new MongoIdempotencyStore(
                        InProcessMongo.freshSettings().withUri(server.uri()).withTimeout(TIMEOUT),
                        Clock.systemUTC());
        try {
            String done = key();
            store.complete(
                    done, store.claim(done, FINGERPRINT, VERSION, LONG).token(), result("x"), LONG);
            String inFlight = key();
            ClaimToken token = store.claim(inFlight, FINGERPRINT, VERSION, LONG).token();

            server.close();

            String fresh = key();
            assertFailsFast(() -> store.claim(fresh, FINGERPRINT, VERSION, LONG), fresh);
            assertFailsFast(() -> store.complete(inFlight, token, result("y"), LONG), inFlight);
            assertFailsFast(() -> store.find(done), done);
            assertFailsFast(
                    () -> store.awaitCompletion(inFlight, Duration.ofSeconds(30)), inFlight);

            server = InProcessMongo.start(new H2Backend(file), port);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .ignoreExceptionsInstanceOf(IdempotencyStorageException.class)
                    .until(
                            () ->
                                    store.claim(done, FINGERPRINT, VERSION, LONG).status()
                                            == ClaimStatus.ALREADY_COMPLETED);
            assertThat(store.complete(inFlight, token, result("y"), LONG)).isTrue();
            assertThat(store.claim(fresh, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);
        } finally {
            store.close();
            server.close();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void serverDownAtFirstUse_failsWithinTheTimeout_andTheStoreStartsOnceItIsUp() throws Exception {
        int port = TestPorts.next();
        MongoIdempotencyStore store =
                new MongoIdempotencyStore(
                        InProcessMongo.freshSettings()
                                .withUri("mongodb://127.0.0.1:" + port)
                                .withTimeout(TIMEOUT),
                        Clock.systemUTC());
        InProcessMongo server = null;
        try {
            String key = key();
            assertFailsFast(() -> store.claim(key, FINGERPRINT, VERSION, LONG), key);

            server = InProcessMongo.start(new H2Backend(dir.resolve("late.mv").toString()), port);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .ignoreExceptionsInstanceOf(IdempotencyStorageException.class)
                    .until(
                            () ->
                                    store.claim(key, FINGERPRINT, VERSION, LONG).status()
                                            == ClaimStatus.NEW);
            assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        } finally {
            store.close();
            if (server != null) {
                server.close();
            }
        }
    }

    private static void assertFailsFast(ThrowingCallable call, String key) {
        long started = System.nanoTime();
        assertThatThrownBy(call)
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessageStartingWith("MongoDB ")
                .hasMessageContaining("idemkit.mongo.timeout")
                .satisfies(
                        e ->
                                assertThat(((IdempotencyStorageException) e).kind())
                                        .isEqualTo(IdempotencyStorageException.Kind.UNREACHABLE))
                .message()
                .doesNotContain(key);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(HANG_GUARD);
    }
}
