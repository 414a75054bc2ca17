package io.idemkit.it;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/** The HTTP scenarios on the in-memory store (C6, C10). */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpMemoryStoreIT extends HttpScenarios {

    @Deployment(testable = false)
    static WebArchive application() {
        return war("http-memory", "idemkit.store=memory\n");
    }
}
