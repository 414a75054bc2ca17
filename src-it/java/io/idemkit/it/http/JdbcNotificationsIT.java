package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The wake-ups on PostgreSQL in WildFly's and Payara Micro's pools, through a data source the
 * application defines in its {@code web.xml} with the driver in {@code WEB-INF/lib}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {WILDFLY, PAYARA},
        because =
                "Open Liberty runs these scenarios on its server-defined data source"
                        + " (JdbcNotificationsLibertyIT)")
class JdbcNotificationsIT extends JdbcNotificationsScenarios {

    private static EmbeddedPostgres postgres;

    @Deployment(testable = false)
    static WebArchive application() {
        postgres = ItPostgres.start();
        return ItPostgres.withAppDataSource(
                memoryWar("jdbc-notifications", ItPostgres.APP_STORE_CONFIG), postgres);
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }
}
