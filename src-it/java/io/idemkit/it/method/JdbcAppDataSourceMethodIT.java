package io.idemkit.it.method;

import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.method.app.MethodApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The method surface on the JDBC store (C7, C12) on WildFly and Payara Micro, through a data source
 * the application defines in its {@code web.xml}, on a real PostgreSQL this test starts; Open
 * Liberty runs the same contract on its server-defined data source ({@code JdbcMethodSurfaceIT}).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {WILDFLY, PAYARA},
        because =
                "Open Liberty runs this contract on its server-defined data source"
                        + " (JdbcMethodSurfaceIT)")
class JdbcAppDataSourceMethodIT extends MethodSurfaceContract {

    private static EmbeddedPostgres postgres;

    @Deployment(testable = false)
    static WebArchive application() {
        postgres = ItPostgres.start();
        return ItPostgres.withAppDataSource(
                LibraryJar.addTo(
                        ShrinkWrap.create(WebArchive.class, "method-jdbc-app.war")
                                .addPackage(MethodApplication.class.getPackage())
                                .addAsResource(
                                        new StringAsset(
                                                ItPostgres.APP_STORE_CONFIG
                                                        + "idemkit.scope-mode=single-tenant\n"),
                                        "META-INF/microprofile-config.properties")),
                postgres);
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Override
    String expectedStore() {
        return "jdbc";
    }
}
