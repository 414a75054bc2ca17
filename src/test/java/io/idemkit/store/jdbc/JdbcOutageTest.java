package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.health.StoreProbe;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.LoopbackProxy;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A database that cannot be reached (C3, C12): every operation fails with {@link
 * IdempotencyStorageException} of kind {@code UNREACHABLE}, carrying the driver's message and never
 * the key, and the readiness probe reports the store down instead of throwing. The first test's
 * data source points at a loopback port nothing listens on; the others reach the real PostgreSQL
 * through a loopback proxy that cuts every connection and then lets them through again: the same
 * store, on the same pool, reports up again, and a claim made before the outage is still its
 * owner's to complete.
 */
class JdbcOutageTest {

    private static final String FP = "f".repeat(64);

    @Test
    void databaseNotListening_failsAsUnreachableWithoutTheKey_andTheProbeReportsDown()
            throws IOException {
        PGSimpleDataSource nowhere = new PGSimpleDataSource();
        nowhere.setServerNames(new String[] {"127.0.0.1"});
        nowhere.setPortNumbers(new int[] {closedPort()});
        nowhere.setConnectTimeout(2);
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(nowhere, JdbcStoreSettings.defaults());
        String key = "9".repeat(64);

        IdempotencyStorageException failure =
                catchThrowableOfType(
                        () -> store.claim(key, "f".repeat(64), 1, Duration.ofSeconds(30)),
                        IdempotencyStorageException.class);
        StoreHealth health = StoreProbe.probe(store);

        assertThat(failure.kind()).isEqualTo(IdempotencyStorageException.Kind.UNREACHABLE);
        assertThat(failure.getMessage())
                .startsWith("JDBC store start failed: ")
                .doesNotContain(key);
        assertThat(health.up()).isFalse();
        assertThat(health.details()).containsEntry("store", "jdbc").containsKey("error");
    }

    @Test
    void connectionsCutMidRun_failAsUnreachable_theProbeReportsDown_andTheSameStoreRecovers()
            throws Exception {
        String table = JdbcStoreContract.freshTable();
        String key = "8".repeat(64);
        StoredResult result = new StoredResult(201, List.of(), new byte[] {4, 2});
        try (LoopbackProxy proxy = new LoopbackProxy(Databases.postgresPort());
                HikariDataSource pool = Databases.postgresThrough(proxy.port())) {
            JdbcIdempotencyStore store =
                    new JdbcIdempotencyStore(pool, new JdbcStoreSettings(table, true));
            ClaimResult claim = store.claim(key, FP, 1, Duration.ofMinutes(5));
            assertThat(StoreProbe.probe(store).up()).isTrue();

            proxy.cut();
            IdempotencyStorageException failure =
                    catchThrowableOfType(
                            () -> store.complete(key, claim.token(), result, Duration.ofHours(1)),
                            IdempotencyStorageException.class);
            StoreHealth down = StoreProbe.probe(store);

            assertThat(failure.kind()).isEqualTo(IdempotencyStorageException.Kind.UNREACHABLE);
            assertThat(failure.getMessage())
                    .startsWith("JDBC store complete failed: ")
                    .doesNotContain(key);
            assertThat(down.up()).isFalse();
            assertThat(down.details()).containsEntry("store", "jdbc").containsKey("error");

            proxy.restore();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> StoreProbe.probe(store).up());
            assertThat(store.complete(key, claim.token(), result, Duration.ofHours(1)))
                    .as("the claim outlived the outage: its owner still completes it")
                    .isTrue();
            assertThat(store.claim(key, FP, 1, Duration.ofMinutes(5)).status())
                    .isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        } finally {
            drop(table);
        }
    }

    @Test
    void databaseDownAtFirstUse_failsAsUnreachable_andTheStoreStartsOnceItIsUp() throws Exception {
        String table = JdbcStoreContract.freshTable();
        String key = "7".repeat(64);
        try (LoopbackProxy proxy = new LoopbackProxy(Databases.postgresPort());
                HikariDataSource pool = Databases.postgresThrough(proxy.port())) {
            proxy.cut();
            JdbcIdempotencyStore store =
                    new JdbcIdempotencyStore(pool, new JdbcStoreSettings(table, true));

            IdempotencyStorageException failure =
                    catchThrowableOfType(
                            () -> store.claim(key, FP, 1, Duration.ofMinutes(5)),
                            IdempotencyStorageException.class);
            assertThat(failure.kind()).isEqualTo(IdempotencyStorageException.Kind.UNREACHABLE);
            assertThat(StoreProbe.probe(store).up()).isFalse();

            proxy.restore();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> StoreProbe.probe(store).up());
            assertThat(store.claim(key, FP, 1, Duration.ofMinutes(5)).status())
                    .isEqualTo(ClaimStatus.NEW);
        } finally {
            drop(table);
        }
    }

    private static void drop(String table) throws SQLException {
        try (Connection c = Databases.postgres().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
        }
    }

    /** A port no one listens on, outside the ephemeral range, so the client cannot meet itself. */
    private static int closedPort() {
        return TestPorts.next();
    }
}
