package io.idemkit.it.method;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;

import io.idemkit.it.harness.ItMariaDb;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.SharedLiberty;
import java.net.URI;
import java.sql.DriverManager;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The method surface on the JDBC store on a real MariaDB 11.4 (C7, C12), on the Open Liberty server
 * the JDBC tests share ({@link SharedLiberty}), whose data source {@code jdbc/idemkit-mariadb} uses
 * MariaDB's driver as a server library.
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the server-defined data sources of this test are Open Liberty's")
class JdbcMariaDbMethodSurfaceIT extends MethodSurfaceContract {

    private static final WebArchive WAR =
            JdbcMethodSurfaceIT.war("method-mariadb", SharedLiberty.MARIADB_STORE_CONFIG);
    private static URI app;

    @BeforeAll
    static void start() throws Exception {
        SharedLiberty shared = SharedLiberty.get();
        // The server has the MariaDB data sources once the MariaDB runs.
        shared.mariaDb();
        app = shared.deploy(WAR, "api/method/store", "");
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            SharedLiberty.get().undeploy(WAR);
        }
    }

    /** The contract's client goes to the shared server, not to one Arquillian deployed to. */
    JdbcMariaDbMethodSurfaceIT() throws Exception {
        base = app.toURL();
    }

    @Override
    String expectedStore() {
        return "jdbc";
    }

    /** On a server with two databases' data sources: the records go to this class's database. */
    @Test
    void theRecordsAreRowsOfThisDatabasesTable() throws Exception {
        String url = SharedLiberty.get().mariaDb().url();
        JdbcMethodSurfaceIT.aCallAddsARow(
                app, () -> DriverManager.getConnection(url, ItMariaDb.USER, ""));
    }
}
