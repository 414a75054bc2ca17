package io.idemkit.store.jdbc;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.StoredResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The JDBC store decides on the database's clock only (C3, C12). It takes no JVM clock at all, so a
 * JVM clock moved by any amount cannot move a lease: the first test holds every class of the store
 * to that, over its bytecode. And the database's clock is read as an instant, whatever the time
 * zone of the session: a session 13 or 14 hours ahead of UTC writes the same leases as one at UTC,
 * and the same completion stamps when it completes inside its own transaction (C13).
 */
class JdbcClockTest {

    private static final JavaClasses STORE =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.idemkit.store.jdbc");

    @org.junit.jupiter.api.Test
    void storeClasses_neverReadTheJvmClock() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .areAssignableTo(Clock.class)
                .orShould()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(LocalDateTime.class, "now")
                .orShould()
                .callMethod(OffsetDateTime.class, "now")
                .orShould()
                .callMethod(ZonedDateTime.class, "now")
                .orShould()
                .callMethod(LocalDate.class, "now")
                .check(STORE);
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void sessionTimeZoneFarFromUtc_changesNoLease(JdbcDialect dialect) throws SQLException {
        String table = JdbcStoreContract.freshTable();
        try (HikariDataSource far = Databases.pool(dialect, timeZone(dialect))) {
            DataSource utc = Databases.of(dialect);
            JdbcIdempotencyStore atUtc =
                    new JdbcIdempotencyStore(utc, new JdbcStoreSettings(table, true));
            JdbcIdempotencyStore farAhead =
                    new JdbcIdempotencyStore(far, new JdbcStoreSettings(table, false));
            try {
                atUtc.start();
                Instant before = atUtc.now();
                String key = "d".repeat(64);

                ClaimResult claim = farAhead.claim(key, "f".repeat(64), 1, Duration.ofMinutes(1));
                Instant after = atUtc.now();

                IdempotencyRecord record = claim.record();
                assertThat(record.claimedAt()).isBetween(before, after);
                assertThat(Duration.between(record.claimedAt(), record.leaseUntil()))
                        .isBetween(Duration.ofSeconds(59), Duration.ofSeconds(61));
                assertThat(farAhead.now()).isBetween(before, after.plusSeconds(5));
                assertThat(atUtc.claim(key, "f".repeat(64), 1, Duration.ofMinutes(1)).status())
                        .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
            } finally {
                try (Connection c = utc.getConnection();
                        Statement s = c.createStatement()) {
                    s.execute("DROP TABLE " + table);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void inTransactionCompletion_fromASessionFarFromUtc_completesOnTheDatabasesClock(
            JdbcDialect dialect) throws SQLException {
        // Completion in the business transaction (C13) runs on the caller's connection, whatever
        // its session's time zone: the stamps it writes are the database's instants still.
        String table = JdbcStoreContract.freshTable();
        try (HikariDataSource far = Databases.pool(dialect, timeZone(dialect));
                Connection business = far.getConnection()) {
            DataSource utc = Databases.of(dialect);
            JdbcIdempotencyStore atUtc =
                    new JdbcIdempotencyStore(utc, new JdbcStoreSettings(table, true));
            JdbcIdempotencyStore farAhead =
                    new JdbcIdempotencyStore(
                            far,
                            EnlistedConnections.of(() -> business),
                            new JdbcStoreSettings(table, false));
            try {
                atUtc.start();
                String key = "e".repeat(64);
                ClaimResult claim = farAhead.claim(key, "f".repeat(64), 1, Duration.ofMinutes(1));
                business.setAutoCommit(false);
                Instant before = atUtc.now();

                assertThat(
                                farAhead.completeInTransaction(
                                        key,
                                        claim.token(),
                                        new StoredResult(200, List.of(), new byte[] {1}),
                                        Duration.ofHours(1)))
                        .isTrue();
                business.commit();
                Instant after = atUtc.now();

                IdempotencyRecord record = atUtc.find(key).orElseThrow();
                assertThat(record.completedAt()).isBetween(before, after);
                assertThat(Duration.between(record.completedAt(), record.expiresAt()))
                        .isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61));
            } finally {
                try (Connection c = utc.getConnection();
                        Statement s = c.createStatement()) {
                    s.execute("DROP TABLE " + table);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void inTransactionCompletion_lateInALongTransaction_isStampedWhenItRuns(JdbcDialect dialect)
            throws Exception {
        // C13 stamps completed_at and the retention inside the business transaction: the clock
        // must be the statement's, not one fixed for the transaction (H2's CURRENT_TIMESTAMP,
        // fixed at its first use in the transaction; PostgreSQL's now(), at its start), or a
        // transaction as long as the retention stores a result that is already expired.
        String table = JdbcStoreContract.freshTable();
        DataSource dataSource = Databases.of(dialect);
        try (Connection business = dataSource.getConnection()) {
            JdbcIdempotencyStore store =
                    new JdbcIdempotencyStore(
                            dataSource,
                            EnlistedConnections.of(() -> business),
                            new JdbcStoreSettings(table, true));
            try {
                String key = "e".repeat(64);
                ClaimResult claim = store.claim(key, "f".repeat(64), 1, Duration.ofMinutes(1));
                try (Statement s = business.createStatement()) {
                    s.execute(
                            "CREATE TABLE "
                                    + table
                                    + "_orders (id INTEGER PRIMARY KEY, created_at TIMESTAMP)");
                    business.setAutoCommit(false);
                    // The business work, which reads the database's clock too.
                    s.execute(
                            "INSERT INTO "
                                    + table
                                    + "_orders (id, created_at) VALUES (1, CURRENT_TIMESTAMP)");
                }
                Instant later = store.now().plusMillis(300);
                org.awaitility.Awaitility.await().until(() -> store.now().isAfter(later));

                assertThat(
                                store.completeInTransaction(
                                        key,
                                        claim.token(),
                                        new StoredResult(200, List.of(), new byte[] {1}),
                                        Duration.ofHours(1)))
                        .isTrue();
                business.commit();

                assertThat(store.find(key).orElseThrow().completedAt()).isAfter(later);
            } finally {
                business.setAutoCommit(true);
                try (Statement s = business.createStatement()) {
                    s.execute("DROP TABLE " + table);
                    s.execute("DROP TABLE IF EXISTS " + table + "_orders");
                }
            }
        }
    }

    private static String timeZone(JdbcDialect dialect) {
        return switch (dialect) {
            case POSTGRESQL -> "SET TIME ZONE 'Pacific/Kiritimati'";
            case MARIADB -> "SET time_zone = '+13:00'"; // MariaDB's farthest
            case H2 -> "SET TIME ZONE '+14:00'";
        };
    }
}
