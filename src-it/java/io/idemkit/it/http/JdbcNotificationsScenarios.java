package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The JDBC store's wake-ups on PostgreSQL (C4.3, C12) inside a runtime's connection pool: the
 * listening connection is one of the pool's, which the store must unwrap to the driver's {@code
 * PGConnection}. Where that fails, the store still works, polling, and its health says so; these
 * scenarios prove the runtime's pool listens.
 */
abstract class JdbcNotificationsScenarios extends HttpScenarioSupport {

    static final String IDLE = "idle (listens while a duplicate waits)";
    static final String LISTENING = "listening";

    @Test
    void aDuplicateThatWaits_makesTheStoreListenOnAConnectionOfTheRuntimesPool() throws Exception {
        assertThat(notifications()).as("no duplicate has waited yet").isEqualTo(IDLE);
        CompletableFuture<Reply> first =
                CompletableFuture.supplyAsync(
                        () -> post("api/resources", BODY_X, key("N1"), DELAY, "3000"));
        awaitCalls(1);

        CompletableFuture<Reply> duplicate =
                CompletableFuture.supplyAsync(() -> post("api/resources", BODY_X, key("N1")));

        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(notifications()).isEqualTo(LISTENING));
        Reply replay = duplicate.get(30, TimeUnit.SECONDS);
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.text()).isEqualTo(first.get(30, TimeUnit.SECONDS).text());
        assertThat(calls()).isEqualTo(1);
    }

    /** The store's {@code notifications} health detail, as the readiness check reports it. */
    String notifications() {
        return http.get("api/store/health/notifications").text();
    }
}
