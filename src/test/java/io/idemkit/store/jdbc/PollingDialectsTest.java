package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The databases without notifications (C4.3, C12): on MariaDB and H2 a waiter polls, and the
 * store's health says so. PostgreSQL's wake-ups are {@link PostgresWakeUpTest}'s.
 */
class PollingDialectsTest {

    private static final String FP = "f".repeat(64);
    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final StoredResult RESULT =
            new StoredResult(201, List.of(), "{\"id\":1}".getBytes(StandardCharsets.UTF_8));

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"MARIADB", "H2"})
    void onMariaDbAndH2_waitersPoll_andHealthSaysSo(JdbcDialect dialect) throws Exception {
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(Databases.of(dialect), new JdbcStoreSettings(table, true));
        try {
            String key =
                    UUID.randomUUID().toString().replace("-", "")
                            + UUID.randomUUID().toString().replace("-", "");
            ClaimResult claim = store.claim(key, FP, 1, LEASE);
            store.complete(key, claim.token(), RESULT, LEASE);

            assertThat(store.awaitCompletion(key, LEASE)).isPresent();
            assertThat(store.health().details().get("notifications")).isEqualTo("polling");
        } finally {
            store.close();
            try (Connection c = Databases.of(dialect).getConnection();
                    Statement s = c.createStatement()) {
                s.execute("DROP TABLE " + table);
            }
        }
    }
}
