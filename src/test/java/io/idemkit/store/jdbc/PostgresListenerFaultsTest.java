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
import io.idemkit.testsupport.LoopbackProxy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL listener under faults (C4.3, C4.11, C12), on a real PostgreSQL: its listening
 * connection goes half-open (a loopback proxy between instance B and the database holds whatever
 * either side sends on it, while both stay open), or its thread is hit by an unchecked exception.
 * Neither may block a waiter or the store's close, leave the thread dead, print a stack trace, or
 * let the status say {@code listening} while nothing listens; the listener comes back by itself.
 *
 * <p>How a wake-up is told from a poll: as in {@link PostgresWakeUpTest}, B's poll pauses a minute.
 */
class PostgresListenerFaultsTest {

    /** The listener's idle period: it gives its connection back (UNLISTEN) this long after use. */
    private static final Duration SHORT_IDLE = Duration.ofSeconds(2);

    /**
     * How long a waiter's arrival or the store's close may take while the listening connection is
     * half-open: generous on a loaded machine, and far below what TCP takes to give up (minutes).
     */
    private static final Duration UNBLOCKED_WITHIN = Duration.ofSeconds(10);

    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private final Logger listenerLog = Logger.getLogger(PgCompletionListener.class.getName());
    private final Handler capture =
            new Handler() {
                @Override
                public void publish(LogRecord r) {
                    if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                        warnings.add(r);
                    }
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };
    private Thread.UncaughtExceptionHandler uncaughtBefore;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private LoopbackProxy proxy;
    private String table;
    private HikariDataSource poolA;
    private JdbcIdempotencyStore a;
    private WatchedReads watched;
    private JdbcIdempotencyStore b;

    @BeforeEach
    void instanceA() {
        listenerLog.addHandler(capture);
        uncaughtBefore = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(
                (thread, e) -> {
                    uncaught.add(e);
                    if (uncaughtBefore != null) {
                        uncaughtBefore.uncaughtException(thread, e);
                    }
                });
        table = JdbcStoreContract.freshTable();
        poolA = Databases.pool(JdbcDialect.POSTGRESQL, null);
        a = new JdbcIdempotencyStore(poolA, new JdbcStoreSettings(table, true));
        a.start();
    }

    @AfterEach
    void closeAndDrop() throws Exception {
        waiters.shutdownNow();
        if (proxy != null) {
            proxy.close(); // a stall ends
        }
        if (b != null) {
            b.close();
        }
        for (AutoCloseable pool : opened) {
            pool.close();
        }
        a.close();
        poolA.close();
        Thread.setDefaultUncaughtExceptionHandler(uncaughtBefore);
        listenerLog.removeHandler(capture);
        try (Connection c = Databases.postgres().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void halfOpenListeningConnection_givenBackWhenIdle_blocksNoWaiter_andTheListenerComesBack()
            throws Exception {
        halfOpenAfterIdle();

        Future<Optional<IdempotencyRecord>> arriving =
                waiters.submit(() -> b.awaitCompletion(key(), Duration.ofMillis(200)));
        assertThat(arriving)
                .as("a waiter arriving while the listener gives a half-open connection back")
                .succeedsWithin(UNBLOCKED_WITHIN)
                .isEqualTo(Optional.empty());

        // A waiter that waits on: the listener, once its UNLISTEN has failed, listens again.
        String held = key();
        ClaimResult heldClaim = a.claim(held, FP, 1, LEASE);
        Future<Optional<IdempotencyRecord>> holding =
                waiters.submit(() -> b.awaitCompletion(held, WAIT));
        await().atMost(EVENTUALLY)
                .alias("says listening, and listens: a backend LISTENs, read by a live thread")
                .until(this::listensAgain);
        assertThat(a.complete(held, heldClaim.token(), RESULT, LEASE)).isTrue();
        assertThat(holding).succeedsWithin(WOKEN_WITHIN);
        completionOnAWakesAWaiterOnB();
        assertThat(uncaught).isEmpty();
    }

    @Test
    void halfOpenListeningConnection_givenBackWhenIdle_blocksNotTheClose_andTheThreadEnds()
            throws Exception {
        halfOpenAfterIdle();

        assertThat(waiters.submit(b::close))
                .as("the store's close while the listener gives a half-open connection back")
                .succeedsWithin(UNBLOCKED_WITHIN);
        assertThat(b.health().details().get("notifications"))
                .isEqualTo(PgCompletionListener.CLOSED);
        await().atMost(EVENTUALLY)
                .alias("the listener's thread ends: its network calls are bounded")
                .until(() -> listenerThreads() == 0);
        assertThat(uncaught).isEmpty();
    }

    @Test
    void
            listenerThreadHitByAnUncheckedException_survivesIt_saysSo_andListensAgain_withoutAStackTrace()
                    throws Exception {
        AtomicBoolean failNextRead = new AtomicBoolean();
        watched =
                new WatchedReads(
                        failingReads(Databases.pool(JdbcDialect.POSTGRESQL, null), failNextRead));
        b = instanceB(watched.dataSource(), CompletionListener.IDLE_PERIOD);
        bListens();

        failNextRead.set(true);
        await().atMost(EVENTUALLY).untilFalse(failNextRead);

        await().atMost(EVENTUALLY)
                .alias("no longer says listening: nobody waits, so it waits for a waiter")
                .until(() -> notifications().equals(PgCompletionListener.IDLE));
        // Said just before its connection's UNLISTEN and close, which a loaded machine can delay.
        await().atMost(EVENTUALLY).until(() -> ListeningBackends.count(table) == 0);
        bListens();
        assertThat(listensAgain()).as("a backend LISTENs, read by a live thread").isTrue();
        completionOnAWakesAWaiterOnB();
        assertThat(uncaught).as("no thread died with a stack trace").isEmpty();
        assertThat(warnings).as("one line for the failure").hasSize(1);
        assertThat(warnings.get(0).getMessage())
                .contains("IllegalStateException")
                .doesNotContain("\n");
        assertThat(warnings.get(0).getThrown()).isNull();
    }

    @Test
    void listenerThreadKilledByAnErrorItCannotSurvive_saysSo_andTheNextWaiterStartsAnother()
            throws Exception {
        AtomicBoolean failNextRead = new AtomicBoolean();
        AtomicBoolean failNextClose = new AtomicBoolean();
        watched =
                new WatchedReads(
                        failing(
                                Databases.pool(JdbcDialect.POSTGRESQL, null),
                                failNextRead,
                                failNextClose));
        b = instanceB(watched.dataSource(), CompletionListener.IDLE_PERIOD);
        bListens();

        // The read fails, and so does giving the connection back: an Error out of the recovery.
        failNextClose.set(true);
        failNextRead.set(true);
        await().atMost(EVENTUALLY)
                .alias("the listener's thread has ended")
                .until(() -> !failNextClose.get() && listenerThreads() == 0);

        assertThat(notifications()).as("no thread listens").isEqualTo(PgCompletionListener.DOWN);
        bListens();
        assertThat(listensAgain()).as("a new thread, listening").isTrue();
        completionOnAWakesAWaiterOnB();
        assertThat(uncaught).as("no stack trace of an uncaught exception").isEmpty();
        assertThat(warnings).allSatisfy(w -> assertThat(w.getThrown()).isNull());
        assertThat(warnings)
                .extracting(LogRecord::getMessage)
                .anyMatch(m -> m.contains("LinkageError"));
    }

    // --- helpers -------------------------------------------------------------------------------

    /**
     * B on unpooled connections through a proxy, listening; then its listening connection goes
     * half-open, and B, once nobody has waited for {@link #SHORT_IDLE}, sends its {@code UNLISTEN}
     * into it.
     */
    private void halfOpenAfterIdle() throws Exception {
        proxy = new LoopbackProxy(Databases.postgresPort());
        PGSimpleDataSource direct = new PGSimpleDataSource();
        direct.setUrl("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres");
        direct.setUser("postgres");
        direct.setPassword("postgres");
        watched = new WatchedReads(direct);
        b = instanceB(watched.dataSource(), SHORT_IDLE);
        bListens();
        await().atMost(EVENTUALLY)
                .alias("only the listening connection is open")
                .until(() -> proxy.openConnections() == 1);

        CountDownLatch unlistenHeld = proxy.stallOpen();

        assertThat(
                        unlistenHeld.await(
                                SHORT_IDLE.plus(EVENTUALLY).toMillis(), TimeUnit.MILLISECONDS))
                .as("the listener, idle, sent its UNLISTEN into the half-open connection")
                .isTrue();
    }

    /**
     * A data source whose connections unwrap to the driver's connection behind a wrapper that
     * throws an {@link IllegalStateException} from the read of notifications once {@code
     * failNextRead} is set, and clears it.
     */
    private DataSource failingReads(HikariDataSource pool, AtomicBoolean failNextRead) {
        return failing(pool, failNextRead, new AtomicBoolean());
    }

    /**
     * As {@link #failingReads}, and the connection's {@code close()} throws a {@link LinkageError}
     * (a class of the driver gone, as at its library's undeploy) once {@code failNextClose} is set,
     * and clears it.
     */
    private DataSource failing(
            HikariDataSource pool, AtomicBoolean failNextRead, AtomicBoolean failNextClose) {
        opened.add(pool);
        return (DataSource)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {DataSource.class},
                        (p, method, args) -> {
                            Object answer = invoke(method, pool, args);
                            if (answer instanceof Connection c) {
                                return unwrappingToFailing(c, failNextRead, failNextClose);
                            }
                            return answer;
                        });
    }

    private Connection unwrappingToFailing(
            Connection c, AtomicBoolean failNextRead, AtomicBoolean failNextClose) {
        return (Connection)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {Connection.class},
                        (p, method, args) -> {
                            if (method.getName().equals("unwrap")
                                    && args[0] == org.postgresql.PGConnection.class) {
                                Object real = c.unwrap(org.postgresql.PGConnection.class);
                                return Proxy.newProxyInstance(
                                        getClass().getClassLoader(),
                                        new Class<?>[] {org.postgresql.PGConnection.class},
                                        (q, m, a) -> {
                                            if (m.getName().equals("getNotifications")
                                                    && failNextRead.compareAndSet(true, false)) {
                                                throw new IllegalStateException("injected");
                                            }
                                            return invoke(m, real, a);
                                        });
                            }
                            if (method.getName().equals("close")
                                    && failNextClose.compareAndSet(true, false)) {
                                throw new LinkageError("injected");
                            }
                            return invoke(method, c, args);
                        });
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args)
            throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private JdbcIdempotencyStore instanceB(DataSource dataSource, Duration idle) {
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(
                        dataSource,
                        null,
                        new JdbcStoreSettings(table, false),
                        idle,
                        new CompletionPoll(PAUSE, PAUSE));
        store.start();
        return store;
    }

    /** B listens, and its listener's own wake-up of every waiter is spent. */
    private void bListens() throws Exception {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        a.complete(key, claim.token(), RESULT, LEASE);
        assertThat(b.awaitCompletion(key, WAIT)).isPresent();
        await().atMost(EVENTUALLY).until(() -> notifications().equals("listening"));
    }

    /** Says listening, a backend LISTENs, and a live thread reads it. */
    private boolean listensAgain() throws Exception {
        return notifications().equals(PgCompletionListener.LISTENING)
                && ListeningBackends.count(table) == 1
                && listenerThreads() == 1;
    }

    /** A completion on A wakes a waiter on B in its minute-long pause: by notification. */
    private void completionOnAWakesAWaiterOnB() throws Exception {
        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Map<Integer, CountDownLatch> reads = watched.watchFor(1, 2);
        Future<Optional<IdempotencyRecord>> waiter =
                waiters.submit(() -> b.awaitCompletion(key, WAIT));
        assertThat(reads.get(1).await(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiter's first read")
                .isTrue();

        assertThat(a.complete(key, claim.token(), RESULT, LEASE)).isTrue();

        assertThat(waiter.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS).orElseThrow().state())
                .as("woken, its poll pausing %s", PAUSE)
                .isEqualTo(RecordState.COMPLETED);
        assertThat(watched.reads()).as("its first read, and the one it was woken to").isEqualTo(2);
    }

    private long listenerThreads() {
        String name = "idemkit-listener-" + CompletionNotices.channel(table);
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name) && t.isAlive())
                .count();
    }

    private String notifications() {
        return String.valueOf(b.health().details().get("notifications"));
    }

    private static String key() {
        return UUID.randomUUID().toString().replace("-", "")
                + UUID.randomUUID().toString().replace("-", "");
    }
}
