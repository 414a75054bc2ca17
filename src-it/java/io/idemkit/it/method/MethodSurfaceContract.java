package io.idemkit.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The method surface on each runtime of the suite (C7, C4.7): {@code @Idempotent} on a stateless
 * and a singleton EJB and an application-scoped bean, under container-managed and
 * {@code @Transactional} transactions, called over HTTP by a JAX-RS resource; and the conformance
 * file's tool vectors (inherited from {@link MethodConformanceScenarios}). Each store's IT deploys
 * the same application ({@code io.idemkit.it.method.app}) and runs these tests.
 */
abstract class MethodSurfaceContract extends MethodConformanceScenarios {

    private final Client client = ClientBuilder.newClient();
    private final ExecutorService pool = Executors.newFixedThreadPool(20);

    @AfterEach
    void close() {
        pool.shutdownNow();
        client.close();
    }

    private static String key() {
        return UUID.randomUUID().toString();
    }

    private URI uri(String path) throws Exception {
        return base.toURI().resolve("api/method/" + path);
    }

    private Reply post(String path, String key) throws Exception {
        try (Response response =
                client.target(uri(path)).queryParam("key", key).request().post(Entity.text(""))) {
            return new Reply(response.getStatus(), response.readEntity(String.class));
        }
    }

    private int count(String operation) throws Exception {
        return client.target(uri("count"))
                .queryParam("operation", operation)
                .request()
                .get(Integer.class);
    }

    private record Reply(int status, String body) {}

    private void twentyConcurrentCalls_runOnce(String path, String operation) throws Exception {
        String key = key();
        CyclicBarrier start = new CyclicBarrier(20);
        List<Future<Reply>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(
                    pool.submit(
                            () -> {
                                start.await(30, TimeUnit.SECONDS);
                                return post(path, key);
                            }));
        }
        List<Reply> replies = new ArrayList<>();
        for (Future<Reply> call : calls) {
            replies.add(call.get(60, TimeUnit.SECONDS));
        }
        // The replies in the message: a status alone does not say which IdempotencyException.
        assertThat(replies).as("replies %s", replies).extracting(Reply::status).containsOnly(200);
        assertThat(replies).extracting(Reply::body).hasSize(20).containsOnly(replies.get(0).body());
        assertThat(count(operation + key)).isEqualTo(1);
    }

    @Test
    void statelessEjb_twentyConcurrentCallsWithOneKeyRunOnce() throws Exception {
        twentyConcurrentCalls_runOnce("stateless/book", "stateless:");
    }

    @Test
    void singletonEjb_twentyConcurrentCallsWithOneKeyRunOnce() throws Exception {
        twentyConcurrentCalls_runOnce("singleton/book", "singleton:");
    }

    @Test
    void applicationScopedBean_twentyConcurrentCallsWithOneKeyRunOnce() throws Exception {
        twentyConcurrentCalls_runOnce("cdi/book", "cdi:");
    }

    @Test
    void containerTransactionThatCommits_replays() throws Exception {
        String key = key();

        Reply first = post("stateless/book", key);
        Reply second = post("stateless/book", key);

        assertThat(first.status()).isEqualTo(200);
        assertThat(second).isEqualTo(first);
        assertThat(first.body()).isEqualTo("stateless-seat-1");
        assertThat(count("stateless:" + key)).isEqualTo(1);
    }

    @Test
    void containerTransactionSetRollbackOnly_releasesSoTheNextCallRunsAgain() throws Exception {
        String key = key();

        assertThat(post("stateless/rollback", key).body()).isEqualTo("rolled-back-1");
        assertThat(post("stateless/rollback", key).body()).isEqualTo("rolled-back-2");
        assertThat(count("stateless:" + key)).isEqualTo(2);
    }

    @Test
    void containerTransactionSystemException_releasesSoTheNextCallRunsAgain() throws Exception {
        String key = key();

        assertThat(post("stateless/fail", key).status()).isEqualTo(500);
        assertThat(post("stateless/fail", key).body()).isEqualTo("stateless-failed-once-2");
        assertThat(post("stateless/fail", key).body()).isEqualTo("stateless-failed-once-2");
        assertThat(count("stateless:" + key)).isEqualTo(2);
    }

    @Test
    void transactionalCdiBean_commitReplaysAndRollbackRunsAgain() throws Exception {
        String committed = key();
        Reply first = post("cdi/tx", committed);
        assertThat(post("cdi/tx", committed)).isEqualTo(first);
        assertThat(count("tx:" + committed)).isEqualTo(1);

        String rolledBack = key();
        assertThat(post("cdi/tx-fail", rolledBack).status()).isEqualTo(500);
        assertThat(post("cdi/tx-fail", rolledBack).status()).isEqualTo(500);
        assertThat(count("tx:" + rolledBack)).isEqualTo(2);
    }

    @Test
    void jaxRsResourceCallingAnIdempotentEjb_theInnerCallIsItsOwnOperation() throws Exception {
        String key = key();

        Reply first = post("resource-calls-ejb", key);
        Reply second = post("resource-calls-ejb", key);

        // The resource method is left to the filter pair (C7.4): without an Idempotency-Key
        // header it runs each time, while the EJB it calls dedupes on its own key.
        assertThat(first.body()).isEqualTo("outer-1/stateless-via-resource-1");
        assertThat(second.body()).isEqualTo("outer-2/stateless-via-resource-1");
        assertThat(count("resource:" + key)).isEqualTo(2);
        assertThat(count("stateless:" + key)).isEqualTo(1);
    }

    /** The name of the store this IT's application must use. */
    abstract String expectedStore();

    @Test
    void application_usesThisItsStore() throws Exception {
        assertThat(client.target(uri("store")).request().get(String.class))
                .isEqualTo(expectedStore());
    }

    @Test
    void heartbeat_runsOnAThreadOfItsOwn_notOnTheContainersSharedExecutor() throws Exception {
        // C4.7: a beat must not queue behind the deliveries and calls whose leases it renews.
        assertThat(client.target(uri("heartbeat")).request().get(String.class)).isEqualTo("own");
    }
}
