package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The name of MariaDB's isolation variable in the store's {@code SET STATEMENT} (C12): MariaDB 11.1
 * renamed {@code tx_isolation} to {@code transaction_isolation}, and servers before it know only
 * the old name.
 */
class ReadCommittedTest {

    @Test
    void variable_isTheNewNameFrom11_1_andTheOldOneBefore() {
        assertThat(ReadCommitted.variable(10, 5)).isEqualTo("tx_isolation");
        assertThat(ReadCommitted.variable(11, 0)).isEqualTo("tx_isolation");
        assertThat(ReadCommitted.variable(11, 1)).isEqualTo("transaction_isolation");
        assertThat(ReadCommitted.variable(11, 4)).isEqualTo("transaction_isolation");
        assertThat(ReadCommitted.variable(12, 0)).isEqualTo("transaction_isolation");
    }

    @Test
    void onMariaDb_everyWriteOfTheStoresOwnRunsAtReadCommitted_butTheCompletionInTheTransaction() {
        // C13: the completion inside the business transaction runs at the application's level.
        RecordStatements sql = new RecordStatements(JdbcDialect.MARIADB, "t");
        String readCommitted = "transaction_isolation = 'READ-COMMITTED' FOR ";

        assertThat(
                        List.of(
                                sql.insertOrSelectClaim,
                                sql.overwritePinned,
                                sql.overwritePinnedIfLapsed,
                                sql.complete,
                                sql.renew,
                                sql.release,
                                sql.delete,
                                sql.purge,
                                sql.countUp,
                                sql.countRestart,
                                sql.countInsert))
                .allSatisfy(statement -> assertThat(statement).contains(readCommitted));
        assertThat(sql.completeInTransaction).doesNotContain("SET STATEMENT");
    }

    @Test
    void onTheRealMariaDb11_4_itIsTheNewName() throws SQLException {
        try (Connection c = Databases.mariaDb().getConnection()) {
            assertThat(ReadCommitted.variable(c.getMetaData())).isEqualTo("transaction_isolation");
        }
    }
}
