package io.idemkit.store.jdbc;

import static io.idemkit.store.jdbc.TableFixtures.currentSchema;
import static io.idemkit.store.jdbc.TableFixtures.execute;
import static io.idemkit.store.jdbc.TableFixtures.withPrimaryKey;
import static io.idemkit.store.jdbc.TableFixtures.withoutPrimaryKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariDataSource;
import io.idemkit.IdempotencyStorageException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The start of the JDBC store checks the key of the table its statements use (C2, C12), and no
 * other table of the same name: the one the configured name resolves to on the store's connections
 * (a qualified name's schema; else PostgreSQL's and H2's search path, MariaDB's current database).
 * A same-named table elsewhere, with the key or without it, changes nothing.
 */
class TableSchemaSearchPathTest {

    private final String table = JdbcStoreContract.freshTable();
    private final List<String> schemas = new ArrayList<>();
    private JdbcDialect dialect;
    private HikariDataSource searching;

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void unqualifiedName_tableInTheCurrentSchemaWithoutTheKey_isRefused_thoughAnotherSchemasHasIt(
            JdbcDialect dialect) throws SQLException {
        String other = schema(dialect);
        execute(dialect, withoutPrimaryKey(dialect, table));
        execute(dialect, withPrimaryKey(dialect, other + "." + table));

        assertRefused(Databases.of(dialect), table, currentSchema(dialect) + "." + table);
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void qualifiedName_itsTableWithoutTheKey_isRefused_thoughTheCurrentSchemasHasIt(
            JdbcDialect dialect) throws SQLException {
        String other = schema(dialect);
        execute(dialect, withoutPrimaryKey(dialect, other + "." + table));
        execute(dialect, withPrimaryKey(dialect, table));

        assertRefused(Databases.of(dialect), other + "." + table, other + "." + table);
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void qualifiedName_itsTableWithTheKey_starts_thoughTheCurrentSchemasLacksIt(JdbcDialect dialect)
            throws SQLException {
        String other = schema(dialect);
        execute(dialect, withPrimaryKey(dialect, other + "." + table));
        execute(dialect, withoutPrimaryKey(dialect, table));

        new JdbcIdempotencyStore(
                        Databases.of(dialect), new JdbcStoreSettings(other + "." + table, false))
                .start();
    }

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"POSTGRESQL", "H2"})
    void tableFurtherAlongTheSearchPath_withoutTheKey_isRefused_thoughALaterSchemasHasIt(
            JdbcDialect dialect) throws SQLException {
        // The current schema has no such table: the statements use the first schema's of the path.
        String first = schema(dialect);
        String later = schema(dialect);
        execute(dialect, withoutPrimaryKey(dialect, first + "." + table));
        execute(dialect, withPrimaryKey(dialect, later + "." + table));

        assertRefused(searchPath(dialect, first, later), table, first + "." + table);
    }

    @ParameterizedTest
    @EnumSource(
            value = JdbcDialect.class,
            names = {"POSTGRESQL", "H2"})
    void tableFurtherAlongTheSearchPath_withTheKey_starts_thoughASchemaOffThePathLacksIt(
            JdbcDialect dialect) throws SQLException {
        String onPath = schema(dialect);
        String offPath = schema(dialect);
        execute(dialect, withPrimaryKey(dialect, onPath + "." + table));
        execute(dialect, withoutPrimaryKey(dialect, offPath + "." + table));

        new JdbcIdempotencyStore(searchPath(dialect, onPath), new JdbcStoreSettings(table, false))
                .start();
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void tableOnlyInASchemaTheStoreDoesNotSearch_isMissing_sayingWhereItWasLookedFor(
            JdbcDialect dialect) throws SQLException {
        String other = schema(dialect);
        execute(dialect, withPrimaryKey(dialect, other + "." + table));
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(
                        Databases.of(dialect), new JdbcStoreSettings(table, false));

        IdempotencyStorageException refused =
                catchThrowableOfType(IdempotencyStorageException.class, store::start);

        assertThat(refused).as("refused at start").isNotNull();
        assertThat(refused.getMessage())
                .contains("table " + table + ", looked for ")
                .contains(
                        switch (dialect) {
                            case POSTGRESQL -> "on the search path [public]";
                            case H2 -> "in the current schema PUBLIC, then the search path";
                            case MARIADB -> "in the current database idemkit";
                        })
                .contains(", is missing or lacks a column")
                .contains("CREATE TABLE IF NOT EXISTS " + table + " (");
    }

    /**
     * Starts a store on {@code configured} and expects it refused for the key of {@code used}, the
     * table its statements use, named in the message with the configured name.
     */
    private static void assertRefused(DataSource dataSource, String configured, String used) {
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(dataSource, new JdbcStoreSettings(configured, false));

        IdempotencyStorageException refused =
                catchThrowableOfType(IdempotencyStorageException.class, store::start);

        assertThat(refused).as("refused at start").isNotNull();
        assertThat(refused.kind()).isEqualTo(IdempotencyStorageException.Kind.REFUSED);
        assertThat(refused.getMessage())
                .contains("table " + configured + " has no primary key")
                .contains("on the column idem_key alone")
                .as("names the table its statements use")
                .containsIgnoringCase("uses " + used + " ");
    }

    /** A fresh schema, dropped after the test. */
    private String schema(JdbcDialect dialect) throws SQLException {
        this.dialect = dialect;
        String schema = TableFixtures.freshSchema();
        execute(dialect, "CREATE SCHEMA " + schema);
        schemas.add(schema);
        return schema;
    }

    /** A pool whose sessions search the current schema (which lacks the table), then these. */
    private DataSource searchPath(JdbcDialect dialect, String... path) {
        String list = String.join(", ", path);
        searching =
                Databases.pool(
                        dialect,
                        dialect == JdbcDialect.POSTGRESQL
                                ? "SET search_path TO public, " + list
                                : "SET SCHEMA_SEARCH_PATH PUBLIC, " + list);
        return searching;
    }

    @AfterEach
    void drop() throws SQLException {
        if (searching != null) {
            searching.close();
        }
        if (dialect != null) {
            execute(dialect, "DROP TABLE IF EXISTS " + table);
            for (String schema : schemas) {
                TableFixtures.dropSchema(dialect, schema);
            }
        }
    }
}
