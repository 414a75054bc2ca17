package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.OnRuntimes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lease rule of message listeners reads Payara's transaction timeout (C11.4): none by default,
 * so a wait that the 120s assumption would refuse deploys, and the library says where the value
 * came from. Open Liberty's reading is proven by {@code MessageMemoryStoreIT}, WildFly's by {@code
 * MessageServerTimeoutIT}.
 */
@OnRuntimes(
        value = PAYARA,
        because =
                "reads Payara's own transaction manager; the other runtimes' readings have tests of"
                        + " their own")
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MessagePayaraTimeoutIT {

    @Deployment(testable = false)
    static WebArchive application() {
        return MessageServerTimeoutIT.listener("message-payara-timeout", "150s");
    }

    @Test
    void aServerWithoutATransactionTimeout_acceptsAWaitThe120sAssumptionWouldRefuse()
            throws Exception {
        // Deployed, so nothing refused it; the log says which timeout the rule used.
        assertThat(Files.readString(Path.of(System.getProperty("idemkit.it.server-log"))))
                .contains(
                        "idemkit holds the leases of message-driven beans to Payara's transaction"
                                + " timeout, none, read from the server")
                .doesNotContain("cannot read this server's JTA transaction timeout");
    }
}
