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
import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.redis.RedisIdempotencyStore;
import io.idemkit.store.redis.RedisStoreSettings;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
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
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.SetParams;

/**
 * The Redis store through the engine on a real Redis 6.2 server (embedded-redis's binary, started
 * on loopback by the run), over one pooled Jedis client, compared with the same client's bare
 * {@code SET} on the same server. The thread count is set by the runner ({@link BenchMain} measures
 * 1 and 8).
 *
 * <ul>
 *   <li>{@link #redisFresh}: {@code admit} of a new key (the claim script) and {@code finish} of a
 *       201 with a 1 KiB body (the completion script): two round trips;
 *   <li>{@link #redisReplay}: {@code admit} of a completed key: the claim script answers the record
 *       in one round trip and writes nothing;
 *   <li>{@link #rawSet}: one {@code SET} with an expiry of a value the size of a completed record
 *       (about 1.3 KiB): one round trip, the yardstick.
 * </ul>
 *
 * Each fresh record is deleted after its invocation, outside the timed region, and the raw values
 * expire after 5 s, so that a run does not fill the server's memory. As in {@link MongoBenchmark},
 * the request is not hashed: each operation derives its effective key from a short raw key only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RedisBenchmark {

    /** Completed keys the replay path cycles through; a power of two. */
    private static final int REPLAY_KEYS = 1024;

    private static final OperationPolicy POLICY =
            new OperationPolicy(
                    Duration.ofSeconds(30),
                    Duration.ofHours(24),
                    Duration.ofSeconds(5),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse(CacheableStatuses.DEFAULT));

    private static final String FINGERPRINT =
            Fingerprint.forHttp(
                    SampleExchange.METHOD,
                    SampleExchange.PATH,
                    SampleExchange.QUERY,
                    SampleExchange.REQUEST_BODY,
                    SampleExchange.CONTENT_TYPE);

    private final StoredResult created = SampleExchange.CREATED;
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(false);
    private final byte[] rawValue = rawValue();
    private RedisServer server;
    private RedisClient client;
    private RedisIdempotencyStore store;
    private IdempotencyEngine engine;

    /**
     * The last event, kept so that the event the engine emits is really built, as it is for any
     * real observer.
     */
    private volatile IdempotencyEvent lastEvent;

    /** Starts the server and connects. */
    @Setup(Level.Trial)
    public void start() {
        server = RedisServer.builder().start();
        client = RedisClient.create(server.host(), server.port());
        store =
                new RedisIdempotencyStore(
                        client,
                        RedisStoreSettings.forUri(server.uri()).withNotifications(false),
                        Clock.systemUTC());
        engine =
                new IdempotencyEngine(
                        store, event -> lastEvent = event, heartbeat, Ticker.system());
        // Load the scripts before the clock starts.
        Admission warm = engine.admit(operation(UUID.randomUUID() + "-warm"));
        ((Admission.Proceed) warm).execution().finish(created);
    }

    /** Closes the engine, the store, the client and the server. */
    @TearDown(Level.Trial)
    public void stop() {
        engine.close();
        store.close();
        client.close();
        server.close();
        if (lastEvent == null) {
            throw new IllegalStateException("the engine emitted no event");
        }
    }

    /** The completed keys of the replay path, made only for the trials that use them. */
    @State(Scope.Benchmark)
    public static class Completed {
        private final String[] keys = new String[REPLAY_KEYS];

        /**
         * Claims and completes every key.
         *
         * @param bench the server and engine
         */
        @Setup(Level.Trial)
        public void complete(RedisBenchmark bench) {
            String prefix = UUID.randomUUID() + "-replay-";
            for (int i = 0; i < REPLAY_KEYS; i++) {
                keys[i] = prefix + i;
                Admission admission = bench.engine.admit(operation(keys[i]));
                FinishOutcome outcome =
                        ((Admission.Proceed) admission).execution().finish(bench.created);
                if (outcome != FinishOutcome.STORED) {
                    throw new IllegalStateException("setup could not complete a key: " + outcome);
                }
            }
        }
    }

    /** Each benchmark thread's own keys. */
    @State(Scope.Thread)
    public static class Keys {
        private final String prefix = UUID.randomUUID() + "-";
        private long counter;
        private int replayIndex = ThreadLocalRandom.current().nextInt(REPLAY_KEYS);

        String next() {
            return prefix + counter++;
        }
    }

    /** Each thread's fresh keys; deletes the record of each after its invocation, untimed. */
    @State(Scope.Thread)
    public static class FreshKeys {
        private final String prefix = UUID.randomUUID() + "-";
        private long counter;
        private RedisIdempotencyStore store;
        private String written;

        Operation next(RedisIdempotencyStore in) {
            store = in;
            Operation operation = operation(prefix + counter++);
            written = operation.effectiveKey();
            return operation;
        }

        /** Deletes the record the invocation wrote. */
        @TearDown(Level.Invocation)
        public void forget() {
            if (written != null) {
                store.delete(written);
                written = null;
            }
        }
    }

    /**
     * @param keys this thread's keys
     * @return the outcome, always {@link FinishOutcome#STORED}
     */
    @Benchmark
    public FinishOutcome redisFresh(FreshKeys keys) {
        Admission admission = engine.admit(keys.next(store));
        FinishOutcome outcome = ((Admission.Proceed) admission).execution().finish(created);
        if (outcome != FinishOutcome.STORED) {
            throw new IllegalStateException("a fresh key was not stored: " + outcome);
        }
        return outcome;
    }

    /**
     * @param completed the completed keys
     * @param keys this thread's keys
     * @return the replayed result
     */
    @Benchmark
    public StoredResult redisReplay(Completed completed, Keys keys) {
        String key = completed.keys[keys.replayIndex++ & (REPLAY_KEYS - 1)];
        return ((Admission.Replay) engine.admit(operation(key))).result();
    }

    /**
     * @param keys this thread's keys
     * @return the server's answer
     */
    @Benchmark
    public String rawSet(Keys keys) {
        byte[] key = ("raw:" + keys.next()).getBytes(StandardCharsets.UTF_8);
        return client.set(key, rawValue, SetParams.setParams().px(5_000));
    }

    private static Operation operation(String key) {
        String effectiveKey =
                EffectiveKey.forHttp(
                        key, SampleExchange.SCOPE, SampleExchange.METHOD, SampleExchange.PATH);
        return new Operation(effectiveKey, FINGERPRINT, Fingerprint.VERSION, POLICY, "http");
    }

    /**
     * A value the size of a completed record's fields: fingerprint, token, times, headers, body.
     */
    private static byte[] rawValue() {
        return new byte[SampleExchange.CREATED.bodyLength() + 64 + 32 + 5 * 13 + 3 + 64];
    }
}
