package io.idemkit.it.faults;

import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.faults.app.FaultsResource;
import io.idemkit.it.harness.FaultProxy;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.WebXml;
import io.idemkit.it.http.HttpScenarioSupport;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Store faults on WildFly (C4.6, C4.7, C13): {@link FaultScenarios} on the shared WildFly of the
 * execution, with data sources the applications define in their {@code web.xml} (WildFly's usual
 * way for an application of its own; the driver in {@code WEB-INF/lib}), the real PostgreSQL driver
 * and a real PostgreSQL this test starts.
 *
 * <p><b>The two nodes are two deployments of one application in one server</b>, {@code faults-a}
 * and {@code faults-b}: each has its own copy of the library (its own store instance, connection
 * pools, heartbeat threads and listener), and A's data sources (the store's and the JTA business
 * one) reach PostgreSQL through a {@link FaultProxy}, B's directly. They share a JVM, so a fault of
 * the JVM itself is not among what this shows; Open Liberty runs the same scenarios on two servers
 * ({@code TwoNodesIT.Faults}). Both data sources set the driver's {@code loginTimeout} to 2 s: the
 * store's network bound covers reads on an open connection, and a new connection's handshake with a
 * database that stopped answering waits as long as the driver allows, by default forever.
 *
 * <p>Only on WildFly: Liberty runs these on {@code TwoNodesIT}'s servers, and a third runtime would
 * add minutes of CI for the same library code paths.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = WILDFLY,
        because =
                "Open Liberty runs the fault scenarios on two servers (TwoNodesIT.Faults); one other"
                        + " runtime, WildFly, runs them on application-defined data sources")
class FaultsWildFlyIT extends FaultScenarios {

    private static final String DRIVER = "idemkit-it-faults-postgresql.jar";
    private static final Path DEPLOYMENTS =
            Path.of(System.getProperty("wildfly.home", "target/wildfly/wildfly-39.0.1.Final"))
                    .toAbsolutePath()
                    .resolve("standalone/deployments");

    private static EmbeddedPostgres postgres;
    private static FaultProxy proxy;

    @ArquillianResource
    @OperateOnDeployment("a")
    URL aBase;

    @ArquillianResource
    @OperateOnDeployment("b")
    URL bBase;

    @Deployment(name = "a", order = 1, testable = false)
    static WebArchive nodeA() {
        database();
        return war("faults-a", proxy.port());
    }

    @Deployment(name = "b", order = 2, testable = false)
    static WebArchive nodeB() {
        return war("faults-b", database().getPort());
    }

    @AfterAll
    static void stop() throws Exception {
        // The driver stays deployed: Arquillian undeploys the applications only after this, and
        // a driver removed first fails their data sources' services (an ERROR in the server log).
        if (proxy != null) {
            proxy.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Override
    protected Nodes nodes() throws Exception {
        return new Nodes(
                new HttpCalls(aBase.toURI()),
                new HttpCalls(bBase.toURI()),
                proxy,
                postgres.getPostgresDatabase());
    }

    /** The database and the proxy in front of it, started by the first deployment's method. */
    private static synchronized EmbeddedPostgres database() {
        if (postgres == null) {
            postgres = ItPostgres.start();
            try {
                ItPostgres.execute(
                        postgres.getPostgresDatabase(),
                        "CREATE TABLE fault_payments (id SERIAL PRIMARY KEY,"
                                + " pay_key TEXT NOT NULL, tag TEXT NOT NULL)");
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
            proxy = new FaultProxy("127.0.0.1", postgres.getPort());
            deployDriver();
        }
        return postgres;
    }

    /**
     * @param name the WAR's name, its context root on WildFly
     * @param port where its data sources reach PostgreSQL
     * @return the HTTP test application and the fault tests', on the JDBC store at {@code
     *     java:jboss/datasources/<name>-store} (not enlisted) with C13 on {@code
     *     java:jboss/datasources/<name>-business} (JTA), both on {@code port}, defined in the WAR's
     *     {@code WEB-INF/faults-ds.xml} on the driver deployed on its own
     */
    private static WebArchive war(String name, int port) {
        String store = "java:jboss/datasources/" + name + "-store";
        String business = "java:jboss/datasources/" + name + "-business";
        WebArchive war =
                HttpScenarioSupport.memoryWar(
                                name,
                                "idemkit.store=jdbc\nidemkit.jdbc.datasource="
                                        + store
                                        + "\nidemkit.jdbc.network-timeout="
                                        + System.getProperty(
                                                "idemkit.it.faults.network-timeout", "2s")
                                        + "\nidemkit.jdbc.transaction-datasource="
                                        + business
                                        + "\n")
                        .addPackage(FaultsResource.class.getPackage())
                        .addAsWebInfResource(
                                new StringAsset(
                                        "<datasources"
                                                + " xmlns=\"http://www.jboss.org/ironjacamar/schema\">"
                                                + dataSource(store, name + "-store", false, port)
                                                + dataSource(
                                                        business, name + "-business", true, port)
                                                + "</datasources>"),
                                "faults-ds.xml");
        return WebXml.add(
                war,
                "<resource-ref><res-ref-name>jdbc/business</res-ref-name>"
                        + "<res-type>javax.sql.DataSource</res-type>"
                        + "<lookup-name>"
                        + business
                        + "</lookup-name></resource-ref>");
    }

    /**
     * A data source on the deployed driver, with the driver's {@code loginTimeout} at 2 s and
     * PostgreSQL's exception sorter, so that the pool drops a connection the driver reports dead
     * (SQLState class 08) instead of handing it out again: without one, WildFly's pool keeps every
     * connection a stall or a cut killed, and the application never reaches the database again
     * until a restart, whatever the library does.
     */
    private static String dataSource(String jndi, String pool, boolean jta, int port) {
        return "<datasource jndi-name=\""
                + jndi
                + "\" pool-name=\""
                + pool
                + "\" jta=\""
                + jta
                + "\"><connection-url>jdbc:postgresql://127.0.0.1:"
                + port
                + "/postgres?loginTimeout=2</connection-url><driver>"
                + DRIVER
                + "</driver><security><user-name>postgres</user-name>"
                + "<password>postgres</password></security><validation>"
                + "<exception-sorter class-name=\"org.jboss.jca.adapters.jdbc.extensions.postgres"
                + ".PostgreSQLExceptionSorter\"/></validation></datasource>";
    }

    /** The driver jar, deployed by WildFly's deployment scanner before the applications. */
    private static void deployDriver() {
        // Copied only once per server: copying it again would redeploy it, and restart the data
        // sources of the applications being deployed now.
        if (!Files.exists(DEPLOYMENTS.resolve(DRIVER))) {
            try {
                Files.copy(
                        ItPostgres.driverJar(org.postgresql.Driver.class),
                        DEPLOYMENTS.resolve(DRIVER),
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Path deployed = DEPLOYMENTS.resolve(DRIVER + ".deployed");
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(deployed));
    }
}
