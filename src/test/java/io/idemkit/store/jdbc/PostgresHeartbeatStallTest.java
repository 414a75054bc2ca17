package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.it.harness.FaultProxy;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease heartbeat (C4.7) of several keys on one node whose store reaches a real PostgreSQL
 * through a {@link FaultProxy}, over the real driver and a real pool: a stalled store connection (a
 * half-open socket, no socket timeout) costs at most the leases whose renewals it holds, and their
 * owners are told while their leases still run. What the database says is read beside the proxy, on
 * a direct connection: each key's {@code lease_until} on the database's clock, and whether a second
 * store instance could claim the key.
 */
class PostgresHeartbeatStallTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration BEAT = LeaseHeartbeat.interval(LEASE);
    private static final int KEYS = 4;

    private final DataSource direct = Databases.postgres();
    private final Map<String, Long> toldWithMillisLeft = new ConcurrentHashMap<>();
    private FaultProxy proxy;
    private HikariDataSource proxied;
    private String table;
    private JdbcIdempotencyStore store;
    private JdbcIdempotencyStore other;
    private LeaseHeartbeat heartbeat;
    private final List<String> keys = new ArrayList<>();

    @BeforeEach
    void start() {
        proxy = new FaultProxy("127.0.0.1", Databases.postgresPort());
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres");
        config.setUsername("postgres");
        config.setPassword("postgres");
        config.setMaximumPoolSize(8);
        config.setConnectionTimeout(2000);
        config.setPoolName("idemkit-stall-" + UUID.randomUUID());
        proxied = new HikariDataSource(config);
        table = JdbcStoreContract.freshTable();
        // No LISTEN connection through the proxy: the only traffic there is the store's calls.
        store =
                new JdbcIdempotencyStore(
                        proxied, new JdbcStoreSettings(table, true).withNotifications(false));
        store.start();
        other = new JdbcIdempotencyStore(direct, new JdbcStoreSettings(table, false));
        heartbeat = new LeaseHeartbeat(false);
    }

    @AfterEach
    void stop() throws SQLException {
        proxy.restore(); // frees the renewals held on stalled sockets
        heartbeat.close();
        proxied.close();
        proxy.close();
        try (Connection c = direct.getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + table);
        }
    }

    @Test
    void theNextRenewalsConnectionStalls_everyOtherLeaseStaysLive_andItsOwnerIsToldInTime()
            throws Exception {
        leaseKeysWithTheHeartbeat();

        var stalled = proxy.stallNextSender();
        stalled.get(10, TimeUnit.SECONDS); // the next renewal's connection is held from now on

        // Two whole leases from the stall: what the database says of each key, throughout.
        Map<String, Long> leastLeft = new HashMap<>();
        Map<String, ClaimStatus> takenOver = new HashMap<>();
        long until = System.nanoTime() + LEASE.multipliedBy(2).toNanos();
        while (System.nanoTime() < until) {
            millisLeft().forEach((key, left) -> leastLeft.merge(key, left, Math::min));
            for (String key : keys) {
                ClaimStatus status = other.claim(key, FP, 1, LEASE).status();
                if (status != ClaimStatus.ALREADY_CLAIMED) {
                    takenOver.putIfAbsent(key, status);
                }
            }
            Awaitility.await().pollDelay(Duration.ofMillis(100)).until(() -> true);
        }

        assertThat(toldWithMillisLeft).as("one owner, the held renewal's, was told").hasSize(1);
        String held = toldWithMillisLeft.keySet().iterator().next();
        assertThat(toldWithMillisLeft.get(held))
                .as("its lease was still live when it was told, ms left")
                .isPositive();
        for (String key : keys) {
            if (!key.equals(held)) {
                assertThat(leastLeft.get(key))
                        .as("least lease left of another key, ms")
                        .isPositive();
                assertThat(takenOver)
                        .as("a second instance claimed another key")
                        .doesNotContainKey(key);
            }
        }
    }

    @Test
    void everyStoreConnectionStalls_everyOwnerIsToldBeforeItsLeaseLapses() {
        leaseKeysWithTheHeartbeat();

        proxy.stallAll();

        Awaitility.await()
                .alias("every owner was told")
                .atMost(Duration.ofSeconds(15))
                .until(() -> toldWithMillisLeft.size() == KEYS);
        assertThat(toldWithMillisLeft.values())
                .as("each lease was still live when its owner was told, ms left")
                .allSatisfy(left -> assertThat(left).isPositive());
    }

    /** Claims the keys through the proxy, and beats for each until its renewals have answered. */
    private void leaseKeysWithTheHeartbeat() {
        Map<String, Integer> renewals = new ConcurrentHashMap<>();
        for (int i = 0; i < KEYS; i++) {
            String key = Integer.toString(i).repeat(64);
            ClaimToken token = store.claim(key, FP, 1, LEASE).token();
            assertThat(token).isNotNull();
            keys.add(key);
            heartbeat.start(
                    () -> {
                        boolean renewed = store.renew(key, token, LEASE);
                        renewals.merge(key, 1, Integer::sum);
                        return renewed;
                    },
                    BEAT,
                    () -> toldWithMillisLeft.put(key, millisLeft().get(key)));
        }
        Awaitility.await()
                .alias("every key renewed twice through the proxy")
                .atMost(Duration.ofSeconds(15))
                .until(
                        () ->
                                renewals.size() == KEYS
                                        && renewals.values().stream().allMatch(n -> n >= 2));
        assertThat(toldWithMillisLeft).isEmpty();
    }

    /** Each key's lease left on the database's clock, in ms, read on a direct connection. */
    private Map<String, Long> millisLeft() {
        String sql =
                "SELECT idem_key, lease_until - "
                        + JdbcDialect.POSTGRESQL.nowMillis()
                        + " FROM "
                        + table;
        Map<String, Long> left = new HashMap<>();
        try (Connection c = direct.getConnection();
                PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rows = ps.executeQuery()) {
            while (rows.next()) {
                left.put(rows.getString(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return left;
    }
}
