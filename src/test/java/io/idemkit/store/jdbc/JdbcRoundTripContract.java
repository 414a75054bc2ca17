package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.StoredResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Round trips of the JDBC store (C12), counted as statements executed through the real driver: a
 * fresh operation is two (the claim, the completion), and on PostgreSQL with notifications on one
 * more, the notification sent once the completion committed ({@link CompletionNotices}); a replay
 * one on PostgreSQL and MariaDB and two on H2, which cannot insert-or-read in one statement (the
 * claim's insert fails with a duplicate key, then one {@code SELECT} reads the record).
 */
abstract class JdbcRoundTripContract {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private CountingDataSource counted;
    private JdbcIdempotencyStore store;
    private String table;

    protected abstract DataSource dataSource();

    /**
     * @return how many statements a replay's claim takes on this database
     */
    protected abstract int replayStatements();

    /**
     * @return how many statements a fresh operation takes on this database: the claim and the
     *     completion, and what follows the completion
     */
    protected int freshStatements() {
        return 2;
    }

    @BeforeEach
    void openStore() {
        table = JdbcStoreContract.freshTable();
        counted = new CountingDataSource(dataSource());
        store = new JdbcIdempotencyStore(counted.dataSource(), new JdbcStoreSettings(table, true));
        store.start();
    }

    @AfterEach
    void dropTable() throws SQLException {
        try (Connection c = dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + table);
        }
    }

    @Test
    void freshOperation_takesTheClaimAndTheCompletion() {
        String key = key();
        counted.reset();

        ClaimResult claim = store.claim(key, "f".repeat(64), 1, MINUTE);
        boolean stored = store.complete(key, claim.token(), result(), MINUTE);

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(stored).isTrue();
        assertThat(counted.executed()).isEqualTo(freshStatements());
    }

    @Test
    void replay_takesTheDialectsStatements() {
        String key = key();
        store.complete(key, store.claim(key, "f".repeat(64), 1, MINUTE).token(), result(), MINUTE);
        counted.reset();

        ClaimResult replay = store.claim(key, "f".repeat(64), 1, MINUTE);

        assertThat(replay.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(replay.record().result()).isEqualTo(result());
        assertThat(counted.executed()).isEqualTo(replayStatements());
    }

    private static StoredResult result() {
        return new StoredResult(200, List.of(), new byte[] {1, 2, 3});
    }

    private static String key() {
        byte[] bits = new byte[32];
        ThreadLocalRandom.current().nextBytes(bits);
        return HexFormat.of().formatHex(bits);
    }
}
