package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyStorageException.Kind;
import java.sql.SQLException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What kind of failure each driver error is (C3, C4.6): contention (a lock wait past the store's
 * bound, a deadlock, a serialization failure) is never an outage, so that fail-open never runs an
 * operation unprotected while a duplicate holds its key. {@code ContendedClaimTest} meets the lock
 * timeouts on the real servers.
 */
class SqlFailuresTest {

    @ParameterizedTest(name = "SQLState {0}, error {1}: {2}")
    @CsvSource({
        "40001, 0, CONTENDED", // serialization failure (PostgreSQL, H2; MariaDB's deadlock too)
        "40P01, 0, CONTENDED", // PostgreSQL deadlock
        "55P03, 0, CONTENDED", // PostgreSQL lock_not_available (lock_timeout)
        "HY000, 1205, CONTENDED", // MariaDB lock wait timeout
        "40001, 1213, CONTENDED", // MariaDB deadlock
        "HY000, 1020, CONTENDED", // MariaDB "record has changed" (innodb_snapshot_isolation)
        "HYT00, 50200, CONTENDED", // H2 lock timeout (a table lock)
        "90131, 90131, CONTENDED", // H2 row lock timeout ("concurrent update")
        "08006, 0, UNREACHABLE",
        "42P01, 0, FAILED",
        "HY000, 1146, FAILED"
    })
    void eachDriverError_hasItsKind(String state, int code, Kind kind) {
        SQLException e = new SQLException("driver says so", state, code);

        assertThat(SqlFailures.failure("claim", null, e).kind()).isEqualTo(kind);
    }
}
