package io.idemkit.it.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.WebXml;
import io.idemkit.it.method.callers.CallersApplication;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two real users of the runtime's user registry (src-it/liberty, src-it/wildfly, src-it/payara)
 * call an {@code @Idempotent} CDI method whose key is derived from its arguments, with the same
 * arguments (C5): each gets a booking of their own, and each one's retry replays their own. The
 * caller reaches the library only through CDI's built-in {@code Principal}; the resource in front
 * is not idempotent. Run with each scope configuration a subclass deploys.
 */
abstract class MethodCallersContract {

    @ArquillianResource URL base;

    private HttpCalls http;
    private String flight;

    /**
     * @param name the WAR's name
     * @param config the WAR's MicroProfile Config properties
     * @return the application, behind BASIC authentication
     */
    static WebArchive application(String name, String config) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(CallersApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset("idemkit.store=memory\n" + config),
                                "META-INF/microprofile-config.properties")
                        .setWebXML(new StringAsset(WebXml.document(WebXml.BASIC_ON_SECURE))));
    }

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        flight = "F-" + UUID.randomUUID();
    }

    @Test
    void twoUsersWithTheSameArguments_eachGetTheirOwnBooking_andTheirOwnReplay() {
        Reply alice = book("tenant-A");
        Reply bob = book("tenant-B");
        Reply aliceAgain = book("tenant-A");
        Reply bobAgain = book("tenant-B");

        assertThat(alice.status()).as(alice.text()).isEqualTo(200);
        assertThat(alice.text()).contains("\"bookedFor\":\"tenant-A\"", "\"run\":");
        assertThat(bob.status()).as(bob.text()).isEqualTo(200);
        assertThat(bob.text()).contains("\"bookedFor\":\"tenant-B\"");
        assertThat(aliceAgain.text()).isEqualTo(alice.text());
        assertThat(bobAgain.text()).isEqualTo(bob.text());
        assertThat(runOf(bob)).isEqualTo(runOf(alice) + 1);
    }

    @Test
    void anonymousCallers_areNeverGivenAnAuthenticatedCallersBooking() {
        Reply alice = book("tenant-A");
        Reply anonymous = http.postJson(openPath(), "");

        assertThat(anonymous.text()).doesNotContain("tenant-A");
        assertThat(alice.text()).contains("tenant-A");
    }

    String openPath() {
        return "api/open/bookings?flight=" + flight + "&seat=12A";
    }

    Reply bookAnonymously() {
        return http.postJson(openPath(), "");
    }

    private Reply book(String user) {
        return http.postJson(
                "api/secure/bookings?flight=" + flight + "&seat=12A",
                "",
                "Authorization",
                WebXml.basicAuthorization(user));
    }

    private static int runOf(Reply reply) {
        String text = reply.text();
        int at = text.indexOf("\"run\":") + "\"run\":".length();
        return Integer.parseInt(text.substring(at, text.indexOf(',', at)));
    }
}
