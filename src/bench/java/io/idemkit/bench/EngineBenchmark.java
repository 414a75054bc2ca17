package io.idemkit.bench;

import io.idemkit.IdempotencyEvent;
import io.idemkit.core.Admission;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.FinishOutcome;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Operation;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.core.Ticker;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.core.hash.Fingerprint;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
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
 * The engine's cost over the in-memory store, one thread, against the cost of hashing the request
 * alone. All three benchmarks hash the same request; they differ only in what follows the hashing.
 *
 * <ul>
 *   <li>{@link #bareHashing}: the effective key and the fingerprint, nothing else (the baseline);
 *   <li>{@link #freshPath}: the same with a key never seen before, then admit (a won claim) and
 *       finish with a 201 (the result is stored);
 *   <li>{@link #replayPath}: the same with a key completed during setup, then admit (a replay).
 * </ul>
 *
 * <p>Raw keys are {@code <random UUID>-<counter>}, built the same way in the baseline and the fresh
 * path, so that their difference is the engine and the store only. The fresh path gets a new, empty
 * store every iteration, large enough never to fill, so that it measures claim and complete rather
 * than a full store or an ever-growing map.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
public class EngineBenchmark {

    /** Completed keys the replay path cycles through; a power of two. */
    private static final int REPLAY_KEYS = 1024;

    private static final OperationPolicy POLICY =
            new OperationPolicy(
                    Duration.ofSeconds(30),
                    Duration.ofHours(24),
                    Duration.ofSeconds(5),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse(CacheableStatuses.DEFAULT));

    private final String keyPrefix = UUID.randomUUID() + "-";
    private final String[] replayKeys = new String[REPLAY_KEYS];
    private final StoredResult created = SampleExchange.CREATED;
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(false);
    private long counter;
    private int replayIndex;
    private InMemoryIdempotencyStore store;
    private IdempotencyEngine engine;

    /**
     * The last event, kept so that the event the engine emits is really built, as it is for any
     * real observer.
     */
    private IdempotencyEvent lastEvent;

    /** A fresh store and engine; fills the replay keys. */
    @Setup(Level.Iteration)
    public void freshStore() {
        store =
                new InMemoryIdempotencyStore(
                        Clock.systemUTC(), Integer.MAX_VALUE, Long.MAX_VALUE, null);
        engine =
                new IdempotencyEngine(
                        store, event -> lastEvent = event, heartbeat, Ticker.system());
        for (int i = 0; i < REPLAY_KEYS; i++) {
            replayKeys[i] = keyPrefix + "replay-" + i;
            Admission admission = engine.admit(operation(replayKeys[i]));
            FinishOutcome outcome = ((Admission.Proceed) admission).execution().finish(created);
            if (outcome != FinishOutcome.STORED) {
                throw new IllegalStateException("setup could not complete a key: " + outcome);
            }
        }
    }

    /** Stops the heartbeat thread, if anything started it. */
    @TearDown(Level.Trial)
    public void close() {
        engine.close();
        if (lastEvent == null) {
            throw new IllegalStateException("the engine emitted no event");
        }
    }

    /**
     * @return the two hashes, for the blackhole
     */
    @Benchmark
    public Object bareHashing() {
        String key = keyPrefix + counter++;
        String effectiveKey =
                EffectiveKey.forHttp(
                        key, SampleExchange.SCOPE, SampleExchange.METHOD, SampleExchange.PATH);
        String fingerprint = fingerprint();
        return new String[] {effectiveKey, fingerprint};
    }

    /**
     * @return the outcome, always {@link FinishOutcome#STORED}
     */
    @Benchmark
    public FinishOutcome freshPath() {
        Admission admission = engine.admit(operation(keyPrefix + counter++));
        // The cast fails the run loudly should the claim not be won.
        FinishOutcome outcome = ((Admission.Proceed) admission).execution().finish(created);
        if (outcome != FinishOutcome.STORED) {
            throw new IllegalStateException("a fresh key was not stored: " + outcome);
        }
        return outcome;
    }

    /**
     * @return the replayed result
     */
    @Benchmark
    public StoredResult replayPath() {
        String key = replayKeys[replayIndex++ & (REPLAY_KEYS - 1)];
        Admission admission = engine.admit(operation(key));
        return ((Admission.Replay) admission).result();
    }

    private static Operation operation(String key) {
        String effectiveKey =
                EffectiveKey.forHttp(
                        key, SampleExchange.SCOPE, SampleExchange.METHOD, SampleExchange.PATH);
        return new Operation(effectiveKey, fingerprint(), Fingerprint.VERSION, POLICY, "http");
    }

    private static String fingerprint() {
        return Fingerprint.forHttp(
                SampleExchange.METHOD,
                SampleExchange.PATH,
                SampleExchange.QUERY,
                SampleExchange.REQUEST_BODY,
                SampleExchange.CONTENT_TYPE);
    }
}
