package io.idemkit.bench;

import io.idemkit.bench.ChargeService.ChargeRequest;
import io.idemkit.bench.ChargeService.LineItem;
import io.idemkit.bench.ChargeService.Receipt;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.config.ConfigKeys;
import io.idemkit.core.ScopeResolver;
import io.idemkit.method.MethodPlans;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.memory.MemoryKeys;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.WeldContainer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The method surface: {@code @Idempotent} on a CDI bean method, on Weld SE with the library's beans
 * and the in-memory store, one thread. Every case calls {@link ChargeService} with the same {@link
 * ChargeRequest} (a total, a currency, a customer, a description and three order lines):
 *
 * <ul>
 *   <li>{@link #directCall}: the same method without {@code @Idempotent}, through the same CDI
 *       client proxy;
 *   <li>{@link #methodHashing}: the effective key and the fingerprint of the call's arguments, by
 *       the interceptor's own plan and JSON-B instance ({@link MethodHashing}), nothing else (the
 *       baseline of the target);
 *   <li>{@link #interceptorFresh}: the intercepted method with a key never seen before: hashing,
 *       claim, the body, encoding the receipt (and decoding it, as the interceptor proves every
 *       result it stores), complete;
 *   <li>{@link #interceptorReplay}: the intercepted method with a key completed during setup (1024
 *       of them, in turn): hashing, claim, fingerprint check, decoding the stored receipt.
 * </ul>
 *
 * <p>One Weld container per trial (BenchMain starts a trial for every iteration it measures). Weld
 * reuses its generated proxy and subclass classes from one container to the next, as their names
 * are fixed, so the code the JIT compiled stays in use. The fresh path's records are deleted after
 * each iteration, outside the timed region, so that the store holds the replay keys plus at most
 * one iteration's fresh records, and the store's capacity is raised so that one iteration never
 * fills it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
public class InterceptorBenchmark {

    /** Completed keys the replay path cycles through; a power of two. */
    private static final int REPLAY_KEYS = 1024;

    /** Far above the records of one iteration (a few hundred thousand at most). */
    private static final int STORE_CAPACITY = 10_000_000;

    private static final ChargeRequest REQUEST =
            new ChargeRequest(
                    new BigDecimal("129.96"),
                    "EUR",
                    "cus_8f3a2b71c4",
                    "Order 2026-1204 (3 items)",
                    List.of(
                            new LineItem(
                                    "SKU-1001", "Espresso beans, 1 kg", 2, new BigDecimal("24.99")),
                            new LineItem("SKU-2040", "Milk frother", 1, new BigDecimal("59.90")),
                            new LineItem(
                                    "SKU-0007", "Descaler tablets", 4, new BigDecimal("5.02"))));

    /**
     * Weld's and idemkit's INFO lines at every boot, one per trial, kept out of the run's output;
     * warnings still show. Held here so that the levels are not lost with the loggers.
     */
    private static final List<java.util.logging.Logger> QUIET =
            List.of(
                    java.util.logging.Logger.getLogger("org.jboss.weld"),
                    java.util.logging.Logger.getLogger("io.idemkit"));

    static {
        QUIET.forEach(logger -> logger.setLevel(java.util.logging.Level.WARNING));
    }

    private final String keyPrefix = "req_" + UUID.randomUUID() + "-";
    private final String[] replayKeys = new String[REPLAY_KEYS];
    private final TestDeployment deployment = new TestDeployment();
    private ChargeService service;
    private MethodHashing hashing;
    private IdempotencyStore store;
    private int replayIndex;
    private long freshCounter;
    private long freshDeleted;
    private long directCalls;
    private long replayCalls;

    /**
     * Boots Weld, completes the replay keys, and checks that a replay returns the stored receipt
     * without running the method.
     *
     * @throws NoSuchMethodException never: the method is there
     */
    @Setup(Level.Trial)
    public void boot() throws NoSuchMethodException {
        deployment.set(ConfigKeys.STORE, "memory");
        deployment.set(ConfigKeys.SCOPE_MODE, "single-tenant");
        deployment.set(MemoryKeys.MAX_SIZE, Integer.toString(STORE_CAPACITY));
        // No byte budget either: an eviction would take the replay keys, the oldest results.
        deployment.set(MemoryKeys.MAX_BYTES, Long.toString(Long.MAX_VALUE));
        deployment.set("mp.config.profile", "test");
        WeldContainer weld = deployment.start(ChargeService.class);
        service = weld.select(ChargeService.class).get();
        store = weld.select(IdempotencyStore.class).get();
        hashing =
                new MethodHashing(
                        weld.select(MethodPlans.class).get(),
                        weld.select(ScopeResolver.class).get(),
                        ChargeService.class,
                        ChargeService.class.getMethod("charge", String.class, ChargeRequest.class));
        Receipt first = null;
        for (int i = 0; i < REPLAY_KEYS; i++) {
            replayKeys[i] = keyPrefix + "replay-" + i;
            Receipt receipt = service.charge(replayKeys[i], REQUEST);
            if (i == 0) {
                first = receipt;
            }
        }
        Receipt replayed = service.charge(replayKeys[0], REQUEST);
        if (service.executions() != REPLAY_KEYS || !replayed.equals(first)) {
            throw new IllegalStateException(
                    "setup: a replay ran the method or returned another receipt: " + replayed);
        }
    }

    /** Deletes this iteration's fresh records, outside the timed region. */
    @TearDown(Level.Iteration)
    public void deleteFreshRecords() {
        for (; freshDeleted < freshCounter; freshDeleted++) {
            String key = hashing.effectiveKey(new Object[] {freshKey(freshDeleted), REQUEST});
            if (!store.delete(key)) {
                throw new IllegalStateException("a fresh call left no record");
            }
        }
    }

    /** Checks that only fresh and direct calls ran the method, then shuts Weld down. */
    @TearDown(Level.Trial)
    public void shutDown() {
        long ran = service.executions() - REPLAY_KEYS;
        deployment.close();
        if (ran != freshCounter + directCalls) {
            throw new IllegalStateException(
                    ran
                            + " runs of the method for "
                            + freshCounter
                            + " fresh and "
                            + directCalls
                            + " direct calls ("
                            + replayCalls
                            + " replays)");
        }
    }

    /**
     * @return the receipt
     */
    @Benchmark
    public Receipt directCall() {
        directCalls++;
        return service.chargeDirect(nextReplayKey(), REQUEST);
    }

    /**
     * @return the effective key and the fingerprint, for the blackhole
     */
    @Benchmark
    public String[] methodHashing() {
        return hashing.hash(new Object[] {nextReplayKey(), REQUEST});
    }

    /**
     * @return the receipt, from the method
     */
    @Benchmark
    public Receipt interceptorFresh() {
        return service.charge(freshKey(freshCounter++), REQUEST);
    }

    /**
     * @return the receipt, from the store
     */
    @Benchmark
    public Receipt interceptorReplay() {
        replayCalls++;
        return service.charge(nextReplayKey(), REQUEST);
    }

    private String nextReplayKey() {
        return replayKeys[replayIndex++ & (REPLAY_KEYS - 1)];
    }

    private String freshKey(long n) {
        return keyPrefix + n;
    }
}
