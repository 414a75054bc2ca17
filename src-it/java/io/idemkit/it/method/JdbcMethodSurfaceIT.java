package io.idemkit.it.method;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.SharedLiberty;
import io.idemkit.it.method.app.MethodApplication;
import java.net.URI;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The method surface on the JDBC store (C7, C12), on the Open Liberty server the JDBC tests share
 * ({@link SharedLiberty}), whose data source {@code jdbc/idemkit} reaches a real PostgreSQL.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason = "the server-defined data sources of this test are Open Liberty's")
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
}
