package io.idemkit.it.method;

import io.idemkit.it.harness.DatabaseOnLiberty;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.method.app.MethodApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The method surface on the JDBC store (C7, C12), on an Open Liberty server of the test's own whose
 * data source {@code jdbc/idemkit} reaches a real PostgreSQL that this test starts.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the server-defined data sources of this test are Open Liberty's")
class JdbcMethodSurfaceIT extends MethodSurfaceContract {

    private static DatabaseOnLiberty<EmbeddedPostgres> liberty;

    @BeforeAll
    static void start() throws Exception {
        liberty =
                ItPostgres.onLiberty(
                        "idemkit-method-jdbc", war("method-jdbc"), "", "api/method/store");
    }

    /**
     * @param name the WAR's name
     * @return the method surface's test application on the JDBC store's data source {@code
     *     jdbc/idemkit}
     */
    static WebArchive war(String name) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(MethodApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        ItPostgres.STORE_CONFIG
                                                + "idemkit.scope-mode=single-tenant\n"),
                                "META-INF/microprofile-config.properties"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (liberty != null) {
            liberty.close();
        }
    }

    /** The contract's client goes to this test's server, not to one Arquillian deployed to. */
    JdbcMethodSurfaceIT() throws Exception {
        base = liberty.app().toURL();
    }

    @Override
    String expectedStore() {
        return "jdbc";
    }
}
