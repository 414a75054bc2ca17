package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.CapturedLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A result that MariaDB cannot take in one statement (C12). The server refuses a packet over its
 * {@code max_allowed_packet} by closing the connection, and its driver may send each byte of a
 * binary parameter as two (escaped in the statement's text): a body of zeros, the worst case, is
 * twice its size on the wire. The store refuses, before sending it, a result that may not fit, and
 * stores the largest one that surely does, zeros included.
 *
 * <p>The server here runs with a packet limit of 64 MiB; the test's one connection is opened while
 * the server's global limit is 4 MiB, which a connection keeps for its life, so that the bodies
 * stay small. The limit is set back at once.
 */
class MariaDbPacketLimitTest {

    private static final long FOUR_MIB = 4L * 1024 * 1024;
    private static final String FP = "f".repeat(64);

    private final String table = JdbcStoreContract.freshTable();
    private Connection small;
    private JdbcIdempotencyStore store;

    @BeforeEach
    void openAConnectionWithA4MibPacket() throws SQLException {
        DataSource shared = Databases.mariaDb();
        try (Connection c = shared.getConnection();
                Statement s = c.createStatement()) {
            s.execute("SET GLOBAL max_allowed_packet = " + FOUR_MIB);
            try {
                small = DriverManager.getConnection(c.getMetaData().getURL(), "root", "");
            } finally {
                s.execute("SET GLOBAL max_allowed_packet = " + 64L * 1024 * 1024);
            }
        }
        store =
                new JdbcIdempotencyStore(
                        EnlistedConnections.of(() -> small), new JdbcStoreSettings(table, true));
        store.start();
    }

    @AfterEach
    void dropTheTable() throws SQLException {
        small.close();
        try (Connection c = Databases.mariaDb().getConnection();
                Statement s = c.createStatement()) {
            s.execute("DROP TABLE " + table);
        }
    }

    @Test
    void largestStorableBody_isHalfThePacketLessRoomForTheStatement() {
        assertThat(store.largestStorableBody())
                .isEqualTo((FOUR_MIB - ResultWrite.STATEMENT_ROOM) / 2);
    }

    @Test
    void theLargestBodyOfZeros_theDriversWorstCase_isStoredByteForByte() {
        String key = "1".repeat(64);
        ClaimResult claim = store.claim(key, FP, 1, Duration.ofMinutes(5));
        StoredResult zeros =
                new StoredResult(200, List.of(), new byte[(int) store.largestStorableBody()]);

        assertThat(store.complete(key, claim.token(), zeros, Duration.ofHours(1))).isTrue();
        assertThat(store.find(key).orElseThrow().result()).isEqualTo(zeros);
    }

    @Test
    void aResultThatMayNotFit_isRefusedBeforeItIsSent_andTheClaimAndConnectionStay() {
        String key = "2".repeat(64);
        ClaimResult claim = store.claim(key, FP, 1, Duration.ofMinutes(5));
        StoredResult tooLarge =
                new StoredResult(200, List.of(), new byte[(int) store.largestStorableBody() + 1]);

        IdempotencyStorageException refused =
                catchThrowableOfType(
                        () -> store.complete(key, claim.token(), tooLarge, Duration.ofHours(1)),
                        IdempotencyStorageException.class);

        assertThat(refused.kind()).isEqualTo(IdempotencyStorageException.Kind.REFUSED);
        assertThat(refused.getMessage())
                .contains("max_allowed_packet is " + FOUR_MIB + " bytes")
                .contains("idemkit.max-body-bytes")
                .doesNotContain(key);
        assertThat(store.find(key).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        StoredResult small = new StoredResult(200, List.of(), new byte[] {1});
        assertThat(store.complete(key, claim.token(), small, Duration.ofHours(1))).isTrue();
    }

    @Test
    void aMaxBodyBytesAboveWhatThePacketHolds_isWarnedOfAtDeployment_andOneBelowIsNot() {
        SmallPacketDataSource.dataSource = EnlistedConnections.of(() -> small);
        try (CapturedLog log = CapturedLog.of(JdbcStoreOpening.class)) {
            try (TestDeployment deployment = new TestDeployment()) {
                deployment
                        .set("idemkit.store", "jdbc")
                        .set("idemkit.jdbc.table", table)
                        .set("idemkit.max-body-bytes", "3145728")
                        .start(SmallPacketDataSource.class);
            }
            assertThat(log.warnings())
                    .singleElement()
                    .asString()
                    .contains("idemkit.max-body-bytes=3145728")
                    .contains("at most " + store.largestStorableBody() + " bytes on this MariaDB")
                    .contains("Raise max_allowed_packet");
            log.clear();

            try (TestDeployment deployment = new TestDeployment()) {
                deployment
                        .set("idemkit.store", "jdbc")
                        .set("idemkit.jdbc.table", table)
                        .start(SmallPacketDataSource.class);
            }
            assertThat(log.warnings()).as("the default 1 MiB fits").isEmpty();
        }
    }

    /** The application's data source: the test's one connection with a 4 MiB packet. */
    @ApplicationScoped
    public static class SmallPacketDataSource {
        static DataSource dataSource;

        @Produces
        @ApplicationScoped
        DataSource dataSource() {
            return dataSource;
        }
    }
}
