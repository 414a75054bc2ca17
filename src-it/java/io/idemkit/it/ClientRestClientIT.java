package io.idemkit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.client.ChargesResource;
import io.idemkit.it.client.ClientApplication;
import io.idemkit.it.restclient.RestCheckout;
import jakarta.json.JsonObject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client half through a MicroProfile Rest Client (C14.4, C14.5): the feature registered with
 * {@code @RegisterProvider}, a method that returns an entity, so that a 503 arrives as a {@code
 * WebApplicationException} and a replay is seen only through {@code RetryOutcome}.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@DisabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason =
                "the Open Liberty IT servers have no mpRestClient feature (their feature lists are"
                        + " shared by every IT); WildFly's microprofile profile and Payara Micro"
                        + " have a Rest Client")
class ClientRestClientIT extends ClientItSupport {

    @Deployment(testable = false)
    static WebArchive application() {
        return war(
                "client-rest",
                war ->
                        war.addClasses(ClientApplication.class, ChargesResource.class)
                                .addPackage(RestCheckout.class.getPackage()));
    }

    @Test
    void a503_thrownAsAnException_isRetried_withTheSameKey() {
        JsonObject result = drive("rest-drive/flaky");

        assertThat(result.getInt("status")).isEqualTo(200);
        assertThat(result.getInt("attempts")).isEqualTo(2);
        assertThat(runs("flaky")).isEqualTo(2);
    }

    @Test
    void aReadTimeout_isRetried_andTheReplayIsReported() {
        JsonObject result = drive("rest-drive/slow");

        assertThat(result.getInt("status")).isEqualTo(200);
        assertThat(result.getBoolean("replayed")).isTrue();
        assertThat(runs("slow")).isEqualTo(1);
    }

    @Test
    void a422_reachesTheCaller_unretried() {
        JsonObject result = drive("rest-drive/refused");

        assertThat(result.getInt("status")).isEqualTo(422);
        assertThat(runs("refused")).isEqualTo(1);
    }
}
