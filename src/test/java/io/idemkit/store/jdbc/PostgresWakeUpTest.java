package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Wake-ups across store instances on a real PostgreSQL (C4.3, C12): two stores on one table, each
 * on a pool of its own as two nodes would be, a duplicate waiting on instance B while instance A
 * completes or releases the key.
 *
 * <p>The waiter's poll pauses 10 ms, doubling to 500 ms; each test acts once the waiter's seventh
 * read has returned, after which the poll pauses 500 ms. Without a notification the eighth read,
 * which finds the change, comes 500 ms or more after the seventh; the tests require it well within
 * that, so that only a notification can pass them.
 */
class PostgresWakeUpTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final StoredResult RESULT =
            new StoredResult(201, List.of(), "{\"id\":1}".getBytes(StandardCharsets.UTF_8));

    /** The read after which the poll pauses 500 ms: 10, 20, 40, 80, 160, 320, then 500. */
    private static final int READ_BEFORE_LONG_PAUSE = 7;

    /** Well under the 500 ms pause that follows {@link #READ_BEFORE_LONG_PAUSE}. */
    private static final long WOKEN_WITHIN_MILLIS = 450;

    /**
     * The listener's idle period where a test waits it out: a few of its 500 ms reads, so that it
     * is measured in time, far under the minute of {@link CompletionListener#IDLE_PERIOD}.
     */
    private static final Duration SHORT_IDLE = Duration.ofSeconds(2);

    /** The backends whose last statement was the {@code LISTEN} on the table's channel. */
    private static final String LISTENERS = " WHERE query = ?";

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private String table;
    private HikariDataSource poolA;
    private HikariDataSource poolB;
    private WatchedReads watched;
    private JdbcIdempotencyStore a;
    private JdbcIdempotencyStore b;

    @BeforeEach
    void twoInstances() {
        table = JdbcStoreContract.freshTable();
        poolA = Databases.pool(JdbcDialect.POSTGRESQL, null);
        poolB = Databases.pool(JdbcDialect.POSTGRESQL, null);
        watched = new WatchedReads(poolB);
        a = new JdbcIdempotencyStore(poolA, new JdbcStoreSettings(table, true));
        a.start();
        b = instanceB(CompletionListener.IDLE_PERIOD);
    }

    /** Instance B on its watched pool, its listener given back after {@code idle}. */
    private JdbcIdempotencyStore instanceB(Duration idle) {
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(
                        watched.dataSource(), null, new JdbcStoreSettings(table, false), idle);
        store.start();
        return store;
    }

    /**
     * B listens before a test's waiter starts: once it listens it wakes every waiter to read again,
     * which would add a read to the count the tests time.
     */
    private void bListens() throws InterruptedException {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        a.complete(key, claim.token(), RESULT, LEASE);
        assertThat(b.awaitCompletion(key, WAIT)).isPresent();
        await().atMost(Duration.ofSeconds(5)).until(() -> notifications(b).equals("listening"));
    }

    @AfterEach
    void closeAndDrop() throws Exception {
        waiters.shutdownNow();
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        a.close();
        b.close();
        poolA.close();
        poolB.close();
        try (Connection c = Databases.postgres().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void completionOnAnotherInstance_wakesTheWaiterAtOnce() throws Exception {
        bListens();
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        CountDownLatch longPause =
                watched.watchFor(READ_BEFORE_LONG_PAUSE).get(READ_BEFORE_LONG_PAUSE);
        AtomicLong returnedAt = new AtomicLong();
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(key, returnedAt);
        assertThat(longPause.await(5, TimeUnit.SECONDS)).isTrue();

        assertThat(a.complete(key, claim.token(), RESULT, LEASE)).isTrue();
        long completedAt = System.nanoTime();

        assertThat(waiting.get(5, TimeUnit.SECONDS).orElseThrow().state())
                .isEqualTo(RecordState.COMPLETED);
        assertWokenEarly(completedAt, returnedAt);
    }

    @Test
    void releaseOnAnotherInstance_wakesTheWaiterAtOnce() throws Exception {
        bListens();
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        CountDownLatch longPause =
                watched.watchFor(READ_BEFORE_LONG_PAUSE).get(READ_BEFORE_LONG_PAUSE);
        AtomicLong returnedAt = new AtomicLong();
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(key, returnedAt);
        assertThat(longPause.await(5, TimeUnit.SECONDS)).isTrue();

        assertThat(a.release(key, claim.token())).isTrue();
        long releasedAt = System.nanoTime();

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isEmpty();
        assertWokenEarly(releasedAt, returnedAt);
    }

    @Test
    void completionInTheBusinessTransaction_wakesTheWaiterAtItsCommit_notBefore() throws Exception {
        bListens();
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Connection business = businessTransaction();
        JdbcIdempotencyStore inTx = inTransaction(business);
        Map<Integer, CountDownLatch> reads =
                watched.watchFor(READ_BEFORE_LONG_PAUSE - 1, READ_BEFORE_LONG_PAUSE);
        AtomicLong returnedAt = new AtomicLong();
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(key, returnedAt);
        assertThat(reads.get(READ_BEFORE_LONG_PAUSE - 1).await(5, TimeUnit.SECONDS)).isTrue();

        // In the 320 ms pause after read 6: a notification sent now would wake the waiter.
        assertThat(inTx.completeInTransaction(key, claim.token(), RESULT, LEASE)).isTrue();
        await().during(Duration.ofMillis(100))
                .atMost(Duration.ofMillis(250))
                .until(() -> watched.reads() == READ_BEFORE_LONG_PAUSE - 1);
        assertThat(reads.get(READ_BEFORE_LONG_PAUSE).await(5, TimeUnit.SECONDS)).isTrue();
        business.commit();
        long committedAt = System.nanoTime();

        assertThat(waiting.get(5, TimeUnit.SECONDS).orElseThrow().state())
                .isEqualTo(RecordState.COMPLETED);
        assertWokenEarly(committedAt, returnedAt);
    }

    @Test
    void rolledBackCompletion_wakesNoWaiter_andTheReleaseAfterIt_does() throws Exception {
        bListens();
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Connection business = businessTransaction();
        JdbcIdempotencyStore inTx = inTransaction(business);
        Map<Integer, CountDownLatch> reads =
                watched.watchFor(READ_BEFORE_LONG_PAUSE - 1, READ_BEFORE_LONG_PAUSE);
        AtomicLong returnedAt = new AtomicLong();
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(key, returnedAt);
        assertThat(reads.get(READ_BEFORE_LONG_PAUSE - 1).await(5, TimeUnit.SECONDS)).isTrue();

        // In the 320 ms pause after read 6: a notification of the rolled-back completion would
        // wake the waiter.
        assertThat(inTx.completeInTransaction(key, claim.token(), RESULT, LEASE)).isTrue();
        business.rollback();
        await().during(Duration.ofMillis(100))
                .atMost(Duration.ofMillis(250))
                .until(() -> watched.reads() == READ_BEFORE_LONG_PAUSE - 1);
        assertThat(reads.get(READ_BEFORE_LONG_PAUSE).await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(a.release(key, claim.token())).isTrue();
        long releasedAt = System.nanoTime();

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isEmpty();
        assertWokenEarly(releasedAt, returnedAt);
    }

    @Test
    void listeningConnectionKilled_waitersPoll_andTheListenerComesBack() throws Exception {
        String first = key();
        ClaimResult firstClaim = a.claim(first, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(first, new AtomicLong());
        await().atMost(Duration.ofSeconds(5)).until(() -> notifications(b).equals("listening"));

        watched.blockListen(true);
        assertThat(terminateListener()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> notifications(b).equals("polling (listener down)"));
        assertThat(b.health().up()).as("never down for its listener").isTrue();
        assertThat(a.complete(first, firstClaim.token(), RESULT, LEASE)).isTrue();
        assertThat(waiting.get(5, TimeUnit.SECONDS).orElseThrow().state())
                .as("found by polling")
                .isEqualTo(RecordState.COMPLETED);

        watched.blockListen(false);
        nextWaiterMakesBListenAgain_andIsWokenByNotification();
    }

    @Test
    void listenerIdleWithNobodyWaiting_givesItsConnectionBack_andANewWaiterIsWokenByNotifyAgain()
            throws Exception {
        b.close();
        b = instanceB(SHORT_IDLE);
        String first = key();
        ClaimResult firstClaim = a.claim(first, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(first, new AtomicLong());
        await().atMost(Duration.ofSeconds(5)).until(() -> notifications(b).equals("listening"));
        assertThat(listeningBackends()).as("a backend LISTENs while a waiter waits").isEqualTo(1);

        long lastWaitEndsAfter = System.nanoTime();
        assertThat(a.complete(first, firstClaim.token(), RESULT, LEASE)).isTrue();
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isPresent();
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(
                        () ->
                                assertThat(poolB.getHikariPoolMXBean().getActiveConnections())
                                        .as("the listening connection, held with nobody waiting")
                                        .isEqualTo(1));

        await().atMost(SHORT_IDLE.plusSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> notifications(b).equals(PgCompletionListener.IDLE));
        long releasedBy = System.nanoTime();
        assertThat(Duration.ofNanos(releasedBy - lastWaitEndsAfter))
                .as("given back only once nobody has waited for the idle period")
                .isGreaterThanOrEqualTo(SHORT_IDLE);
        assertThat(poolB.getHikariPoolMXBean().getActiveConnections()).isZero();
        assertThat(listeningBackends()).as("no backend LISTENs any more").isZero();

        nextWaiterMakesBListenAgain_andIsWokenByNotification();
    }

    @Test
    void close_endsTheListener_andGivesItsConnectionBack() throws Exception {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(key, new AtomicLong());
        await().atMost(Duration.ofSeconds(5)).until(() -> notifications(b).equals("listening"));
        a.complete(key, claim.token(), RESULT, LEASE);
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isPresent();
        assertThat(poolB.getHikariPoolMXBean().getActiveConnections())
                .as("the listening connection")
                .isEqualTo(1);

        b.close();

        assertThat(poolB.getHikariPoolMXBean().getActiveConnections()).isZero();
        assertThat(listenerThreads()).isZero();
        assertThat(notifications(b)).startsWith("polling");
    }

    @Test
    void notificationsOff_nothingListens_andHealthSaysPolling() throws Exception {
        JdbcIdempotencyStore polling =
                new JdbcIdempotencyStore(
                        poolB, new JdbcStoreSettings(table, false).withNotifications(false));
        opened.add(polling);
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiting =
                waiters.submit(() -> polling.awaitCompletion(key, WAIT));
        a.complete(key, claim.token(), RESULT, LEASE);

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isPresent();
        assertThat(notifications(polling)).isEqualTo("polling");
        assertThat(poolB.getHikariPoolMXBean().getActiveConnections()).isZero();
    }

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"MARIADB", "H2"})
    void onMariaDbAndH2_waitersPoll_andHealthSaysSo(JdbcDialect dialect) throws Exception {
        String other = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(Databases.of(dialect), new JdbcStoreSettings(other, true));
        opened.add(
                () -> {
                    store.close();
                    try (Connection c = Databases.of(dialect).getConnection();
                            Statement s = c.createStatement()) {
                        s.execute("DROP TABLE " + other);
                    }
                });
        String key = key();
        ClaimResult claim = store.claim(key, FP, 1, LEASE);
        store.complete(key, claim.token(), RESULT, LEASE);

        assertThat(store.awaitCompletion(key, WAIT)).isPresent();
        assertThat(notifications(store)).isEqualTo("polling");
    }

    // --- helpers -------------------------------------------------------------------------------

    /**
     * A waiter on B, with B not listening: B's listener takes a connection and LISTENs again, and
     * A's completion then wakes the waiter by notification, well inside the poll's 500 ms pause.
     */
    private void nextWaiterMakesBListenAgain_andIsWokenByNotification() throws Exception {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        CountDownLatch longPause =
                watched.watchFor(READ_BEFORE_LONG_PAUSE).get(READ_BEFORE_LONG_PAUSE);
        AtomicLong returnedAt = new AtomicLong();
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(key, returnedAt);
        await().atMost(Duration.ofSeconds(10)).until(() -> notifications(b).equals("listening"));
        assertThat(listeningBackends()).as("a backend LISTENs again").isEqualTo(1);
        assertThat(longPause.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(a.complete(key, claim.token(), RESULT, LEASE)).isTrue();
        long completedAt = System.nanoTime();

        assertThat(waiting.get(5, TimeUnit.SECONDS).orElseThrow().state())
                .isEqualTo(RecordState.COMPLETED);
        assertWokenEarly(completedAt, returnedAt);
    }

    private Future<Optional<IdempotencyRecord>> waitOnB(String key, AtomicLong returnedAt) {
        return waiters.submit(
                () -> {
                    Optional<IdempotencyRecord> found = b.awaitCompletion(key, WAIT);
                    returnedAt.set(System.nanoTime());
                    return found;
                });
    }

    /** The waiter's last read came well within the poll's 500 ms pause, and soon after the act. */
    private void assertWokenEarly(long actedAt, AtomicLong returnedAt) {
        assertThat(watched.reads()).isEqualTo(READ_BEFORE_LONG_PAUSE + 1);
        assertThat(
                        TimeUnit.NANOSECONDS.toMillis(
                                watched.nanosBetween(
                                        READ_BEFORE_LONG_PAUSE, READ_BEFORE_LONG_PAUSE + 1)))
                .as("the pause the notification cut short, in ms")
                .isLessThan(WOKEN_WITHIN_MILLIS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(returnedAt.get() - actedAt))
                .as("from the change to the waiter's return, in ms")
                .isLessThan(250);
    }

    /** A connection of A's pool in a transaction, as the business data source's would be. */
    private Connection businessTransaction() throws SQLException {
        Connection business = poolA.getConnection();
        opened.add(business);
        business.setAutoCommit(false);
        return business;
    }

    /** Started, so that its completion is one statement. */
    private JdbcIdempotencyStore inTransaction(Connection business) {
        JdbcIdempotencyStore inTx =
                new JdbcIdempotencyStore(
                        poolA,
                        EnlistedConnections.of(() -> business),
                        new JdbcStoreSettings(table, false));
        inTx.start();
        opened.add(inTx);
        return inTx;
    }

    private int terminateListener() throws SQLException {
        try (Connection c = Databases.postgres().getConnection();
                PreparedStatement ps =
                        c.prepareStatement(
                                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                        + LISTENERS)) {
            ps.setString(1, "LISTEN " + CompletionNotices.channel(table));
            int terminated = 0;
            try (ResultSet rows = ps.executeQuery()) {
                while (rows.next()) {
                    terminated += rows.getBoolean(1) ? 1 : 0;
                }
            }
            return terminated;
        }
    }

    private int listeningBackends() throws SQLException {
        try (Connection c = Databases.postgres().getConnection();
                PreparedStatement ps =
                        c.prepareStatement("SELECT count(*) FROM pg_stat_activity" + LISTENERS)) {
            ps.setString(1, "LISTEN " + CompletionNotices.channel(table));
            try (ResultSet rows = ps.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private long listenerThreads() {
        String name = "idemkit-listener-" + CompletionNotices.channel(table);
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name) && t.isAlive())
                .count();
    }

    private static String notifications(JdbcIdempotencyStore store) {
        return String.valueOf(store.health().details().get("notifications"));
    }

    private static String key() {
        return UUID.randomUUID().toString().replace("-", "")
                + UUID.randomUUID().toString().replace("-", "");
    }
}
