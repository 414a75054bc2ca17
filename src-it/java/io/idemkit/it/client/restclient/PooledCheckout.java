package io.idemkit.it.client.restclient;

import io.idemkit.client.ClientSettings;
import io.idemkit.client.IdempotencyClientFeature;
import io.idemkit.client.IdempotentOperations;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/**
 * Async calls on the runtime's {@code ManagedExecutorService}, the Rest Client's executor (C14.8):
 * {@value #OPERATIONS} named operations at once, each sending one call that fails (nobody listens
 * where it goes), then {@value #OPERATIONS} plain calls, outside every operation, on the same
 * executor's threads. The plain calls go one after the other: twenty at once took Liberty 5 to 8 s,
 * its server's requests and the client's sends sharing one executor, where one after the other
 * takes well under a second there and still lands on the threads that sent the failed calls.
 */
@ApplicationScoped
public class PooledCheckout {

    static final int OPERATIONS = 20;

    /** What the calls came to. */
    public record Report(
            int failedSends, int keyedFailedSends, Set<String> failedOn, Set<String> plainOn) {}

    /** The runtime's managed executor, the Rest Client's for these calls. */
    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ExecutorService executor;

    /**
     * @param live the API's base
     * @param dead a base where nobody listens
     */
    public Report run(URI live, URI dead, String tag) throws InterruptedException {
        SendingThreads failedOn = new SendingThreads();
        SendingThreads plainOn = new SendingThreads();
        PooledChargesClient failing = client(dead, failedOn);
        PooledChargesClient plain = client(live, plainOn);

        List<CompletableFuture<String>> sends = new ArrayList<>();
        for (int i = 0; i < OPERATIONS; i++) {
            // The operation's scope ends once the call is invoked; the send, on a pooled thread,
            // keeps the operation's key (C14.8), and must leave nothing of it on that thread.
            sends.add(
                    IdempotentOperations.call(
                            "pooled-" + tag + "-" + i,
                            () -> failing.sendAsync("once", tag, "{}").toCompletableFuture()));
        }
        int failed = 0;
        for (CompletableFuture<String> send : sends) {
            try {
                send.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failed++;
            } catch (TimeoutException e) {
                throw new IllegalStateException("a failing send did not end", e);
            }
        }

        for (int i = 0; i < OPERATIONS; i++) {
            plain.sendAsync("echo", tag, "{}")
                    .toCompletableFuture()
                    .orTimeout(30, TimeUnit.SECONDS)
                    .join();
        }
        return new Report(failed, failedOn.keyed.get(), failedOn.names, plainOn.names);
    }

    private PooledChargesClient client(URI base, SendingThreads sendingThreads) {
        ClientSettings noKeyOutsideOperations =
                ClientSettings.defaults().withKeyWithoutOperation(false);
        return RestClientBuilder.newBuilder()
                .baseUri(base)
                .executorService(executor)
                .connectTimeout(2, TimeUnit.SECONDS)
                .readTimeout(10, TimeUnit.SECONDS)
                .register(new IdempotencyClientFeature(noKeyOutsideOperations))
                .register(sendingThreads, Priorities.USER)
                .build(PooledChargesClient.class);
    }

    /**
     * Notes the name of each thread a request of the client is sent on, and counts the requests
     * that carry a key; after the library's filter ({@code Priorities.USER} is later than its 900).
     */
    public static final class SendingThreads implements ClientRequestFilter {

        private final Set<String> names = ConcurrentHashMap.newKeySet();
        private final AtomicInteger keyed = new AtomicInteger();

        @Override
        public void filter(ClientRequestContext request) {
            names.add(Thread.currentThread().getName());
            if (request.getHeaderString("Idempotency-Key") != null) {
                keyed.incrementAndGet();
            }
        }
    }
}
