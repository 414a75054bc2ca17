package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimToken;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A renewal the database does not answer (a trigger that sleeps a minute stands for a hung or
 * overloaded server; no lock is involved, so the store's lock bound does not apply), on a real
 * PostgreSQL: the renewal statement's query timeout, the heartbeat's deadline rounded up to whole
 * seconds (C4.7), cancels it and frees the thread that runs it, long before the database would have
 * answered.
 */
class PostgresRenewalTimeoutTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofSeconds(3);

    private final DataSource dataSource = Databases.postgres();
    private String table;
    private JdbcIdempotencyStore store;

    @BeforeEach
    void start() {
        table = JdbcStoreContract.freshTable();
        store = new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(table, true));
        store.start();
    }

    @AfterEach
    void drop() throws SQLException {
        store.close();
        execute("DROP TABLE " + table);
        execute("DROP FUNCTION IF EXISTS " + table + "_slow()");
    }

    @Test
    void renewalTheDatabaseDoesNotAnswer_isCancelledByItsQueryTimeout() throws Exception {
        assertThat(LockWait.renewalTimeoutSeconds(LEASE)).isEqualTo(1);
        assertThat(LockWait.renewalTimeoutSeconds(Duration.ofSeconds(30))).isEqualTo(7);
        // A lease of months (the store contract's random arguments have them) stays in range.
        assertThat(LockWait.renewalTimeoutSeconds(Duration.ofHours(2684)))
                .isEqualTo(LockWait.MAX_RENEWAL_TIMEOUT_SECONDS);
        String key = "a".repeat(64);
        ClaimToken token = store.claim(key, FP, 1, LEASE).token();
        execute(
                "CREATE FUNCTION "
                        + table
                        + "_slow() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(60); RETURN NEW;"
                        + " END $$ LANGUAGE plpgsql");
        execute(
                "CREATE TRIGGER "
                        + table
                        + "_slow BEFORE UPDATE ON "
                        + table
                        + " FOR EACH ROW EXECUTE FUNCTION "
                        + table
                        + "_slow()");

        CompletableFuture<Boolean> renewal =
                CompletableFuture.supplyAsync(() -> store.renew(key, token, LEASE));

        // Far short of the minute the database would take: the statement was cancelled.
        CompletableFuture<Boolean> ended = renewal.exceptionally(e -> false);
        assertThat(ended.get(30, TimeUnit.SECONDS)).isFalse();
        assertThatThrownBy(renewal::join).hasCauseInstanceOf(IdempotencyStorageException.class);
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
