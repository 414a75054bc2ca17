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
 * The HTTP scenarios on the in-memory store (C6, C10). The reference's {@code
 * crash-recovery-lease-expiry} does not apply here: the store lives in the server's process, and a
 * real crash takes it, claim included, with it (the conformance page's table says so). What a claim
 * left unended does here is {@link #abandonedClaim_isReclaimedAfterItsLease}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpMemoryStoreIT extends HttpScenarios {

    @Deployment(testable = false)
    static WebArchive application() {
        return scenarioWar("http-memory", "idemkit.store=memory\n");
    }

    @Test
    void withoutTheHttpHeartbeat_aDuplicateTakesOverALeaseTheRequestOutlived() throws Exception {
        Reply[] replies = duplicateOfARequestThatOutlivesItsLease();

        assertThat(replies[0].status()).isEqualTo(201);
        assertThat(replies[1].status()).isEqualTo(201);
        assertThat(calls()).isEqualTo(2);
    }

    @Test
    void abandonedClaim_isReclaimedAfterItsLease() throws Exception {
        stagedCrashRecovery();
    }
}
