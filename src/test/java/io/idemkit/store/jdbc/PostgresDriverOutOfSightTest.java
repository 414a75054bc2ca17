package io.idemkit.store.jdbc;

import static io.idemkit.store.jdbc.WakeUpTiming.EVENTUALLY;
import static io.idemkit.store.jdbc.WakeUpTiming.FP;
import static io.idemkit.store.jdbc.WakeUpTiming.LEASE;
import static io.idemkit.store.jdbc.WakeUpTiming.PAUSE;
import static io.idemkit.store.jdbc.WakeUpTiming.RESULT;
import static io.idemkit.store.jdbc.WakeUpTiming.WAIT;
import static io.idemkit.store.jdbc.WakeUpTiming.WOKEN_WITHIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.spi.ClaimResult;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
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
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Wake-ups across store instances on a real PostgreSQL (C4.3, C12) where the application cannot see
 * the driver, as with an application server's own data source (Open Liberty's {@code <library>}
 * referenced by {@code <jdbcDriver>}): instance B's classes come from a class loader that holds the
 * library only ({@code org.postgresql} cannot be loaded from it), and its data source is the real
 * driver in a class loader of its own behind a pool-like wrapper ({@link DriverOutOfSight}).
 * Instance A, on an ordinary pool, completes the key.
 *
 * <p>As in {@link PostgresWakeUpTest}, B's poll pauses a minute between any two reads: a waiter
 * that returns within {@link #WOKEN_WITHIN} after exactly one read more than its first was woken by
 * the notification, not by its poll.
 */
class PostgresDriverOutOfSightTest {

    private static final String LISTENER_LOG = PgCompletionListener.class.getName();

    private final ExecutorService waiters = Executors.newCachedThreadPool();
    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Logger listenerLog = Logger.getLogger(LISTENER_LOG);
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
    private String table;
    private HikariDataSource poolA;
    private JdbcIdempotencyStore a;
    private URLClassLoader library;
    private DriverOutOfSight driver;
    private Object b;

    @BeforeEach
    void instanceA_andTheLibraryOutOfTheDriversSight() throws Exception {
        listenerLog.addHandler(capture);
        table = JdbcStoreContract.freshTable();
        poolA = Databases.pool(JdbcDialect.POSTGRESQL, null);
        a = new JdbcIdempotencyStore(poolA, new JdbcStoreSettings(table, true));
        a.start();
        library =
                new URLClassLoader(
                        new URL[] {DriverOutOfSight.codeOf(JdbcIdempotencyStore.class)},
                        ClassLoader.getPlatformClassLoader());
        assertThatThrownBy(() -> Class.forName("org.postgresql.PGConnection", false, library))
                .as("the library's class loader cannot see the driver")
                .isInstanceOf(ClassNotFoundException.class);
    }

    @AfterEach
    void closeAndDrop() throws Exception {
        waiters.shutdownNow();
        if (b != null) {
            call(b, "close");
        }
        a.close();
        poolA.close();
        if (driver != null) {
            driver.close();
        }
        library.close();
        listenerLog.removeHandler(capture);
        try (Connection c = Databases.postgres().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void driverOutOfTheApplicationsSight_aWaiterIsWokenByTheNotification_notByItsPoll()
            throws Exception {
        driver = new DriverOutOfSight(true);
        WatchedReads watched = new WatchedReads(driver.dataSource());
        b = instanceB(watched.dataSource());
        assertThat(notifications()).as("at start").isEqualTo(PgCompletionListener.IDLE);

        // B listens, and its listener's own wake-up of every waiter is spent.
        String first = key();
        ClaimResult firstClaim = a.claim(first, FP, 1, LEASE);
        a.complete(first, firstClaim.token(), RESULT, LEASE);
        assertThat(call(b, "awaitCompletion", first, WAIT)).isNotEqualTo(Optional.empty());
        await().atMost(EVENTUALLY).until(() -> notifications().equals("listening"));
        assertThat(ListeningBackends.count(table)).isEqualTo(1);

        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        Map<Integer, CountDownLatch> reads = watched.watchFor(1, 2);
        Future<Object> waiter = waiters.submit(() -> call(b, "awaitCompletion", key, WAIT));
        assertThat(reads.get(1).await(EVENTUALLY.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiter's first read")
                .isTrue();

        assertThat(a.complete(key, claim.token(), RESULT, LEASE)).isTrue();

        assertThat(waiter)
                .as("woken, its poll pausing %s", PAUSE)
                .succeedsWithin(WOKEN_WITHIN)
                .isNotEqualTo(Optional.empty());
        assertThat(watched.reads()).as("its first read, and the one it was woken to").isEqualTo(2);
        assertThat(warnings).as("nothing to warn of").isEmpty();
    }

    @Test
    void connectionsThatUnwrapToNoDriverConnection_sayItAtStartInOneLine_andWaitersPoll()
            throws Exception {
        driver = new DriverOutOfSight(false);
        b = instanceB(driver.dataSource());

        assertThat(notifications()).as("at start").isEqualTo(PgCompletionListener.UNAVAILABLE);
        assertThat(warnings).hasSize(1);
        String warning = warnings.get(0).getMessage();
        assertThat(warning)
                .doesNotContain("\n")
                .contains("unwrap to no org.postgresql.PGConnection")
                .contains("idemkit.jdbc.notifications=false");
        assertThat(warnings.get(0).getThrown()).as("no stack trace").isNull();

        String key = key();
        ClaimResult claim = a.claim(key, FP, 1, LEASE);
        a.complete(key, claim.token(), RESULT, LEASE);
        assertThat(call(b, "awaitCompletion", key, WAIT)).isNotEqualTo(Optional.empty());
        assertThat(notifications()).isEqualTo(PgCompletionListener.UNAVAILABLE);
        assertThat(ListeningBackends.count(table)).as("nothing listens").isZero();
        assertThat(warnings).as("said once").hasSize(1);
    }

    /** Instance B, from the library's class loader, its poll pausing {@link #PAUSE}. */
    private Object instanceB(DataSource dataSource) throws Exception {
        Class<?> settingsType = library.loadClass(JdbcStoreSettings.class.getName());
        Object settings =
                settingsType.getConstructor(String.class, boolean.class).newInstance(table, false);
        Object poll =
                library.loadClass("io.idemkit.store.CompletionPoll")
                        .getConstructor(Duration.class, Duration.class)
                        .newInstance(PAUSE, PAUSE);
        Constructor<?> store =
                library.loadClass(JdbcIdempotencyStore.class.getName())
                        .getDeclaredConstructor(
                                DataSource.class,
                                DataSource.class,
                                settingsType,
                                Duration.class,
                                poll.getClass());
        store.setAccessible(true);
        Object instance =
                store.newInstance(dataSource, null, settings, CompletionListener.IDLE_PERIOD, poll);
        call(instance, "start");
        return instance;
    }

    private String notifications() throws Exception {
        return String.valueOf(
                ((Map<?, ?>) call(call(b, "health"), "details")).get("notifications"));
    }

    private static Object call(Object target, String name, Object... args) throws Exception {
        for (Method m : target.getClass().getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                return m.invoke(target, args);
            }
        }
        throw new NoSuchMethodException(name);
    }

    private static String key() {
        return UUID.randomUUID().toString().replace("-", "")
                + UUID.randomUUID().toString().replace("-", "");
    }
}
