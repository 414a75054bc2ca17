package io.idemkit.it.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.http.HttpScenarioSupport;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * A server of the test's own whose HTTP port another program took after {@link TestPorts} checked
 * it (a squatter binds it just before the start) is started once more on new ports, on the
 * execution's runtime, and its application answers there.
 */
class OwnServerPortTakenIT {

    @Test
    void aServerWhosePortWasTakenAfterTheCheck_startsOnceMoreOnNewPorts() throws Exception {
        WebArchive war = HttpScenarioSupport.memoryWar("port-taken", "");
        try (OwnServer server = OwnServer.of("idemkit-port-taken", war)) {
            URI planned = server.application(war);
            try (ServerSocket squatter =
                    new ServerSocket(planned.getPort(), 1, InetAddress.getLoopbackAddress())) {
                server.start(planned.resolve("api/calls/probe"));
            }
            URI moved = server.application(war);

            assertThat(moved.getPort()).isNotEqualTo(planned.getPort());
            assertThat(
                            HttpClient.newHttpClient()
                                    .send(
                                            HttpRequest.newBuilder(moved.resolve("api/calls/probe"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.discarding())
                                    .statusCode())
                    .isEqualTo(200);
        }
    }
}
