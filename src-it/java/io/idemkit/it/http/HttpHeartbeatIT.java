package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code idemkit.http.heartbeat=true} renews the lease of a request that outlives it (C4.7), so a
 * duplicate cannot take the key over while the first still runs. {@code HttpMemoryStoreIT} runs the
 * same requests without it, and there the duplicate takes over.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpHeartbeatIT extends HttpScenarios {

    @Deployment(testable = false)
    static WebArchive application() {
        return scenarioWar("http-heartbeat", "idemkit.store=memory\nidemkit.http.heartbeat=true\n");
    }

    @Test
    void withTheHttpHeartbeat_theLeaseOfARequestThatOutlivesItIsRenewed() throws Exception {
        Reply[] replies = duplicateOfARequestThatOutlivesItsLease();
        Reply after = post("api/resources/short-lease/outlived", BODY_X, key("O"), DELAY, "0");

        assertThat(replies[0].status()).isEqualTo(423);
        assertThat(replies[1].status()).isEqualTo(201);
        assertThat(after.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls()).isEqualTo(1);
    }
}
