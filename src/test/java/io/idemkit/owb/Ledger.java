package io.idemkit.owb;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The OpenWebBeans tests' application: an intercepted bean with every decision to make, and an
 * observer of the library's events. Counters are static, and {@link #reset} clears them before each
 * test.
 */
@ApplicationScoped
public class Ledger {

    static final AtomicInteger executions = new AtomicInteger();
    static final List<IdempotencyEvent> events = new CopyOnWriteArrayList<>();
    static volatile CountDownLatch gate = new CountDownLatch(0);
    static volatile CountDownLatch entered = new CountDownLatch(0);

    static void reset() {
        executions.set(0);
        events.clear();
        gate = new CountDownLatch(0);
        entered = new CountDownLatch(0);
    }

    static List<IdempotencyEvent.Decision> decisions() {
        List<IdempotencyEvent.Decision> decisions = new ArrayList<>();
        events.forEach(e -> decisions.add(e.decision()));
        return decisions;
    }

    /** A value type, stored as JSON and rebuilt on replay. */
    public record Receipt(String account, long cents, int run) {}

    /** A checked exception of the application. */
    public static class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        public Refused(String message) {
            super(message);
        }
    }

    @Idempotent
    public Receipt pay(
            @IdempotencyKey String key,
            String account,
            long cents,
            @IdempotencyIgnored String requestId) {
        return new Receipt(account, cents, executions.incrementAndGet());
    }

    @Idempotent
    public Receipt refusedOnce(@IdempotencyKey String key) throws Refused {
        int run = executions.incrementAndGet();
        if (run == 1) {
            throw new Refused("refused on run " + run);
        }
        return new Receipt("acct", 1, run);
    }

    @Idempotent
    public Receipt crashesOnce(@IdempotencyKey String key) {
        int run = executions.incrementAndGet();
        if (run == 1) {
            throw new IllegalStateException("crashed on run " + run);
        }
        return new Receipt("acct", 2, run);
    }

    @Idempotent
    public List<Receipt> history(@IdempotencyKey String key) {
        int run = executions.incrementAndGet();
        return List.of(new Receipt("a", 1, run), new Receipt("b", 2, run));
    }

    @Idempotent
    public void close(@IdempotencyKey String key) {
        executions.incrementAndGet();
    }

    @Idempotent(waitTimeout = "5s")
    public String slow(@IdempotencyKey String key) throws InterruptedException {
        int run = executions.incrementAndGet();
        entered.countDown();
        if (!gate.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("gate never opened");
        }
        return "slow-" + run;
    }

    /** Its per-method configuration key (set by the test) stores only 5xx results. */
    @Idempotent
    public String tuned(@IdempotencyKey String key) {
        return "tuned-" + executions.incrementAndGet();
    }

    /** Records every event the engine fires. */
    @ApplicationScoped
    public static class EventLog {
        void on(@Observes IdempotencyEvent event) {
            events.add(event);
        }
    }

    /** A JAX-RS resource that is also a CDI bean: the filter pair's, not the interceptor's. */
    @ApplicationScoped
    @Path("orders")
    public static class OrderResource {
        @POST
        @Idempotent
        public String create(String body) {
            return "created-" + executions.incrementAndGet();
        }
    }
}
