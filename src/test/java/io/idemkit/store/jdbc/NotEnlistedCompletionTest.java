package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Completion in the business transaction (C13) on a "transaction data source" that is in fact the
 * store's own, non-transactional one, on a real PostgreSQL and MariaDB: its connection is in
 * auto-commit mode, so the completion would commit on its own and stay COMPLETED if the business
 * transaction then failed at its commit. The store refuses it, and writes nothing.
 */
class NotEnlistedCompletionTest {

    private static final String FP = "f".repeat(64);

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"POSTGRESQL", "MARIADB"})
    void completeInTransaction_onAnAutoCommitConnection_isRefusedAndWritesNothing(
            JdbcDialect dialect) throws SQLException {
        DataSource notEnlisted = Databases.of(dialect);
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(
                        notEnlisted, notEnlisted, new JdbcStoreSettings(table, true));
        try {
            String key = "a".repeat(64);
            ClaimResult claim = store.claim(key, FP, 1, Duration.ofMinutes(1));

            IdempotencyStorageException refused =
                    catchThrowableOfType(
                            IdempotencyStorageException.class,
                            () ->
                                    store.completeInTransaction(
                                            key,
                                            claim.token(),
                                            new StoredResult(200, List.of(), new byte[] {1}),
                                            Duration.ofHours(1)));

            assertThat(refused).as("the completion is refused").isNotNull();
            assertThat(refused.kind()).isEqualTo(IdempotencyStorageException.Kind.REFUSED);
            assertThat(refused)
                    .hasMessageContaining("idemkit.jdbc.transaction-datasource")
                    .hasMessageContaining("auto-commit");
            assertThat(store.find(key).orElseThrow().state())
                    .as("nothing committed on its own")
                    .isEqualTo(RecordState.CLAIMED);
        } finally {
            try (Connection c = notEnlisted.getConnection();
                    Statement s = c.createStatement()) {
                s.execute("DROP TABLE " + table);
            }
        }
    }
}
