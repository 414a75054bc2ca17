package io.idemkit.it.method;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.SharedLiberty;
import io.idemkit.it.method.app.MethodApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The method surface on the JDBC store (C7, C12), on the Open Liberty server the JDBC tests share
 * ({@link SharedLiberty}), whose data source {@code jdbc/idemkit} reaches a real PostgreSQL.
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the server-defined data sources of this test are Open Liberty's")
class JdbcMethodSurfaceIT extends MethodSurfaceContract {

    private static final WebArchive WAR = war("method-jdbc", ItPostgres.STORE_CONFIG);
    private static URI app;

    @BeforeAll
    static void start() throws Exception {
        app = SharedLiberty.get().deploy(WAR, "api/method/store", "");
    }

    /**
     * @param name the WAR's name
     * @param storeConfig the JDBC store's settings, its data source among them
     * @return the method surface's test application on that store
     */
    static WebArchive war(String name, String storeConfig) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(MethodApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(storeConfig + "idemkit.scope-mode=single-tenant\n"),
                                "META-INF/microprofile-config.properties"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            SharedLiberty.get().undeploy(WAR);
        }
    }

    /** The contract's client goes to the shared server, not to one Arquillian deployed to. */
    JdbcMethodSurfaceIT() throws Exception {
        base = app.toURL();
    }

    @Override
    String expectedStore() {
        return "jdbc";
    }

    /** On a server with two databases' data sources: the records go to this class's database. */
    @Test
    void theRecordsAreRowsOfThisDatabasesTable() throws Exception {
        aCallAddsARow(
                app, () -> SharedLiberty.get().postgres().getPostgresDatabase().getConnection());
    }

    /**
     * Calls an {@code @Idempotent} stateless EJB of the application once, with a new key, and
     * checks that the table {@code idemkit_records} of {@code database} has more rows afterwards.
     */
    static void aCallAddsARow(URI app, Callable<Connection> database) throws Exception {
        long before = rows(database);
        HttpResponse<String> reply =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                app.resolve(
                                                        "api/method/stateless/book?key="
                                                                + UUID.randomUUID()))
                                        .POST(HttpRequest.BodyPublishers.noBody())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());

        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        assertThat(rows(database)).isGreaterThan(before);
    }

    private static long rows(Callable<Connection> database) throws Exception {
        try (Connection c = database.call();
                Statement s = c.createStatement();
                ResultSet count = s.executeQuery("SELECT COUNT(*) FROM idemkit_records")) {
            count.next();
            return count.getLong(1);
        }
    }
}
