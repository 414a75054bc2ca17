package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;

import io.idemkit.it.harness.ItMariaDb;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.SharedLiberty;
import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The HTTP scenarios on MariaDB, on the Open Liberty server the JDBC tests share ({@link
 * SharedLiberty}), whose data source {@code jdbc/idemkit-mariadb} (Liberty's {@code jdbc-4.3}, not
 * enlisted in JTA) uses MariaDB's driver as a server library. The crash test kills a server of its
 * own, with the same data sources, the same features and the same application.
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the server-defined data sources of this test are Open Liberty's")
class HttpJdbcMariaDbLibertyIT extends HttpJdbcScenarios {

    private static final WebArchive WAR =
            scenarioWar("http-jdbc-mariadb", SharedLiberty.MARIADB_STORE_CONFIG);
    private static URI app;

    /**
     * The server {@link #crash_recovery_lease_expiry} kills: one of its own, with the shared one's
     * data sources and features and this application, started beside the other scenarios.
     */
    private static CompletableFuture<LibertyServer> killable;

    private static ItMariaDb mariaDb;

    @BeforeAll
    static void start() throws Exception {
        SharedLiberty shared = SharedLiberty.get();
        // The server has the MariaDB data sources once the MariaDB runs.
        mariaDb = shared.mariaDb();
        app = shared.deploy(WAR, "api/calls/probe", "");
        killable =
                SharedLiberty.startInBackground(
                        "idemkit-http-mariadb",
                        WAR,
                        shared.mariaDbDataSources() + SharedLiberty.IT_SECURITY,
                        "api/calls/probe");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (killable != null) {
                // Killed and restarted by the crash test already: its stop proves nothing more.
                killable.join().discard();
            }
        } finally {
            if (app != null) {
                SharedLiberty.get().undeploy(WAR);
            }
        }
    }

    /** The scenarios' client goes to the shared server, not to one Arquillian deployed to. */
    HttpJdbcMariaDbLibertyIT() throws Exception {
        base = app.toURL();
    }

    @Override
    long serverLog(String marker) throws IOException {
        return shared().server().messagesLog().lines().filter(l -> l.contains(marker)).count();
    }

    @Override
    Connection database() throws SQLException {
        return DriverManager.getConnection(mariaDb.url(), ItMariaDb.USER, "");
    }

    @Override
    ServerToKill serverToKill() {
        return new ServerToKill(killable.join(), WAR);
    }

    private static SharedLiberty shared() {
        try {
            return SharedLiberty.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
