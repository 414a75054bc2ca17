package io.idemkit.store.jdbc;

import static io.idemkit.store.jdbc.WakeUpTiming.EVENTUALLY;
import static io.idemkit.store.jdbc.WakeUpTiming.FP;
import static io.idemkit.store.jdbc.WakeUpTiming.LEASE;
import static io.idemkit.store.jdbc.WakeUpTiming.PAUSE;
import static io.idemkit.store.jdbc.WakeUpTiming.RESULT;
import static io.idemkit.store.jdbc.WakeUpTiming.WAIT;
import static io.idemkit.store.jdbc.WakeUpTiming.WOKEN_WITHIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.store.CompletionPoll;
import java.sql.Connection;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Wake-ups across store instances on a real PostgreSQL (C4.3, C12): two stores on one table, each
 * on a pool of its own as two nodes would be, a duplicate waiting on instance B while instance A
 * completes, releases or deletes the key.
 *
 * <p>The tests tell a notification from a poll without depending on the machine's speed. B's poll
 * pauses {@link #PAUSE}, a minute, between any two reads, and its waits last longer than that: a
 * waiter that has made its first read cannot read again for a minute unless something wakes it. B
 * listens before a test's waiter starts, so that its listener's own wake-up (it wakes every waiter
 * once it listens) is spent; a waiter that then returns within {@link #WOKEN_WITHIN}, a quarter of
 * its pause, after exactly one more read, was woken by the notification. That bound is generous for
 * a loaded machine and says nothing of speed: how soon a notification arrives is measured by the
 * benchmark ({@code WakeUpLatency}), not here. Where nothing may wake a waiter (a completion not
 * yet committed, or rolled back), it must not read again for {@link #NOT_WOKEN_FOR}, which its
 * poll, a minute away, cannot break.
 */
class PostgresWakeUpTest {

    /**
     * How long a waiter must not read where nothing may wake it: time for a wrongly sent
     * notification to arrive, and well under {@link #PAUSE}, so that the poll cannot read
     * meanwhile.
     */
    private static final Duration NOT_WOKEN_FOR = Duration.ofSeconds(2);

    /**
     * The wait of a waiter that must find a change by its own read, the one at the end of its wait,
     * while nothing can wake it: shorter than {@link #PAUSE}, and long enough for the test to
     * complete the key (one statement) after the waiter's first read.
     */
    private static final Duration POLLED_WAIT = Duration.ofSeconds(5);

    /**
     * The listener's idle period where a test waits it out: a few of its 500 ms reads, so that it
     * is measured in time, far under the minute of {@link CompletionListener#IDLE_PERIOD}.
     */
    private static final Duration SHORT_IDLE = Duration.ofSeconds(2);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private String table;
    private HikariDataSource poolA;
    private HikariDataSource poolB;
    private WatchedReads watched;
    private JdbcIdempotencyStore a;
    private JdbcIdempotencyStore b;

    /** A waiter on B that has made its first read, and the latch of its second. */
    private record Waiter(Future<Optional<IdempotencyRecord>> result, CountDownLatch secondRead) {}

    /** A key's completion in a business transaction not yet ended, and a waiter on B for it. */
    private record InTransaction(
            String key, ClaimResult claim, Connection business, Waiter waiter) {}

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

    /**
     * Instance B on its watched pool, its listener given back after {@code idle}, its waiters
     * reading once a {@link #PAUSE}.
     */
    private JdbcIdempotencyStore instanceB(Duration idle) {
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(
                        watched.dataSource(),
                        null,
                        new JdbcStoreSettings(table, false),
                        idle,
                        new CompletionPoll(PAUSE, PAUSE));
        store.start();
        return store;
    }

    /**
     * A waiter arrives on B, and B listens (again if it had stopped), before a test's own waiter
     * starts: once it listens it wakes every waiter to read again, a wake-up no notification sent.
     * It says {@code listening} only after that wake-up.
     */
    private void bListens() throws InterruptedException {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        a.complete(key, claim.token(), RESULT, LEASE);
        assertThat(b.awaitCompletion(key, WAIT)).isPresent();
        await().atMost(EVENTUALLY).until(() -> notifications(b).equals("listening"));
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
    void completionOnAnotherInstance_wakesTheWaiterBeforeItsNextPoll() throws Exception {
        bListens();
        completionOnAWakesTheWaiterOnB();
    }

    @Test
    void releaseOnAnotherInstance_wakesTheWaiterBeforeItsNextPoll() throws Exception {
        bListens();
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Waiter waiter = waiterInItsPause(key);

        assertThat(a.release(key, claim.token())).isTrue();

        assertThat(wokenBeforeItsNextPoll(waiter)).isEmpty();
    }

    @Test
    void deleteOnAnotherInstance_wakesTheWaiterBeforeItsNextPoll() throws Exception {
        bListens();
        String key = key();
        a.claim(key, FP, 1, LEASE);
        Waiter waiter = waiterInItsPause(key);

        assertThat(a.delete(key)).isTrue();

        assertThat(wokenBeforeItsNextPoll(waiter)).isEmpty();
    }

    @Test
    void completionInTheBusinessTransaction_wakesTheWaiterAtItsCommit_notBefore() throws Exception {
        bListens();
        InTransaction completed = waiterOnB_andCompletionInTheBusinessTransaction();

        assertNotWoken(completed.waiter(), "by the completion before its commit");
        completed.business().commit();
        // What the engine does once the transaction committed (Execution.confirmCommitted): the
        // completion itself notifies no one, so that its transaction can be prepared (C13).
        a.completionCommitted(completed.key());

        assertThat(wokenBeforeItsNextPoll(completed.waiter()).orElseThrow().state())
                .isEqualTo(RecordState.COMPLETED);
    }

    @Test
    void rolledBackCompletion_wakesNoWaiter_andTheReleaseAfterIt_does() throws Exception {
        bListens();
        InTransaction completed = waiterOnB_andCompletionInTheBusinessTransaction();

        completed.business().rollback();
        assertNotWoken(completed.waiter(), "by the rolled-back completion");
        assertThat(a.release(completed.key(), completed.claim().token())).isTrue();

        assertThat(wokenBeforeItsNextPoll(completed.waiter())).isEmpty();
    }

    @Test
    void listeningConnectionKilled_waitersPoll_andTheListenerComesBack() throws Exception {
        String held = key();
        ClaimResult heldClaim = a.claim(held, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> holding = waitOnB(held);
        await().atMost(EVENTUALLY).until(() -> notifications(b).equals("listening"));

        watched.blockListen(true);
        assertThat(ListeningBackends.terminate(table)).isEqualTo(1);
        await().atMost(EVENTUALLY).until(() -> notifications(b).equals("polling (listener down)"));
        assertThat(b.health().up()).as("never down for its listener").isTrue();

        // Nothing can wake a waiter now: one whose wait is shorter than its pause reads again at
        // the end of its wait, by itself.
        String polled = key();
        ClaimResult polledClaim = a.claim(polled, FP, 1, LEASE);
        CountDownLatch firstRead = watched.watchFor(1).get(1);
        Future<Optional<IdempotencyRecord>> polling =
                waiters.submit(() -> b.awaitCompletion(polled, POLLED_WAIT));
        assertThat(firstRead.await(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(a.complete(polled, polledClaim.token(), RESULT, LEASE)).isTrue();
        assertThat(
                        polling.get(POLLED_WAIT.plus(EVENTUALLY).toMillis(), TimeUnit.MILLISECONDS)
                                .orElseThrow()
                                .state())
                .as("found by its read at the end of its wait")
                .isEqualTo(RecordState.COMPLETED);
        assertThat(watched.reads()).as("its first read, and the one at its end").isEqualTo(2);

        // The first waiter, in its minute-long pause, misses this completion's notification; the
        // listener, once back, wakes it to read again.
        assertThat(a.complete(held, heldClaim.token(), RESULT, LEASE)).isTrue();
        watched.blockListen(false);
        assertThat(
                        holding.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)
                                .orElseThrow()
                                .state())
                .as("read again once the listener is back, not at its next poll")
                .isEqualTo(RecordState.COMPLETED);

        nextWaiterMakesBListenAgain_andIsWokenByNotification();
    }

    @Test
    void listenerIdleWithNobodyWaiting_givesItsConnectionBack_andANewWaiterIsWokenByNotifyAgain()
            throws Exception {
        b.close();
        b = instanceB(SHORT_IDLE);
        String first = key();
        ClaimResult firstClaim = a.claim(first, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(first);
        await().atMost(EVENTUALLY).until(() -> notifications(b).equals("listening"));
        assertThat(ListeningBackends.count(table))
                .as("a backend LISTENs while a waiter waits")
                .isEqualTo(1);

        long lastWaitEndsAfter = System.nanoTime();
        assertThat(a.complete(first, firstClaim.token(), RESULT, LEASE)).isTrue();
        assertThat(waiting.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)).isPresent();
        await().atMost(EVENTUALLY)
                .untilAsserted(
                        () ->
                                assertThat(poolB.getHikariPoolMXBean().getActiveConnections())
                                        .as("the listening connection, held with nobody waiting")
                                        .isEqualTo(1));

        await().atMost(SHORT_IDLE.plus(EVENTUALLY))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> notifications(b).equals(PgCompletionListener.IDLE));
        long releasedBy = System.nanoTime();
        assertThat(Duration.ofNanos(releasedBy - lastWaitEndsAfter))
                .as("given back only once nobody has waited for the idle period")
                .isGreaterThanOrEqualTo(SHORT_IDLE);
        // The listener says idle just before it gives the connection back (UNLISTEN, close:
        // network calls), so a loaded machine can read the two apart.
        await().atMost(EVENTUALLY)
                .untilAsserted(
                        () -> {
                            assertThat(poolB.getHikariPoolMXBean().getActiveConnections()).isZero();
                            assertThat(ListeningBackends.count(table))
                                    .as("no backend LISTENs any more")
                                    .isZero();
                        });

        nextWaiterMakesBListenAgain_andIsWokenByNotification();
    }

    @Test
    void close_endsTheListener_andGivesItsConnectionBack() throws Exception {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> waiting = waitOnB(key);
        await().atMost(EVENTUALLY).until(() -> notifications(b).equals("listening"));
        a.complete(key, claim.token(), RESULT, LEASE);
        assertThat(waiting.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)).isPresent();
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

        assertThat(waiting.get(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS)).isPresent();
        assertThat(notifications(polling)).isEqualTo("polling");
        assertThat(poolB.getHikariPoolMXBean().getActiveConnections()).isZero();
    }

    // --- helpers -------------------------------------------------------------------------------

    /**
     * B, not listening, hears of a waiter and listens again; A's completion then wakes the next
     * waiter by notification, long before its poll would.
     */
    private void nextWaiterMakesBListenAgain_andIsWokenByNotification() throws Exception {
        bListens();
        assertThat(ListeningBackends.count(table)).as("a backend LISTENs again").isEqualTo(1);
        completionOnAWakesTheWaiterOnB();
    }

    /** A completion on A wakes a waiter on B, which is listening, long before its poll would. */
    private void completionOnAWakesTheWaiterOnB() throws Exception {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Waiter waiter = waiterInItsPause(key);

        assertThat(a.complete(key, claim.token(), RESULT, LEASE)).isTrue();

        assertThat(wokenBeforeItsNextPoll(waiter).orElseThrow().state())
                .isEqualTo(RecordState.COMPLETED);
    }

    private Future<Optional<IdempotencyRecord>> waitOnB(String key) {
        return waiters.submit(() -> b.awaitCompletion(key, WAIT));
    }

    /** A waiter on B once its first read has returned: it then pauses a {@link #PAUSE}. */
    private Waiter waiterInItsPause(String key) throws InterruptedException {
        Map<Integer, CountDownLatch> reads = watched.watchFor(1, 2);
        Future<Optional<IdempotencyRecord>> result = waitOnB(key);
        assertThat(reads.get(1).await(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiter's first read")
                .isTrue();
        return new Waiter(result, reads.get(2));
    }

    /**
     * What the waiter found, once it has returned within {@link #WOKEN_WITHIN} of the change, a
     * quarter of its pause, after one read more than its first: something ended its pause, and with
     * B listening already, only the notification could.
     */
    private Optional<IdempotencyRecord> wokenBeforeItsNextPoll(Waiter waiter) throws Exception {
        Optional<IdempotencyRecord> found =
                assertThat(waiter.result())
                        .as("woken, its poll pausing %s", PAUSE)
                        .succeedsWithin(WOKEN_WITHIN)
                        .actual();
        assertThat(watched.reads()).as("its first read, and the one it was woken to").isEqualTo(2);
        return found;
    }

    /** The waiter does not read again for {@link #NOT_WOKEN_FOR}: nothing woke it. */
    private void assertNotWoken(Waiter waiter, String by) throws InterruptedException {
        assertThat(waiter.secondRead().await(NOT_WOKEN_FOR.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiter woken " + by)
                .isFalse();
    }

    /**
     * A key claimed on A, a waiter on B in its pause, and the key's completion in a business
     * transaction on A's database, neither committed nor rolled back.
     */
    private InTransaction waiterOnB_andCompletionInTheBusinessTransaction() throws Exception {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Connection business = businessTransaction();
        JdbcIdempotencyStore inTx = inTransaction(business);
        Waiter waiter = waiterInItsPause(key);
        assertThat(inTx.completeInTransaction(key, claim.token(), RESULT, LEASE)).isTrue();
        return new InTransaction(key, claim, business, waiter);
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
