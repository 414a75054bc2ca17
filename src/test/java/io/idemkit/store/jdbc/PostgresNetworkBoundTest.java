package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.it.harness.FaultProxy;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.testsupport.CapturedLog;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code idemkit.jdbc.network-timeout} ({@link NetworkBound}) on a real PostgreSQL behind a {@link
 * FaultProxy}, over the real driver and a real pool with no socket timeout of its own: a store call
 * whose connection stalls (a half-open socket) fails as the store unreachable once the bound
 * passes, instead of holding its thread for the whole stall, and the next call, on another
 * connection, works without a restart.
 */
class PostgresNetworkBoundTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration BOUND = Duration.ofSeconds(2);

    /** Room for a slow machine between the bound passing and the call returning. */
    private static final Duration SLACK = Duration.ofMillis(2500);

    private FaultProxy proxy;
    private HikariDataSource proxied;
    private String table;

    @BeforeEach
    void start() {
        proxy = new FaultProxy("127.0.0.1", Databases.postgresPort());
        proxied = Databases.postgresThrough(proxy.port());
        table = JdbcStoreContract.freshTable();
    }

    @AfterEach
    void stop() throws SQLException {
        proxy.restore();
        proxied.close();
        proxy.close();
        try (Connection c = Databases.postgres().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void aClaimOnAStalledConnection_failsAsUnreachableAfterTheBound_andTheNextClaimWorks()
            throws Exception {
        JdbcIdempotencyStore store = store(BOUND);
        proxy.stallNextSender();

        long started = System.nanoTime();
        assertThatThrownBy(() -> store.claim(key(), FP, 1, LEASE))
                .isInstanceOf(IdempotencyStorageException.class)
                .extracting(e -> ((IdempotencyStorageException) e).kind())
                .isEqualTo(IdempotencyStorageException.Kind.UNREACHABLE);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("the claim ended by the bound").isBetween(BOUND, BOUND.plus(SLACK));
        ClaimResult next = store.claim(key(), FP, 1, LEASE);
        assertThat(next.status())
                .as("the next claim, on another connection, with the stalled one still held")
                .isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void withTheBoundOff_aClaimOnAStalledConnectionWaitsForTheStall() throws Exception {
        JdbcIdempotencyStore store = store(Duration.ZERO);
        proxy.stallNextSender();

        CompletableFuture<ClaimResult> claim =
                CompletableFuture.supplyAsync(() -> store.claim(key(), FP, 1, LEASE));

        assertThatThrownBy(() -> claim.get(BOUND.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS))
                .as("without the bound nothing ends the read but the stall")
                .isInstanceOf(TimeoutException.class);
        proxy.restore();
        assertThat(claim.get(10, TimeUnit.SECONDS).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void aRenewalOnAStalledConnection_endsSoonAfterItsDeadline() throws Exception {
        JdbcIdempotencyStore store = store(Duration.ofSeconds(30));
        Duration shortLease = Duration.ofSeconds(3);
        String key = key();
        ClaimResult claim = store.claim(key, FP, 1, shortLease);
        proxy.stallNextSender();

        long started = System.nanoTime();
        assertThatThrownBy(() -> store.renew(key, claim.token(), shortLease))
                .isInstanceOf(IdempotencyStorageException.class);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        // Its query timeout (1 s, the deadline of a 3 s lease's beat rounded up) and 1 s more,
        // not the 30 s bound of the store's other calls, nor the stall.
        assertThat(took).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(2).plus(SLACK));
    }

    @Test
    void theConnectionsOwnBoundIsGivenBackAfterEachCall() throws Exception {
        try (Connection physical = Databases.postgres().getConnection()) {
            physical.setNetworkTimeout(NetworkBound.IN_THE_CALLER, 12_345);
            JdbcIdempotencyStore store =
                    new JdbcIdempotencyStore(new OneConnection(physical, false), settings(BOUND));
            store.start();

            store.claim(key(), FP, 1, LEASE);

            assertThat(physical.getNetworkTimeout()).isEqualTo(12_345);
        }
    }

    @Test
    void aDataSourceThatRefusesTheBound_worksUnbounded_andIsSaidOnce() throws Exception {
        try (Connection physical = Databases.postgres().getConnection();
                CapturedLog log = CapturedLog.of(NetworkBound.class)) {
            JdbcIdempotencyStore store =
                    new JdbcIdempotencyStore(new OneConnection(physical, true), settings(BOUND));
            store.start();

            assertThat(store.claim(key(), FP, 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);
            assertThat(store.claim(key(), FP, 1, LEASE).status()).isEqualTo(ClaimStatus.NEW);

            assertThat(log.warnings())
                    .singleElement()
                    .asString()
                    .contains("idemkit.jdbc.network-timeout", "socketTimeout")
                    .doesNotContain("thrown:");
        }
    }

    /**
     * A pool that does not know a connection is dead (WildFly's, without an exception sorter) hands
     * out again one that its driver closed after a read timed out. Setting the bound on it fails,
     * and that failure is the connection's, not a sign that the data source refuses the bound: the
     * call fails, and the next connection is bounded still. Before, the first such connection
     * turned the bound off for the store's life, with a warning that the data source refused it.
     */
    @Test
    void aConnectionItsDriverClosed_failsItsCall_andTheNextConnectionIsStillBounded()
            throws Exception {
        org.postgresql.ds.PGSimpleDataSource direct = new org.postgresql.ds.PGSimpleDataSource();
        direct.setURL(Databases.postgresUrl());
        direct.setUser("postgres");
        direct.setPassword("postgres");
        NetworkBound network = new NetworkBound();
        try (CapturedLog log = CapturedLog.of(NetworkBound.class);
                Connection live = direct.getConnection()) {
            Connection dead = direct.getConnection();
            dead.close();

            assertThatThrownBy(() -> network.on(dead, BOUND)).isInstanceOf(SQLException.class);
            try (NetworkBound.Held held = network.on(live, BOUND)) {
                assertThat(live.getNetworkTimeout()).isEqualTo((int) BOUND.toMillis());
            }
            assertThat(live.getNetworkTimeout()).as("given back").isZero();
            assertThat(log.warnings()).isEmpty();
        }
    }

    private JdbcIdempotencyStore store(Duration bound) {
        // No LISTEN connection through the proxy: the only traffic there is the store's calls.
        JdbcIdempotencyStore store = new JdbcIdempotencyStore(proxied, settings(bound));
        store.start();
        return store;
    }

    private JdbcStoreSettings settings(Duration bound) {
        return new JdbcStoreSettings(table, true)
                .withNotifications(false)
                .withNetworkTimeout(bound);
    }

    private static String key() {
        return "k-" + UUID.randomUUID();
    }

    /**
     * A data source that hands out one physical connection, whose {@code close} gives it back
     * without closing it, as a pool does; optionally refusing {@code setNetworkTimeout}, as a
     * driver older than JDBC 4.1 or a pool that does not pass it on.
     */
    private record OneConnection(Connection physical, boolean refuseBound) implements DataSource {

        @Override
        public Connection getConnection() {
            return (Connection)
                    Proxy.newProxyInstance(
                            Connection.class.getClassLoader(),
                            new Class<?>[] {Connection.class},
                            (proxy, method, args) -> {
                                switch (method.getName()) {
                                    case "close":
                                        return null;
                                    case "isClosed":
                                        return false;
                                    case "setNetworkTimeout", "getNetworkTimeout":
                                        if (refuseBound) {
                                            throw new SQLFeatureNotSupportedException("not here");
                                        }
                                        break;
                                    default:
                                        break;
                                }
                                try {
                                    return method.invoke(physical, args);
                                } catch (java.lang.reflect.InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
        }

        @Override
        public Connection getConnection(String user, String password) {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }
}
