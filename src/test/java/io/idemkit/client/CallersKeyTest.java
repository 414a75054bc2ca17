package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A key the caller sets itself (C14.4): kept as it is, but one that changes between attempts of an
 * operation (a UUID made inside the retried call, a Rest Client's {@code {uuid}} header) is refused
 * before it is sent, and the retries stop; the server, over real HTTP on loopback, sees the first
 * attempt only.
 */
class CallersKeyTest extends OverLoopback {

    @AfterEach
    void noOperationLeftActive() {
        assertThat(IdempotentOperations.active()).isFalse();
    }

    private Response charge(String key) {
        return client.target(server.uri("/api/payments"))
                .request()
                .header("Idempotency-Key", key)
                .post(Entity.json("{\"amount\":1999}"));
    }

    @Test
    void aKeyMadeInsideTheRetriedCall_isRefusedOnTheRetry_andTheRetriesStop() {
        server.then(LoopbackServer.status(503));
        IdempotentRetry retry =
                IdempotentRetry.of(
                        ClientSettings.defaults()
                                .withRetries(
                                        3,
                                        java.time.Duration.ofMillis(1),
                                        java.time.Duration.ofMillis(10)));

        assertThatThrownBy(() -> retry.call(() -> charge(UUID.randomUUID().toString())))
                .isInstanceOf(ProcessingException.class)
                .hasRootCauseInstanceOf(IdempotencyKeyChangedException.class)
                .rootCause()
                .hasMessageContaining("POST /api/payments")
                .hasMessageContaining("The request was not sent");

        assertThat(server.keys()).as("the first attempt only").hasSize(1);
    }

    @Test
    void theSameKeySetByTheCaller_isSentOnEveryAttempt() {
        server.then(LoopbackServer.status(503));
        String key = "order-42-charge";
        IdempotentRetry retry =
                IdempotentRetry.of(
                        ClientSettings.defaults()
                                .withRetries(
                                        3,
                                        java.time.Duration.ofMillis(1),
                                        java.time.Duration.ofMillis(10)));

        RetryOutcome<Response> outcome = retry.callForOutcome(() -> charge(key));
        outcome.value().close();

        assertThat(outcome.attempts()).isEqualTo(2);
        assertThat(server.keys()).containsExactly(key, key);
    }

    @Test
    void differentKeysInOneAttempt_areTwoRequests_notAChange() {
        try (OperationScope op = IdempotentOperations.open()) {
            op.attempt(
                    () -> {
                        charge("first").close();
                        charge("second").close();
                        return null;
                    });
        }

        assertThat(server.keys()).containsExactly("first", "second");
    }
}
