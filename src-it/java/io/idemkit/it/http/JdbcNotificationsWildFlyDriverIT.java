package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The wake-ups on PostgreSQL in WildFly's pool in WildFly's usual set-up, where the application
 * cannot see the driver: the driver jar deployed on its own (through the deployment scanner of the
 * server Arquillian manages), and a data source that names that deployment as its {@code <driver>},
 * defined in a {@code -ds.xml} descriptor in the application, which declares no dependency on the
 * driver. The store reaches the driver's {@code PGConnection} through the driver's own class
 * loader, and listens; it logs no warning that it cannot.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = WILDFLY,
        because = "a driver deployed on its own, which WildFly's data sources name")
class JdbcNotificationsWildFlyDriverIT extends JdbcNotificationsScenarios {

    private static final String DRIVER = "idemkit-it-postgresql.jar";
    private static final String JNDI = "java:jboss/datasources/IdemkitDeployedDriver";
    private static final Path WILDFLY =
            Path.of(System.getProperty("wildfly.home", "target/wildfly/wildfly-39.0.1.Final"))
                    .toAbsolutePath();
    private static final Path DEPLOYMENTS = WILDFLY.resolve("standalone/deployments");
    private static EmbeddedPostgres postgres;

    @Deployment(testable = false)
    static WebArchive application() {
        postgres = ItPostgres.start();
        deployDriver();
        return memoryWar(
                        "jdbc-notifications-driver",
                        "idemkit.store=jdbc\nidemkit.jdbc.datasource=" + JNDI + "\n")
                .addAsWebInfResource(
                        new StringAsset(dataSource(postgres.getPort())), "idemkit-ds.xml");
    }

    /** The driver jar, deployed by WildFly's deployment scanner before the application. */
    private static void deployDriver() {
        try {
            Files.copy(
                    ItPostgres.driverJar(org.postgresql.Driver.class),
                    DEPLOYMENTS.resolve(DRIVER),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path deployed = DEPLOYMENTS.resolve(DRIVER + ".deployed");
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(deployed));
    }

    /** A data source on the deployed driver, not enlisted in JTA. */
    private static String dataSource(int port) {
        return "<datasources xmlns=\"http://www.jboss.org/ironjacamar/schema\">"
                + "<datasource jndi-name=\""
                + JNDI
                + "\" pool-name=\"IdemkitDeployedDriver\" jta=\"false\">"
                + "<connection-url>jdbc:postgresql://127.0.0.1:"
                + port
                + "/postgres</connection-url>"
                + "<driver>"
                + DRIVER
                + "</driver>"
                + "<security><user-name>postgres</user-name><password>postgres</password>"
                + "</security></datasource></datasources>";
    }

    /** Neither the warning that it cannot listen, nor a failure of its listener. */
    @AfterEach
    void nothingLoggedOfTheListener() throws IOException {
        Path log = WILDFLY.resolve("standalone/log/server.log");
        assertThat(Files.exists(log) ? Files.readString(log) : "")
                .doesNotContain("cannot listen for completions")
                .doesNotContain("PostgreSQL listener failed");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            // The scanner undeploys it once the application, which Arquillian undeploys next, is
            // gone; nothing else uses it.
            Files.deleteIfExists(DEPLOYMENTS.resolve(DRIVER));
        } finally {
            if (postgres != null) {
                postgres.close();
            }
        }
    }
}
