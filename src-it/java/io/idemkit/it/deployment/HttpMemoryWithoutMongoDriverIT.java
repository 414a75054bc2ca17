package io.idemkit.it.deployment;

import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On each runtime of the suite, a WAR with the library jar alone in {@code WEB-INF/lib}, without
 * the MongoDB driver, deploys on {@code idemkit.store=memory} and replays (C8). {@code
 * MongoDriverAbsentIT} adds the JDBC store and the refused MongoDB store on Open Liberty.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpMemoryWithoutMongoDriverIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return WithoutMongoDriver.war("memory-no-driver", "idemkit.store=memory\n");
    }

    @ArquillianResource URL base;

    @Test
    void memoryStore_withoutTheMongoDriver_deploysAndReplays() throws Exception {
        WithoutMongoDriver.assertOnceThenReplayed(base.toURI());
    }
}
