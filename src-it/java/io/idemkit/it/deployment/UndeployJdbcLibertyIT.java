package io.idemkit.it.deployment;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link UndeployLeavesNothingIT}'s JDBC store case on Open Liberty, whose application data sources
 * need the {@code jdbc-4.3} feature that the shared IT server leaves out: a server of its own with
 * a server-defined data source on PostgreSQL, the application on it in the dropins folder beside
 * the anchor, undeployed by removing its file. Its purge ({@code idemkit.jdbc.purge-interval}) runs
 * on Liberty's default managed scheduler ({@code concurrent-3.0}), deletes an expired row and stops
 * at the undeployment; no thread of the library is left, and the application's class loader can be
 * collected (C12, C15.1). The application does not see the driver's classes, so the store polls and
 * no PostgreSQL listener runs here (the other runtimes' case has one).
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "the server-defined data source is Open Liberty's; UndeployLeavesNothingIT runs"
                        + " this case on the other runtimes' shared server")
class UndeployJdbcLibertyIT {

    private static final WebArchive JDBC =
            UndeployProbe.removable(
                    "undeploy-jdbc", ItPostgres.STORE_CONFIG + UndeployProbe.JDBC_SETTINGS);
    private static final WebArchive ANCHOR = UndeployProbe.anchor();

    private static EmbeddedPostgres postgres;
    private static LibertyServer liberty;

    @BeforeAll
    static void start() throws Exception {
        postgres = ItPostgres.start();
        // servlet-6.0 makes the Servlet API visible to the application, as most applications
        // have it, so that its HTTP heartbeat runs (idemkit.http.heartbeat renews only where it
        // sees each request end) and its thread is seen to stop at the undeployment too.
        liberty =
                new LibertyServer(
                        "idemkit-undeploy-jdbc",
                        JDBC,
                        ItPostgres.libertyDataSources(postgres)
                                + "<featureManager><feature>servlet-6.0</feature>"
                                + "</featureManager>\n");
        liberty.addApplication(ANCHOR);
        // As on the shared IT server (arquillian.xml): soft references cleared at each collection.
        liberty.addJvmOption("-XX:SoftRefLRUPolicyMSPerMB=0");
        // The start's probe is the anchor's: it asks over HTTP/2, and Liberty's connection
        // upgraded to it (h2c), which the probe's client keeps open, holds the application that
        // answered it, which could then not be collected. The JDBC store's application is asked
        // over HTTP/1.1 alone.
        liberty.start(liberty.application(ANCHOR).resolve("api/pid"));
        HttpCalls app = new HttpCalls(liberty.application(JDBC));
        Awaitility.await("the JDBC store's application started")
                .atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> app.get("api/calls/probe").status() == 200);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (liberty != null) {
                liberty.close();
            }
        } finally {
            if (postgres != null) {
                postgres.close();
            }
        }
    }

    @Test
    void theJdbcStoresApplication_leavesNothing_andItsPurgeRunsOnTheManagedScheduler()
            throws Exception {
        new UndeployProbe(liberty.application(ANCHOR))
                .assertJdbcApplicationLeavesNothing(
                        "undeploy-jdbc",
                        postgres.getPostgresDatabase(),
                        List.of("idemkit-lease-heartbeat"),
                        () -> liberty.removeApplication(JDBC));
    }
}
