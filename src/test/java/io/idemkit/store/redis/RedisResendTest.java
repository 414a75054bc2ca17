package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.FaultProxy;
import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A script whose connection breaks after the server ran it, before its answer came back: the store
 * sends it again on a new connection, and the second sending recognizes the first by its token.
 * Injected with a proxy that holds every chunk {@link #HELD} and is cut while the answer is held:
 * the request has reached the server, the answer never reaches the client.
 */
class RedisResendTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final Duration HELD = Duration.ofSeconds(1);

    private FaultProxy proxy;
    private RedisIdempotencyStore store;

    @BeforeEach
    void open() {
        RedisServer server = RedisServer.shared();
        proxy = new FaultProxy(server.host(), server.port());
        store =
                RedisStoreOpening.open(
                        RedisStoreSettings.forUri("redis://127.0.0.1:" + proxy.port())
                                .withKeyPrefix(
                                        "r" + UUID.randomUUID().toString().substring(0, 8) + ":"));
        // Connected, and every script this test sends loaded, before the faults.
        String warm = "warm-" + UUID.randomUUID();
        store.complete(warm, store.claim(warm, FP, 1, LEASE).token(), ok(), LEASE);
    }

    @AfterEach
    void close() {
        store.close();
        proxy.close();
    }

    /** Runs {@code call} with its answer lost in a cut after the server has run it. */
    private <T> T withTheAnswerLost(Supplier<T> call) throws Exception {
        int before = proxy.connectionsAccepted();
        proxy.latency(HELD);
        CompletableFuture<T> result = CompletableFuture.supplyAsync(call);
        // The request is forwarded after HELD, answered at once, and its answer held for HELD:
        // halfway through that, cut.
        Thread.sleep(HELD.plus(HELD.dividedBy(2)).toMillis());
        proxy.cut();
        proxy.restore();
        T answer = result.get(30, TimeUnit.SECONDS);
        assertThat(proxy.connectionsAccepted())
                .as("new connections, for the resend")
                .isGreaterThan(before);
        return answer;
    }

    @Test
    void aClaimWhoseAnswerWasLost_isSentAgain_andFindsItsOwnClaim() throws Exception {
        String key = "k" + UUID.randomUUID();

        ClaimResult claim = withTheAnswerLost(() -> store.claim(key, FP, 1, LEASE));

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(store.find(key).orElseThrow().token()).isEqualTo(claim.token());
        assertThat(store.complete(key, claim.token(), ok(), LEASE)).isTrue();
    }

    @Test
    void aCompletionWhoseAnswerWasLost_isSentAgain_andCountsAsDone() throws Exception {
        String key = "k" + UUID.randomUUID();
        ClaimResult claim = store.claim(key, FP, 1, LEASE);

        boolean stored = withTheAnswerLost(() -> store.complete(key, claim.token(), ok(), LEASE));

        assertThat(stored).isTrue();
        assertThat(store.find(key).orElseThrow().result()).isEqualTo(ok());
        // Completing twice on purpose is still refused: only a resend is recognized.
        assertThat(store.complete(key, claim.token(), ok(), LEASE)).isFalse();
    }

    private static StoredResult ok() {
        return new StoredResult(200, List.of(), new byte[] {9});
    }
}
