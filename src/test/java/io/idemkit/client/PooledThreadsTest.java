package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.TestPorts;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A pooled sending thread carries nothing after async calls whose sends failed (C14.1, C14.8; issue
 * 45 item 7): 20 concurrent async operations, each a Rest Client {@code CompletionStage} call as
 * its {@code AsyncInvocationInterceptor} sees it, send on a pool of 4 threads to a port nobody
 * listens on; then plain calls on each of those threads go out with no key. The Rest Client
 * implementation is played by the test: it calls {@code removeContext} where the stage completes
 * (another thread than the sending one), or never, as an implementation may after a failed send.
 */
class PooledThreadsTest {

    private static final int OPERATIONS = 20;
    private static final int POOL = 4;

    /** How the implementation ends an invocation whose send failed. */
    enum RemoveContext {
        ON_ANOTHER_THREAD,
        NEVER
    }

    private LoopbackServer server;
    private Client noKeyOutsideOperations;
    private final ExecutorService sending = Executors.newFixedThreadPool(POOL);
    private final ExecutorService callers = Executors.newFixedThreadPool(OPERATIONS);

    @BeforeEach
    void start() throws Exception {
        server = new LoopbackServer();
        noKeyOutsideOperations =
                ClientBuilder.newBuilder()
                        .register(
                                new IdempotencyClientFeature(
                                        ClientSettings.defaults().withKeyWithoutOperation(false)))
                        .connectTimeout(2, TimeUnit.SECONDS)
                        .readTimeout(2, TimeUnit.SECONDS)
                        .build();
    }

    @AfterEach
    void stop() {
        noKeyOutsideOperations.close();
        server.close();
        sending.shutdownNow();
        callers.shutdownNow();
    }

    @ParameterizedTest
    @EnumSource(RemoveContext.class)
    void afterFailedAsyncCalls_plainCallsOnThePooledThreads_carryNoKey(RemoveContext remove)
            throws Exception {
        URI nobody = URI.create("http://127.0.0.1:" + TestPorts.next() + "/api/payments");
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Throwable>> calls = new ArrayList<>();
        for (int i = 0; i < OPERATIONS; i++) {
            String operation = "order-" + i + "/charge";
            calls.add(
                    callers.submit(
                            () -> {
                                go.await();
                                return asyncCall(operation, nobody, remove);
                            }));
        }
        go.countDown();
        for (Future<Throwable> call : calls) {
            assertThat(call.get(30, TimeUnit.SECONDS)).isInstanceOf(ProcessingException.class);
        }

        // One plain call on each pooled thread: the barrier holds each task until all four
        // threads have one.
        CyclicBarrier everyThread = new CyclicBarrier(POOL);
        List<Future<Boolean>> plain = new ArrayList<>();
        for (int i = 0; i < POOL; i++) {
            plain.add(
                    sending.submit(
                            () -> {
                                everyThread.await(10, TimeUnit.SECONDS);
                                boolean active = IdempotentOperations.active();
                                noKeyOutsideOperations
                                        .target(server.uri("/api/payments"))
                                        .request()
                                        .post(Entity.json("{}"))
                                        .close();
                                return active;
                            }));
        }
        for (Future<Boolean> call : plain) {
            assertThat(call.get(30, TimeUnit.SECONDS))
                    .as("an operation on a pooled thread")
                    .isFalse();
        }
        assertThat(server.keys()).hasSize(POOL).containsOnlyNulls();
    }

    /**
     * One Rest Client {@code CompletionStage} call in a named operation: the context prepared on
     * the caller's thread, the request sent on a pooled thread, where it fails.
     *
     * @return what the send threw
     */
    private Throwable asyncCall(String operation, URI nobody, RemoveContext remove)
            throws Exception {
        AsyncOperationListener.Interceptor interceptor =
                (AsyncOperationListener.Interceptor)
                        new AsyncOperationListener.Factory().newInterceptor();
        IdempotentOperations.run(operation, interceptor::prepareContext);
        Future<Throwable> sent =
                sending.submit(
                        () -> {
                            interceptor.applyContext();
                            try {
                                noKeyOutsideOperations
                                        .target(nobody)
                                        .request()
                                        .post(Entity.json("{}"));
                                return null;
                            } catch (ProcessingException e) {
                                return e;
                            }
                        });
        Throwable failure = sent.get(30, TimeUnit.SECONDS);
        if (remove == RemoveContext.ON_ANOTHER_THREAD) {
            interceptor.removeContext();
        }
        return failure;
    }
}
