package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Tables of the store's shape, right and wrong, that the start of a store is checked against
 * ({@link TableSchemaTest}, {@link TableSchemaSearchPathTest}), on the shared pools of {@link
 * Databases}.
 */
final class TableFixtures {

    private TableFixtures() {}

    /** Runs one statement on the shared pool of {@code dialect}. */
    static void execute(JdbcDialect dialect, String sql) throws SQLException {
        try (Connection c = Databases.of(dialect).getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** The dialect's own CREATE TABLE, its primary key on {@code idem_key} alone, no index. */
    static String withPrimaryKey(JdbcDialect dialect, String table) {
        return TableSchema.ddlStatements(dialect, table).get(0);
    }

    /** The dialect's own CREATE TABLE with every column, less its primary key. */
    static String withoutPrimaryKey(JdbcDialect dialect, String table) {
        String create = withPrimaryKey(dialect, table);
        assertThat(create).contains(" NOT NULL PRIMARY KEY");
        return create.replace(" NOT NULL PRIMARY KEY", " NOT NULL").replace(" ENGINE=InnoDB", "");
    }

    /** A fresh schema's name (a database's on MariaDB, where {@code CREATE SCHEMA} makes one). */
    static String freshSchema() {
        return JdbcStoreContract.freshTable() + "_s";
    }

    /** Drops a schema and every table in it. */
    static void dropSchema(JdbcDialect dialect, String schema) throws SQLException {
        execute(
                dialect,
                "DROP SCHEMA IF EXISTS "
                        + schema
                        + (dialect == JdbcDialect.MARIADB ? "" : " CASCADE"));
    }

    /**
     * The schema an unqualified name resolves in on the shared pools, as the database names it:
     * PostgreSQL's {@code public}, H2's {@code PUBLIC}, MariaDB's database {@code idemkit}.
     */
    static String currentSchema(JdbcDialect dialect) {
        return switch (dialect) {
            case POSTGRESQL -> "public";
            case H2 -> "PUBLIC";
            case MARIADB -> "idemkit";
        };
    }
}
