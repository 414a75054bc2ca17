package io.idemkit.method;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test applications' beans. Each keeps its own count; tests reset it through {@link #reset}.
 */
public final class Beans {

    static final AtomicInteger executions = new AtomicInteger();
    public static final List<IdempotencyEvent> events = new CopyOnWriteArrayList<>();
    static volatile CountDownLatch gate = new CountDownLatch(0);
    static volatile CountDownLatch entered = new CountDownLatch(0);
    static volatile boolean sawInterrupt;

    private Beans() {}

    public static void reset() {
        executions.set(0);
        events.clear();
        gate = new CountDownLatch(0);
        entered = new CountDownLatch(0);
        sawInterrupt = false;
    }

    public static List<IdempotencyEvent.Decision> decisions() {
        List<IdempotencyEvent.Decision> decisions = new ArrayList<>();
        events.forEach(e -> decisions.add(e.decision()));
        return decisions;
    }

    /** A value type. */
    public record Booking(String origin, String destination, int run) {}

    /** A checked exception of the application. */
    public static class SoldOut extends Exception {
        private static final long serialVersionUID = 1L;

        public SoldOut(String message) {
            super(message);
        }
    }

    /** A result JSON-B cannot serialize: its only property throws. */
    public static class Unserializable {
        public String getValue() {
            throw new IllegalStateException("not serializable");
        }
    }

    /** A result JSON-B can write but cannot rebuild: no usable constructor. */
    public static class WriteOnly {
        private final String value;

        public WriteOnly(String value) {
            this.value = value;
        }

        public String getValue() {
            return value;
        }
    }

    /** Records every event. */
    @ApplicationScoped
    public static class EventLog {
        void on(@Observes IdempotencyEvent event) {
            events.add(event);
        }
    }

    /** A scope provider the test sets. */
    @ApplicationScoped
    public static class TenantScope implements IdempotencyScopeProvider {
        static volatile String tenant = "tenant-A";

        @Override
        public Optional<String> currentScope() {
            return Optional.ofNullable(tenant);
        }
    }

    /** The main test bean: every shape of key, result and failure. */
    @ApplicationScoped
    public static class Flights {

        @Idempotent
        public Booking book(
                @IdempotencyKey String key,
                String origin,
                String destination,
                @IdempotencyIgnored String requestId) {
            return new Booking(origin, destination, executions.incrementAndGet());
        }

        @Idempotent
        public Booking rebook(@IdempotencyKey String key, String origin, String destination) {
            return new Booking(origin, destination, executions.incrementAndGet());
        }

        @Idempotent
        public String transfer(
                @IdempotencyKey String account, @IdempotencyKey String reference, long cents) {
            return account + "|" + reference + "|" + cents + "|" + executions.incrementAndGet();
        }

        @Idempotent
        public String quote(String origin, String destination) {
            return origin + "-" + destination + "-" + executions.incrementAndGet();
        }

        @Idempotent
        public String keyedByRecord(@IdempotencyKey Booking key) {
            return "run-" + executions.incrementAndGet();
        }

        @Idempotent
        public List<Booking> list(@IdempotencyKey String key) {
            int run = executions.incrementAndGet();
            return List.of(new Booking("SFO", "JFK", run), new Booking("JFK", "LAX", run));
        }

        @Idempotent
        public Map<String, List<Booking>> byOrigin(@IdempotencyKey String key) {
            int run = executions.incrementAndGet();
            return Map.of(
                    "SFO", List.of(new Booking("SFO", "JFK", run)),
                    "JFK", List.of(new Booking("JFK", "LAX", run), new Booking("JFK", "BOS", run)));
        }

        @Idempotent
        public Optional<Booking> find(@IdempotencyKey String key, boolean present) {
            int run = executions.incrementAndGet();
            return present ? Optional.of(new Booking("SFO", "JFK", run)) : Optional.empty();
        }

        @Idempotent
        public int count(@IdempotencyKey String key) {
            return 40 + executions.incrementAndGet();
        }

        @Idempotent
        public byte[] ticket(@IdempotencyKey String key) {
            return new byte[] {1, 2, (byte) 0xFF, (byte) executions.incrementAndGet()};
        }

        @Idempotent
        public void cancel(@IdempotencyKey String key) {
            executions.incrementAndGet();
        }

        @Idempotent
        public Booking failing(@IdempotencyKey String key) throws SoldOut {
            int run = executions.incrementAndGet();
            if (run == 1) {
                throw new SoldOut("sold out on run " + run);
            }
            return new Booking("SFO", "JFK", run);
        }

        @Idempotent(waitTimeout = "0s")
        public Unserializable unserializable(@IdempotencyKey String key) {
            executions.incrementAndGet();
            return new Unserializable();
        }

        @Idempotent(waitTimeout = "0s")
        public WriteOnly writeOnly(@IdempotencyKey String key) {
            executions.incrementAndGet();
            return new WriteOnly("x");
        }

        @Idempotent(waitTimeout = "0s")
        public String big(@IdempotencyKey String key, int length) {
            executions.incrementAndGet();
            return "x".repeat(length);
        }

        @Idempotent
        public CompletableFuture<Booking> later(@IdempotencyKey String key, boolean fail) {
            int run = executions.incrementAndGet();
            CompletableFuture<Booking> result = new CompletableFuture<>();
            Thread worker =
                    new Thread(
                            () -> {
                                if (fail) {
                                    result.completeExceptionally(
                                            new IllegalStateException("async failure"));
                                } else {
                                    result.complete(new Booking("SFO", "JFK", run));
                                }
                            });
            worker.start();
            return result;
        }

        @Idempotent(waitTimeout = "5s")
        public String slow(@IdempotencyKey String key) throws InterruptedException {
            return gated();
        }

        @Idempotent(waitTimeout = "200ms")
        public String slowImpatient(@IdempotencyKey String key) throws InterruptedException {
            return gated();
        }

        private static String gated() throws InterruptedException {
            int run = executions.incrementAndGet();
            entered.countDown();
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("gate never opened");
            }
            return "slow-" + run;
        }

        /** Blocks until interrupted, for the heartbeat tests. */
        @Idempotent(leaseTtl = "3s")
        public String untilInterrupted(@IdempotencyKey String key) {
            executions.incrementAndGet();
            entered.countDown();
            try {
                gate.await(30, TimeUnit.SECONDS);
                return "finished";
            } catch (InterruptedException e) {
                sawInterrupt = true;
                throw new IllegalStateException("interrupted: the lease was lost", e);
            }
        }
    }

    /** Two methods of two classes that share one operation name. */
    @ApplicationScoped
    public static class ChargesV1 {
        @Idempotent(name = "charge")
        public String charge(@IdempotencyKey String key, long cents) {
            return "v1-" + cents + "-" + executions.incrementAndGet();
        }
    }

    /** The "renamed" class of {@link ChargesV1}. */
    @ApplicationScoped
    public static class ChargesV2 {
        @Idempotent(name = "charge")
        public String chargeRenamed(@IdempotencyKey String key, long cents) {
            return "v2-" + cents + "-" + executions.incrementAndGet();
        }
    }

    /** A JAX-RS resource that is also a CDI bean (C7.4). */
    @ApplicationScoped
    @Path("orders")
    public static class OrderResource {
        @POST
        @Idempotent
        public String create(String body) {
            return "created-" + executions.incrementAndGet();
        }

        /** The class of the instance behind the client proxy: a Weld subclass if intercepted. */
        public Class<?> runtimeClass() {
            return getClass();
        }
    }

    /** A JAX-RS resource interface. */
    @Path("payments")
    public interface PaymentApi {
        @POST
        String pay(String body);
    }

    /** Its CDI implementation: JAX-RS annotation inheritance makes pay() a resource method. */
    @ApplicationScoped
    public static class PaymentResource implements PaymentApi {
        @Idempotent
        @Override
        public String pay(String body) {
            return "paid-" + executions.incrementAndGet();
        }
    }
}
