package io.idemkit.it.client;

import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;

import io.idemkit.it.harness.OnRuntimes;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ClientRestClientScenarios} on the runtime Arquillian manages. Open Liberty's runs them on
 * a server of their own, with the MicroProfile features: {@code ClientMicroProfileLibertyIT}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {WILDFLY, PAYARA},
        because =
                "the Open Liberty IT servers have no mpRestClient feature (their feature lists are"
                        + " shared by every IT): ClientMicroProfileLibertyIT runs these scenarios"
                        + " on a Liberty server of its own that has it")
class ClientRestClientIT extends ClientRestClientScenarios {

    @Deployment(testable = false)
    static WebArchive application() {
        return restWar("client-rest", war -> war, "");
    }
}
