package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Attempts that overlap (C14.3): a retrier that starts attempt 2 while attempt 1 still runs, as
 * Fault Tolerance's {@code @Timeout} does, must not give attempt 1's late request a new key, or the
 * server runs it twice. Through a real Jersey client.
 */
class OverlappingAttemptsTest {

    private final ScriptedServer server = new ScriptedServer();
    private final Client client = server.client();
    private final WebTarget payments = client.target("http://h/api/payments");

    @AfterEach
    void closeClient() {
        client.close();
        assertThat(IdempotentOperations.active()).isFalse();
    }

    private void post() {
        payments.request().post(Entity.text("x")).close();
    }

    /**
     * Begins an attempt on another thread that sends {@code posts} payments only once {@code
     * retried} opens: slow to send, so that the timeout fires and the retry begins meanwhile.
     */
    private CompletableFuture<Void> slowAttempt(
            OperationScope op, CountDownLatch retried, int posts) throws InterruptedException {
        CountDownLatch begun = new CountDownLatch(1);
        CompletableFuture<Void> attempt =
                CompletableFuture.runAsync(
                        () ->
                                op.attempt(
                                        () -> {
                                            begun.countDown();
                                            try {
                                                retried.await(10, TimeUnit.SECONDS);
                                            } catch (InterruptedException e) {
                                                Thread.currentThread().interrupt();
                                            }
                                            for (int i = 0; i < posts; i++) {
                                                post();
                                            }
                                            return null;
                                        }));
        assertThat(begun.await(10, TimeUnit.SECONDS)).isTrue();
        return attempt;
    }

    @Test
    void aLateRequestOfAnAttemptGivenUpOn_carriesTheKeyOfTheRetrysRequest() throws Exception {
        CountDownLatch retried = new CountDownLatch(1);
        try (OperationScope op = IdempotentOperations.open()) {
            CompletableFuture<Void> first = slowAttempt(op, retried, 1);

            op.attempt(
                    () -> {
                        post();
                        return null;
                    });
            retried.countDown();
            first.get(10, TimeUnit.SECONDS);

            op.attempt(
                    () -> {
                        post();
                        return null;
                    });
        }

        List<String> keys = server.keys();
        assertThat(keys).hasSize(3).doesNotContainNull();
        assertThat(keys)
                .as("the retry's, the late first's, a third attempt's")
                .containsOnly(keys.get(0));
    }

    @Test
    void aRequestAfterOverlappingAttempts_isNumberedAfterTheLatestAttempt() throws Exception {
        CountDownLatch retried = new CountDownLatch(1);
        try (OperationScope op = IdempotentOperations.open()) {
            CompletableFuture<Void> first = slowAttempt(op, retried, 2);
            op.attempt(
                    () -> {
                        post();
                        return null;
                    });
            retried.countDown();
            first.get(10, TimeUnit.SECONDS);

            post(); // in the scope, after its attempts: the operation's second payment
        }

        List<String> keys = server.keys();
        assertThat(keys).hasSize(4);
        // The retry's, then the late first attempt's two (its first shares the retry's key).
        assertThat(keys.get(1)).isEqualTo(keys.get(0));
        assertThat(keys.get(2)).isNotEqualTo(keys.get(0));
        // The retry, the latest attempt, sent one: the scope's next payment is the second.
        assertThat(keys.get(3)).isEqualTo(keys.get(2));
    }
}
