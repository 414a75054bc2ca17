package io.idemkit.store.jdbc;

import static io.idemkit.store.jdbc.TableFixtures.execute;
import static io.idemkit.store.jdbc.TableFixtures.withoutPrimaryKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyStorageException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The start of the JDBC store (C12): a missing table, or one that lacks a column, fails with the
 * DDL to run unless the store may create it; the DDL in the jar runs as is on each database; and
 * only the databases the contract suite runs on are accepted.
 */
class TableSchemaTest {

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void missingTable_withoutCreateTable_failsWithTheDdlToRun(JdbcDialect dialect) {
        String table = JdbcStoreContract.freshTable();
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(
                        Databases.of(dialect), new JdbcStoreSettings(table, false));

        assertThatThrownBy(store::start)
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessageContaining("CREATE TABLE IF NOT EXISTS " + table + " (")
                .hasMessageContaining(
                        "CREATE INDEX IF NOT EXISTS " + table + "_lease_until_idx ON " + table)
                .hasMessageContaining("idemkit.jdbc.create-table=true")
                .extracting(e -> ((IdempotencyStorageException) e).kind())
                .isEqualTo(IdempotencyStorageException.Kind.REFUSED);
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void tableWithoutAColumn_failsWithTheDdlToRun_evenWithCreateTable(JdbcDialect dialect)
            throws SQLException {
        String table = JdbcStoreContract.freshTable();
        execute(dialect, "CREATE TABLE " + table + " (idem_key VARCHAR(256) PRIMARY KEY)");
        try {
            JdbcIdempotencyStore store =
                    new JdbcIdempotencyStore(
                            Databases.of(dialect), new JdbcStoreSettings(table, true));

            assertThatThrownBy(store::start)
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining("is missing or lacks a column")
                    .hasMessageContaining("CREATE TABLE IF NOT EXISTS " + table);
        } finally {
            execute(dialect, "DROP TABLE " + table);
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void createTable_createsTheTableFromTheDdlInTheJar_andAStoreThenStarts(JdbcDialect dialect)
            throws SQLException {
        String table = JdbcStoreContract.freshTable();
        try {
            new JdbcIdempotencyStore(Databases.of(dialect), new JdbcStoreSettings(table, true))
                    .start();

            JdbcIdempotencyStore checking =
                    new JdbcIdempotencyStore(
                            Databases.of(dialect), new JdbcStoreSettings(table, false));
            checking.start();
            assertThat(checking.databaseProduct()).isEqualTo(dialect.productName());
        } finally {
            execute(dialect, "DROP TABLE " + table);
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void tableWithoutAPrimaryKeyOnTheKey_isRefusedNamingTableAndColumn_evenWithCreateTable(
            JdbcDialect dialect) throws SQLException {
        // Every column is there, but idem_key is not unique: two claims could both insert a key.
        assertKeyRefused(dialect, true, table -> List.of(withoutPrimaryKey(dialect, table)));
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void tableWithAUniqueIndexOnTheKeyInsteadOfAPrimaryKey_starts(JdbcDialect dialect)
            throws SQLException {
        String table = JdbcStoreContract.freshTable();
        execute(dialect, withoutPrimaryKey(dialect, table));
        execute(dialect, "CREATE UNIQUE INDEX " + table + "_key ON " + table + " (idem_key)");
        try {
            new JdbcIdempotencyStore(Databases.of(dialect), new JdbcStoreSettings(table, false))
                    .start();
        } finally {
            execute(dialect, "DROP TABLE " + table);
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void tableWhosePrimaryKeyAlsoHasAnotherColumn_isRefused(JdbcDialect dialect)
            throws SQLException {
        assertKeyRefused(
                dialect,
                false,
                table ->
                        List.of(
                                withoutPrimaryKey(dialect, table)
                                        .replaceFirst(
                                                "\\)$", ", PRIMARY KEY (idem_key, claimed_at))")
                                        .replace(
                                                "claimed_at          BIGINT",
                                                "claimed_at BIGINT NOT NULL")));
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void tableWithOnlyANonUniqueIndexOnTheKey_isRefused(JdbcDialect dialect) throws SQLException {
        assertRefusedWithIndex(dialect, "CREATE INDEX %s_key ON %s (idem_key)");
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void tableWhoseUniqueIndexOnTheKeyAlsoHasAnotherColumn_isRefused(JdbcDialect dialect)
            throws SQLException {
        assertRefusedWithIndex(dialect, "CREATE UNIQUE INDEX %s_key ON %s (idem_key, claimed_at)");
    }

    @Test
    void tableWithAPartialUniqueIndexOnTheKey_isRefused_onPostgres() throws SQLException {
        // Unique only where the condition holds: two claims of a key outside it could both insert.
        assertRefusedWithIndex(
                JdbcDialect.POSTGRESQL,
                "CREATE UNIQUE INDEX %s_key ON %s (idem_key) WHERE state = 'COMPLETED'");
    }

    /**
     * A table without a primary key, and an index that does not make {@code idem_key} unique on its
     * own ({@code index}: a format of the index's and the table's names): refused at start.
     */
    private static void assertRefusedWithIndex(JdbcDialect dialect, String index)
            throws SQLException {
        assertKeyRefused(
                dialect,
                false,
                table ->
                        List.of(
                                withoutPrimaryKey(dialect, table),
                                String.format(index, table, table)));
    }

    /**
     * A fresh table made by {@code ddl}, on which a store's start is refused for its key (C2, C12),
     * naming the table and giving the DDL to run.
     */
    private static void assertKeyRefused(
            JdbcDialect dialect, boolean createTable, Function<String, List<String>> ddl)
            throws SQLException {
        String table = JdbcStoreContract.freshTable();
        try {
            for (String statement : ddl.apply(table)) {
                execute(dialect, statement);
            }
            JdbcIdempotencyStore store =
                    new JdbcIdempotencyStore(
                            Databases.of(dialect), new JdbcStoreSettings(table, createTable));

            assertThatThrownBy(store::start)
                    .isInstanceOf(IdempotencyStorageException.class)
                    .hasMessageContaining("table " + table + " has no primary key")
                    .hasMessageContaining("on the column idem_key alone")
                    .hasMessageContaining("CREATE TABLE IF NOT EXISTS " + table + " (")
                    .extracting(e -> ((IdempotencyStorageException) e).kind())
                    .isEqualTo(IdempotencyStorageException.Kind.REFUSED);
        } finally {
            execute(dialect, "DROP TABLE IF EXISTS " + table);
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void tableNameOfTheLongestLength_getsAnIndexNameTheDatabaseTakes(JdbcDialect dialect)
            throws SQLException {
        // 63 characters, the longest name the settings accept: with "_lease_until_idx" the index
        // name would be 79, past MariaDB's 64.
        String fresh = JdbcStoreContract.freshTable() + "_";
        String table = fresh + "x".repeat(63 - fresh.length());
        try {
            new JdbcIdempotencyStore(Databases.of(dialect), new JdbcStoreSettings(table, true))
                    .start();
        } finally {
            execute(dialect, "DROP TABLE IF EXISTS " + table);
        }
    }

    @Test
    void indexName_isTheTableNameAndSuffixWhileItFits_elseShortAndStable() {
        assertThat(TableSchema.indexName("idemkit_records"))
                .isEqualTo("idemkit_records_lease_until_idx");
        String a = "a".repeat(50) + "_one";
        String b = "a".repeat(50) + "_two";

        assertThat(TableSchema.indexName(a))
                .hasSize(63)
                .startsWith("a".repeat(38) + "_")
                .endsWith("_lease_until_idx")
                .isEqualTo(TableSchema.indexName(a))
                .isNotEqualTo(TableSchema.indexName(b));
    }

    @Test
    void ddlOfASchemaQualifiedTable_namesTheIndexWithoutTheSchema() {
        assertThat(TableSchema.ddlStatements(JdbcDialect.POSTGRESQL, "app.idem"))
                .hasSize(2)
                .last()
                .isEqualTo(
                        "CREATE INDEX IF NOT EXISTS idem_lease_until_idx ON app.idem (lease_until)");
    }

    @Test
    void databaseWithoutADialect_isRefusedNamingProductAndVersion() {
        DatabaseMetaData meta =
                answering(
                        DatabaseMetaData.class,
                        Map.of(
                                "getDatabaseProductName",
                                "Oracle",
                                "getDatabaseProductVersion",
                                "23ai"));
        Connection oracle = answering(Connection.class, Map.of("getMetaData", meta));

        assertThatThrownBy(() -> TableSchema.dialect(oracle))
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessageContaining("the data source reaches Oracle 23ai")
                .extracting(e -> ((IdempotencyStorageException) e).kind())
                .isEqualTo(IdempotencyStorageException.Kind.REFUSED);
    }

    /** A {@code type} that answers the methods named in {@code answers}, and nothing else. */
    private static <T> T answering(Class<T> type, Map<String, Object> answers) {
        return type.cast(
                Proxy.newProxyInstance(
                        TableSchemaTest.class.getClassLoader(),
                        new Class<?>[] {type},
                        (proxy, method, args) -> {
                            if (!answers.containsKey(method.getName())) {
                                throw new UnsupportedOperationException(method.getName());
                            }
                            return answers.get(method.getName());
                        }));
    }

    @ParameterizedTest
    @ValueSource(strings = {"MySQL", "Oracle", "Microsoft SQL Server", "Apache Derby", "HSQL"})
    void otherDatabases_haveNoDialect(String productName) {
        assertThat(JdbcDialect.of(productName)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "idemkit records", "a.b.c", "1table", "t;DROP TABLE x"})
    void tableNameThatIsNotAPlainIdentifier_isRefused(String table) {
        assertThatThrownBy(() -> new JdbcStoreSettings(table, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid idemkit.jdbc.table=");
    }
}
