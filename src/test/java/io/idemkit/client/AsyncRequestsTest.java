package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Requests sent from another thread than the operation's (C14.8), over real HTTP: Jersey runs the
 * filters of an {@code async()} or {@code rx()} invocation on its executor's thread, and a Rest
 * Client runs a {@code CompletionStage} method's request between its {@code
 * AsyncInvocationInterceptor}'s {@code applyContext} and {@code removeContext} on another thread.
 */
class AsyncRequestsTest extends OverLoopback {

    private static final String OPERATION = "order-42/charge";

    private final ExecutorService sender = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopSender() {
        sender.shutdownNow();
    }

    private Invocation.Builder payments() {
        return client.target(server.uri("/api/payments")).request();
    }

    /** The key a request sent on the operation's own thread gets: the reference. */
    private String synchronousKey() {
        IdempotentOperations.run(OPERATION, () -> payments().post(Entity.json("{}")).close());
        return server.keys().get(server.keys().size() - 1);
    }

    /** Sends a POST through Jersey's async invoker, on its thread, and waits for the answer. */
    private static void sendAsync(Invocation.Builder request) throws Exception {
        request.async().post(Entity.json("{}")).get(5, TimeUnit.SECONDS).close();
    }

    private String lastKey() {
        return server.keys().get(server.keys().size() - 1);
    }

    @Test
    void anAsyncPost_captured_getsTheKeyItWouldGetOnTheOperationsThread() throws Exception {
        String expected = synchronousKey();

        IdempotentOperations.call(
                OPERATION,
                () -> {
                    sendAsync(IdempotentOperations.capture(payments()));
                    return null;
                });

        assertThat(lastKey()).isEqualTo(expected);
    }

    @Test
    void anAsyncPost_notCaptured_isOutsideTheOperation_soItsKeyIsAFreshOne() throws Exception {
        String expected = synchronousKey();

        IdempotentOperations.call(
                OPERATION,
                () -> {
                    sendAsync(payments());
                    return null;
                });

        // The filter ran on Jersey's thread: without the capture it saw no operation.
        assertThat(lastKey()).isNotNull().isNotEqualTo(expected);
    }

    @Test
    void anRxPost_captured_getsTheKeyItWouldGetOnTheOperationsThread() throws Exception {
        String expected = synchronousKey();

        IdempotentOperations.call(
                OPERATION,
                () -> {
                    IdempotentOperations.capture(payments())
                            .rx()
                            .post(Entity.json("{}"))
                            .toCompletableFuture()
                            .get(5, TimeUnit.SECONDS)
                            .close();
                    return null;
                });

        assertThat(lastKey()).isEqualTo(expected);
    }

    @Test
    void twoAsyncPosts_getTwoKeys_andAnAttemptThatRepeatsThem_getsTheSameTwo() throws Exception {
        try (OperationScope op = IdempotentOperations.open()) {
            for (int attempt = 0; attempt < 2; attempt++) {
                op.attempt(
                        () -> {
                            for (int request = 0; request < 2; request++) {
                                sendAsync(IdempotentOperations.capture(payments()));
                            }
                            return null;
                        });
            }
        }

        List<String> keys = server.keys();
        assertThat(keys).hasSize(4).doesNotContainNull();
        assertThat(keys.get(0)).isNotEqualTo(keys.get(1));
        assertThat(keys.subList(2, 4)).isEqualTo(keys.subList(0, 2));
    }

    @Test
    void outsideEveryOperation_captureChangesNothing() throws Exception {
        sendAsync(IdempotentOperations.capture(payments()));

        assertThat(server.keys()).hasSize(1).doesNotContainNull();
    }

    @Test
    void aRetriedAsyncCall_isSentAgainWithTheSameKey() throws Exception {
        server.then(LoopbackServer.status(503));

        // The retry sees the async request only through the capture: without it, the attempt sent
        // nothing through the feature that it knows of, and is not repeated (C14.5).
        RetryOutcome<Response> outcome =
                retry.callForOutcome(
                        () ->
                                IdempotentOperations.capture(payments())
                                        .async()
                                        .post(Entity.json("{}"))
                                        .get(5, TimeUnit.SECONDS));

        assertThat(outcome.value().getStatus()).isEqualTo(201);
        assertThat(outcome.attempts()).isEqualTo(2);
        assertThat(server.keys()).hasSize(2).containsOnly(server.keys().get(0));
        outcome.value().close();
    }

    @Test
    void aRestClientsAsyncInterceptor_carriesTheOperationToTheSendingThread() throws Exception {
        String expected = synchronousKey();

        AsyncOperationListener.Interceptor interceptor =
                (AsyncOperationListener.Interceptor)
                        new AsyncOperationListener.Factory().newInterceptor();
        IdempotentOperations.run(OPERATION, interceptor::prepareContext);
        boolean leftOver =
                sender.submit(
                                () -> {
                                    interceptor.applyContext();
                                    try {
                                        payments().post(Entity.json("{}")).close();
                                    } finally {
                                        interceptor.removeContext();
                                    }
                                    return IdempotentOperations.active();
                                })
                        .get(5, TimeUnit.SECONDS);

        assertThat(lastKey()).isEqualTo(expected);
        assertThat(leftOver).as("an operation left on the pooled thread").isFalse();
    }
}
