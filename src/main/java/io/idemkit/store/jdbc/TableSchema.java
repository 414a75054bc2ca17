package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * The start of a JDBC store (C12): which database the data source reaches, refused unless it is one
 * the store contract suite proves; and whether the table is there with every column and its key
 * unique (the table its statements use: the one its name resolves to on the store's connections,
 * never a namesake in another schema), created on request ({@code idemkit.jdbc.create-table}) and
 * otherwise failing with the DDL to run. The DDL of each dialect is a resource beside this class
 * ({@code postgresql.sql}, {@code h2.sql}, {@code mariadb.sql}), written for the default table name
 * so that Flyway or Liquibase can run it as is.
 */
final class TableSchema {

    private static final String INDEX_SUFFIX = "_lease_until_idx";

    /** The longest identifier every dialect takes: PostgreSQL's 63 (MariaDB 64). */
    private static final int MAX_IDENTIFIER = 63;

    private TableSchema() {}

    /**
     * @param connection a connection of the store's data source
     * @return the database's dialect
     * @throws IdempotencyStorageException if the database is not supported
     * @throws SQLException if the driver fails
     */
    static JdbcDialect dialect(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String product = meta.getDatabaseProductName();
        return JdbcDialect.of(product)
                .orElseThrow(
                        () ->
                                new IdempotencyStorageException(
                                        IdempotencyStorageException.Kind.REFUSED,
                                        "The JDBC store supports PostgreSQL, MariaDB and H2, the"
                                                + " databases its contract suite runs on (C12);"
                                                + " the data source reaches "
                                                + product
                                                + " "
                                                + versionOf(meta)
                                                + ". Use one of those, or another idemkit.store.",
                                        null));
    }

    /**
     * Checks the table, creating it first when asked to and it is missing.
     *
     * @param connection a connection in auto-commit mode
     * @param dialect its dialect
     * @param settings the store's settings
     * @param statements the store's statements
     * @throws IdempotencyStorageException with the DDL to run, if the table is missing, lacks a
     *     column, or its {@code idem_key} is not unique on its own
     * @throws SQLException if the driver fails
     */
    static void check(
            Connection connection,
            JdbcDialect dialect,
            JdbcStoreSettings settings,
            RecordStatements statements)
            throws SQLException {
        SQLException missing = probe(connection, statements);
        if (missing == null) {
            requireUniqueKey(connection, dialect, settings.table(), statements);
            return;
        }
        if (settings.createTable()) {
            // IF NOT EXISTS leaves a wrong table as it is; the probe then still fails, or the
            // index names a column the table lacks: either way the answer is the DDL to run.
            try (Statement create = connection.createStatement()) {
                for (String ddl : ddlStatements(dialect, settings.table())) {
                    create.execute(ddl);
                }
                missing = probe(connection, statements);
            } catch (SQLException e) {
                missing = e;
            }
            if (missing == null) {
                requireUniqueKey(connection, dialect, settings.table(), statements);
                return;
            }
        }
        throw new IdempotencyStorageException(
                IdempotencyStorageException.Kind.REFUSED,
                "The JDBC store's table "
                        + settings.table()
                        + ", looked for "
                        + lookedFor(connection, dialect, settings.table())
                        + ", is missing or lacks a column ("
                        + missing.getMessage()
                        + "). Create it with:\n"
                        + String.join(";\n", ddlStatements(dialect, settings.table()))
                        + ";\nor, for development only, set idemkit.jdbc.create-table=true.",
                missing);
    }

    /**
     * @param dialect a dialect
     * @param table the table name, possibly schema-qualified
     * @return the DDL statements that create the table and its index, without their semicolons
     */
    static List<String> ddlStatements(JdbcDialect dialect, String table) {
        String text = resource(dialect.ddlResource());
        String bare = table.substring(table.indexOf('.') + 1);
        StringBuilder code = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!line.startsWith("--")) {
                code.append(line).append('\n');
            }
        }
        String named =
                code.toString()
                        .replace(JdbcStoreSettings.DEFAULT_TABLE + INDEX_SUFFIX, "\u0000")
                        .replace(JdbcStoreSettings.DEFAULT_TABLE, table)
                        .replace("\u0000", indexName(bare));
        List<String> statements = new ArrayList<>();
        for (String statement : named.split(";")) {
            if (!statement.isBlank()) {
                statements.add(statement.strip());
            }
        }
        return statements;
    }

    /**
     * Refuses a table whose {@code idem_key} is not unique on its own (its primary key, or a unique
     * index without a condition): without it MariaDB and H2 let two racing claims both insert the
     * key, and both run the operation (C2: the claim must be atomic; C12). The table checked is the
     * one the store's statements use ({@link #resolve}); a same-named table elsewhere counts for
     * nothing.
     */
    private static void requireUniqueKey(
            Connection connection, JdbcDialect dialect, String table, RecordStatements statements)
            throws SQLException {
        Location used = resolve(connection, dialect, table, statements);
        DatabaseMetaData meta = connection.getMetaData();
        List<String> primaryKey = new ArrayList<>();
        try (ResultSet rows = meta.getPrimaryKeys(used.catalog(), used.schema(), used.name())) {
            while (rows.next()) {
                if (used.holds(rows)) {
                    primaryKey.add(rows.getString("COLUMN_NAME"));
                }
            }
        }
        Map<String, List<String>> uniqueIndexes = new HashMap<>();
        try (ResultSet rows =
                meta.getIndexInfo(used.catalog(), used.schema(), used.name(), true, true)) {
            while (rows.next()) {
                if (!used.holds(rows)
                        || rows.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic
                        || rows.getBoolean("NON_UNIQUE")
                        || rows.getString("FILTER_CONDITION") != null) {
                    continue;
                }
                uniqueIndexes
                        .computeIfAbsent(rows.getString("INDEX_NAME"), k -> new ArrayList<>())
                        .add(rows.getString("COLUMN_NAME"));
            }
        }
        if (isKeyAlone(primaryKey)
                || uniqueIndexes.values().stream().anyMatch(TableSchema::isKeyAlone)) {
            return;
        }
        throw new IdempotencyStorageException(
                IdempotencyStorageException.Kind.REFUSED,
                "The JDBC store's table "
                        + table
                        + " has no primary key (nor unique index) on the column idem_key alone:"
                        + " the store uses "
                        + used
                        + " (the "
                        + (table.indexOf('.') < 0 && dialect != JdbcDialect.MARIADB ? "first " : "")
                        + "table of that name "
                        + lookedFor(connection, dialect, table)
                        + "), whose primary key "
                        + (primaryKey.isEmpty() ? "is missing" : "is " + primaryKey)
                        + "; a table of that name elsewhere does not count. Two instances could"
                        + " then both claim one key and both run the operation. Make idem_key the"
                        + " primary key of "
                        + used
                        + ", as the DDL does:\n"
                        + String.join(";\n", ddlStatements(dialect, table))
                        + ";",
                null);
    }

    /**
     * Where the store's statements find its table, as the database's catalog names it: a schema
     * (PostgreSQL, H2) or a database (MariaDB's catalogs), and the table's name.
     *
     * @param catalog MariaDB's database, else {@code null}
     * @param schema the schema on PostgreSQL and H2, else {@code null}
     * @param name the table's name
     */
    private record Location(String catalog, String schema, String name) {

        /**
         * Whether a row of {@link DatabaseMetaData} is this table's: its arguments may match more.
         */
        boolean holds(ResultSet row) throws SQLException {
            return name.equals(row.getString("TABLE_NAME"))
                    && (catalog == null || catalog.equals(row.getString("TABLE_CAT")))
                    && (schema == null || schema.equals(row.getString("TABLE_SCHEM")));
        }

        @Override
        public String toString() {
            return (catalog != null ? catalog : schema) + "." + name;
        }
    }

    /**
     * The table that the store's statements, which name it as configured, use on this connection.
     * PostgreSQL says so itself ({@code to_regclass}: a qualified name's schema, else the first
     * schema of the session's search path that holds it); H2 names the schema of the probe's
     * columns (its current schema, then its search path); MariaDB, which has no search path, uses a
     * qualified name's database or else the connection's current one.
     */
    private static Location resolve(
            Connection connection, JdbcDialect dialect, String table, RecordStatements statements)
            throws SQLException {
        int dot = table.indexOf('.');
        String qualifier = dot < 0 ? null : table.substring(0, dot);
        switch (dialect) {
            case POSTGRESQL -> {
                try (PreparedStatement find =
                        connection.prepareStatement(
                                "SELECT n.nspname, c.relname FROM pg_catalog.pg_class c"
                                        + " JOIN pg_catalog.pg_namespace n"
                                        + " ON n.oid = c.relnamespace"
                                        + " WHERE c.oid = pg_catalog.to_regclass(?)")) {
                    find.setString(1, table);
                    try (ResultSet row = find.executeQuery()) {
                        if (row.next()) {
                            return new Location(null, row.getString(1), row.getString(2));
                        }
                    }
                }
                throw new IdempotencyStorageException(
                        IdempotencyStorageException.Kind.REFUSED,
                        "The JDBC store's table " + table + " vanished while the store started",
                        null);
            }
            case H2 -> {
                try (Statement probe = connection.createStatement();
                        ResultSet rows = probe.executeQuery(statements.probe)) {
                    ResultSetMetaData columns = rows.getMetaData();
                    return new Location(null, columns.getSchemaName(1), columns.getTableName(1));
                }
            }
            default -> {
                DatabaseMetaData meta = connection.getMetaData();
                return new Location(
                        qualifier != null ? identifier(meta, qualifier) : connection.getCatalog(),
                        null,
                        identifier(meta, table.substring(dot + 1)));
            }
        }
    }

    /**
     * Where the store's statements look for the table, for an error message: a qualified name's
     * schema (MariaDB: database), else PostgreSQL's search path, H2's current schema and search
     * path, MariaDB's current database.
     */
    private static String lookedFor(Connection connection, JdbcDialect dialect, String table) {
        int dot = table.indexOf('.');
        if (dot >= 0) {
            return (dialect == JdbcDialect.MARIADB ? "in the database " : "in the schema ")
                    + table.substring(0, dot);
        }
        try {
            switch (dialect) {
                case POSTGRESQL -> {
                    try (Statement query = connection.createStatement();
                            ResultSet path =
                                    query.executeQuery(
                                            "SELECT pg_catalog.array_to_string("
                                                    + "pg_catalog.current_schemas(false), ', ')")) {
                        path.next();
                        return "on the search path [" + path.getString(1) + "]";
                    }
                }
                case H2 -> {
                    return "in the current schema "
                            + connection.getSchema()
                            + ", then the search path";
                }
                default -> {
                    return "in the current database " + connection.getCatalog();
                }
            }
        } catch (SQLException e) {
            return "where the connection's statements look (" + e.getMessage() + ")";
        }
    }

    private static boolean isKeyAlone(List<String> columns) {
        return columns.size() == 1 && "idem_key".equalsIgnoreCase(columns.get(0));
    }

    /** An unquoted identifier as the database stores it in its catalog. */
    private static String identifier(DatabaseMetaData meta, String name) throws SQLException {
        if (meta.storesUpperCaseIdentifiers()) {
            return name.toUpperCase(Locale.ROOT);
        }
        if (meta.storesLowerCaseIdentifiers()) {
            return name.toLowerCase(Locale.ROOT);
        }
        return name;
    }

    /**
     * The name of the index on {@code lease_until}: the table's name and {@value #INDEX_SUFFIX}
     * while that fits in {@value #MAX_IDENTIFIER} characters (PostgreSQL's limit; MariaDB's is 64),
     * else the table name's first characters, a checksum of the whole name (so that two long names
     * that begin alike differ) and the suffix: short, and the same at every start.
     *
     * @param bare the table name without its schema
     * @return the index name
     */
    static String indexName(String bare) {
        String plain = bare + INDEX_SUFFIX;
        if (plain.length() <= MAX_IDENTIFIER) {
            return plain;
        }
        CRC32 crc = new CRC32();
        crc.update(bare.getBytes(StandardCharsets.UTF_8));
        String sum = String.format(Locale.ROOT, "%08x", crc.getValue());
        int keep = MAX_IDENTIFIER - INDEX_SUFFIX.length() - sum.length() - 1;
        return bare.substring(0, keep) + "_" + sum + INDEX_SUFFIX;
    }

    private static SQLException probe(Connection connection, RecordStatements statements) {
        try (Statement probe = connection.createStatement()) {
            probe.executeQuery(statements.probe).close();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    private static String resource(String name) {
        try (InputStream in =
                Objects.requireNonNull(
                        TableSchema.class.getResourceAsStream(name), "resource " + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String versionOf(DatabaseMetaData meta) {
        try {
            return meta.getDatabaseProductVersion();
        } catch (SQLException e) {
            return "(version unknown)";
        }
    }
}
