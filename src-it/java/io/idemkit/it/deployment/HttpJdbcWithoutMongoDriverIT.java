package io.idemkit.it.deployment;

import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On WildFly and Payara Micro, a WAR with the library jar alone in {@code WEB-INF/lib}, without the
 * MongoDB driver, deploys on {@code idemkit.store=jdbc} and replays (C8), through a data source the
 * application defines on a real PostgreSQL this test starts (as {@code HttpJdbcAppDataSourceIT}).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {WILDFLY, PAYARA},
        because =
                "MongoDriverAbsentIT proves it on Open Liberty, on a server-defined data source;"
                        + " an application data source there needs the jdbc-4.3 feature, which"
                        + " the shared IT server does not enable")
class HttpJdbcWithoutMongoDriverIT {

    private static EmbeddedPostgres postgres;

    @Deployment(testable = false)
    static WebArchive application() {
        postgres = ItPostgres.start();
        return ItPostgres.withAppDataSource(
                WithoutMongoDriver.war("jdbc-no-driver", ItPostgres.APP_STORE_CONFIG), postgres);
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @ArquillianResource URL base;

    @Test
    void jdbcStore_withoutTheMongoDriver_deploysAndReplays() throws Exception {
        WithoutMongoDriver.assertOnceThenReplayed(base.toURI());
    }
}
