package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.CompletionPoll;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The databases without notifications (C4.3, C12): on MariaDB and H2 a waiter polls, and the
 * store's health says so. PostgreSQL's wake-ups are {@link PostgresWakeUpTest}'s.
 *
 * <p>Two store instances on one table, as two nodes would be: A claims and completes, B waits. A
 * completion through A signals only A's waiters, and neither database notifies, so B can learn of
 * it only by reading the row again. B's poll pauses {@link #PAUSE} between any two reads; a waiter
 * that returns the completed record after two reads or more, no sooner than {@link #PAUSE} after it
 * began, found the completion by its poll, and not by its first read or by a wake-up.
 */
class PollingDialectsTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final StoredResult RESULT =
            new StoredResult(201, List.of(), "{\"id\":1}".getBytes(StandardCharsets.UTF_8));

    /**
     * Every pause of B's poll, the first too: long enough that the test completes the key (one
     * statement) during the first pause even on a loaded machine, and a wake-up would stand out.
     */
    private static final Duration PAUSE = Duration.ofSeconds(4);

    /** B's wait: past its second read, so that the wait's deadline cannot end it during a test. */
    private static final Duration WAIT = PAUSE.multipliedBy(5);

    /** What the test waits for without proving anything by it: patient on a loaded machine. */
    private static final Duration EVENTUALLY = Duration.ofSeconds(15);

    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private JdbcDialect dialect;
    private String table;
    private JdbcIdempotencyStore a;
    private JdbcIdempotencyStore b;

    /**
     * What a waiter found, how long its {@code awaitCompletion} took, and when it returned ({@link
     * System#nanoTime()}), all measured on its own thread.
     */
    private record Waited(Optional<IdempotencyRecord> found, Duration took, long endedAt) {}

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"MARIADB", "H2"})
    void onMariaDbAndH2_aWaiterOnAKeyInProgress_findsItsCompletionElsewhereByItsNextPoll(
            JdbcDialect dialect) throws Exception {
        WatchedReads watched = twoInstances(dialect);
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        assertThat(claim.status().won()).as("claimed on A").isTrue();

        Map<Integer, CountDownLatch> reads = watched.watchFor(1);
        Future<Waited> waiter = waiters.submit(() -> timedWait(key));
        assertThat(reads.get(1).await(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiter's first read, of the key in progress")
                .isTrue();
        assertThat(waiter).as("still waiting after its first read").isNotDone();

        long completedAt = System.nanoTime();
        assertThat(a.complete(key, claim.token(), RESULT, LEASE)).as("completed on A").isTrue();

        Waited waited =
                assertThat(waiter)
                        .as("returned, its poll pausing %s", PAUSE)
                        .succeedsWithin(PAUSE.plus(EVENTUALLY))
                        .actual();
        assertThat(waited.found()).as("woken with the completed record").isPresent();
        assertThat(waited.found().get().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(waited.endedAt() - completedAt).as("returned after the completion").isPositive();
        // At least two: a test thread stalled longer than the pause before completing lets the
        // waiter poll once more, still in progress; it is polling all the same.
        assertThat(watched.reads())
                .as("its first read, of the key in progress, then its polls until one found it")
                .isGreaterThanOrEqualTo(2);
        assertThat(waited.took())
                .as("found by its poll, one pause of %s after its first read, not sooner", PAUSE)
                .isGreaterThanOrEqualTo(PAUSE)
                .isLessThan(PAUSE.plus(EVENTUALLY));
    }

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"MARIADB", "H2"})
    void onMariaDbAndH2_healthSaysPolling(JdbcDialect dialect) {
        twoInstances(dialect);

        assertThat(b.health().details().get("notifications")).isEqualTo("polling");
    }

    /**
     * A with the table created, B on a watched pool of the same database, polling a {@link #PAUSE}.
     */
    private WatchedReads twoInstances(JdbcDialect dialect) {
        this.dialect = dialect;
        table = JdbcStoreContract.freshTable();
        a = new JdbcIdempotencyStore(Databases.of(dialect), new JdbcStoreSettings(table, true));
        a.start();
        WatchedReads watched = new WatchedReads(Databases.of(dialect));
        b =
                new JdbcIdempotencyStore(
                        watched.dataSource(),
                        null,
                        new JdbcStoreSettings(table, false),
                        CompletionListener.IDLE_PERIOD,
                        new CompletionPoll(PAUSE, PAUSE));
        b.start();
        return watched;
    }

    private Waited timedWait(String key) throws InterruptedException {
        long started = System.nanoTime();
        Optional<IdempotencyRecord> found = b.awaitCompletion(key, WAIT);
        long ended = System.nanoTime();
        return new Waited(found, Duration.ofNanos(ended - started), ended);
    }

    @AfterEach
    void closeAndDrop() throws Exception {
        waiters.shutdownNow();
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
            try (Connection c = Databases.of(dialect).getConnection();
                    Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    private static String key() {
        return UUID.randomUUID().toString().replace("-", "")
                + UUID.randomUUID().toString().replace("-", "");
    }
}
