package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.http.filterorder.ApiKeyFilter;
import io.idemkit.it.http.filterorder.FilterOrderApplication;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Secure by default (C6.10): an application whose API-key filter and access log are written the
 * usual way, without {@code @Priority}, and no idemkit configuration. idemkit's request filter runs
 * after both, so a caller without the API key who sends a victim's key gets the application's 401,
 * never the victim's result nor a 422 that tells it the key exists; and the access log sees a
 * duplicate answered from the store.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpFilterOrderIT {

    private static final String BODY = "{\"to\": \"acct-9\", \"amount\": 42}";

    @Deployment(testable = false)
    static WebArchive application() {
        WebArchive war =
                ShrinkWrap.create(WebArchive.class, "http-filter-order.war")
                        .addPackage(FilterOrderApplication.class.getPackage())
                        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                        .addAsResource(
                                new StringAsset("idemkit.store=memory\n"),
                                "META-INF/microprofile-config.properties");
        return LibraryJar.addTo(war);
    }

    @ArquillianResource URL base;

    private HttpCalls http;
    private String key;

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        key = "T-" + UUID.randomUUID();
    }

    @Test
    void byDefault_aCallerTheApplicationsFilterRejects_getsItsAnswer_neverTheStoredOne() {
        Reply victim = post(BODY, ApiKeyFilter.HEADER, ApiKeyFilter.KEY);
        Reply sameBody = post(BODY);
        Reply otherBody = post("{\"to\": \"acct-1\", \"amount\": 1}");
        int loggedBefore = logged();
        Reply victimsRetry = post(BODY, ApiKeyFilter.HEADER, ApiKeyFilter.KEY);
        int loggedRetry = logged() - loggedBefore;

        assertThat(victim.status()).as(victim.text()).isEqualTo(201);
        for (Reply attacker : new Reply[] {sameBody, otherBody}) {
            assertThat(attacker.status()).as(attacker.text()).isEqualTo(401);
            assertThat(attacker.text()).doesNotContain("transfer");
            assertThat(attacker.has("Idempotency-Replayed")).isFalse();
        }
        assertThat(victimsRetry.status()).as(victimsRetry.text()).isEqualTo(201);
        assertThat(victimsRetry.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(victimsRetry.text()).isEqualTo(victim.text());
        assertThat(runs()).isEqualTo(1);
        // The retry was answered from the store, and the access log, without @Priority, saw it.
        // (Of two filters of one priority either may run first: the attackers' POSTs may be
        // rejected before the log sees them.)
        assertThat(loggedRetry).as("the replayed retry, in the access log").isEqualTo(1);
    }

    private int runs() {
        return Integer.parseInt(
                http.get("api/transfers/runs", ApiKeyFilter.HEADER, ApiKeyFilter.KEY).text());
    }

    private int logged() {
        return Integer.parseInt(
                http.get("api/transfers/logged", ApiKeyFilter.HEADER, ApiKeyFilter.KEY).text());
    }

    private Reply post(String body, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Idempotency-Key";
        all[1] = key;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return http.postJson("api/transfers", body, all);
    }
}
